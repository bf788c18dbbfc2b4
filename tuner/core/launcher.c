#include "launcher.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CT_MCA_ENV_PREFIX "OMPI_MCA_"

ct_launcher_kind_t ct_launcher_detect(const char *word)
{
    const char *slash = strrchr(word, '/');
    const char *base = slash ? slash + 1 : word;
    if (strcmp(base, "mpirun") == 0 || strcmp(base, "mpiexec") == 0 || strcmp(base, "orterun") == 0)
        return CT_LAUNCHER_MPIRUN;
    if (strcmp(base, "srun") == 0)
        return CT_LAUNCHER_SRUN;
    return CT_LAUNCHER_PREFIX;
}

const char *ct_launcher_kind_name(ct_launcher_kind_t kind)
{
    switch (kind) {
    case CT_LAUNCHER_MPIRUN: return "mpirun";
    case CT_LAUNCHER_SRUN: return "srun";
    case CT_LAUNCHER_PREFIX: return "prefix";
    }
    return "?";
}

ct_status_t ct_launcher_init(ct_launcher_t *l, const char *line, const char *default_word,
                             char *err, size_t errlen)
{
    *l = (ct_launcher_t){.kind = CT_LAUNCHER_PREFIX, .words = CT_ARGV_INIT, .extra = CT_ARGV_INIT};
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
    if (len == 0 || len >= sizeof var->name) {
        snprintf(err, errlen, "'%s': %s name is empty or too long", arg, what);
        return CT_ERR_USAGE;
    }
    for (size_t i = 0; i < len; i++) {
        char c = arg[i];
        int ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
                 (c >= '0' && c <= '9' && (i > 0 || is_mca));
        if (!ok) {
            snprintf(err, errlen, "'%.*s' is not a valid %s name", (int)len, arg, what);
            return CT_ERR_USAGE;
        }
    }
    memcpy(var->name, arg, len);
    var->name[len] = '\0';
    var->value = eq + 1;
    return CT_OK;
}

/* stpcpy() without _GNU_SOURCE: copies src to dst, returns the end. */
static char *ct_stpcpy(char *dst, const char *src)
{
    size_t len = strlen(src);
    memcpy(dst, src, len + 1);
    return dst + len;
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

/* Whether the user already gave a flag starting with flag. */
static int ct_launcher_has(const ct_launcher_t *l, const char *flag)
{
    size_t len = strlen(flag);
    for (size_t i = 1; i < l->words.n; i++)
        if (strncmp(l->words.v[i], flag, len) == 0)
            return 1;
    for (size_t i = 0; i < l->extra.n; i++)
        if (strncmp(l->extra.v[i], flag, len) == 0)
            return 1;
    return 0;
}

/* A whole number > 0, or 0. */
static long ct_launcher_count(const char *s)
{
    char *end = NULL;
    long v = s != NULL && *s >= '0' && *s <= '9' ? strtol(s, &end, 10) : 0;
    return end != NULL && *end == '\0' && v > 0 ? v : 0;
}

/* The last value given to any of flags in the launcher's words or extra
 * arguments: "FLAG N", "--flag=N", or a one-letter "-nN"; -1 when none
 * is given, 0 when the value is not a plain count. */
static long ct_launcher_flag(const ct_launcher_t *l, const char *const *flags)
{
    long found = -1;
    const ct_argv_t *lists[] = {&l->words, &l->extra};
    for (size_t k = 0; k < 2; k++) {
        const ct_argv_t *w = lists[k];
        for (size_t i = k == 0 ? 1 : 0; i < w->n; i++) {
            for (size_t f = 0; flags[f] != NULL; f++) {
                size_t len = strlen(flags[f]);
                const char *a = w->v[i];
                long v = -1;
                if (strcmp(a, flags[f]) == 0)
                    v = ct_launcher_count(i + 1 < w->n ? w->v[i + 1] : NULL);
                else if (strncmp(a, flags[f], len) == 0 && a[len] == '=' && flags[f][1] == '-')
                    v = ct_launcher_count(a + len + 1);
                else if (strncmp(a, flags[f], len) == 0 && len == 2 && a[len] != '\0')
                    v = ct_launcher_count(a + len);
                if (v >= 0) {
                    found = v;
                    break; /* the first flag that fits: "-np" before "-n" */
                }
            }
        }
    }
    return found;
}

long ct_launcher_ranks(const ct_launcher_t *l, const char *slurm_ntasks)
{
    if (l->np > 0)
        return l->np;
    if (l->kind == CT_LAUNCHER_MPIRUN) {
        static const char *const np[] = {"-np", "--np", "-n", "--n", "-c", NULL};
        long n = ct_launcher_flag(l, np);
        return n > 0 ? n : 0;
    }
    if (l->kind != CT_LAUNCHER_SRUN)
        return 0;
    static const char *const ntasks[] = {"-n", "--ntasks", NULL};
    static const char *const nodes[] = {"-N", "--nodes", NULL};
    static const char *const per_node[] = {"--ntasks-per-node", NULL};
    long n = ct_launcher_flag(l, ntasks), N = ct_launcher_flag(l, nodes);
    long k = ct_launcher_flag(l, per_node);
    if (n >= 0)
        return n;
    if (N < 0 && k < 0)
        return ct_launcher_count(slurm_ntasks);
    if (N == 0 || k == 0)
        return 0;
    return (N < 0 ? 1 : N) * (k < 0 ? 1 : k);
}

static ct_status_t ct_launcher_mpirun(const ct_launcher_t *l, const ct_launch_var_t *env,
                                      size_t nenv, const ct_launch_var_t *mca, size_t nmca,
                                      ct_argv_t *argv)
{
    char np[32];
    ct_status_t st = CT_OK;
    if (l->as_root && !ct_launcher_has(l, "--allow-run-as-root"))
        st = ct_argv_push(argv, "--allow-run-as-root");
    if (st == CT_OK && l->np > 0) {
        snprintf(np, sizeof np, "%ld", l->np);
        st = ct_argv_push(argv, "--np");
        if (st == CT_OK)
            st = ct_argv_push(argv, np);
    }
    if (st == CT_OK && l->hostfile != NULL) {
        st = ct_argv_push(argv, "--hostfile");
        if (st == CT_OK)
            st = ct_argv_push(argv, l->hostfile);
    }
    for (size_t k = 0; k < nenv && st == CT_OK; k++) {
        st = ct_argv_push(argv, "-x");
        if (st == CT_OK)
            st = ct_argv_push3(argv, env[k].name, "=", env[k].value);
    }
    for (size_t k = 0; k < nmca && st == CT_OK; k++) {
        st = ct_argv_push(argv, "--mca");
        if (st == CT_OK)
            st = ct_argv_push(argv, mca[k].name);
        if (st == CT_OK)
            st = ct_argv_push(argv, mca[k].value);
    }
    return st;
}

static ct_status_t ct_launcher_srun(const ct_launcher_t *l, const ct_launch_var_t *env, size_t nenv,
                                    const ct_launch_var_t *mca, size_t nmca, ct_argv_t *argv)
{
    ct_status_t st = CT_OK;
    if (!ct_launcher_has(l, "--mpi"))
        st = ct_argv_push(argv, "--mpi=pmix");
    if (st == CT_OK && l->np > 0) {
        char np[48];
        snprintf(np, sizeof np, "--ntasks=%ld", l->np);
        st = ct_argv_push(argv, np);
    }
    if (st != CT_OK || nenv + nmca == 0)
        return st;

    /* --export=ALL,A=1,B=2.  Slurm splits the list at every comma and has
     * no escape for one, so a value holding one (UCX_TLS=rc,sm, a list of
     * MCA files) is left out of the list: srun's own environment, which
     * ALL exports and which wins over the list anyway, carries it. */
    size_t len = strlen("--export=ALL") + 1;
    for (size_t k = 0; k < nenv; k++)
        len += 2 + strlen(env[k].name) + strlen(env[k].value);
    for (size_t k = 0; k < nmca; k++)
        len += 2 + strlen(CT_MCA_ENV_PREFIX) + strlen(mca[k].name) + strlen(mca[k].value);
    char *list = malloc(len);
    if (list == NULL)
        return CT_ERR_NOMEM;
    char *end = list;
    end = ct_stpcpy(end, "--export=ALL");
    for (size_t k = 0; k < nenv; k++) {
        if (strchr(env[k].value, ',') != NULL)
            continue;
        end = ct_stpcpy(ct_stpcpy(end, ","), env[k].name);
        end = ct_stpcpy(ct_stpcpy(end, "="), env[k].value);
    }
    for (size_t k = 0; k < nmca; k++) {
        if (strchr(mca[k].value, ',') != NULL)
            continue;
        end = ct_stpcpy(ct_stpcpy(end, "," CT_MCA_ENV_PREFIX), mca[k].name);
        end = ct_stpcpy(ct_stpcpy(end, "="), mca[k].value);
    }
    st = ct_argv_push(argv, list);
    free(list);
    return st;
}

ct_status_t ct_launcher_build(const ct_launcher_t *l, char *const *base_env,
                              const ct_launch_var_t *env, size_t nenv, const ct_launch_var_t *mca,
                              size_t nmca, const char *program, char *const *args, size_t nargs,
                              ct_launch_t *out, char *err, size_t errlen)
{
    *out = (ct_launch_t){CT_ARGV_INIT, CT_ARGV_INIT};
    if (l->kind == CT_LAUNCHER_PREFIX && (l->np > 0 || l->hostfile != NULL)) {
        snprintf(err, errlen,
                 "%s: '%s' is neither mpirun nor srun, so give the scale in --launcher itself",
                 l->np > 0 ? "--np" : "--hostfile", l->words.v[0]);
        return CT_ERR_USAGE;
    }
    if (l->kind == CT_LAUNCHER_SRUN && l->hostfile != NULL) {
        snprintf(err, errlen,
                 "--hostfile: srun takes its nodes from Slurm (say -w or "
                 "--nodelist in --launcher)");
        return CT_ERR_USAGE;
    }

    ct_status_t st = ct_argv_append(&out->argv, l->words.v, l->words.n);
    if (st == CT_OK) {
        switch (l->kind) {
        case CT_LAUNCHER_MPIRUN:
            st = ct_launcher_mpirun(l, env, nenv, mca, nmca, &out->argv);
            break;
        case CT_LAUNCHER_SRUN: st = ct_launcher_srun(l, env, nenv, mca, nmca, &out->argv); break;
        case CT_LAUNCHER_PREFIX: break;
        }
    }
    if (st == CT_OK)
        st = ct_argv_append(&out->argv, l->extra.v, l->extra.n);
    if (st == CT_OK)
        st = ct_argv_push(&out->argv, program);
    if (st == CT_OK)
        st = ct_argv_append(&out->argv, args, nargs);
    /* mpirun carries the settings in its flags; srun and a prefix also
     * (srun) or only (prefix) through the environment. */
    if (st == CT_OK)
        st = ct_launcher_env(base_env, env, nenv, mca, nmca, l->kind != CT_LAUNCHER_MPIRUN,
                             &out->envp);
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
