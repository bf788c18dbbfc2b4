/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * space_find.c - search spaces by name: the installed ones, or the source
 * tree's for a colltune run from its build tree.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ct_vec.h"
#include "self_path.h"
#include "space.h"
#include "space_find.h"

#ifndef CT_SPACES_DIR
#define CT_SPACES_DIR ""
#endif
#ifndef CT_SPACES_SRCDIR
#define CT_SPACES_SRCDIR ""
#endif

/* A file every spaces directory holds: a directory without it is not one. */
#define CT_SPACES_PROBE "local.ini"

int ct_space_dir(char *buf, size_t len)
{
    /* Beside the program first, so that an install moved elsewhere (or a
     * build tree next to an older install) uses its own spaces: bin/ ->
     * share/colltune/spaces; tuner/ (or tuner/.libs under libtool) -> the
     * source tree's tuner/spaces in an in-tree build. */
    static const char *const rel[] = {"/../share/colltune/spaces", "/../tuner/spaces",
                                      "/../../tuner/spaces"};
    if (ct_self_path_find(rel, sizeof rel / sizeof rel[0], CT_SPACES_PROBE, R_OK, buf, len) == 0) {
        char *real = realpath(buf, NULL); /* "bin/../share/..." reads badly in messages */
        if (real != NULL && strlen(real) < len)
            strcpy(buf, real);
        free(real);
        return 0;
    }
    const char *fixed[] = {CT_SPACES_DIR, CT_SPACES_SRCDIR};
    for (size_t i = 0; i < 2; i++) {
        char probe[PATH_MAX];
        int n = snprintf(probe, sizeof probe, "%s/%s", fixed[i], CT_SPACES_PROBE);
        if (*fixed[i] && n > 0 && (size_t)n < sizeof probe && access(probe, R_OK) == 0 &&
            (size_t)snprintf(buf, len, "%s", fixed[i]) < len)
            return 0;
    }
    return -1;
}

/* Whether name is a plain space name: no path, nothing a listing hides. */
static int ct_space_plain_name(const char *name)
{
    if (*name == '\0' || *name == '.')
        return 0;
    for (const char *p = name; *p; p++)
        if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') && !(*p >= '0' && *p <= '9') &&
            *p != '-' && *p != '_' && *p != '.')
            return 0;
    return 1;
}

ct_status_t ct_space_locate(const char *arg, char *buf, size_t len, char *err, size_t errlen)
{
    struct stat st;
    if (stat(arg, &st) == 0 || strchr(arg, '/') != NULL || !ct_space_plain_name(arg)) {
        if ((size_t)snprintf(buf, len, "%s", arg) >= len) {
            snprintf(err, errlen, "--space %.200s...: the path is too long", arg);
            return CT_ERR_USAGE;
        }
        return CT_OK;
    }
    char dir[PATH_MAX - 64];
    if (ct_space_dir(dir, sizeof dir) != 0) {
        snprintf(err, errlen,
                 "--space %s: no such file, and no spaces directory installed (looked in %s); "
                 "give the space file's path",
                 arg, *CT_SPACES_DIR ? CT_SPACES_DIR : "this build");
        return CT_ERR_USAGE;
    }
    size_t n = strlen(arg);
    int has_ini = n > 4 && strcmp(arg + n - 4, ".ini") == 0;
    int m = snprintf(buf, len, "%s/%s%s", dir, arg, has_ini ? "" : ".ini");
    if (m < 0 || (size_t)m >= len) {
        snprintf(err, errlen, "--space %s: the path is too long", arg);
        return CT_ERR_USAGE;
    }
    if (access(buf, R_OK) == 0)
        return CT_OK;
    snprintf(err, errlen,
             "--space %s: no such file, and no space '%.*s' in %s (colltune tune --list-spaces "
             "lists them)",
             arg, (int)(has_ini ? n - 4 : n), arg, dir);
    return CT_ERR_USAGE;
}

static int ct_space_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of dir's *.ini files, sorted (malloc'ed), or NULL. */
static char **ct_space_ini_names(const char *dir, size_t *n_p)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return NULL;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l <= 4 || strcmp(e->d_name + l - 4, ".ini") != 0 || e->d_name[0] == '.')
            continue;
        if (n == cap) {
            char **more = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof *names);
            if (more == NULL)
                break;
            names = more;
        }
        if ((names[n] = strdup(e->d_name)) == NULL)
            break;
        n++;
    }
    closedir(d);
    if (n > 0)
        ct_vec_sort(names, n, sizeof *names, ct_space_cmp);
    *n_p = n;
    return names;
}

ct_status_t ct_space_list_installed(FILE *f, char *err, size_t errlen)
{
    char dir[PATH_MAX - 256];
    if (ct_space_dir(dir, sizeof dir) != 0) {
        snprintf(err, errlen, "no spaces directory installed (looked in %s)",
                 *CT_SPACES_DIR ? CT_SPACES_DIR : "this build");
        return CT_ERR_IO;
    }
    size_t n = 0;
    char **names = ct_space_ini_names(dir, &n);
    fprintf(f, "# spaces in %s (colltune tune --space NAME)\n", dir);
    fprintf(f, "%-20s %5s  %s\n", "# name", "vars", "what it tunes");
    for (size_t i = 0; i < n; i++) {
        char path[PATH_MAX], why[512];
        ct_space_t sp;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (ct_space_load(path, &sp, why, sizeof why) == CT_OK) {
            fprintf(f, "%-20s %5zu  %s\n", sp.name, sp.nvars, sp.describe ? sp.describe : "");
            ct_space_free(&sp);
        } else {
            fprintf(f, "%-20.*s %5s  does not load: %s\n", (int)(strlen(names[i]) - 4), names[i],
                    "-", why);
        }
        free(names[i]);
    }
    free(names);
    return CT_OK;
}
