/* SPDX-License-Identifier: BSD-3-Clause */
/* configs_kind.h for the nccl backend: NCCL_* environment variables, set
 * (setenv/unsetenv) on every rank around the backend's open(), whose
 * ncclCommInitRank makes the configuration's communicator, and restored
 * right after it.
 *
 * What NCCL 2.28 reads per communicator, and what once per process (the
 * sources, tag v2.28.9-1):
 *   - NCCL_ALGO and NCCL_PROTO: ncclGetEnv in ncclTopoTuneModel
 *     (src/graph/tuning.cc:419 and :424), which every communicator's init
 *     calls (src/init.cc:1356).  Per communicator.
 *   - The tuner plugin's init runs per communicator (src/init.cc:1354), and
 *     colltune's plugin reads its rules file, NCCL_TUNER_CONFIG_FILE
 *     (tuner/plugin/context.h), there.  Per communicator.  Which plugin is
 *     loaded (NCCL_TUNER_PLUGIN, src/plugin/tuner.cc:56) is decided once.
 *   - Variables declared with NCCL_PARAM (src/include/param.h:19: a static
 *     cache, filled at the first read) are read once per process: among
 *     them NCCL_MIN_CTAS/NCCL_MAX_CTAS (src/init.cc:1415-1416, read at every
 *     init through that cache, :1661 and :1672), NCCL_MIN_NCHANNELS/
 *     NCCL_MAX_NCHANNELS (src/graph/connect.cc:325-326), NCCL_BUFFSIZE
 *     (src/init.cc:700), NCCL_NTHREADS (src/graph/tuning.cc:13),
 *     NCCL_NVLS_ENABLE, NCCL_IB_QPS_PER_CONNECTION, NCCL_SOCKET_NTHREADS.
 *     NCCL_P2P_LEVEL and NCCL_NET_GDR_LEVEL are cached in statics as well
 *     (src/graph/paths.cc:257-263, :412).  Configuration 0's communicator
 *     is made first, so its values stay for every configuration.
 *   - NCCL_CONF_FILE, ~/.nccl.conf and /etc/nccl.conf are read once
 *     (src/misc/param.cc:71, initEnv) and put into the environment with
 *     setenv(..., 0): configs.c therefore reads the start-up values again
 *     after configuration 0's open(), once NCCL has done so.
 * The note below names every setting outside the first two groups. */
#include "configs_kind.h"
#include "ct_library.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The names NCCL 2.28 (and colltune's tuner plugin) read again for every
 * communicator; see the comment above. */
static const char *const ct_configs_env_per_comm[] = {
    "NCCL_ALGO", "NCCL_PROTO",
    "NCCL_TUNER_CONFIG_FILE", /* tuner/plugin/context.h: CT_PLUGIN_CONFIG_ENV */
};

static int ct_configs_env_is_per_comm(const char *name)
{
    for (size_t i = 0; i < sizeof ct_configs_env_per_comm / sizeof ct_configs_env_per_comm[0]; i++)
        if (strcmp(name, ct_configs_env_per_comm[i]) == 0)
            return 1;
    return 0;
}

/* NCCL_ and then [A-Z0-9_]: NCCL's own variables and the tuner plugin's
 * (NCCL_TUNER_CONFIG_FILE).  Anything else would change the environment
 * of something other than NCCL. */
static ct_status_t ct_configs_env_check(const char *name, const char *value, char *err,
                                        size_t errlen)
{
    size_t pre = strlen("NCCL_");
    if (ct_library_env_is(CT_LIB_NCCL, name) && name[pre] != '\0' &&
        strspn(name + pre, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == strlen(name + pre))
        return CT_OK;
    snprintf(err, errlen,
             "--config '%s=%s': %s is not an NCCL environment variable (the nccl backend's "
             "configurations set NCCL_[A-Z0-9_]*, the tuner plugin's rules file included)",
             name, value, name);
    return CT_ERR_USAGE;
}

static void ct_configs_env_get(const char *name, ct_cvar_t *c)
{
    const char *v = getenv(name);
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    snprintf(c->value, sizeof c->value, "%s", v ? v : "");
    c->kind = CT_CVAR_STRING;
    c->unset = v == NULL;
}

static ct_status_t ct_configs_env_probe(const char *name, const char *value, ct_cvar_t *startup,
                                        char *err, size_t errlen)
{
    ct_status_t st = ct_configs_env_check(name, value, err, errlen);
    if (st == CT_OK)
        ct_configs_env_get(name, startup);
    return st;
}

static ct_status_t ct_configs_env_write(const char *name, const char *value, char *err,
                                        size_t errlen)
{
    int rc = value ? setenv(name, value, 1) : unsetenv(name);
    if (rc == 0)
        return CT_OK;
    snprintf(err, errlen, "--config %s: %s failed: %s", name, value ? "setenv" : "unsetenv",
             strerror(errno));
    return CT_ERR_BACKEND;
}

static ct_status_t ct_configs_env_read(const char *list, ct_cvars_t *out, char *err, size_t errlen)
{
    out->n = 0;
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        char name[sizeof out->v[0].name];
        if (out->n == CT_CVARS_MAX || len == 0 || len >= sizeof name) {
            snprintf(err, errlen, "--config: cannot read the environment variables %s", list);
            return CT_ERR_BACKEND;
        }
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        ct_configs_env_get(name, &out->v[out->n++]);
        p += len;
        if (*p == ',')
            p++;
    }
    return CT_OK;
}

/* Every setting NCCL is not known to read per communicator, once. */
static void ct_configs_env_note(const ct_options_t *opts)
{
    char names[512] = "";
    size_t used = 0;
    if (opts->quiet)
        return;
    for (int k = 0; k < opts->nconfigs; k++)
        for (int i = 0; i < opts->configs[k].n; i++) {
            const char *n = opts->configs[k].s[i].name;
            size_t len = strlen(n);
            const char *seen = strstr(names, n);
            if (ct_configs_env_is_per_comm(n) || (seen && (seen[len] == '\0' || seen[len] == ',') &&
                                                  (seen == names || seen[-1] == ',')))
                continue;
            int w = snprintf(names + used, sizeof names - used, "%s%s", used ? "," : "", n);
            if (w < 0 || (size_t)w >= sizeof names - used)
                break;
            used += (size_t)w;
        }
    if (used == 0)
        return;
    fprintf(stderr,
            "collbench: note: --config sets %s, which NCCL 2.28 reads once per process "
            "(NCCL_PARAM) or is not known to read per communicator: configuration 0's value "
            "then holds for every configuration; only NCCL_ALGO, NCCL_PROTO and "
            "NCCL_TUNER_CONFIG_FILE are read again for each communicator (give the others at "
            "launch, one launch each)\n",
            names);
}

const ct_configs_kind_t ct_configs_env = {
    .what = "NCCL_* environment variables",
    .record = "environment",
    .scoped = 0,
    .at_open = 1,
    .check = ct_configs_env_check,
    .probe = ct_configs_env_probe,
    .write = ct_configs_env_write,
    .read = ct_configs_env_read,
    .note = ct_configs_env_note,
};
