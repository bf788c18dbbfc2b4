/* SPDX-License-Identifier: BSD-3-Clause */
#include "launcher.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launcher_words.h"

const ct_launcher_ops_t *ct_launcher_detect(const char *word)
{
    const char *slash = strrchr(word, '/');
    const char *base = slash ? slash + 1 : word;
    size_t i = 0;
    for (; ct_launchers[i + 1] != NULL; i++)
        for (const char *const *w = ct_launchers[i]->words; w != NULL && *w != NULL; w++)
            if (strcmp(base, *w) == 0)
                return ct_launchers[i];
    return ct_launchers[i]; /* the fallback, last */
}

const ct_launcher_ops_t *ct_launcher_find(const char *name)
{
    for (size_t i = 0; ct_launchers[i] != NULL; i++)
        if (strcmp(ct_launchers[i]->name, name) == 0)
            return ct_launchers[i];
    return NULL;
}

void ct_launcher_scalers(char *buf, size_t len)
{
    size_t n = 0, k = 0, used = 0;
    for (size_t i = 0; ct_launchers[i] != NULL; i++)
        n += ct_launchers[i]->no_scale == NULL;
    buf[0] = '\0';
    for (size_t i = 0; ct_launchers[i] != NULL && used < len; i++) {
        if (ct_launchers[i]->no_scale != NULL)
            continue;
        const char *sep = k == 0 ? "" : k + 1 == n ? " or " : ", ";
        int w = snprintf(buf + used, len - used, "%s%s", sep, ct_launchers[i]->name);
        used += w > 0 ? (size_t)w : 0;
        k++;
    }
}

ct_status_t ct_launcher_init(ct_launcher_t *l, const char *line, const char *default_word,
                             char *err, size_t errlen)
{
    *l = (ct_launcher_t){.kind = NULL, .words = CT_ARGV_INIT, .extra = CT_ARGV_INIT};
    ct_status_t st;
    if (line != NULL) {
        st = ct_argv_split(line, &l->words, err, errlen);
        if (st == CT_OK && l->words.n == 0) {
            snprintf(err, errlen, "names no program");
            st = CT_ERR_USAGE;
        }
    } else {
        st = ct_argv_push(&l->words, default_word);
    }
    if (st != CT_OK) {
        ct_launcher_free(l);
        return st;
    }
    l->kind = ct_launcher_detect(l->words.v[0]);
    return CT_OK;
}

void ct_launcher_free(ct_launcher_t *l)
{
    ct_argv_free(&l->words);
    ct_argv_free(&l->extra);
}

ct_status_t ct_launch_var_parse(const char *arg, int is_mca, ct_launch_var_t *var, char *err,
                                size_t errlen)
{
    const char *eq = strchr(arg, '=');
    const char *what = is_mca ? "MCA parameter" : "environment variable";
    if (eq == NULL) {
        snprintf(err, errlen, "'%s' is not NAME=VALUE", arg);
        return CT_ERR_USAGE;
    }
    size_t len = (size_t)(eq - arg);
    /* which of the two, and what a name may hold (issue 15, E23) */
    if (len == 0) {
        snprintf(err, errlen, "'%s': the %s name is empty", arg, what);
        return CT_ERR_USAGE;
    }
    if (len >= sizeof var->name) {
        snprintf(err, errlen, "'%.40s...': the %s name has %zu characters, at most %zu", arg, what,
                 len, sizeof var->name - 1);
        return CT_ERR_USAGE;
    }
    for (size_t i = 0; i < len; i++) {
        char c = arg[i];
        int ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
                 (c >= '0' && c <= '9' && (i > 0 || is_mca));
        if (!ok) {
            snprintf(err, errlen, "'%.*s' is not a valid %s name (letters, digits and _%s)",
                     (int)len, arg, what, is_mca ? "" : ", not first a digit");
            return CT_ERR_USAGE;
        }
    }
    memcpy(var->name, arg, len);
    var->name[len] = '\0';
    var->value = eq + 1;
    return CT_OK;
}

/* Whether entry ("NAME=...") sets prefix+name. */
static int ct_env_names(const char *entry, const char *prefix, const char *name)
{
    size_t lp = strlen(prefix), ln = strlen(name);
    return strncmp(entry, prefix, lp) == 0 && strncmp(entry + lp, name, ln) == 0 &&
           entry[lp + ln] == '=';
}

/* The child's environment: base_env, with each setting replacing any
 * entry of the same name (MCA parameters as OMPI_MCA_name) when set is
 * true; base_env unchanged otherwise. */
static ct_status_t ct_launcher_env(char *const *base_env, const ct_launch_var_t *env, size_t nenv,
                                   const ct_launch_var_t *mca, size_t nmca, int set,
                                   ct_argv_t *envp)
{
    ct_status_t st = CT_OK;
    for (size_t i = 0; base_env != NULL && base_env[i] != NULL && st == CT_OK; i++) {
        int replaced = 0;
        for (size_t k = 0; set && k < nenv && !replaced; k++)
            replaced = ct_env_names(base_env[i], "", env[k].name);
        for (size_t k = 0; set && k < nmca && !replaced; k++)
            replaced = ct_env_names(base_env[i], CT_MCA_ENV_PREFIX, mca[k].name);
        if (!replaced)
            st = ct_argv_push(envp, base_env[i]);
    }
    for (size_t k = 0; set && k < nenv && st == CT_OK; k++)
        st = ct_argv_push3(envp, env[k].name, "=", env[k].value);
    for (size_t k = 0; set && k < nmca && st == CT_OK; k++) {
        ct_argv_t one = CT_ARGV_INIT;
        st = ct_argv_push3(&one, CT_MCA_ENV_PREFIX, mca[k].name, "=");
        if (st == CT_OK)
            st = ct_argv_push3(envp, one.v[0], mca[k].value, "");
        ct_argv_free(&one);
    }
    return st;
}

long ct_launcher_ranks(const ct_launcher_t *l, const char *slurm_ntasks)
{
    if (l->np > 0)
        return l->np;
    return l->kind->ranks != NULL ? l->kind->ranks(l, slurm_ntasks) : 0;
}

ct_status_t ct_launcher_build(const ct_launcher_t *l, char *const *base_env,
                              const ct_launch_var_t *env, size_t nenv, const ct_launch_var_t *mca,
                              size_t nmca, const char *program, char *const *args, size_t nargs,
                              ct_launch_t *out, char *err, size_t errlen)
{
    *out = (ct_launch_t){CT_ARGV_INIT, CT_ARGV_INIT};
    const ct_launch_vars_t vars = {env, nenv, mca, nmca};
    if (l->kind->refuse != NULL && l->kind->refuse(l, &vars, err, errlen) != CT_OK)
        return CT_ERR_USAGE;

    ct_status_t st = ct_argv_append(&out->argv, l->words.v, l->words.n);
    if (st == CT_OK && l->kind->flags != NULL)
        st = l->kind->flags(l, &vars, &out->argv);
    if (st == CT_OK)
        st = ct_argv_append(&out->argv, l->extra.v, l->extra.n);
    if (st == CT_OK)
        st = ct_argv_push(&out->argv, program);
    if (st == CT_OK)
        st = ct_argv_append(&out->argv, args, nargs);
    if (st == CT_OK)
        st = ct_launcher_env(base_env, env, nenv, mca, nmca, l->kind->env_too, &out->envp);
    if (st != CT_OK) {
        if (st == CT_ERR_NOMEM)
            snprintf(err, errlen, "out of memory");
        ct_launch_free(out);
    }
    return st;
}

int ct_launcher_apps_ok(const ct_launcher_t *l, char *why, size_t len)
{
    /* Open MPI's per-context flags: given before the first program they
     * would hold for the first context alone. */
    static const char *const per_app[] = {
        "-np",   "--np",       "-n",        "--n",           "-c",           "-H", "--host",
        "-host", "--hostfile", "-hostfile", "--machinefile", "-machinefile", "-x", "--wdir",
        "-wdir", NULL};
    why[0] = '\0';
    if (l->kind->app_flags == NULL)
        snprintf(why, len, "%s cannot start several app contexts in one launch", l->kind->name);
    else if (l->np <= 0)
        snprintf(why, len, "the scale is not given by --np");
    for (size_t i = 0; why[0] == '\0' && per_app[i] != NULL; i++)
        for (size_t k = 1; k < l->words.n + l->extra.n && why[0] == '\0'; k++) {
            const char *w = k < l->words.n ? l->words.v[k] : l->extra.v[k - l->words.n];
            if (strcmp(w, per_app[i]) == 0)
                snprintf(why, len, "the launcher's own %s would reach the first app context only",
                         w);
        }
    return why[0] == '\0';
}

/* Whether every app context gives the MCA setting m alike. */
static int ct_launcher_mca_shared(const ct_launch_app_t *apps, size_t napps,
                                  const ct_launch_var_t *m)
{
    for (size_t a = 0; a < napps; a++) {
        size_t k = 0;
        while (k < apps[a].nmca && strcmp(apps[a].mca[k].name, m->name) != 0)
            k++;
        if (k == apps[a].nmca || strcmp(apps[a].mca[k].value, m->value) != 0)
            return 0;
    }
    return 1;
}

/* apps' MCA settings split: those every context gives alike into
 * shared[0..*nshared) (the first context's order), each context's others
 * into own[a]'s list (mine, room for every setting of every context). */
static void ct_launcher_split_mca(const ct_launch_app_t *apps, size_t napps,
                                  ct_launch_var_t *shared, size_t *nshared, ct_launch_var_t *mine,
                                  ct_launch_vars_t *own)
{
    *nshared = 0;
    for (size_t k = 0; napps > 0 && k < apps[0].nmca; k++)
        if (ct_launcher_mca_shared(apps, napps, &apps[0].mca[k]))
            shared[(*nshared)++] = apps[0].mca[k];
    for (size_t a = 0; a < napps; a++) {
        own[a] = (ct_launch_vars_t){apps[a].env, apps[a].nenv, mine, 0};
        for (size_t k = 0; k < apps[a].nmca; k++)
            if (!ct_launcher_mca_shared(apps, napps, &apps[a].mca[k]))
                mine[own[a].nmca++] = apps[a].mca[k];
        mine += own[a].nmca;
    }
}

ct_status_t ct_launcher_build_apps(const ct_launcher_t *l, char *const *base_env,
                                   const ct_launch_app_t *apps, size_t napps, ct_launch_t *out,
                                   char *err, size_t errlen)
{
    *out = (ct_launch_t){CT_ARGV_INIT, CT_ARGV_INIT};
    if (!ct_launcher_apps_ok(l, err, errlen))
        return CT_ERR_USAGE;
    size_t total = 1;
    for (size_t a = 0; a < napps; a++)
        total += apps[a].nmca;
    ct_launch_var_t *shared = calloc(total, sizeof *shared), *mine = calloc(total, sizeof *mine);
    ct_launch_vars_t *own = calloc(napps + 1, sizeof *own);
    ct_status_t st = shared && mine && own ? CT_OK : CT_ERR_NOMEM;
    size_t nshared = 0;
    if (st == CT_OK) {
        ct_launcher_split_mca(apps, napps, shared, &nshared, mine, own);
        st = ct_argv_append(&out->argv, l->words.v, l->words.n);
    }
    if (st == CT_OK)
        st = ct_argv_append(&out->argv, l->extra.v, l->extra.n);
    const ct_launch_vars_t common = {NULL, 0, shared, nshared};
    for (size_t a = 0; a < napps && st == CT_OK; a++) {
        /* What it refuses, it refuses in any context's full settings. */
        const ct_launch_vars_t vars = {apps[a].env, apps[a].nenv, apps[a].mca, apps[a].nmca};
        if (l->kind->refuse != NULL && l->kind->refuse(l, &vars, err, errlen) != CT_OK) {
            st = CT_ERR_USAGE;
            break;
        }
        if (a > 0)
            st = ct_argv_push(&out->argv, ":");
        if (st == CT_OK)
            st = l->kind->app_flags(l, &own[a], a == 0 ? &common : NULL, &out->argv);
        if (st == CT_OK)
            st = ct_argv_push(&out->argv, apps[a].program);
        if (st == CT_OK)
            st = ct_argv_append(&out->argv, apps[a].args, apps[a].nargs);
    }
    if (st == CT_OK)
        st = ct_launcher_env(base_env, NULL, 0, NULL, 0, 0, &out->envp);
    free(shared);
    free(mine);
    free(own);
    if (st != CT_OK) {
        if (st == CT_ERR_NOMEM)
            snprintf(err, errlen, "out of memory");
        ct_launch_free(out);
    }
    return st;
}

void ct_launch_free(ct_launch_t *launch)
{
    ct_argv_free(&launch->argv);
    ct_argv_free(&launch->envp);
}
