/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * merge_join.c - the tunes' choices as one result, and what merge refuses
 * before the emitters write it: never a file whose choices a tune wrote
 * but the merge would lose, nor two values where a file can hold one.
 *
 * - The same choice (variable, scope, sizes, value, shape) from two tunes
 *   is kept once; two tunes' choices of one variable and scope at one
 *   shape over overlapping sizes are refused, naming both tunes.
 * - A choice no file can carry in the merge (ct_emit_cannot_carry: an
 *   MPICH range without MPICH's tree, or another value of the variable at
 *   another shape where its file is keyed by nothing,
 *   ct_emit_shape_conflict) is refused, naming the tune and its files.
 *   A value chosen at one shape and not at another is the emitters' to
 *   write (their rule, in one place).
 * - A file a tune holds that the merge would not write is refused.
 */
#define _XOPEN_SOURCE 700

#include "merge.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ct_library.h"
#include "ct_names.h"
#include "ct_status.h"
#include "emit.h"

void ct_merge_choice_str(const ct_tune_choice_t *c, char *buf, size_t len)
{
    char lo[32] = "any", hi[32] = "any";
    if (c->min_bytes >= 0)
        snprintf(lo, sizeof lo, "%lld", c->min_bytes);
    if (c->max_bytes >= 0)
        snprintf(hi, sizeof hi, "%lld", c->max_bytes);
    const char *scope = c->scope == CT_SCOPE_GLOBAL ? "global" : ct_coll_name(c->scope);
    snprintf(buf, len, "%s=%s (%s, sizes %s..%s, at %ld ranks on %ld node%s)", c->name, c->value,
             scope ? scope : "?", lo, hi, c->nranks, c->nnodes, c->nnodes == 1 ? "" : "s");
}

/* The lowest tune of a set. */
static int ct_merge_first(uint64_t from)
{
    int t = 0;
    while (t < CT_MERGE_MAX_TUNES - 1 && !(from >> t & 1))
        t++;
    return t;
}

static int ct_merge_same_var(const ct_tune_choice_t *a, const ct_tune_choice_t *b)
{
    return strcmp(a->name, b->name) == 0 && a->via == b->via && a->scope == b->scope;
}

static int ct_merge_overlap(const ct_tune_choice_t *a, const ct_tune_choice_t *b)
{
    long long alo = a->min_bytes < 0 ? 0 : a->min_bytes, blo = b->min_bytes < 0 ? 0 : b->min_bytes;
    long long ahi = a->max_bytes < 0 ? LLONG_MAX : a->max_bytes;
    long long bhi = b->max_bytes < 0 ? LLONG_MAX : b->max_bytes;
    return alo <= bhi && blo <= ahi;
}

static int ct_merge_alike(const ct_tune_choice_t *a, const ct_tune_choice_t *b)
{
    return ct_merge_same_var(a, b) && a->min_bytes == b->min_bytes &&
           a->max_bytes == b->max_bytes && strcmp(a->value, b->value) == 0;
}

/* Each choice against those kept before it: kept once, or refused. */
static int ct_merge_dedupe(ct_merge_t *m)
{
    size_t kept = 0;
    ct_tune_choice_t *v = m->r.choices;
    for (size_t j = 0; j < m->r.nchoices; j++) {
        size_t i = 0;
        for (; i < kept; i++) {
            if ((m->src[i].from & m->src[j].from) || !ct_merge_same_var(&v[i], &v[j]) ||
                v[i].nranks != v[j].nranks || v[i].nnodes != v[j].nnodes ||
                !ct_merge_overlap(&v[i], &v[j]))
                continue;
            if (ct_merge_alike(&v[i], &v[j]))
                break;
            char a[512], b[512];
            ct_merge_choice_str(&v[i], a, sizeof a);
            ct_merge_choice_str(&v[j], b, sizeof b);
            fprintf(stderr,
                    "colltune merge: %s and %s both chose %s at one shape over overlapping "
                    "sizes, differently: %s against %s: merge one of them\n",
                    m->tunes[ct_merge_first(m->src[i].from)].dir,
                    m->tunes[ct_merge_first(m->src[j].from)].dir, v[j].name, a, b);
            return CT_EXIT_USAGE;
        }
        if (i < kept) {
            m->src[i].from |= m->src[j].from;
            free(v[j].name);
            free(v[j].value);
            continue;
        }
        v[kept] = v[j];
        m->src[kept++] = m->src[j];
    }
    m->r.nchoices = kept;
    return CT_EXIT_OK;
}

/* The file names ct_emit_files gives for r, malloc'ed (*n_p of them). */
static const char **ct_merge_files(const ct_tune_result_t *r, size_t *n_p)
{
    size_t n = ct_emit_files(r, NULL, 0);
    const char **names = malloc((n + 1) * sizeof *names);
    if (names != NULL)
        n = ct_emit_files(r, names, n);
    *n_p = names ? n : 0;
    if (names == NULL)
        fprintf(stderr, "colltune merge: out of memory\n");
    return names;
}

static int ct_merge_listed(const char *const *names, size_t n, const char *name)
{
    for (size_t k = 0; k < n; k++)
        if (strcmp(names[k], name) == 0)
            return 1;
    return 0;
}

/* Whether tune t holds a regular file named name. */
static int ct_merge_holds(const ct_merge_t *m, int t, const char *name)
{
    char path[PATH_MAX + 256];
    struct stat sb;
    snprintf(path, sizeof path, "%s/%s", m->tunes[t].dir, name);
    return lstat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* Open MPI 6's JSON rules are written on request (tune --rules-json):
 * the merge makes the files only that request adds where a tune has one. */
static int ct_merge_rules_json(ct_merge_t *m)
{
    size_t n0, n1;
    m->r.rules_json = 0;
    const char **off = ct_merge_files(&m->r, &n0);
    m->r.rules_json = 1;
    const char **on = ct_merge_files(&m->r, &n1);
    int want = 0;
    for (size_t k = 0; off && on && k < n1; k++)
        for (int t = 0; t < m->ntunes && !ct_merge_listed(off, n0, on[k]); t++)
            want |= ct_merge_holds(m, t, on[k]);
    m->r.rules_json = want;
    free(off);
    free(on);
    return off && on ? CT_EXIT_OK : CT_EXIT_FAILURE;
}

/* The result's own facts: the smallest shape (choices carry theirs), the
 * tunes' spaces, the site and MPICH's tree. */
static void ct_merge_meta(ct_merge_t *m)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(m->date, sizeof m->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    snprintf(m->run_id, sizeof m->run_id, "merge-%ld-%ld", (long)now, (long)getpid());
    for (int t = 0; t < m->ntunes; t++) {
        const ct_merge_tune_t *tu = &m->tunes[t];
        const char *sp = json_string_value(json_object_get(tu->report, "space"));
        const char *pp = json_string_value(json_object_get(tu->report, "space_path"));
        size_t ls = strlen(m->space), lp = strlen(m->space_path);
        if (sp != NULL && strstr(m->space, sp) == NULL)
            snprintf(m->space + ls, sizeof m->space - ls, "%s%s", ls ? "+" : "", sp);
        if (pp != NULL && strstr(m->space_path, pp) == NULL)
            snprintf(m->space_path + lp, sizeof m->space_path - lp, "%s%s", lp ? "," : "", pp);
        if (t == 0 || tu->nranks < m->r.nranks ||
            (tu->nranks == m->r.nranks && tu->nnodes < m->r.nnodes)) {
            m->r.nranks = tu->nranks;
            m->r.nnodes = tu->nnodes;
        }
    }
    m->r.space_name = m->space;
    m->r.space_path = m->space_path;
    m->r.run_id = m->run_id;
    m->r.date = m->date;
    m->r.source = "measured";
    m->r.site = m->has_site ? &m->site : NULL;
    m->r.mpich_tree = m->tree;
}

/* Every choice carried by a file the merge writes. */
static int ct_merge_carried(const ct_merge_t *m)
{
    for (size_t i = 0; i < m->r.nchoices; i++) {
        const ct_tune_choice_t *c = &m->r.choices[i];
        char s[512], shapes[1024];
        const char *why = ct_emit_shape_conflict(&m->r, c, shapes, sizeof shapes);
        int t = ct_merge_first(m->src[i].from);
        for (size_t j = 0; why != NULL && j < m->r.nchoices; j++)
            if (ct_merge_same_var(c, &m->r.choices[j]) &&
                strcmp(c->value, m->r.choices[j].value) != 0 &&
                (c->nranks != m->r.choices[j].nranks || c->nnodes != m->r.choices[j].nnodes)) {
                fprintf(stderr, "colltune merge: %s and %s: %s: merge tunes that agree on it\n",
                        m->tunes[t].dir, m->tunes[ct_merge_first(m->src[j].from)].dir, why);
                return CT_EXIT_USAGE;
            }
        if (why == NULL && (why = ct_emit_cannot_carry(&m->r, c)) == NULL)
            continue;
        ct_merge_choice_str(c, s, sizeof s);
        fprintf(stderr,
                "colltune merge: %s/report.json: %s: no file the merge writes carries it: %s",
                m->tunes[t].dir, s, why);
        const ct_library_t *lib = ct_library_of(c->name, c->via == CT_VIA_MCA);
        const ct_library_file_t *f;
        /* Where the library's files include its own tree: why none. */
        if (ct_merge_tree_lib(c) && m->tree == NULL && m->tree_why[0] != '\0')
            fprintf(stderr, " (%s)", m->tree_why);
        for (size_t k = 0; lib != NULL && (f = ct_library_file_at(k)) != NULL; k++)
            if (f->carries == lib->id && ct_merge_holds(m, t, f->name))
                fprintf(stderr, "; the tune wrote %s/%s", m->tunes[t].dir, f->name);
        fputs(": merge without this tune, or install it alone\n", stderr);
        return CT_EXIT_USAGE;
    }
    return CT_EXIT_OK;
}

/* Every file a tune holds is one the merge writes. */
static int ct_merge_kept(const ct_merge_t *m)
{
    size_t n;
    const char **names = ct_merge_files(&m->r, &n);
    const ct_library_file_t *f;
    int rc = names ? CT_EXIT_OK : CT_EXIT_FAILURE;
    for (int t = 0; t < m->ntunes && rc == CT_EXIT_OK; t++)
        for (size_t k = 0; rc == CT_EXIT_OK && (f = ct_library_file_at(k)) != NULL; k++)
            if (ct_merge_holds(m, t, f->name) && !ct_merge_listed(names, n, f->name)) {
                fprintf(stderr,
                        "colltune merge: %s/%s: the merged choices write no %s, so what the "
                        "tune wrote there would be lost: merge without this tune, or install "
                        "it alone\n",
                        m->tunes[t].dir, f->name, f->name);
                rc = CT_EXIT_USAGE;
            }
    free(names);
    return rc;
}

int ct_merge_join(ct_merge_t *m)
{
    int rc = ct_merge_dedupe(m);
    ct_merge_meta(m);
    if (rc == CT_EXIT_OK)
        rc = ct_merge_rules_json(m);
    if (rc == CT_EXIT_OK)
        rc = ct_merge_carried(m);
    if (rc == CT_EXIT_OK)
        rc = ct_merge_kept(m);
    return rc;
}
