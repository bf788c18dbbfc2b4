/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit_golden.h - what the one-library emitter tests share
 * (test_emit_mvapich.c, test_emit_oneccl.c): a scratch directory, a file
 * read whole, and a file compared with its golden copy under
 * EMIT_GOLDEN_DIR, the directory written as @DIR@.
 * EMIT_GOLDEN_UPDATE=1 rewrites the golden files instead of comparing.
 */
#ifndef CT_EMIT_GOLDEN_H
#define CT_EMIT_GOLDEN_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_test.h"

#define EMIT_GOLDEN_WRITER "colltune TEST (git 0000000)"

/* path's bytes, NUL-ended, malloc'ed; NULL when it cannot be read. */
static inline char *eg_slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (fp == NULL)
        return NULL;
    size_t cap = 4096, len = 0, got;
    char *buf = malloc(cap);
    while (buf != NULL && (got = fread(buf + len, 1, cap - len - 1, fp)) > 0) {
        len += got;
        if (cap - len < 2) {
            char *more = realloc(buf, cap *= 2);
            if (more == NULL)
                free(buf);
            buf = more;
        }
    }
    fclose(fp);
    if (buf != NULL)
        buf[len] = '\0';
    return buf;
}

/* Whether dir holds name. */
static inline int eg_has(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

/* Empties dir (flat). */
static inline void eg_clear(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d != NULL && (e = readdir(d)) != NULL) {
        char path[4096];
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    if (d != NULL)
        closedir(d);
}

/* dir/name, with dir written as @DIR@, against EMIT_GOLDEN_DIR/set/name. */
static inline void eg_check_golden(ct_test_tally_t *tally, const char *dir, const char *set,
                                   const char *name)
{
    char path[4096], gpath[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(gpath, sizeof gpath, "%s/%s/%s", EMIT_GOLDEN_DIR, set, name);
    char *got = eg_slurp(path), *norm = got ? malloc(strlen(got) * 2 + 1) : NULL;
    CT_CHECK(tally, norm != NULL);
    if (norm == NULL) {
        fprintf(stderr, "missing %s\n", path);
        free(got);
        return;
    }
    size_t dl = strlen(dir), n = 0;
    for (const char *p = got; *p;)
        if (strncmp(p, dir, dl) == 0) {
            memcpy(norm + n, "@DIR@", 5);
            n += 5;
            p += dl;
        } else
            norm[n++] = *p++;
    norm[n] = '\0';
    const char *update = getenv("EMIT_GOLDEN_UPDATE");
    if (update != NULL && strcmp(update, "1") == 0) {
        FILE *fp = fopen(gpath, "w");
        CT_CHECK(tally, fp != NULL);
        if (fp != NULL) {
            fputs(norm, fp);
            fclose(fp);
        }
    } else {
        char *want = eg_slurp(gpath);
        int same = want != NULL && strcmp(norm, want) == 0;
        CT_CHECK(tally, same);
        if (!same)
            fprintf(stderr, "%s differs from %s:\n%s\n", path, gpath, norm);
        free(want);
    }
    free(norm);
    free(got);
}

#endif
