/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit_shape_conflict.c - the one place that refuses a value no file can
 * key by the job shape it was measured at (see emit.h).
 *
 * A choice holds at its own shape.  A file keyed by nodes and ranks
 * (nccl_tuner.conf) writes a block per shape, and nothing conflicts there;
 * one keyed by rank count (coll/tuned's rules, MPICH's tree, Intel MPI's
 * @p-q) a block per rank count, so shapes of as many ranks on other nodes
 * (2x4 and 4x2) must agree over the sizes both chose; one keyed by
 * nothing holds one value for every shape, so the shapes that chose the
 * variable must agree (on its ranges too where the value holds them, as
 * oneccl.env's CCL_<COLL>).  And there every shape the result holds for
 * c's library must have chosen it: at a shape where the variable was not
 * chosen (not searched, or not faster) the library's own value stays, and
 * a file that holds one value for every shape cannot keep it there.  The key is the row's (ct_library.h) of the file that
 * carries the choice: emit_carry.c asks each format's carries hook which
 * that is, so a tune or a merge reports such a choice unwritable
 * (ct_emit_cannot_carry); each writer asks with its own row's key, and
 * refuses a result that was not marked.
 */
#include "emit_format.h"

#include <limits.h>
#include <string.h>

#include "ct_library.h"

static long long ct_lo(const ct_tune_choice_t *c) { return c->min_bytes < 0 ? 0 : c->min_bytes; }
static long long ct_hi(const ct_tune_choice_t *c)
{
    return c->max_bytes < 0 ? LLONG_MAX : c->max_bytes;
}

/* Whether o, another shape's significant choice of c's variable and scope,
 * sets it otherwise where a file keyed as key cannot tell the shapes
 * apart: keyed by nothing, another value (or, for c over a range, another
 * range: the value holds c's ranges, unless the file holds it at every
 * size); by rank count, as many ranks and
 * another value or bounds over overlapping sizes. */
static int ct_differs(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                      const ct_tune_choice_t *o, ct_file_key_t key)
{
    if (o == c || !o->significant || o->via != c->via || o->scope != c->scope ||
        strcmp(o->name, c->name) != 0)
        return 0;
    ct_emit_shape_t cs = ct_emit_choice_shape(r, c), os = ct_emit_choice_shape(r, o);
    if (cs.nranks == os.nranks && cs.nnodes == os.nnodes)
        return 0;
    if (key == CT_FILE_KEY_NONE)
        return strcmp(o->value, c->value) != 0 ||
               (!ct_emit_full_range(c) && !ct_emit_carried_any_size(r, c) &&
                (ct_lo(o) != ct_lo(c) || ct_hi(o) != ct_hi(c)));
    if (cs.nranks != os.nranks || ct_lo(o) > ct_hi(c) || ct_lo(c) > ct_hi(o))
        return 0;
    return strcmp(o->value, c->value) != 0 || ct_lo(o) != ct_lo(c) || ct_hi(o) != ct_hi(c);
}

/* The files carrying c's family keyed as key (Intel MPI's process ranges
 * with the rank-count ones), "a", "a and b" or "a, b and c", from the
 * rows; returns how many. */
static size_t ct_files_keyed(const ct_tune_choice_t *c, ct_file_key_t key, char *buf, size_t len)
{
    const ct_library_family_t *f = ct_library_family_of(c->name, c->via == CT_VIA_MCA, NULL);
    const ct_library_file_t *row;
    size_t n = 0, k = 0, off = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; (row = ct_library_file_at(i)) != NULL; i++) {
            ct_file_key_t rk = row->keyed == CT_FILE_KEY_PROCS ? CT_FILE_KEY_COMM_SIZE : row->keyed;
            if (rk != key || !ct_library_family_carries(f, row->name))
                continue;
            if (pass == 0) {
                n++;
                continue;
            }
            const char *sep = k == 0 ? "" : k + 1 == n ? " and " : ", ";
            if (off < len)
                off += (size_t)snprintf(buf + off, len - off, "%s%s", sep, row->name);
            k++;
        }
    if (n == 0)
        snprintf(buf, len, "%s", "its file");
    return n;
}

/* "every size", "a..b B" or "a B and up". */
static void ct_sizes(const ct_tune_choice_t *c, char *buf, size_t len)
{
    if (ct_emit_full_range(c))
        snprintf(buf, len, "every size");
    else if (c->max_bytes < 0)
        snprintf(buf, len, "%lld B and up", ct_lo(c));
    else
        snprintf(buf, len, "%lld..%lld B", ct_lo(c), c->max_bytes);
}

/* Whether the result has a shape where choices of c's library were made
 * (significant ones) and none of c's variable and scope: that shape into
 * *s_p. */
static int ct_missing_shape(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                            ct_emit_shape_t *s_p)
{
    const ct_library_t *lib = NULL, *olib = NULL;
    ct_library_family_of(c->name, c->via == CT_VIA_MCA, &lib);
    ct_emit_shape_t cs = ct_emit_choice_shape(r, c);
    for (size_t i = 0; lib != NULL && i < r->nchoices; i++) {
        const ct_tune_choice_t *o = &r->choices[i];
        ct_emit_shape_t os = ct_emit_choice_shape(r, o);
        if (!o->significant || (os.nranks == cs.nranks && os.nnodes == cs.nnodes) ||
            ct_library_family_of(o->name, o->via == CT_VIA_MCA, &olib) == NULL || olib != lib)
            continue;
        int chosen = 0;
        for (size_t k = 0; k < r->nchoices && !chosen; k++) {
            const ct_tune_choice_t *q = &r->choices[k];
            ct_emit_shape_t qs = ct_emit_choice_shape(r, q);
            chosen = q->significant && qs.nranks == os.nranks && qs.nnodes == os.nnodes &&
                     q->via == c->via && q->scope == c->scope && strcmp(q->name, c->name) == 0;
        }
        if (!chosen) {
            *s_p = os;
            return 1;
        }
    }
    return 0;
}

const char *ct_emit_shape_conflict_in(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                                      const char *file, char *buf, size_t len)
{
    const ct_library_file_t *row = ct_library_file_named(file);
    return ct_emit_shape_conflict_keyed(r, c, row != NULL ? row->keyed : CT_FILE_KEY_NONE, buf,
                                        len);
}

const char *ct_emit_shape_conflict_keyed(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                                         ct_file_key_t key, char *buf, size_t len)
{
    const ct_tune_choice_t *o = NULL;
    if (key == CT_FILE_KEY_PROCS)
        key = CT_FILE_KEY_COMM_SIZE;
    for (size_t i = 0; key != CT_FILE_KEY_NODES_RANKS && o == NULL && i < r->nchoices; i++)
        if (ct_differs(r, c, &r->choices[i], key))
            o = &r->choices[i];
    ct_emit_shape_t missing;
    /* A switch carried at every size (CT_EMIT_CARRIES_ANY_SIZE) changes
     * no decision alone, so a shape that did not choose it keeps its own
     * decisions under it too. */
    if (o == NULL && key == CT_FILE_KEY_NONE && !ct_emit_carried_any_size(r, c) &&
        ct_missing_shape(r, c, &missing)) {
        if (buf == NULL || len == 0)
            return "another job shape measured did not choose it, and the file that would carry "
                   "it holds one value for every job shape";
        char cshape[64], mshape[64], files[256];
        ct_emit_shape_name(ct_emit_choice_shape(r, c), cshape, sizeof cshape);
        ct_emit_shape_name(missing, mshape, sizeof mshape);
        size_t nfiles = ct_files_keyed(c, key, files, sizeof files);
        const char *coll =
            c->scope == CT_SCOPE_GLOBAL ? NULL : ct_coll_name((ct_coll_id_t)c->scope);
        snprintf(buf, len,
                 "%s=%s%s%s holds at %s but was not chosen at %s, where the library's own value "
                 "stays; %s %s one value for every job shape",
                 c->name, c->value, coll ? " for " : "", coll ? coll : "", cshape, mshape, files,
                 nfiles > 1 ? "hold" : "holds");
        return buf;
    }
    if (o == NULL)
        return NULL;
    if (buf == NULL || len == 0)
        return key == CT_FILE_KEY_NONE
                   ? "another job shape measured chose another value, and the file that would "
                     "carry it holds one value for every job shape"
                   : "a job shape with as many ranks on other nodes chose otherwise over these "
                     "sizes, and the file that would carry it keys by rank count only";
    char cshape[64], oshape[64], files[256], cs[64], os[64];
    ct_emit_shape_name(ct_emit_choice_shape(r, c), cshape, sizeof cshape);
    ct_emit_shape_name(ct_emit_choice_shape(r, o), oshape, sizeof oshape);
    size_t nfiles = ct_files_keyed(c, key, files, sizeof files);
    const char *coll = c->scope == CT_SCOPE_GLOBAL ? NULL : ct_coll_name((ct_coll_id_t)c->scope);
    ct_sizes(c, cs, sizeof cs);
    ct_sizes(o, os, sizeof os);
    if (key == CT_FILE_KEY_NONE) {
        /* Over a range (the value holds it), both ranges are named. */
        int ranged = !ct_emit_full_range(c);
        snprintf(buf, len,
                 "%s=%s%s%s%s%s holds at %s but %s=%s%s%s at %s differs; %s %s one value for every "
                 "job shape",
                 c->name, c->value, coll ? " for " : "", coll ? coll : "", ranged ? " over " : "",
                 ranged ? cs : "", cshape, o->name, o->value, ranged ? " over " : "",
                 ranged ? os : "", oshape, files, nfiles > 1 ? "hold" : "holds");
        return buf;
    }
    snprintf(buf, len,
             "%s=%s%s%s over %s holds at %s but %s=%s over %s at %s differs; %s %s by rank count "
             "only (%ld ranks at both)",
             c->name, c->value, coll ? " for " : "", coll ? coll : "", cs, cshape, o->name,
             o->value, os, oshape, files, nfiles > 1 ? "key" : "keys",
             ct_emit_choice_shape(r, c).nranks);
    return buf;
}
