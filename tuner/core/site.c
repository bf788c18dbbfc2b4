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

const char *const ct_site_env_prefixes[] = {"NCCL_", "UCX_", "MPIR_CVAR_", "MPICH_", "I_MPI_",
                                            "MV2_",  "OMPI_MCA_", NULL};

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
 * read strongest first: the first one is the one in force). */
static ct_status_t ct_site_add(ct_site_t *s, const char *name, size_t name_len, const char *value,
                               size_t value_len, const char *origin, ct_site_source_t source,
                               int mca)
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
    if (e->name == NULL || e->value == NULL || e->origin == NULL) {
        free(e->name);
        free(e->value);
        free(e->origin);
        return CT_ERR_NOMEM;
    }
    s->n++;
    return CT_OK;
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
static ct_status_t ct_site_read_file(ct_site_t *s, const char *path, int mca, char *err,
                                     size_t errlen)
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
            st = ct_site_add(s, p, nl, v, vl, path, CT_SITE_FILE, mca);
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
            st = ct_site_read_file(s, path, 1, err, errlen);
        }
        p += n + (p[n] == ',');
    }
    return st;
}

ct_status_t ct_site_read(ct_site_t *s, const ct_launch_opts_t *lo, char *const *env,
                         const ct_site_files_t *files, char *err, size_t errlen)
{
    ct_status_t st = CT_OK;
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
        st = ct_site_read_file(s, files->nccl_user, 0, err, errlen);
    if (st == CT_OK)
        st = ct_site_read_file(s, files->nccl_sys, 0, err, errlen);
    if (st == CT_OK)
        st = ct_site_read_file(s, files->ucx_conf, 0, err, errlen);
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

void ct_site_files_default(ct_site_files_t *files, char *const *env, char *buf, size_t len)
{
    memset(files, 0, sizeof *files);
    size_t half = len / 2;
    const char *conf = ct_site_env_get(env, "NCCL_CONF_FILE");
    if (conf != NULL && conf[0] != '\0') {
        snprintf(buf, half, "%s", conf);
    } else {
        /* NCCL takes the home directory from the password database, not
         * $HOME (param.cc's userHomeDir). */
        struct passwd *pw = getpwuid(getuid());
        snprintf(buf, half, "%s/.nccl.conf", pw != NULL ? pw->pw_dir : "");
        if (pw == NULL)
            buf[0] = '\0';
    }
    files->nccl_user = buf;
    files->nccl_sys = "/etc/nccl.conf";
    const char *dir = ct_site_env_get(env, "UCX_CONFIG_DIR");
    snprintf(buf + half, len - half, "%s/ucx.conf", dir != NULL && dir[0] ? dir : "/etc/ucx");
    files->ucx_conf = buf + half;
}
