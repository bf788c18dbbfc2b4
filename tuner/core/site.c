/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * site.c - reading what the site already sets (site.h).
 */
#define _XOPEN_SOURCE 700

#include "site.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const ct_site_env_prefixes[] = {"NCCL_",  "UCX_", "MPIR_CVAR_", "MPICH_",
                                            "I_MPI_", "MV2_", "OMPI_MCA_",  NULL};

#define CT_SITE_OMPI_PREFIX "OMPI_MCA_"

const ct_site_setting_t *ct_site_find(const ct_site_t *s, const char *name, int mca)
{
    for (size_t i = 0; s != NULL && i < s->n; i++)
        if (s->v[i].mca == mca && strcmp(s->v[i].name, name) == 0)
            return &s->v[i];
    return NULL;
}

void ct_site_free(ct_site_t *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->v[i].name);
        free(s->v[i].value);
        free(s->v[i].origin);
    }
    free(s->v);
    memset(s, 0, sizeof *s);
}

/* Adds name = value unless a stronger source already set it (sources are
 * read strongest first: the first one is the one in force); late as in
 * ct_site_setting_t. */
static ct_status_t ct_site_add_late(ct_site_t *s, const char *name, size_t name_len,
                                    const char *value, size_t value_len, const char *origin,
                                    ct_site_source_t source, int mca, int late)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i].mca == mca && strlen(s->v[i].name) == name_len &&
            strncmp(s->v[i].name, name, name_len) == 0)
            return CT_OK;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        ct_site_setting_t *v = realloc(s->v, cap * sizeof *v);
        if (v == NULL)
            return CT_ERR_NOMEM;
        s->v = v;
        s->cap = cap;
    }
    ct_site_setting_t *e = &s->v[s->n];
    e->name = strndup(name, name_len);
    e->value = strndup(value, value_len);
    e->origin = strdup(origin);
    e->source = source;
    e->mca = mca;
    e->late = late;
    if (e->name == NULL || e->value == NULL || e->origin == NULL) {
        free(e->name);
        free(e->value);
        free(e->origin);
        return CT_ERR_NOMEM;
    }
    s->n++;
    return CT_OK;
}

/* ct_site_add_late for a setting read in the library's usual place. */
static ct_status_t ct_site_add(ct_site_t *s, const char *name, size_t name_len, const char *value,
                               size_t value_len, const char *origin, ct_site_source_t source,
                               int mca)
{
    return ct_site_add_late(s, name, name_len, value, value_len, origin, source, mca, 0);
}

static int ct_site_prefixed(const char *name)
{
    for (size_t i = 0; ct_site_env_prefixes[i] != NULL; i++)
        if (strncmp(name, ct_site_env_prefixes[i], strlen(ct_site_env_prefixes[i])) == 0)
            return 1;
    return 0;
}

/* One NAME=VALUE of an environment (or --env): an OMPI_MCA_x is the MCA
 * parameter x, as Open MPI reads it. */
static ct_status_t ct_site_add_env(ct_site_t *s, const char *name, size_t name_len,
                                   const char *value, const char *origin, ct_site_source_t source)
{
    size_t pl = strlen(CT_SITE_OMPI_PREFIX);
    int mca = name_len > pl && strncmp(name, CT_SITE_OMPI_PREFIX, pl) == 0;
    if (mca)
        return ct_site_add(s, name + pl, name_len - pl, value, strlen(value), origin, source, 1);
    return ct_site_add(s, name, name_len, value, strlen(value), origin, source, 0);
}

/* A text file of settings, one per line, '#' comments: NCCL's "NAME=VALUE"
 * (split at the first '='), UCX's "NAME = VALUE" (its [section] lines
 * skipped) and Open MPI's "name = value"; blanks around both trimmed.
 * Missing: nothing. */
static ct_status_t ct_site_read_file(ct_site_t *s, const char *path, int mca,
                                     ct_site_source_t source, int late, char *err, size_t errlen)
{
    if (path == NULL || path[0] == '\0')
        return CT_OK;
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        if (errno == ENOENT || errno == ENOTDIR)
            return CT_OK;
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return CT_ERR_IO;
    }
    char *line = NULL;
    size_t cap = 0;
    ct_status_t st = CT_OK;
    while (st == CT_OK && getline(&line, &cap, f) != -1) {
        char *p = line + strspn(line, " \t");
        if (*p == '#' || *p == '[' || *p == '\n' || *p == '\0')
            continue;
        char *eq = strchr(p, '=');
        if (eq == NULL)
            continue;
        size_t nl = (size_t)(eq - p);
        while (nl > 0 && (p[nl - 1] == ' ' || p[nl - 1] == '\t'))
            nl--;
        char *v = eq + 1 + strspn(eq + 1, " \t");
        size_t vl = strcspn(v, "\r\n");
        while (vl > 0 && (v[vl - 1] == ' ' || v[vl - 1] == '\t'))
            vl--;
        if (nl > 0)
            st = ct_site_add_late(s, p, nl, v, vl, path, source, mca, late);
    }
    if (st == CT_OK && ferror(f)) {
        snprintf(err, errlen, "%s: read error", path);
        st = CT_ERR_IO;
    }
    free(line);
    fclose(f);
    return st;
}

/* Open MPI's files, leftmost first (the leftmost wins: mca_base_var.c
 * reads the list right to left, each file overriding the ones after it). */
static ct_status_t ct_site_read_mca_files(ct_site_t *s, const char *list, char *err, size_t errlen)
{
    ct_status_t st = CT_OK;
    for (const char *p = list; st == CT_OK && p != NULL && *p;) {
        size_t n = strcspn(p, ",");
        char path[4096];
        if (n > 0 && n < sizeof path) {
            memcpy(path, p, n);
            path[n] = '\0';
            st = ct_site_read_file(s, path, 1, CT_SITE_FILE, 0, err, errlen);
        }
        p += n + (p[n] == ',');
    }
    return st;
}

/* Open MPI's override file: files->mca_override, else the one in the
 * directory of mca_files' openmpi-mca-params.conf (both live in Open MPI's
 * sysconfdir, mca_base_var.c's mca_base_var_cache_files), into buf. */
static const char *ct_site_mca_override(const ct_site_files_t *files, char *buf, size_t len)
{
    static const char sys[] = "/openmpi-mca-params.conf";
    if (files->mca_override != NULL)
        return files->mca_override;
    for (const char *p = files->mca_files; p != NULL && *p;) {
        size_t n = strcspn(p, ",");
        size_t sl = sizeof sys - 1;
        if (n >= sl && strncmp(p + n - sl, sys, sl) == 0 &&
            snprintf(buf, len, "%.*s/openmpi-mca-params-override.conf", (int)(n - sl), p) <
                (int)len)
            return buf;
        p += n + (p[n] == ',');
    }
    return NULL;
}

ct_status_t ct_site_read(ct_site_t *s, const ct_launch_opts_t *lo, char *const *env,
                         const ct_site_files_t *files, char *err, size_t errlen)
{
    ct_status_t st = CT_OK;
    char override[4096];
    /* Open MPI reads its override file before the command line and the
     * environment, and refuses either for a parameter it sets. */
    if (files != NULL)
        st = ct_site_read_file(s, ct_site_mca_override(files, override, sizeof override), 1,
                               CT_SITE_OVERRIDE, 0, err, errlen);
    for (size_t i = 0; lo != NULL && i < lo->nenv && st == CT_OK; i++)
        st = ct_site_add_env(s, lo->env[i].name, strlen(lo->env[i].name), lo->env[i].value, "--env",
                             CT_SITE_CMDLINE);
    for (size_t i = 0; lo != NULL && i < lo->nmca && st == CT_OK; i++)
        st = ct_site_add(s, lo->mca[i].name, strlen(lo->mca[i].name), lo->mca[i].value,
                         strlen(lo->mca[i].value), "--mca", CT_SITE_CMDLINE, 1);
    for (size_t i = 0; env != NULL && env[i] != NULL && st == CT_OK; i++) {
        const char *eq = strchr(env[i], '=');
        if (eq != NULL && ct_site_prefixed(env[i]))
            st = ct_site_add_env(s, env[i], (size_t)(eq - env[i]), eq + 1, "environment",
                                 CT_SITE_ENV);
    }
    if (files == NULL)
        return st;
    /* NCCL: its user file, then /etc/nccl.conf; neither overrides a
     * variable already set (param.cc's setEnvFile). */
    if (st == CT_OK)
        st = ct_site_read_file(s, files->nccl_user, 0, CT_SITE_FILE, 0, err, errlen);
    if (st == CT_OK)
        st = ct_site_read_file(s, files->nccl_sys, 0, CT_SITE_FILE, 0, err, errlen);
    if (st == CT_OK)
        st = ct_site_read_file(s, files->ucx_conf, 0, CT_SITE_FILE, 0, err, errlen);
    /* UCX: the working directory's file is read last of all, so after the
     * one colltune's UCX_CONFIG_DIR names. */
    for (size_t i = 0; i < CT_SITE_UCX_CONFS && st == CT_OK; i++)
        st = ct_site_read_file(s, files->ucx_confs[i], 0, CT_SITE_FILE, i == 0, err, errlen);
    if (st == CT_OK)
        st = ct_site_read_mca_files(s, files->mca_files, err, errlen);
    if (st == CT_ERR_NOMEM)
        snprintf(err, errlen, "out of memory");
    return st;
}

static const char *ct_site_env_get(char *const *env, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; env != NULL && env[i] != NULL; i++)
        if (strncmp(env[i], name, n) == 0 && env[i][n] == '=')
            return env[i] + n + 1;
    return NULL;
}

/* "dir/name" into the next slot of buf, or NULL when dir is unset or it
 * does not fit. */
static const char *ct_site_slot(char *buf, size_t slot, size_t i, const char *dir, const char *name)
{
    char *p = buf + i * slot;
    if (dir == NULL || dir[0] == '\0' || slot == 0)
        return NULL;
    int n = snprintf(p, slot, "%s/%s", dir, name);
    return n > 0 && (size_t)n < slot ? p : NULL;
}

void ct_site_files_default(ct_site_files_t *files, char *const *env, char *buf, size_t len)
{
    memset(files, 0, sizeof *files);
    size_t slot = len / (1 + CT_SITE_UCX_CONFS);
    const char *conf = ct_site_env_get(env, "NCCL_CONF_FILE");
    if (conf != NULL && conf[0] != '\0') {
        files->nccl_user = strlen(conf) < slot ? strcpy(buf, conf) : NULL;
    } else {
        /* NCCL takes the home directory from the password database, not
         * $HOME (param.cc's userHomeDir). */
        struct passwd *pw = getpwuid(getuid());
        files->nccl_user = ct_site_slot(buf, slot, 0, pw != NULL ? pw->pw_dir : NULL, ".nccl.conf");
    }
    files->nccl_sys = "/etc/nccl.conf";
    /* UCX, strongest first; UCX takes $HOME from the environment.  The
     * file beside libucs is left out: where libucs lies is known only to
     * a process that loads it. */
    char cwd[4096];
    files->ucx_confs[0] =
        ct_site_slot(buf, slot, 1, getcwd(cwd, sizeof cwd) != NULL ? cwd : NULL, "ucx.conf");
    files->ucx_confs[1] =
        ct_site_slot(buf, slot, 2, ct_site_env_get(env, "UCX_CONFIG_DIR"), "ucx.conf");
    files->ucx_confs[2] = ct_site_slot(buf, slot, 3, ct_site_env_get(env, "HOME"), "ucx.conf");
    files->ucx_confs[4] = "/etc/ucx/ucx.conf";
}
