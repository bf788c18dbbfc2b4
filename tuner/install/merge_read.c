/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * merge_read.c - one TUNE_DIR's report.json into the merged result: the
 * choices the tune wrote ("written": true), each with the shape it was
 * measured at, field by field, every bad one named (file, choice, field).
 *
 * report.json is what merge reads, not the files: they are the emitters'
 * output, written again from these choices (merge.c).  So a file in the
 * directory that no row of ct_library.h knows (nor the tune's own journal
 * and reports) is refused: merge could not say what it held.
 */
#define _XOPEN_SOURCE 700

#include "merge.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ct_library.h"
#include "ct_names.h"
#include "ct_printable.h"
#include "ct_status.h"
#include "install.h"
#include "launch_opts.h"

/* What a tune writes beside the rows' files (tune.c: the journal and its
 * head, the reports, the lock of outdir.c; trials/ and verify/). */
static const char *const ct_merge_tune_own[] = {
    "journal.jsonl", "journal.head.json", "report.json", "report.md", ".lock", "trials", "verify",
};
#define CT_MERGE_NOWN (sizeof ct_merge_tune_own / sizeof ct_merge_tune_own[0])

/* Every entry of dir: the tune's own, or a regular file a row names. */
static int ct_merge_check_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        fprintf(stderr, "colltune merge: TUNE_DIR %s: %s\n", dir, strerror(errno));
        return CT_EXIT_USAGE;
    }
    int rc = CT_EXIT_OK;
    for (struct dirent *e; rc == CT_EXIT_OK && (e = readdir(d)) != NULL;) {
        const char *n = e->d_name;
        size_t k = 0;
        while (k < CT_MERGE_NOWN && strcmp(n, ct_merge_tune_own[k]) != 0)
            k++;
        if (strcmp(n, ".") == 0 || strcmp(n, "..") == 0 || k < CT_MERGE_NOWN)
            continue;
        char path[PATH_MAX + 256];
        struct stat sb;
        snprintf(path, sizeof path, "%s/%s", dir, n);
        if (ct_library_file_named(n) == NULL) {
            fputs("colltune merge: ", stderr);
            ct_printable_put(stderr, path, (size_t)-1);
            fputs(": no row of the files colltune writes knows it, and a tune writes nothing "
                  "else there: merge cannot tell what it holds (move it out of the tune's "
                  "directory)\n",
                  stderr);
            rc = CT_EXIT_USAGE;
        } else if (lstat(path, &sb) != 0) {
            fprintf(stderr, "colltune merge: %s: %s\n", path, strerror(errno));
            rc = CT_EXIT_USAGE;
        } else if (!S_ISREG(sb.st_mode)) {
            fprintf(stderr, "colltune merge: %s: %s, not a file a tune writes\n", path,
                    S_ISFIFO(sb.st_mode) ? "is a FIFO" : "is not a regular file");
            rc = CT_EXIT_USAGE;
        }
    }
    closedir(d);
    return rc;
}

/* The integer key of o into *v, from lo to hi: CT_EXIT_OK, or exit 2
 * after "PATH: WHERE"KEY" ..." on stderr.  def >= lo: taken when absent. */
static int ct_merge_int(const char *path, const char *where, const json_t *o, const char *key,
                        long long lo, long long hi, long long def, long long *v)
{
    const json_t *j = json_object_get(o, key);
    if (j == NULL && def >= lo) {
        *v = def;
        return CT_EXIT_OK;
    }
    if (!json_is_integer(j)) {
        fprintf(stderr, "colltune merge: %s: %s\"%s\" is %s, not an integer from %lld to %lld\n",
                path, where, key, j ? "something else" : "missing", lo, hi);
        return CT_EXIT_USAGE;
    }
    json_int_t x = json_integer_value(j);
    if (x < lo || x > hi) {
        fprintf(stderr, "colltune merge: %s: %s\"%s\" %lld: %s %lld\n", path, where, key,
                (long long)x, x > hi ? "at most" : "at least", x > hi ? hi : lo);
        return CT_EXIT_USAGE;
    }
    *v = x;
    return CT_EXIT_OK;
}

/* The string key of o, NULL after the reason on stderr. */
static const char *ct_merge_str(const char *path, const char *where, const json_t *o,
                                const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    if (s == NULL || (s[0] == '\0' && strcmp(key, "value") != 0))
        fprintf(stderr, "colltune merge: %s: %s\"%s\" missing, empty or not a string\n", path,
                where, key);
    return s != NULL && (s[0] != '\0' || strcmp(key, "value") == 0) ? s : NULL;
}

/* c's via and scope from the report's words. */
static int ct_merge_words(const char *path, const char *where, const json_t *j, ct_tune_choice_t *c)
{
    const char *via = ct_merge_str(path, where, j, "via");
    const char *scope = ct_merge_str(path, where, j, "scope");
    const ct_coll_name_t *cn = scope ? ct_coll_name_find(scope) : NULL;
    if (via == NULL || scope == NULL)
        return CT_EXIT_USAGE;
    if (strcmp(via, "env") != 0 && strcmp(via, "mca") != 0) {
        fprintf(stderr, "colltune merge: %s: %s\"via\" %s: not env or mca\n", path, where, via);
        return CT_EXIT_USAGE;
    }
    c->via = strcmp(via, "mca") == 0 ? CT_VIA_MCA : CT_VIA_ENV;
    if (strcmp(scope, "global") != 0 && (cn == NULL || cn->id == CT_COLL_NONE)) {
        fprintf(stderr, "colltune merge: %s: %s\"scope\" %s: not global or a collective\n", path,
                where, scope);
        return CT_EXIT_USAGE;
    }
    c->scope = strcmp(scope, "global") == 0 ? CT_SCOPE_GLOBAL : cn->id;
    return CT_EXIT_OK;
}

/* c's sizes and shape; the shape's counts at most CT_MAX_RANKS, so no
 * sum or product of them overflows. */
static int ct_merge_sizes(const char *path, const char *where, const json_t *j, ct_tune_choice_t *c)
{
    long long lo, hi, nodes, nranks, ppn;
    int rc = ct_merge_int(path, where, j, "min_bytes", -1, LLONG_MAX, -2, &lo);
    if (rc == CT_EXIT_OK)
        rc = ct_merge_int(path, where, j, "max_bytes", -1, LLONG_MAX, -2, &hi);
    if (rc == CT_EXIT_OK)
        rc = ct_merge_int(path, where, j, "nranks", 1, CT_MAX_RANKS, -2, &nranks);
    if (rc == CT_EXIT_OK)
        rc = ct_merge_int(path, where, j, "nodes", 1, nranks, -2, &nodes);
    if (rc == CT_EXIT_OK)
        rc = ct_merge_int(path, where, j, "ranks_per_node", 1, CT_MAX_RANKS, nranks / nodes, &ppn);
    if (rc == CT_EXIT_OK && ppn != nranks / nodes) {
        fprintf(stderr, "colltune merge: %s: %s\"ranks_per_node\" %lld: %lld ranks on %lld nodes\n",
                path, where, ppn, nranks, nodes);
        rc = CT_EXIT_USAGE;
    }
    if (rc == CT_EXIT_OK && hi >= 0 && lo > hi) {
        fprintf(stderr, "colltune merge: %s: %s\"min_bytes\" %lld is above \"max_bytes\" %lld\n",
                path, where, lo, hi);
        rc = CT_EXIT_USAGE;
    }
    c->min_bytes = lo;
    c->max_bytes = hi;
    c->nnodes = (long)nodes;
    c->nranks = (long)nranks;
    return rc;
}

/* Room for one more choice in m->r. */
static int ct_merge_grow(ct_merge_t *m)
{
    if (m->r.nchoices < m->cap)
        return CT_EXIT_OK;
    size_t cap = m->cap ? 2 * m->cap : 16;
    ct_tune_choice_t *c = realloc(m->r.choices, cap * sizeof *c);
    if (c != NULL)
        m->r.choices = c;
    ct_merge_src_t *s = c ? realloc(m->src, cap * sizeof *s) : NULL;
    if (s == NULL) {
        fprintf(stderr, "colltune merge: out of memory\n");
        return CT_EXIT_FAILURE;
    }
    m->src = s;
    m->cap = cap;
    return CT_EXIT_OK;
}

/* Choice i of tune t: appended when the tune wrote it. */
static int ct_merge_choice(ct_merge_t *m, int t, const char *path, size_t i, const json_t *j)
{
    char where[64];
    snprintf(where, sizeof where, "choices[%zu] ", i);
    const json_t *w = json_object_get(j, "written");
    if (!json_is_boolean(w)) {
        fprintf(stderr, "colltune merge: %s: %s\"written\" missing or not true/false\n", path,
                where);
        return CT_EXIT_USAGE;
    }
    if (!json_is_true(w))
        return CT_EXIT_OK;
    /* Written means significant and verified: the emitters write no other. */
    if (json_is_false(json_object_get(j, "significant")) ||
        json_is_false(json_object_get(j, "verified"))) {
        fprintf(stderr, "colltune merge: %s: %s is \"written\" but not significant and verified\n",
                path, where);
        return CT_EXIT_USAGE;
    }
    ct_tune_choice_t c = {.significant = 1, .verified = 1};
    const char *name = ct_merge_str(path, where, j, "name");
    const char *value = ct_merge_str(path, where, j, "value");
    int rc = name && value ? ct_merge_words(path, where, j, &c) : CT_EXIT_USAGE;
    if (rc == CT_EXIT_OK)
        rc = ct_merge_sizes(path, where, j, &c);
    if (rc == CT_EXIT_OK)
        rc = ct_merge_grow(m);
    if (rc != CT_EXIT_OK)
        return rc;
    c.name = strdup(name);
    c.value = strdup(value);
    m->r.choices[m->r.nchoices] = c;
    m->src[m->r.nchoices++] = (ct_merge_src_t){(uint64_t)1 << t, j};
    if (c.name == NULL || c.value == NULL) {
        fprintf(stderr, "colltune merge: out of memory\n");
        return CT_EXIT_FAILURE;
    }
    return CT_EXIT_OK;
}

/* The tune's shape member of report.json: from 1 to CT_MAX_RANKS (as
 * --np); def when absent or below 1 (def 0: required). */
static int ct_merge_shape(const char *path, const json_t *report, const char *key, long def,
                          long *v)
{
    const json_t *j = json_object_get(report, key);
    json_int_t x = json_is_integer(j) ? json_integer_value(j) : 0;
    if (x > CT_MAX_RANKS) {
        fprintf(stderr, "colltune merge: %s: \"%s\" %lld: at most %ld\n", path, key, (long long)x,
                CT_MAX_RANKS);
        return CT_EXIT_USAGE;
    }
    if (x < 1 && def == 0) {
        fprintf(stderr,
                "colltune merge: %s has no \"%s\" from 1 to %ld: the tune's shape is unknown\n",
                path, key, CT_MAX_RANKS);
        return CT_EXIT_USAGE;
    }
    *v = x < 1 ? def : (long)x;
    return CT_EXIT_OK;
}

int ct_merge_read_tune(ct_merge_t *m, const char *arg)
{
    ct_merge_tune_t *tu = &m->tunes[m->ntunes];
    if (realpath(arg, tu->dir) == NULL) {
        fprintf(stderr, "colltune merge: TUNE_DIR %s: %s\n", arg, strerror(errno));
        return CT_EXIT_USAGE;
    }
    for (int t = 0; t < m->ntunes; t++)
        if (strcmp(m->tunes[t].dir, tu->dir) == 0) {
            fprintf(stderr, "colltune merge: %s given twice\n", tu->dir);
            return CT_EXIT_USAGE;
        }
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/report.json", tu->dir);
    /* The report as install's check read it (bounded: a FIFO or a huge
     * file refused, not waited on). */
    int rc = ct_install_check_report("merge", tu->dir, &tu->report);
    if (rc != CT_EXIT_OK)
        return rc;
    m->ntunes++; /* tu->report is m's to free now */
    rc = ct_merge_check_dir(tu->dir);
    if (rc == CT_EXIT_OK)
        rc = ct_merge_shape(path, tu->report, "nranks", 0, &tu->nranks);
    if (rc == CT_EXIT_OK)
        rc = ct_merge_shape(path, tu->report, "nnodes", 1, &tu->nnodes);
    const char *id = json_string_value(json_object_get(tu->report, "run_id"));
    snprintf(tu->run_id, sizeof tu->run_id, "%s", id ? id : "(unknown)");
    for (char *p = tu->run_id; *p; p++)
        *p = (char)ct_printable_byte((unsigned char)*p);
    const json_t *choices = json_object_get(tu->report, "choices"), *j;
    size_t i;
    json_array_foreach(choices, i, j)
    {
        if (rc == CT_EXIT_OK)
            rc = ct_merge_choice(m, m->ntunes - 1, path, i, j);
    }
    if (rc == CT_EXIT_OK)
        rc = ct_merge_read_site(m, m->ntunes - 1, path);
    if (rc == CT_EXIT_OK)
        rc = ct_merge_read_tree(m, m->ntunes - 1, path);
    return rc;
}

void ct_merge_free(ct_merge_t *m)
{
    for (size_t i = 0; i < m->r.nchoices; i++) {
        free(m->r.choices[i].name);
        free(m->r.choices[i].value);
    }
    free(m->r.choices);
    free(m->src);
    for (int t = 0; t < m->ntunes; t++)
        json_decref(m->tunes[t].report);
    ct_site_free(&m->site);
    free(m->tree);
}
