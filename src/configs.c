/* configs.h: the checks, the communicators and their ids. */
#include "configs.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_hash.h"
#include "ct_vec.h"

/* The start-up entry of name, or NULL. */
static const ct_cvar_t *ct_configs_startup(const ct_configs_t *c, const char *name)
{
    for (size_t i = 0; i < c->startup.n; i++)
        if (strcmp(c->startup.v[i].name, name) == 0)
            return &c->startup.v[i];
    return NULL;
}

/* Probes every setting on this rank, adding each new name's start-up
 * value to c->startup. */
static ct_status_t ct_configs_probe(ct_configs_t *c, const ct_options_t *opts, char *err,
                                    size_t errlen)
{
    for (int k = 0; k < opts->nconfigs; k++)
        for (int i = 0; i < opts->configs[k].n; i++) {
            const ct_setting_t *s = &opts->configs[k].s[i];
            ct_cvar_t probed;
            ct_status_t st = ct_cvars_probe(s->name, s->value, &probed, err, errlen);
            if (st != CT_OK)
                return st;
            if (ct_configs_startup(c, s->name))
                continue;
            if (c->startup.n == CT_CVARS_MAX) {
                snprintf(err, errlen, "--config: more than %d distinct names", CT_CVARS_MAX);
                return CT_ERR_USAGE;
            }
            c->startup.v[c->startup.n++] = probed;
        }
    return CT_OK;
}

/* Every rank's verdict: the lowest failing rank prints its message. */
static ct_status_t ct_configs_agree(ct_world_t *world, ct_status_t st, const char *err)
{
    long long first = st != CT_OK ? ct_world_rank(world) : ct_world_size(world);
    long long worst = st;
    ct_world_allreduce_long(world, &first, 1, CT_REDUCE_MIN);
    ct_world_allreduce_long(world, &worst, 1, CT_REDUCE_MIN);
    if (first == ct_world_rank(world))
        fprintf(stderr, "collbench: error: %s%s\n", err, first ? " (on a rank other than 0)" : "");
    return (ct_status_t)worst;
}

/* The value configuration cfg gives name (its own, or the start-up one). */
static const char *ct_configs_value(const ct_config_t *cfg, const ct_cvar_t *startup)
{
    for (int i = 0; cfg && i < cfg->n; i++)
        if (strcmp(cfg->s[i].name, startup->name) == 0)
            return cfg->s[i].value;
    return startup->value;
}

/* Writes every named variable to cfg's value (NULL: the start-up ones). */
static ct_status_t ct_configs_write(const ct_configs_t *c, const ct_config_t *cfg, char *err,
                                    size_t errlen)
{
    for (size_t i = 0; i < c->startup.n; i++) {
        ct_status_t st = ct_cvars_write(c->startup.v[i].name,
                                        ct_configs_value(cfg, &c->startup.v[i]), err, errlen);
        if (st != CT_OK)
            return st;
    }
    return CT_OK;
}

/* The settings' names, comma-separated, for ct_cvars_read. */
static void ct_configs_names(const ct_configs_t *c, char *buf, size_t buflen)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < c->startup.n && used < buflen; i++) {
        int k = snprintf(buf + used, buflen - used, "%s%s", i ? "," : "", c->startup.v[i].name);
        used += k > 0 ? (size_t)k : 0;
    }
}

static int ct_configs_cmp(const void *a, const void *b)
{
    return strcmp(((const ct_setting_t *)a)->name, ((const ct_setting_t *)b)->name);
}

/* The run's id, then the settings sorted by name: one id whatever their
 * order on the command line. */
static void ct_configs_id(const char *run_config_id, const ct_config_t *cfg, char *buf,
                          size_t buflen)
{
    ct_config_t sorted = *cfg;
    uint64_t h = ct_hash_string(CT_HASH_INIT, run_config_id);
    ct_vec_sort(sorted.s, (size_t)sorted.n, sizeof sorted.s[0], ct_configs_cmp);
    for (int i = 0; i < sorted.n; i++) {
        h = ct_hash_string(h, "\n");
        h = ct_hash_string(h, sorted.s[i].name);
        h = ct_hash_string(h, "=");
        h = ct_hash_string(h, sorted.s[i].value);
    }
    snprintf(buf, buflen, "%016" PRIx64, h);
}

static void ct_configs_label(const ct_config_t *cfg, char *buf, size_t buflen)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < cfg->n && used < buflen; i++) {
        int k = snprintf(buf + used, buflen - used, "%s%s=%s", i ? "," : "", cfg->s[i].name,
                         cfg->s[i].value);
        used += k > 0 ? (size_t)k : 0;
    }
}

/* Configuration k >= 1: its values written, a duplicate of world, and what
 * MPI_T reads back then. */
static ct_status_t ct_configs_make(ct_world_t *world, ct_configs_t *c, int k,
                                   const ct_options_t *opts, const char *run_config_id, char *err,
                                   size_t errlen)
{
    ct_config_run_t *r = &c->v[k];
    char names[CT_CVARS_MAX * 96];

    r->index = k;
    r->config = &opts->configs[k - 1];
    ct_configs_id(run_config_id, r->config, r->config_id, sizeof r->config_id);
    ct_configs_label(r->config, r->label, sizeof r->label);
    ct_status_t st = ct_configs_write(c, r->config, err, errlen);
    if (st == CT_OK) {
        ct_configs_names(c, names, sizeof names);
        st = ct_cvars_read(names, &r->cvars, err, errlen);
    }
    /* Collective whatever this rank's verdict: the others are in it. */
    ct_status_t dst = ct_world_dup(world, &r->world);
    return st != CT_OK ? st : dst;
}

/* Writes the start-up values back and reads them again: a communicator
 * made later (by collbench or the library) gets what it would have. */
static ct_status_t ct_configs_restore(const ct_configs_t *c, char *err, size_t errlen)
{
    char names[CT_CVARS_MAX * 96];
    ct_cvars_t now;
    ct_status_t st = ct_configs_write(c, NULL, err, errlen);
    if (st == CT_OK) {
        ct_configs_names(c, names, sizeof names);
        st = ct_cvars_read(names, &now, err, errlen);
    }
    for (size_t i = 0; st == CT_OK && i < now.n; i++)
        if (strcmp(now.v[i].value, c->startup.v[i].value) != 0) {
            snprintf(err, errlen,
                     "--config: %s reads %s after its start-up value %s was written back",
                     now.v[i].name, now.v[i].value, c->startup.v[i].value);
            st = CT_ERR_BACKEND;
        }
    return st;
}

/* coll/tuned ignores a forced algorithm unless dynamic rules are on. */
static void ct_configs_note_dynamic(const ct_options_t *opts)
{
    const char *algo = NULL;
    for (int k = 0; k < opts->nconfigs && !algo; k++)
        for (int i = 0; i < opts->configs[k].n && !algo; i++) {
            const char *n = opts->configs[k].s[i].name;
            size_t len = strlen(n);
            if (strncmp(n, "coll_tuned_", 11) == 0 && len > 10 &&
                strcmp(n + len - 10, "_algorithm") == 0)
                algo = n;
        }
    ct_cvars_t dyn;
    char err[256];
    if (algo == NULL || opts->quiet ||
        ct_cvars_read("coll_tuned_use_dynamic_rules", &dyn, err, sizeof err) != CT_OK ||
        strcmp(dyn.v[0].value, "false") != 0)
        return;
    fprintf(stderr,
            "collbench: note: --config sets %s, but coll_tuned_use_dynamic_rules is false: "
            "coll/tuned ignores a forced algorithm without it (mpirun --mca "
            "coll_tuned_use_dynamic_rules 1)\n",
            algo);
}

static void ct_configs_zero(ct_configs_t *c, const char *run_config_id)
{
    ct_config_run_t *r = &c->v[0];
    r->index = 0;
    snprintf(r->config_id, sizeof r->config_id, "%s", run_config_id);
    snprintf(r->label, sizeof r->label, "start-up values");
    r->cvars = c->startup;
}

ct_status_t ct_configs_create(ct_world_t *world, const ct_options_t *opts,
                              const char *run_config_id, ct_configs_t **out)
{
    char err[1024] = "";
    *out = NULL;
    if (opts->nconfigs == 0)
        return CT_OK;
    ct_configs_t *c = calloc(1, sizeof *c);
    if (c == NULL) {
        fprintf(stderr, "collbench: out of memory for --config\n");
        ct_world_abort(world, CT_EXIT_FAILURE);
    }
    ct_status_t st = ct_cvars_hold(err, sizeof err);
    c->held = st == CT_OK;
    st =
        ct_configs_agree(world, st == CT_OK ? ct_configs_probe(c, opts, err, sizeof err) : st, err);
    if (st == CT_OK && ct_world_rank(world) == 0)
        ct_configs_note_dynamic(opts);
    ct_configs_zero(c, run_config_id);
    c->n = 1;
    for (int k = 1; st == CT_OK && k <= opts->nconfigs; k++, c->n++)
        st = ct_configs_agree(
            world, ct_configs_make(world, c, k, opts, run_config_id, err, sizeof err), err);
    if (st == CT_OK)
        st = ct_configs_agree(world, ct_configs_restore(c, err, sizeof err), err);
    if (st != CT_OK) {
        ct_configs_free(c);
        return st;
    }
    *out = c;
    return CT_OK;
}

ct_status_t ct_configs_open(ct_configs_t *c, const ct_backend_ops_t *ops,
                            const ct_backend_config_t *bc)
{
    char why[512] = "";
    c->ops = ops;
    for (int k = 1; k < c->n; k++) {
        ct_status_t st = ops->open(c->v[k].world, bc, &c->v[k].ctx, why, sizeof why);
        if (st != CT_OK) {
            if (ct_world_rank(c->v[k].world) == 0)
                fprintf(stderr, "collbench: error: --config %s: the %s backend: %s\n",
                        c->v[k].label, ops->name, why);
            return st;
        }
    }
    return CT_OK;
}

void ct_configs_free(ct_configs_t *c)
{
    if (c == NULL)
        return;
    for (int k = 1; k < c->n; k++) {
        if (c->v[k].ctx && c->ops)
            c->ops->close(c->v[k].ctx);
        ct_world_free(c->v[k].world);
    }
    if (c->held)
        ct_cvars_release();
    free(c);
}

void *ct_configs_ctx(const ct_configs_t *c, int k, void *ctx0)
{
    return c && k > 0 ? c->v[k].ctx : ctx0;
}
