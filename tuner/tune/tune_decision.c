/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_decision.c - one scope's decision from its evidence
 * (tune_decision.h).
 */
#include "tune_decision.h"

#include <stdlib.h>
#include <string.h>

#include "ct_names.h"
#include "ct_stats.h"
#include "tune_decide.h"

/* A side with no launches shows a median of 0 (not NaN), as the report
 * and its JSON always printed it. */
static void ct_tune_summary(const ct_tune_launches_t *l, double *us, double *lo, double *hi,
                            double *bw, size_t *n)
{
    *n = l->n;
    *us = ct_stats_median_or(l->us, l->n, 0);
    *lo = ct_tune_min(l->us, l->n);
    *hi = ct_tune_max(l->us, l->n);
    *bw = ct_stats_median_or(l->bw, l->n, 0);
}

/* Configuration i's launches l as a contender. */
static ct_tune_cand_t ct_tune_cand_of(const ct_tune_evidence_t *ev, const ct_tune_launches_t *l,
                                      size_t i)
{
    ct_tune_cand_t c = {l->us, l->lo, l->hi, l->group, l->n, ev->nchanged[i], ev->excluded[i]};
    return c;
}

/* ct_tune_pick over every configuration's launches l[ci] (cand: room for
 * nconfigs). */
static size_t ct_tune_pick_of(const ct_tune_evidence_t *ev, const ct_tune_launches_t *l,
                              ct_tune_cand_t *cand)
{
    for (size_t i = 0; i < ev->nconfigs; i++)
        cand[i] = ct_tune_cand_of(ev, &l[i], i);
    return ct_tune_pick(cand, ev->nconfigs);
}

/* The winner, and the contender to show: with no winner, the fastest
 * runnable candidate with enough launches (a candidate halving dropped
 * after one short look is no contender), any launches when none has
 * enough, so the report says what fell short. */
static void ct_tune_dcell(const ct_tune_evidence_t *ev, const ct_tune_ev_cell_t *e,
                          ct_tune_cand_t *cand, ct_tune_dcell_t *c)
{
    memset(c, 0, sizeof *c);
    ct_tune_summary(&e->cfg[0], &c->base_us, &c->base_lo, &c->base_hi, &c->base_bw, &c->nbase);
    c->winner = ct_tune_pick_of(ev, e->cfg, cand);
    c->significant = c->winner != 0;
    size_t best = c->winner;
    double best_med = 0;
    for (size_t need = CT_TUNE_MIN_LAUNCHES; best == 0 && need >= 1; need--) {
        for (size_t i = 1; i < ev->nconfigs; i++) {
            if (ev->excluded[i] || e->cfg[i].n < need)
                continue;
            double med = ct_stats_median(e->cfg[i].us, e->cfg[i].n);
            if (best == 0 || med < best_med) {
                best = i;
                best_med = med;
            }
        }
    }
    c->best = best;
    ct_tune_summary(&e->cfg[best], &c->best_us, &c->best_lo, &c->best_hi, &c->best_bw, &c->nbest);
}

static ct_status_t ct_tune_dpick_add(ct_tune_decision_t *d, size_t config, int coll, long long lo,
                                     long long hi, const ct_tune_dcell_t *c)
{
    ct_tune_dpick_t *p = realloc(d->picks, (d->npicks + 1) * sizeof *p);
    if (p == NULL)
        return CT_ERR_NOMEM;
    d->picks = p;
    p[d->npicks++] =
        (ct_tune_dpick_t){config, coll, lo, hi, c ? c->base_us : 0, c ? c->best_us : 0};
    return CT_OK;
}

long long ct_tune_smallest_bytes(const char *coll, long nranks)
{
    const ct_coll_name_t *c = ct_coll_name_find(coll);
    return c && c->busbw == CT_BUSBW_SPLIT && nranks > 0 ? 8LL * nranks : 8LL;
}

/* Per collective: its run of cells [first, first + n) merged into ranges
 * over the measured span (ct_tune_reach_t). */
static ct_status_t ct_tune_decide_ranges(const ct_tune_evidence_t *ev, const ct_tune_reach_t *reach,
                                         ct_tune_decision_t *d, size_t first, size_t n)
{
    ct_tune_bucket_t *b = calloc(n, sizeof *b);
    ct_tune_range_t *r = calloc(n, sizeof *r);
    ct_status_t st = b && r ? CT_OK : CT_ERR_NOMEM;
    for (size_t k = 0; k < n && st == CT_OK; k++) {
        b[k].bytes = ev->cells[first + k].bytes;
        b[k].winner = (long)d->cells[first + k].winner;
    }
    int from_zero =
        reach->extend_ranges ||
        (n > 0 && b[0].bytes <= ct_tune_smallest_bytes(ev->cells[first].coll, reach->nranks));
    size_t nr = st == CT_OK ? ct_tune_merge(b, n, from_zero, reach->extend_ranges, r) : 0;
    const ct_coll_name_t *cn = n > 0 ? ct_coll_name_find(ev->cells[first].coll) : NULL;
    int coll = ev->scope != CT_SCOPE_GLOBAL ? ev->scope : cn ? (int)cn->id : CT_SCOPE_GLOBAL;
    /* NCCL runs alltoall as send/recv: no NCCL_ALGO or NCCL_PROTO reaches it,
     * so a per-collective NCCL choice there would be noise. */
    if (reach->per_coll && cn != NULL && cn->nccl_func < 0)
        coll = CT_SCOPE_GLOBAL;
    for (size_t k = 0; k < nr && st == CT_OK; k++)
        if (r[k].winner != 0 && coll != CT_SCOPE_GLOBAL)
            st = ct_tune_dpick_add(d, (size_t)r[k].winner, coll, r[k].min_bytes, r[k].max_bytes,
                                   &d->cells[first + r[k].first]);
    free(b);
    free(r);
    return st;
}

/* Global: the configuration that wins the most cells and loses none (the
 * default significantly faster than it, or it unmeasured, in any cell),
 * or by --weights the pick over the weighted time per launch. */
static ct_status_t ct_tune_decide_global(const ct_tune_evidence_t *ev, const ct_tune_decision_t *d,
                                         ct_tune_cand_t *cand, size_t *pick_p)
{
    if (ev->weighted) {
        *pick_p = ct_tune_pick_of(ev, ev->weighted_us, cand);
        return CT_OK;
    }
    size_t *wins = calloc(ev->nconfigs, sizeof *wins), pick = 0;
    int *loses = calloc(ev->nconfigs, sizeof *loses);
    ct_status_t st = wins && loses ? CT_OK : CT_ERR_NOMEM;
    for (size_t k = 0; k < ev->ncells && st == CT_OK; k++) {
        const ct_tune_launches_t *l = ev->cells[k].cfg;
        wins[d->cells[k].winner]++;
        ct_tune_cand_t base = ct_tune_cand_of(ev, &l[0], 0);
        for (size_t i = 1; i < ev->nconfigs; i++) {
            ct_tune_cand_t ci = ct_tune_cand_of(ev, &l[i], i);
            if (l[i].n == 0 || ct_tune_beats(&base, &ci, NULL))
                loses[i] = 1;
        }
    }
    for (size_t i = 1; i < ev->nconfigs && st == CT_OK; i++)
        if (wins[i] > 0 && !loses[i] && (pick == 0 || wins[i] > wins[pick]))
            pick = i;
    free(wins);
    free(loses);
    *pick_p = pick;
    return st;
}

ct_status_t ct_tune_decide(const ct_tune_evidence_t *ev, const ct_tune_reach_t *reach,
                           ct_tune_decision_t *d_p)
{
    ct_tune_decision_t d;
    memset(&d, 0, sizeof d);
    d.ncells = ev->ncells;
    d.cells = calloc(ev->ncells ? ev->ncells : 1, sizeof *d.cells);
    ct_tune_cand_t *cand = calloc(ev->nconfigs ? ev->nconfigs : 1, sizeof *cand);
    ct_status_t st = d.cells && cand ? CT_OK : CT_ERR_NOMEM;
    for (size_t k = 0; k < ev->ncells && st == CT_OK; k++)
        ct_tune_dcell(ev, &ev->cells[k], cand, &d.cells[k]);
    int by_coll = ev->scope != CT_SCOPE_GLOBAL || reach->per_coll;
    for (size_t k = 0; k < ev->ncells && st == CT_OK && by_coll;) {
        size_t n = 1;
        while (k + n < ev->ncells && strcmp(ev->cells[k + n].coll, ev->cells[k].coll) == 0 &&
               strcmp(ev->cells[k + n].dtype, ev->cells[k].dtype) == 0)
            n++;
        st = ct_tune_decide_ranges(ev, reach, &d, k, n);
        k += n;
    }
    if (st == CT_OK && ev->ncells > 0 && !by_coll) {
        size_t pick = 0;
        st = ct_tune_decide_global(ev, &d, cand, &pick);
        const ct_tune_dcell_t *c = NULL;
        for (size_t k = 0; k < d.ncells && c == NULL && pick != 0; k++)
            if (d.cells[k].winner == pick)
                c = &d.cells[k];
        if (st == CT_OK && pick != 0)
            st = ct_tune_dpick_add(&d, pick, CT_SCOPE_GLOBAL, -1, -1, c);
    }
    free(cand);
    if (st != CT_OK) {
        ct_tune_decision_free(&d);
        return st;
    }
    *d_p = d;
    return CT_OK;
}

void ct_tune_decision_free(ct_tune_decision_t *d)
{
    free(d->cells);
    free(d->picks);
    memset(d, 0, sizeof *d);
}
