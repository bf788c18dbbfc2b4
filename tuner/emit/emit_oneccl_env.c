/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit_oneccl_env.c - oneccl.env: oneCCL's algorithm choices as
 * CCL_<COLL>='<algo>[:<lo>-<hi>][;...]', a file sh sources.
 *
 * oneCCL has not run here (collbench has no oneCCL backend).  The syntax
 * is the oneCCL developer guide's, "Collective algorithms selection":
 *   https://intel.com/content/www/us/en/docs/oneccl/developer-guide-reference/2021-8/environment-variables.html
 * (CCL_<coll_name>="<algo_name_1>[:<size_range_1>][;<algo_name_2>:
 * <size_range_2>][;...]", sizes in bytes, <left>-<right>, `max` for the
 * largest; the later guide, uxlfoundation/oneCCL
 * doc/rst/source/env-variables.rst, keeps it per collective and adds
 * CCL_<COLL>_SCALEOUT in the same form).  Both say "oneCCL internally
 * fills the algorithm selection table with ... defaults.  Your input
 * complements the selection table": a size no range covers keeps oneCCL's
 * own choice, so the gaps between measured ranges, and the sizes outside
 * them, are left to it and named in the file.  Each collective's ranges
 * go into one variable, in size order; ranges that overlap, or a choice
 * for every size beside ranges, are refused.  Sizes are collbench's
 * message sizes in bytes; oneCCL's own definition of a collective's size
 * was not checked.  Values are single-quoted, a ' as '\'' (sh reads
 * '...' as the guide's "..."; the A/B and install read that quoting).
 * Another CCL_ variable holds for every size and is written only over
 * every size.  Keyed by nothing (its row): a variable's ranges hold at
 * every job shape, so two shapes must choose the same ranges and values
 * (ct_emit_shape_conflict marks the others unwritable; the carries hook
 * says which choices the file takes).
 */
#include "emit_format.h"

#include <string.h>

#include "ct_printable.h"

#define CT_CCL_FILE "oneccl.env"

/* A collective colltune measures and oneCCL's variable selecting its
 * algorithm (also as <var>_SCALEOUT, the GPU scale-out phase). */
static const struct {
    int coll;
    const char *var;
} ct_ccl_sel[] = {
    {CT_COLL_ALLREDUCE, "CCL_ALLREDUCE"},
    {CT_COLL_ALLGATHER, "CCL_ALLGATHER"},
    {CT_COLL_ALLTOALL, "CCL_ALLTOALL"},
    {CT_COLL_BROADCAST, "CCL_BCAST"},
    {CT_COLL_REDUCE_SCATTER, "CCL_REDUCE_SCATTER"},
};
#define CT_CCL_NSEL (sizeof ct_ccl_sel / sizeof ct_ccl_sel[0])

static int ct_ccl_choice(const ct_tune_choice_t *c)
{
    return ct_emit_usable(c) && c->via == CT_VIA_ENV &&
           ct_setting_is(c->name, c->via, CT_LIB_ONECCL);
}

/* Whether name is an algorithm selection variable (sizes in its value). */
static int ct_ccl_is_sel(const char *name)
{
    for (size_t i = 0; i < CT_CCL_NSEL; i++) {
        size_t n = strlen(ct_ccl_sel[i].var);
        if (strncmp(name, ct_ccl_sel[i].var, n) == 0 &&
            (name[n] == '\0' || strcmp(name + n, "_SCALEOUT") == 0))
            return 1;
    }
    return 0;
}

/* Whether the file holds c: a selection variable over any range, another
 * CCL_ variable over every size. */
static int ct_ccl_held(const ct_tune_result_t *r, const ct_tune_choice_t *c)
{
    return ct_ccl_choice(c) && (ct_emit_full_range(c) || ct_ccl_is_sel(c->name)) &&
           !ct_emit_shape_repeat(r, c);
}

static int ct_ccl_wanted(const ct_tune_result_t *r)
{
    for (size_t i = 0; i < r->nchoices; i++)
        if (ct_ccl_held(r, &r->choices[i]))
            return 1;
    return 0;
}

static const char *const ct_emit_ccl_install[] = {
    "oneCCL has not run here: check each algorithm against your oneCCL's",
    "developer guide before use.  Source it, exported, before the launcher:",
    "  set -a; . @DIR@/oneccl.env; set +a",
    "CCL_LOG_LEVEL=info makes oneCCL print its selection table.", NULL};

static long long ct_ccl_lo(const ct_tune_choice_t *c)
{
    return c->min_bytes < 0 ? 0 : c->min_bytes;
}

/* The held choice of name after `after` (NULL: the first) in size
 * order, ties in result order; NULL past the last. */
static const ct_tune_choice_t *ct_ccl_next(const ct_tune_result_t *r, const char *name,
                                           const ct_tune_choice_t *after)
{
    const ct_tune_choice_t *next = NULL;
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        if (!ct_ccl_held(r, c) || strcmp(c->name, name) != 0 || c == after)
            continue;
        long long lo = ct_ccl_lo(c);
        int later = after == NULL || lo > ct_ccl_lo(after) || (lo == ct_ccl_lo(after) && c > after);
        if (later && (next == NULL || lo < ct_ccl_lo(next) || (lo == ct_ccl_lo(next) && c < next)))
            next = c;
    }
    return next;
}

/* Whether c is the first held choice of its variable (one line each). */
static int ct_ccl_first(const ct_tune_result_t *r, const ct_tune_choice_t *c)
{
    for (const ct_tune_choice_t *d = r->choices; d < c; d++)
        if (ct_ccl_held(r, d) && strcmp(d->name, c->name) == 0)
            return 0;
    return 1;
}

static int ct_ccl_same_shape(const ct_tune_result_t *r, const ct_tune_choice_t *a,
                             const ct_tune_choice_t *b)
{
    ct_emit_shape_t x = ct_emit_choice_shape(r, a), y = ct_emit_choice_shape(r, b);
    return x.nranks == y.nranks && x.nnodes == y.nnodes;
}

/* One algorithm name: a range would end at ':' and the next entry at ';'. */
static int ct_ccl_algo_ok(const char *v)
{
    size_t n = strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
    return n > 0 && v[n] == '\0';
}

/* c's variable: each value on its line, a selection's one algorithm
 * name per range, its ranges apart and of one job shape, a choice for
 * every size alone; another variable one value. */
static ct_status_t ct_ccl_check(const ct_tune_result_t *r, const ct_tune_choice_t *c, char *err,
                                size_t errlen)
{
    ct_status_t st = ct_emit_check_name(c, CT_CCL_FILE, err, errlen);
    int sel = ct_ccl_is_sel(c->name);
    for (const ct_tune_choice_t *p = NULL, *d; st == CT_OK && (d = ct_ccl_next(r, c->name, p));
         p = d) {
        if (sel && !ct_ccl_algo_ok(d->value)) {
            snprintf(err, errlen,
                     CT_CCL_FILE
                     ": the value of %s is not one algorithm name (letters, digits, "
                     "_): oneCCL reads ':' and ';' in it as a size range and the next entry",
                     c->name);
            st = CT_ERR_USAGE;
        } else if (strpbrk(d->value, "\n\r") != NULL) {
            snprintf(err, errlen,
                     CT_CCL_FILE
                     ": the value of %s contains a newline or carriage return, "
                     "which the file does not write (one export per line; set it in the "
                     "environment instead)",
                     c->name);
            st = CT_ERR_USAGE;
        } else if (p != NULL && !ct_ccl_same_shape(r, p, d)) {
            char ps[64], ds[64];
            ct_emit_shape_name(ct_emit_choice_shape(r, p), ps, sizeof ps);
            ct_emit_shape_name(ct_emit_choice_shape(r, d), ds, sizeof ds);
            snprintf(err, errlen,
                     CT_CCL_FILE ": %s chosen at %s and at %s: its one value holds at every "
                                 "job shape",
                     c->name, ps, ds);
            st = CT_ERR_USAGE;
        } else if (p != NULL && !sel && strcmp(p->value, d->value) != 0) {
            snprintf(err, errlen, CT_CCL_FILE ": %s chosen as both %s and %s", c->name, p->value,
                     d->value);
            st = CT_ERR_USAGE;
        } else if (p != NULL && sel &&
                   (ct_emit_full_range(p) || ct_emit_full_range(d) || p->max_bytes < 0 ||
                    p->max_bytes >= ct_ccl_lo(d))) {
            snprintf(err, errlen,
                     CT_CCL_FILE ": %s chosen as %s from %lld B and as %s from %lld B: the "
                                 "ranges overlap, and oneCCL's table holds one algorithm per size",
                     c->name, p->value, ct_ccl_lo(p), d->value, ct_ccl_lo(d));
            st = CT_ERR_USAGE;
        }
    }
    return st;
}

/* "# Sizes a-b B, c B and up keep oneCCL's own selection" for the gaps of
 * name's ranges (nothing when they cover every size). */
static void ct_ccl_gaps(const ct_tune_result_t *r, const char *name, FILE *fp)
{
    long long from = 0;
    int n = 0, open_top = 0;
    for (const ct_tune_choice_t *p = NULL, *d; (d = ct_ccl_next(r, name, p)) != NULL; p = d) {
        if (ct_ccl_lo(d) > from)
            fprintf(fp, "%s %lld-%lld B", n++ ? "," : "# Sizes", from, ct_ccl_lo(d) - 1);
        open_top = d->max_bytes < 0;
        from = open_top ? from : d->max_bytes + 1;
    }
    if (!open_top)
        fprintf(fp, "%s %lld B and up", n++ ? "," : "# Sizes", from);
    if (n)
        fputs(" keep oneCCL's own selection\n# (the value complements its table).\n", fp);
}

/* One variable: its choices' comment lines, then its export line. */
static void ct_ccl_put(const ct_tune_result_t *r, const char *name, FILE *fp)
{
    int sel = ct_ccl_is_sel(name);
    fputc('\n', fp);
    for (const ct_tune_choice_t *p = NULL, *d; (d = ct_ccl_next(r, name, p)) != NULL; p = d) {
        const char *coll =
            d->scope == CT_SCOPE_GLOBAL ? "every collective" : ct_coll_name((ct_coll_id_t)d->scope);
        fprintf(fp, "# %s, ", coll);
        if (ct_emit_full_range(d))
            fputs("every size", fp);
        else if (d->max_bytes < 0)
            fprintf(fp, "%lld B and up", ct_ccl_lo(d));
        else
            fprintf(fp, "%lld-%lld B", ct_ccl_lo(d), d->max_bytes);
        fputs(": ", fp);
        ct_printable_put(fp, d->value, (size_t)-1);
        fprintf(fp, " (median %.1f us with oneCCL's default, %.1f us with this)\n", d->default_us,
                d->tuned_us);
    }
    if (sel)
        ct_ccl_gaps(r, name, fp);
    fprintf(fp, "export %s='", name);
    /* Another variable: its one value (the check refused two). */
    for (const ct_tune_choice_t *p = NULL, *d; (d = ct_ccl_next(r, name, p)) != NULL && (sel || !p);
         p = d) {
        fputs(p ? ";" : "", fp);
        for (const char *q = d->value; *q; q++) /* ' as '\'' (close, escaped, reopen) */
            if (*q == '\'')
                fputs("'\\''", fp);
            else
                fputc(*q, fp);
        if (!ct_emit_full_range(d)) {
            fprintf(fp, ":%lld-", ct_ccl_lo(d));
            if (d->max_bytes < 0)
                fputs("max", fp);
            else
                fprintf(fp, "%lld", d->max_bytes);
        }
    }
    fputs("'\n", fp);
}

static ct_status_t ct_ccl_write(const ct_emit_ctx_t *ctx, FILE *fp, char *err, size_t errlen)
{
    const ct_tune_result_t *r = ctx->r;
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        ct_status_t st =
            ct_ccl_held(r, c) && ct_ccl_first(r, c) ? ct_ccl_check(r, c, err, errlen) : CT_OK;
        if (st != CT_OK)
            return st;
    }
    ct_emit_header(ctx, fp, CT_CCL_FILE,
                   "oneCCL CCL_<COLL> algorithm selection by message size, sourceable by sh",
                   ct_emit_oneccl_env.install);
    fputs("# oneCCL has not run here; syntax from the oneCCL developer guide,\n"
          "# \"Collective algorithms selection\" (CCL_<COLL>=\"<algo>[:<lo>-<hi>][;...]\",\n"
          "# bytes, max for the largest).  Sizes are collbench's message sizes.\n",
          fp);
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        if (!ct_ccl_choice(c) || ct_ccl_held(r, c) || ct_emit_shape_repeat(r, c))
            continue;
        fputs("# Not written: ", fp);
        ct_printable_put(fp, c->name, (size_t)-1);
        fputc('=', fp);
        ct_printable_put(fp, c->value, (size_t)-1);
        fprintf(fp, " from %lld B only (oneCCL reads it for every size).\n", ct_ccl_lo(c));
    }
    for (size_t i = 0; i < r->nchoices; i++)
        if (ct_ccl_held(r, &r->choices[i]) && ct_ccl_first(r, &r->choices[i]))
            ct_ccl_put(r, r->choices[i].name, fp);
    return CT_OK;
}

/* A selection variable over any size range (its value holds the
 * ranges), another CCL_ variable over every size. */
static ct_emit_carry_t ct_ccl_carries(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                                      const char **why_p)
{
    (void)r;
    (void)why_p;
    return c->via == CT_VIA_ENV && ct_setting_is(c->name, c->via, CT_LIB_ONECCL) &&
                   (ct_emit_full_range(c) || ct_ccl_is_sel(c->name))
               ? CT_EMIT_CARRIES
               : CT_EMIT_NOT_MINE;
}

/* Sourced: oneCCL reads its variables from the environment only. */
const ct_emit_format_t ct_emit_oneccl_env = {
    .name = CT_CCL_FILE,
    .wanted = ct_ccl_wanted,
    .write = ct_ccl_write,
    .install = ct_emit_ccl_install,
    .carries = ct_ccl_carries,
};
