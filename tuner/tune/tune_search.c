/* SPDX-License-Identifier: BSD-3-Clause */
#include "tune_search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ct_stats.h"
#include "evidence.h"
#include "tune_decide.h"

#define CT_TUNE_MAX_ROUNDS 16

const char *ct_tune_strategy_name(ct_tune_strategy_t strategy)
{
    switch (strategy) {
    case CT_TUNE_EXHAUSTIVE: return "exhaustive";
    case CT_TUNE_RANDOM: return "random";
    case CT_TUNE_HALVING: return "halving";
    }
    return "?";
}

typedef struct {
    size_t scope, config;
} ct_tune_pair_t;

typedef struct {
    ct_tune_state_t *s;
    ct_tune_trial_fn fn;
    ct_tune_flush_fn flush;
    void *user;
    size_t done;
    int stop;
} ct_tune_run_t;

/* One phase: every pair at each launch in [l0, l1), launches outermost
 * (interleaved).  extra: trials expected after this phase. */
static ct_status_t ct_tune_phase(ct_tune_run_t *r, const ct_tune_pair_t *p, size_t n, long l0,
                                 long l1, int short_run, size_t extra)
{
    size_t total = r->done + n * (size_t)(l1 - l0) + extra;
    for (long l = l0; l < l1; l++) {
        for (size_t i = 0; i < n; i++) {
            const ct_tune_scope_t *sc = &r->s->scopes[p[i].scope];
            if (sc->excluded[p[i].config]) {
                total--; /* failed in an earlier launch: no more of it */
                continue;
            }
            ct_status_t st =
                r->fn(r->user, p[i].scope, p[i].config, l, short_run, r->done, total, &r->stop);
            if (st != CT_OK || r->stop)
                return st;
            r->done++;
        }
        ct_status_t st = r->flush ? r->flush(r->user, &r->stop) : CT_OK;
        if (st != CT_OK || r->stop)
            return st;
    }
    return CT_OK;
}

/* Journals every configuration invalid at this scale, once. */
static ct_status_t ct_tune_skips(ct_tune_run_t *r)
{
    for (size_t k = 0; k < r->s->nscopes; k++) {
        ct_tune_scope_t *sc = &r->s->scopes[k];
        for (size_t ci = 0; ci < sc->configs.n; ci++) {
            if (sc->configs.configs[ci].skip == NULL)
                continue;
            ct_status_t st = r->fn(r->user, k, ci, 0, 0, 0, 0, &r->stop);
            if (st != CT_OK || r->stop)
                return st;
        }
    }
    return CT_OK;
}

/* The runnable configurations, baselines first. */
static ct_tune_pair_t *ct_tune_pairs(const ct_tune_state_t *s, int alive_only, size_t *n_p)
{
    size_t cap = 0;
    for (size_t k = 0; k < s->nscopes; k++)
        cap += s->scopes[k].configs.n;
    ct_tune_pair_t *p = calloc(cap ? cap : 1, sizeof *p);
    size_t n = 0;
    for (size_t pass = 0; pass < 2 && p; pass++)
        for (size_t k = 0; k < s->nscopes; k++) {
            const ct_tune_scope_t *sc = &s->scopes[k];
            for (size_t ci = pass ? 1 : 0; ci < (pass ? sc->configs.n : 1); ci++)
                if (sc->configs.configs[ci].skip == NULL && !sc->excluded[ci] &&
                    (!alive_only || sc->alive[ci]))
                    p[n++] = (ct_tune_pair_t){k, ci};
        }
    *n_p = n;
    return p;
}

/* A small seeded generator (xorshift64*): no global state, same subset
 * for the same --seed, so --resume picks the same one. */
static unsigned long long ct_tune_rand(unsigned long long *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * 2685821657736338717ULL;
}

ct_status_t ct_tune_scope_configs(const ct_tune_plan_t *plan, const ct_space_t *space, int scope,
                                  long nranks, ct_space_configs_t *out_p, char *err, size_t errlen)
{
    if (plan->strategy == CT_TUNE_RANDOM) {
        uint64_t n;
        ct_status_t st = ct_space_combinations(space, scope, nranks, &n, err, errlen);
        if (st != CT_OK)
            return st;
        if (n > CT_SPACE_MAX_CONFIGS) {
            long fit = plan->launches > 0 ? plan->budget / plan->launches : plan->budget;
            size_t k = fit < 1                      ? 1
                       : fit > CT_SPACE_MAX_CONFIGS ? CT_SPACE_MAX_CONFIGS
                                                    : (size_t)fit;
            /* Per scope, or two scopes would draw the same digits. */
            uint64_t seed = (uint64_t)plan->seed * 0x9E3779B97F4A7C15ULL + (uint64_t)(scope + 2);
            return ct_space_sample(space, scope, nranks, seed, k, out_p, err, errlen);
        }
    }
    return ct_space_enumerate(space, scope, nranks, out_p, err, errlen);
}

/* Sorts idx[0..n) by score, ascending (n is small). */
static void ct_tune_sort_by(size_t *idx, size_t n, const double *score)
{
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && score[idx[j - 1]] > score[idx[j]]; j--) {
            size_t t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
}

/* Keeps the better half, ceil(m/2), of sc's m alive candidates (the
 * baseline always).  The places go first to the bucket leaders (the
 * fastest candidate of some collective x size, so a size specialist is
 * not lost), then by the overall score: the geometric mean over buckets
 * of its median time over the baseline's.  Leaders beyond the half are
 * cut by score too, so every round halves. */
static ct_status_t ct_tune_halve(ct_tune_state_t *s, ct_tune_scope_t *sc, long round)
{
    size_t n = sc->configs.n, m = 0;
    for (size_t ci = 1; ci < n; ci++) {
        if (sc->excluded[ci])
            sc->alive[ci] = 0;
        m += sc->alive[ci] != 0;
    }
    if (m <= 2)
        return CT_OK;
    size_t keep_n = (m + 1) / 2;
    /* In-process, the first look compared every candidate with the
     * defaults in one process (tune_inproc.h), a sharper look than one
     * launch each: its cut keeps a quarter (at least 2). */
    if (sc->inproc && round == 1)
        keep_n = (m + 3) / 4 < 2 ? 2 : (m + 3) / 4;
    int *leader = calloc(n, sizeof *leader);
    double *score = calloc(n, sizeof *score);
    size_t *order = calloc(n, sizeof *order);
    ct_tune_evidence_t ev;
    ct_status_t st = leader && score && order ? ct_tune_evidence_build(s, sc, &ev) : CT_ERR_NOMEM;
    if (st != CT_OK) {
        free(leader), free(score), free(order);
        return st;
    }
    for (size_t k = 0; k < ev.ncells; k++) {
        const ct_tune_launches_t *l = ev.cells[k].cfg;
        double base = ct_stats_median_or(l[0].us, l[0].n, 1), best = INFINITY;
        size_t best_ci = 0;
        for (size_t ci = 1; ci < n; ci++) {
            if (!sc->alive[ci])
                continue;
            double med = ct_stats_median_or(l[ci].us, l[ci].n, INFINITY);
            score[ci] += l[ci].n && base > 0 ? log(med / base) : 1e3;
            if (med < best) {
                best = med;
                best_ci = ci;
            }
        }
        if (best_ci != 0)
            leader[best_ci] = 1;
    }
    ct_tune_evidence_free(&ev);
    /* Leaders by score, then the rest by score. */
    size_t no = 0;
    for (int pass = 0; pass < 2; pass++) {
        size_t first = no;
        for (size_t ci = 1; ci < n; ci++)
            if (sc->alive[ci] && leader[ci] == (pass == 0))
                order[no++] = ci;
        ct_tune_sort_by(order + first, no - first, score);
    }
    for (size_t j = 0; j < no; j++)
        sc->alive[order[j]] = j < keep_n;
    sc->alive[0] = 1;
    free(leader), free(score), free(order);
    return CT_OK;
}

static ct_status_t ct_tune_halving(const ct_tune_plan_t *plan, ct_tune_run_t *r)
{
    ct_tune_state_t *s = r->s;
    long finals = plan->launches > 2 ? plan->launches : 2;
    size_t n;
    ct_tune_pair_t *p = ct_tune_pairs(s, 0, &n);
    if (p == NULL)
        return CT_ERR_NOMEM;
    /* Round 0: one short launch for every candidate. */
    ct_status_t st = ct_tune_phase(r, p, n, 0, 1, 1, n);
    free(p);
    for (size_t k = 0; k < s->nscopes; k++)
        for (size_t ci = 0; ci < s->scopes[k].configs.n; ci++)
            s->scopes[k].alive[ci] =
                s->scopes[k].configs.configs[ci].skip == NULL && !s->scopes[k].excluded[ci];
    for (long round = 1; st == CT_OK && !r->stop && round < CT_TUNE_MAX_ROUNDS; round++) {
        /* Each scope: halve, then its survivors need one more full launch
         * unless it is down to its finalists with enough launches. */
        size_t extra = 0;
        for (size_t k = 0; k < s->nscopes && st == CT_OK; k++) {
            ct_tune_scope_t *sc = &s->scopes[k];
            st = ct_tune_halve(s, sc, round);
            size_t m = 0;
            for (size_t ci = 1; ci < sc->configs.n; ci++)
                m += sc->alive[ci] && !sc->excluded[ci];
            long full = round - 1; /* full launches the survivors have */
            int done = m <= 2 && full >= finals;
            if (done)
                for (size_t ci = 0; ci < sc->configs.n; ci++)
                    sc->alive[ci] = 0;
            else
                extra += (m < 2 ? m + 1 : 3) * (size_t)(finals > round ? finals - round : 0);
        }
        if (st != CT_OK)
            break;
        p = ct_tune_pairs(s, 1, &n);
        if (p == NULL)
            return CT_ERR_NOMEM;
        if (n == 0) {
            free(p);
            break;
        }
        st = ct_tune_phase(r, p, n, round, round + 1, 0, extra);
        free(p);
    }
    return st;
}

ct_status_t ct_tune_search(const ct_tune_plan_t *plan, ct_tune_state_t *s, ct_tune_trial_fn fn,
                           ct_tune_flush_fn flush, void *user, int *stop)
{
    ct_tune_run_t r = {s, fn, flush, user, 0, 0};
    ct_status_t st = ct_tune_skips(&r);
    size_t n;
    ct_tune_pair_t *p = NULL;
    if (st == CT_OK && !r.stop) {
        switch (plan->strategy) {
        case CT_TUNE_EXHAUSTIVE:
            p = ct_tune_pairs(s, 0, &n);
            st = p ? ct_tune_phase(&r, p, n, 0, plan->launches, 0, 0) : CT_ERR_NOMEM;
            break;
        case CT_TUNE_RANDOM: {
            p = ct_tune_pairs(s, 0, &n);
            if (p == NULL) {
                st = CT_ERR_NOMEM;
                break;
            }
            /* Baselines first (kept), then a shuffle of the rest. */
            size_t nb = 0;
            while (nb < n && p[nb].config == 0)
                nb++;
            unsigned long long x = plan->seed * 0x9E3779B97F4A7C15ULL + 1;
            for (size_t i = n; i > nb + 1; i--) {
                size_t j = nb + (size_t)(ct_tune_rand(&x) % (i - nb));
                ct_tune_pair_t t = p[i - 1];
                p[i - 1] = p[j];
                p[j] = t;
            }
            size_t fit = (size_t)(plan->budget / plan->launches);
            size_t take = fit > n ? n : (fit > nb ? fit : nb);
            st = ct_tune_phase(&r, p, take, 0, plan->launches, 0, 0);
            break;
        }
        case CT_TUNE_HALVING: st = ct_tune_halving(plan, &r); break;
        }
    }
    free(p);
    *stop = r.stop == 1 ? 0 : r.stop;
    return st;
}
