/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit_tuned_rules.c - coll-tuned-rules.conf: Open MPI 4.1's classic
 * dynamic rules file for coll/tuned (coll_tuned_dynamic_file.c).
 *
 *   <number of collectives>
 *   <collective id>  <number of comm sizes>
 *   <comm size>  <number of rules>
 *   <msgsize> <algorithm> <fan-in/out> <segsize>      (one per rule)
 *
 * 4.1 reads numbers with fscanf and skips from '#' to the end of the
 * line, so the header is comments.  Its mistakes are silent, so:
 * - the first msgsize of every comm size is 0 (otherwise 4.1 ignores the
 *   whole file);
 * - no "rule-file-version" line (4.1 does not know it, and gives up);
 * - msgsize is what 4.1 looks up: the total bytes (count x typesize for
 *   allreduce and bcast; block x comm size for allgather, alltoall and
 *   reduce_scatter_block), which is collbench's size;
 * - fan-in/out is explicit: chain bcast's default of 4 unless tuned (a 0
 *   makes it 2.6x slower), 1 for pipeline, 0 where 4.1 does not read it.
 * A rule's algorithm 0 hands the size back to 4.1's built-in decision,
 * which is what the sizes outside every tuned range get.
 *
 * Comm sizes: rules hold at the rank counts measured, N1 < N2 < ..., only
 * (a choice carries its shape; a tune has one, a merge several).  4.1
 * (coll_tuned_dynamic_rules.c, ompi_coll_tuned_get_com_rule_ptr) takes the
 * last comm size entry not above the communicator's size, and the first
 * entry when every one is above it; so N's rules alone would steer every
 * communicator.  Hence an entry at 1 (when N1 > 1), at N_i+1 below every
 * N_(i+1) not next to it, and at Nk+1, each a single rule "0 0 0 0":
 * algorithm 0 falls through to a forced algorithm or 4.1's fixed decision
 * (coll_tuned_decision_dynamic.c).  Two shapes of one rank count (2x4,
 * 4x2) share its entry, so they must agree (ct_emit_shape_conflict); with
 * algorithms measured at several shapes every one goes here, not into
 * mca-params.conf, which holds one value for every shape.
 * Open MPI 6 (main) reads this classic file with shifted bounds (an entry
 * at C covers the sizes from the previous entry up to C-1): give it the
 * JSON file, whose comm_size_min/max say N..N outright for each N.
 */
#include "emit_format.h"
#include "ct_printable.h"
#include "ct_vec.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef ct_emit_tuned_coll_t ct_tuned_coll_t;
typedef ct_emit_rule_t ct_rule_t;

/* The rows come from src/lib (ct_names.c); walking Open MPI's ids keeps
 * 4.1's collective-id order in both rules files. */
const ct_emit_tuned_coll_t *ct_emit_tuned_coll_at(size_t index)
{
    for (int id = 0; id < CT_OMPI_COLL_COUNT; id++) {
        const ct_emit_tuned_coll_t *t = ct_coll_name_of_ompi(id);
        if (t != NULL && index-- == 0)
            return t;
    }
    return NULL;
}

/* bcast's algorithm ids that read fan-in/out, and their defaults. */
#define CT_BCAST_CHAIN 2
#define CT_BCAST_PIPELINE 3
#define CT_BCAST_CHAIN_FANOUT 4

static int ct_is_mca(const ct_tune_choice_t *c)
{
    return ct_emit_usable(c) && c->via == CT_VIA_MCA;
}

static const ct_tuned_coll_t *ct_alg_var(const char *name)
{
    const ct_tuned_coll_t *t = ct_coll_name_of_tuned_var(name);
    return t != NULL && strcmp(t->tuned.alg, name) == 0 ? t : NULL;
}

/* The site's forced algorithm for t from a source stronger than
 * mca-params.conf (OMPI_MCA_, --mca, the override file), or NULL: then
 * only the rules file, which 4.1 consults before a forced algorithm,
 * carries a choice of t's algorithm (site_rank.c). */
static const ct_site_setting_t *ct_site_forced(const ct_tune_result_t *r, const ct_tuned_coll_t *t)
{
    const ct_site_setting_t *e = ct_site_find(r->site, t->tuned.alg, 1);
    return e != NULL && e->source != CT_SITE_FILE ? e : NULL;
}

/* Whether r's significant algorithm choices come from more than one job
 * shape: mca-params.conf holds one value for every shape, the rules file a
 * section per rank count, with 4.1's own decision at the others. */
static int ct_algs_multi_shape(const ct_tune_result_t *r)
{
    const ct_tune_choice_t *first = NULL;
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *o = &r->choices[i];
        if (!o->significant || o->via != CT_VIA_MCA || ct_alg_var(o->name) == NULL)
            continue;
        ct_emit_shape_t a = ct_emit_choice_shape(r, first ? first : o),
                        b = ct_emit_choice_shape(r, o);
        if (a.nranks != b.nranks || a.nnodes != b.nnodes)
            return 1;
        first = o;
    }
    return 0;
}

/* Whether algorithm choice c needs the rules file by itself: a size range
 * only, an algorithm the site forces above mca-params.conf, or algorithms
 * measured at several shapes. */
static int ct_alg_needs_rules(const ct_tune_result_t *r, const ct_tune_choice_t *c)
{
    const ct_tuned_coll_t *t = c->via == CT_VIA_MCA ? ct_alg_var(c->name) : NULL;
    return t != NULL &&
           (!ct_emit_full_range(c) || ct_site_forced(r, t) != NULL || ct_algs_multi_shape(r));
}

int ct_emit_tuned_rules_wanted(const ct_tune_result_t *r)
{
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        if (ct_is_mca(c) && ct_alg_needs_rules(r, c))
            return 1;
    }
    return 0;
}

/* c itself need not be usable yet: the outranked hooks ask before the
 * A/B where c would go (its own need, or the other choices'). */
int ct_emit_tuned_in_rules(const ct_tune_result_t *r, const ct_tune_choice_t *c)
{
    if (c->via != CT_VIA_MCA)
        return 0;
    if (ct_alg_needs_rules(r, c))
        return 1;
    const ct_tuned_coll_t *t;
    /* A segment size or fan-out goes with its algorithm choice over the
     * same range when that one needs the rules (usable or not yet). */
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *o = &r->choices[i];
        t = o->significant && o->unwritable == NULL && o->scope == c->scope &&
                    o->min_bytes == c->min_bytes && o->max_bytes == c->max_bytes &&
                    ct_alg_needs_rules(r, o)
                ? ct_alg_var(o->name)
                : NULL;
        if (t != NULL && (strcmp(c->name, t->tuned.seg) == 0 ||
                          (t->tuned.fanout && strcmp(c->name, t->tuned.fanout) == 0)))
            return 1;
    }
    if (!ct_emit_tuned_rules_wanted(r))
        return 0;
    for (size_t i = 0; (t = ct_emit_tuned_coll_at(i)) != NULL; i++) {
        if (strcmp(c->name, t->tuned.alg) == 0 || strcmp(c->name, t->tuned.seg) == 0 ||
            (t->tuned.fanout && strcmp(c->name, t->tuned.fanout) == 0))
            return 1;
    }
    return 0;
}

ct_emit_carry_t ct_emit_tuned_rules_carries(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                                            const char **why_p)
{
    (void)why_p;
    if (c->via != CT_VIA_MCA)
        return CT_EMIT_NOT_MINE;
    if (ct_emit_tuned_in_rules(r, c))
        return CT_EMIT_CARRIES;
    /* Over a range, coll/tuned's algorithm, segment size and fan-out have
     * per-size rules: this file's form for them. */
    const ct_tuned_coll_t *t = ct_coll_name_of_tuned_var(c->name);
    if (!ct_emit_full_range(c) && t != NULL && t->tuned.alg != NULL &&
        (strcmp(c->name, t->tuned.alg) == 0 || strcmp(c->name, t->tuned.seg) == 0 ||
         (t->tuned.fanout && strcmp(c->name, t->tuned.fanout) == 0)))
        return CT_EMIT_CARRIES;
    return CT_EMIT_NOT_MINE;
}

/* The choice named name for the same collective and size range as c. */
static const ct_tune_choice_t *ct_same_range(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                                             const char *name)
{
    for (size_t i = 0; name && i < r->nchoices; i++) {
        const ct_tune_choice_t *o = &r->choices[i];
        if (ct_is_mca(o) && o->scope == c->scope && o->min_bytes == c->min_bytes &&
            o->max_bytes == c->max_bytes && strcmp(o->name, name) == 0)
            return o;
    }
    return NULL;
}

static ct_status_t ct_parse_long(const ct_tune_choice_t *c, long *v_p, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    long v = strtol(c->value, &end, 10);
    if (errno != 0 || end == c->value || *end != '\0' || v < 0 || v > INT_MAX) {
        snprintf(err, errlen, "%s: %s=%s is not a non-negative integer", CT_EMIT_TUNED_RULES_NAME,
                 c->name, c->value);
        return CT_ERR_USAGE;
    }
    *v_p = v;
    return CT_OK;
}

static int ct_by_min(const void *a, const void *b)
{
    const ct_tune_choice_t *x = *(const ct_tune_choice_t *const *)a;
    const ct_tune_choice_t *y = *(const ct_tune_choice_t *const *)b;
    long long mx = x->min_bytes < 0 ? 0 : x->min_bytes, my = y->min_bytes < 0 ? 0 : y->min_bytes;
    return mx < my ? -1 : mx > my;
}

/* The rules for one collective: tuned ranges in size order, the gaps
 * between and after them handed back to 4.1's decision (algorithm 0), and
 * always a first rule at 0. */
ct_status_t ct_emit_tuned_coll_rules(const ct_tune_result_t *r, const ct_emit_tuned_coll_t *t,
                                     ct_emit_rule_t **rules_p, size_t *n_p, char *err,
                                     size_t errlen)
{
    const ct_tune_choice_t **algs = calloc(r->nchoices + 1, sizeof(*algs));
    ct_rule_t *rules = calloc(2 * r->nchoices + 2, sizeof(*rules));
    size_t na = 0, n = 0;
    long long next = 0; /* the smallest size no rule covers yet; -1: none left */
    ct_status_t st = CT_OK;

    if (algs == NULL || rules == NULL) {
        free(algs);
        free(rules);
        return CT_ERR_NOMEM;
    }
    for (size_t i = 0; i < r->nchoices; i++)
        if (ct_is_mca(&r->choices[i]) && strcmp(r->choices[i].name, t->tuned.alg) == 0)
            algs[na++] = &r->choices[i];
    ct_vec_sort(algs, na, sizeof(*algs), ct_by_min);

    for (size_t i = 0; i < na && st == CT_OK; i++) {
        const ct_tune_choice_t *c = algs[i], *seg = ct_same_range(r, c, t->tuned.seg),
                               *fan = ct_same_range(r, c, t->tuned.fanout);
        long long lo = c->min_bytes < 0 ? 0 : c->min_bytes;
        ct_rule_t rule = {lo, 0, 0, 0};
        if (next < 0 || lo < next) {
            snprintf(err, errlen, "%s: %s: size ranges overlap at %lld bytes",
                     CT_EMIT_TUNED_RULES_NAME, t->tuned.alg, lo);
            st = CT_ERR_USAGE;
            break;
        }
        st = ct_parse_long(c, &rule.alg, err, errlen);
        if (st == CT_OK && seg)
            st = ct_parse_long(seg, &rule.seg, err, errlen);
        if (st == CT_OK && t->tuned.fanout && rule.alg == CT_BCAST_CHAIN) {
            rule.fan = CT_BCAST_CHAIN_FANOUT;
            if (fan)
                st = ct_parse_long(fan, &rule.fan, err, errlen);
        } else if (t->tuned.fanout && rule.alg == CT_BCAST_PIPELINE) {
            rule.fan = 1;
        }
        if (lo > next)
            rules[n++] = (ct_rule_t){next, 0, 0, 0};
        rules[n++] = rule;
        next = c->max_bytes < 0 ? -1 : c->max_bytes + 1;
    }
    if (st == CT_OK && next >= 0)
        rules[n++] = (ct_rule_t){next, 0, 0, 0};
    free(algs);
    if (st != CT_OK) {
        free(rules);
        return st;
    }
    *rules_p = rules;
    *n_p = n;
    return CT_OK;
}

int ct_emit_tuned_has_alg(const ct_tune_result_t *r, const ct_emit_tuned_coll_t *t)
{
    for (size_t i = 0; i < r->nchoices; i++)
        if (ct_is_mca(&r->choices[i]) && strcmp(r->choices[i].name, t->tuned.alg) == 0)
            return 1;
    return 0;
}

/* The header's install text (the entry carries it). */
static const char *const ct_emit_tuned_rules_install[] = {
    "mca-params.conf beside it already points Open MPI here.  To use it alone:",
    "  mpirun --mca coll_tuned_use_dynamic_rules 1 \\",
    "         --mca coll_tuned_dynamic_rules_filename @DIR@/" CT_EMIT_TUNED_RULES_NAME " ...",
    "Format: Open MPI 4.1's classic rules (msgsize = total bytes).", NULL};

/* The site's forced algorithm t overrides, said above t's entry. */
static void ct_put_site_forced(const ct_tune_result_t *r, const ct_tuned_coll_t *t, FILE *fp)
{
    const ct_site_setting_t *e = ct_site_forced(r, t);
    if (e == NULL)
        return;
    fputs("\n# Overrides the site's ", fp);
    ct_printable_put(fp, e->name, strlen(e->name));
    fputs(" = ", fp);
    ct_printable_put(fp, e->value, strlen(e->value));
    fputs(" (", fp);
    ct_printable_put(fp, e->origin, strlen(e->origin));
    fputs(") at the tuned sizes:\n# Open MPI 4.1 consults this file before a forced "
          "algorithm (5.x the other\n# way round); other sizes keep the site's.\n",
          fp);
}

/* t's entry: a comm size per rank count measured, with its rules, and
 * one rule of algorithm 0 for the comm sizes below, between and above
 * them (4.1 takes the last entry not above the communicator's size). */
static ct_status_t ct_put_coll(const ct_tune_result_t *views, size_t nviews,
                               const ct_tuned_coll_t *t, FILE *fp, char *err, size_t errlen)
{
    size_t nsizes = 0;
    long prev = 0; /* the largest comm size an entry covers so far */
    for (size_t v = 0; v < nviews; v++)
        if (ct_emit_tuned_has_alg(&views[v], t)) {
            nsizes += 1 + (size_t)(views[v].nranks - 1 > prev);
            prev = views[v].nranks;
        }
    fprintf(fp, "\n%d # %s (%s)\n%zu # comm sizes\n", t->tuned.id,
            t->tuned.alg + strlen("coll_tuned_"), t->name, nsizes + 1);
    prev = 0;
    for (size_t v = 0; v < nviews; v++) {
        const ct_tune_result_t *r = &views[v];
        ct_rule_t *rules;
        size_t n;
        if (!ct_emit_tuned_has_alg(r, t))
            continue;
        ct_status_t st = ct_emit_tuned_coll_rules(r, t, &rules, &n, err, errlen);
        if (st != CT_OK)
            return st;
        if (r->nranks - 1 > prev)
            fprintf(fp, "%ld 1 # comm sizes %ld-%ld: Open MPI's own decision\n0 0 0 0\n", prev + 1,
                    prev + 1, r->nranks - 1);
        fprintf(fp, "%ld %zu # comm size, rules\n", r->nranks, n);
        fputs("# msgsize algorithm faninout segsize\n", fp);
        for (size_t k = 0; k < n; k++)
            fprintf(fp, "%lld %ld %ld %ld\n", rules[k].msgsize, rules[k].alg, rules[k].fan,
                    rules[k].seg);
        free(rules);
        prev = r->nranks;
    }
    fprintf(fp, "%ld 1 # comm sizes %ld up: Open MPI's own decision\n0 0 0 0\n", prev + 1,
            prev + 1);
    return CT_OK;
}

/* Each collective's rules at every rank count measured (one view each). */
static ct_status_t ct_tuned_rules_put(const ct_emit_ctx_t *ctx, const ct_tune_result_t *views,
                                      size_t nviews, FILE *fp, char *err, size_t errlen)
{
    size_t ncolls = 0;
    const ct_tuned_coll_t *t;
    for (size_t i = 0; (t = ct_emit_tuned_coll_at(i)) != NULL; i++)
        ncolls += (size_t)ct_emit_tuned_has_alg(ctx->r, t);
    ct_emit_header(ctx, fp, CT_EMIT_TUNED_RULES_NAME,
                   "Open MPI coll/tuned dynamic rules (4.1 classic format)",
                   ct_emit_tuned_rules.install);
    fprintf(fp, "%zu # collectives\n", ncolls);
    ct_status_t st = CT_OK;
    for (size_t i = 0; (t = ct_emit_tuned_coll_at(i)) != NULL && st == CT_OK; i++) {
        if (!ct_emit_tuned_has_alg(ctx->r, t))
            continue;
        ct_put_site_forced(ctx->r, t, fp);
        st = ct_put_coll(views, nviews, t, fp, err, errlen);
    }
    return st;
}

ct_status_t ct_emit_tuned_views(const ct_tune_result_t *r, ct_tune_result_t **views_p, size_t *n_p,
                                char *err, size_t errlen)
{
    long *counts;
    size_t n;
    /* Two shapes of one rank count share its entry: they must agree. */
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        if (ct_is_mca(c) && ct_emit_tuned_in_rules(r, c) &&
            ct_emit_shape_conflict_in(r, c, CT_EMIT_TUNED_RULES_NAME, err, errlen) != NULL)
            return CT_ERR_USAGE;
    }
    if (ct_emit_rank_counts(r, &counts, &n) != CT_OK)
        return CT_ERR_NOMEM;
    ct_tune_result_t *views = calloc(n ? n : 1, sizeof *views);
    ct_status_t st = views ? CT_OK : CT_ERR_NOMEM;
    for (size_t v = 0; v < n && st == CT_OK; v++)
        st = ct_emit_ranks_view(r, counts[v], &views[v]);
    free(counts);
    if (st != CT_OK) {
        ct_emit_tuned_views_free(views, n);
        snprintf(err, errlen, "%s: out of memory", CT_EMIT_TUNED_RULES_NAME);
        return st;
    }
    *views_p = views;
    *n_p = n;
    return CT_OK;
}

void ct_emit_tuned_views_free(ct_tune_result_t *views, size_t n)
{
    for (size_t v = 0; views != NULL && v < n; v++)
        ct_emit_shape_view_free(&views[v]);
    free(views);
}

static ct_status_t ct_tuned_rules_write(const ct_emit_ctx_t *ctx, FILE *fp, char *err,
                                        size_t errlen)
{
    ct_tune_result_t *views;
    size_t n;
    ct_status_t st = ct_emit_tuned_views(ctx->r, &views, &n, err, errlen);
    if (st != CT_OK)
        return st;
    st = ct_tuned_rules_put(ctx, views, n, fp, err, errlen);
    ct_emit_tuned_views_free(views, n);
    return st;
}

/* A choice the rules file would carry, with the file kept from being
 * read: the site names another rules file or turns the rules off above
 * mca-params.conf.  No form wins then (a forced algorithm in
 * mca-params.conf needs the same switch). */
static const char *ct_tuned_rules_outranked(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                                            char *buf, size_t len)
{
    const char *why = NULL;
    const ct_site_setting_t *e =
        ct_emit_tuned_in_rules(r, c)
            ? ct_site_outranks(r->site, CT_EMIT_TUNED_RULES_NAME, c->name, c->value, c->scope, &why)
            : NULL;
    if (e == NULL)
        return NULL;
    snprintf(buf, len,
             "outranked by the site's MCA parameter %s = %s (%s): %s; no file colltune writes "
             "can undo it: unset it in the job",
             e->name, e->value, e->origin, why ? why : "coll/tuned does not read the rules file");
    return buf;
}

/* Loaded through mca-params.conf, which names it. */
const ct_emit_format_t ct_emit_tuned_rules = {
    .name = CT_EMIT_TUNED_RULES_NAME,
    .wanted = ct_emit_tuned_rules_wanted,
    .write = ct_tuned_rules_write,
    .install = ct_emit_tuned_rules_install,
    .outranked = ct_tuned_rules_outranked,
    .carries = ct_emit_tuned_rules_carries,
};
