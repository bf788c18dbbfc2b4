/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE
#include "measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_clock.h"

/* Window mode: a call that started later than this after its agreed
 * instant was held up by the previous one (or by the OS): its time would
 * include the delay, so it is discarded.  A rank spinning on the clock
 * starts within one clock read (tens of ns) of the instant. */
#define CT_WINDOW_LATE_US 0.25
/* Rounds with more late calls than this fraction widen the window. */
#define CT_WINDOW_WIDEN_ABOVE 0.1
#define CT_WINDOW_WIDEN_FACTOR 1.5
/* Calls timed alone to size the window. */
#define CT_WINDOW_CALIBRATION 9

ct_status_t ct_measure_agreed(ct_world_t *world, const ct_backend_ops_t *ops, void *ctx,
                              ct_status_t own, int any_failed, int all_refused)
{
    if (!any_failed)
        return CT_OK;
    if (all_refused)
        return CT_ERR_REFUSED;
    if (own == CT_ERR_REFUSED) {
        char why[512] = "";
        if (ops->refusal)
            ops->refusal(ctx, why, sizeof why);
        fprintf(stderr, "collbench: rank %d: refused here, not on every rank: %s\n",
                ct_world_rank(world), why[0] ? why : "(no reason given)");
    }
    return own != CT_OK && own != CT_ERR_REFUSED ? own : CT_ERR_BACKEND;
}

ct_sync_mode_t ct_measure_sync_mode(const ct_options_t *o, const ct_backend_ops_t *ops)
{
    if (o->sync != CT_SYNC_DEFAULT)
        return o->sync;
    return ops->host_memory ? CT_SYNC_WINDOW : CT_SYNC_BATCH;
}

/* The schedule of a window round: call i starts at start_us + i * width_us
 * on the common clock. */
typedef struct {
    double start_us;
    double width_us;
} ct_window_t;

/* Per-round state all ranks agree on. */
typedef struct {
    int batch;          /* calls per sample (batch mode; 1 otherwise) */
    ct_window_t window; /* window mode */
    double lead_us;     /* window mode: from agreement to the first call */
} ct_sampler_t;

/* Times one batch of k calls on this rank, in µs per call; the barrier
 * comes first whatever the calls do, so a rank that failed can match the
 * others' barriers (ct_measure_round). */
static ct_status_t ct_measure_batch(const ct_measure_env_t *env, const ct_backend_call_t *call,
                                    int k, double *per_call_us)
{
    ct_status_t st = CT_OK;
    ct_world_barrier(env->world);
    double t0 = ct_clock_now_us();
    for (int i = 0; i < k && st == CT_OK; i++)
        st = env->ops->run(env->ctx, call);
    if (st == CT_OK)
        st = env->ops->wait(env->ctx);
    *per_call_us = (ct_clock_now_us() - t0) / k;
    return st;
}

/* One window call: starts at its instant, returns finish minus that
 * instant, and whether this rank started it late. */
static ct_status_t ct_measure_windowed(const ct_measure_env_t *env, const ct_backend_call_t *call,
                                       double at_us, double *time_us, double *late)
{
    double started = ct_clocksync_wait_until(env->clock, at_us);
    ct_status_t st = env->ops->run(env->ctx, call);
    if (st == CT_OK)
        st = env->ops->wait(env->ctx);
    *time_us = ct_clocksync_now_us(env->clock) - at_us;
    *late = started - at_us > CT_WINDOW_LATE_US ? 1.0 : 0.0;
    return st;
}

/* One round of count samples on this rank: per-call µs into times[], and
 * 1 into late[] for a window call this rank started late. */
static ct_status_t ct_measure_round(const ct_measure_env_t *env, const ct_backend_call_t *call,
                                    const ct_sampler_t *s, size_t count, double *times,
                                    double *late)
{
    ct_status_t st = CT_OK;
    for (size_t i = 0; i < count; i++) {
        late[i] = 0.0;
        if (st == CT_OK && env->sync == CT_SYNC_WINDOW)
            st = ct_measure_windowed(env, call, s->window.start_us + (double)i * s->window.width_us,
                                     &times[i], &late[i]);
        else if (st == CT_OK)
            st = ct_measure_batch(env, call, s->batch, &times[i]);
        else if (env->sync != CT_SYNC_WINDOW)
            ct_world_barrier(env->world); /* the others' sample i's barrier */
    }
    /* After a failure the round still goes through the aggregation (every
     * rank must), so give the samples not taken a defined value. */
    for (size_t i = 0; st != CT_OK && i < count; i++)
        times[i] = late[i] = 0.0;
    return st;
}

/* Replaces each rank's samples with the -a aggregate across ranks. */
static void ct_measure_aggregate(const ct_measure_env_t *env, double *samples, size_t n)
{
    switch (env->opts->rank_agg) {
    case CT_AGG_RANK0: ct_world_bcast(env->world, samples, n * sizeof *samples, 0); break;
    case CT_AGG_AVG:
        ct_world_allreduce_double(env->world, samples, n, CT_REDUCE_SUM);
        for (size_t i = 0; i < n; i++)
            samples[i] /= ct_world_size(env->world);
        break;
    case CT_AGG_MIN: ct_world_allreduce_double(env->world, samples, n, CT_REDUCE_MIN); break;
    case CT_AGG_MAX:
    default: ct_world_allreduce_double(env->world, samples, n, CT_REDUCE_MAX); break;
    }
}

/* What the warm-up learnt: est is one call's µs in the last probe batch
 * (which includes its share of the batch's overhead); in batch mode, call
 * and overhead split a batch of p calls into overhead + p * call (-1 where
 * not measured). */
typedef struct {
    double est;
    double call_us;
    double overhead_us;
} ct_estimate_t;

/* Batch mode: splits the agreed times of a batch of 1 (t1) and of the last
 * probe, p calls of per_call µs each (4 t1 or more, unless probing was
 * cut short), into a per-batch overhead and one call's cost, the line
 * through the two.  Noise could make its slope absurd: the call's cost is
 * kept between 1% of the probe's per-call time and all of it. */
static void ct_measure_split(double t1, int p, double per_call, ct_estimate_t *e)
{
    double call = p > 1 ? (per_call * p - t1) / (p - 1) : per_call;
    call = fmin(fmax(call, 0.01 * per_call), per_call);
    e->call_us = call;
    e->overhead_us = fmax(t1 - call, 0.0);
}

/* Warms up, then estimates one call's cost from probe batches after the
 * warm-up (the first calls pay for connection set-up); probes double until
 * they last a quarter of batch_us, or (adaptive) until a quarter of the
 * size budget is spent, so a long --batch-us cannot outrun --size-budget.
 * In batch mode (default rule) probes go on until one lasts 4 times the
 * batch of 1, and one more batch of 1 follows, to measure the per-batch
 * overhead.
 * Ranks agree on the largest estimate and elapsed time. */
static ct_status_t ct_measure_warmup(const ct_measure_env_t *env, const ct_backend_call_t *call,
                                     double start_us, ct_estimate_t *e)
{
    const ct_options_t *o = env->opts;
    double est = 0.0, t1 = 0.0;
    int split = env->sync == CT_SYNC_BATCH && !o->batch_us_given, last = 1, again = 0;
    ct_status_t st = CT_OK;
    e->call_us = e->overhead_us = -1.0;

    for (int i = 0; i < o->warmup && st == CT_OK; i++)
        st = env->ops->run(env->ctx, call);
    if (st == CT_OK)
        st = env->ops->wait(env->ctx);
    for (int probe = 1;; probe *= 2) {
        double per_call = 0.0;
        /* A rank that failed still meets the others' barrier and agreement
         * (a refused call fails on every rank at once, in the warm-up when
         * -c 0 skipped validation). */
        if (st == CT_OK)
            st = ct_measure_batch(env, call, probe, &per_call);
        else
            ct_world_barrier(env->world);
        double agreed[4] = {per_call, ct_clock_now_us() - start_us, st != CT_OK,
                            st != CT_ERR_REFUSED};
        /* Every rank must run the same probes: decide on the agreed max. */
        ct_world_allreduce_double(env->world, agreed, 4, CT_REDUCE_MAX);
        st = ct_measure_agreed(env->world, env->ops, env->ctx, st, agreed[2] != 0.0,
                               agreed[3] == 0.0);
        if (st != CT_OK)
            break;
        est = agreed[0];
        last = probe;
        if (probe == 1)
            t1 = est;
        int spent = o->iters == 0 && agreed[1] >= o->size_budget_s * 1e6 / 4.0;
        /* The split is a line through a batch of 1 and the last probe:
         * its slope is only as good as the calls outweigh the batch's
         * noise, so the last probe lasts 4 batches of 1 at least. */
        int long_enough = est * probe >= o->batch_us / 4.0 && (!split || est * probe >= 4.0 * t1);
        if (spent || probe >= 1024 || long_enough) {
            split = split && probe >= 2;
            again = split && !spent;
            break;
        }
    }
    e->est = est;
    if (st != CT_OK || !split)
        return st;
    /* A second batch of 1, the budget allowing: the smaller of the two
     * counts (a slow spell only adds). */
    double agreed[3] = {t1, 0.0, 1.0};
    if (again) {
        st = ct_measure_batch(env, call, 1, &agreed[0]);
        agreed[1] = st != CT_OK;
        agreed[2] = st != CT_ERR_REFUSED;
        ct_world_allreduce_double(env->world, agreed, 3, CT_REDUCE_MAX);
        st = ct_measure_agreed(env->world, env->ops, env->ctx, st, agreed[1] != 0.0,
                               agreed[2] == 0.0);
    }
    if (st == CT_OK)
        ct_measure_split(fmin(t1, agreed[0]), last, est, e);
    return st;
}

/* Batch mode: enough calls per sample to fill batch_us and, unless it was
 * given, at least CT_BATCH_MIN_CALLS calls and CT_BATCH_OVERHEAD_TIMES the
 * per-batch overhead; but (adaptive) never so many that --min-samples
 * samples overrun --size-budget: the budget wins over the batch length as
 * it does over --min-samples. */
static int ct_measure_batch_size(const ct_options_t *o, const ct_estimate_t *e)
{
    double est = e->est, k = 1.0;
    if (est > 0.0 && o->batch_us_given)
        k = ceil(o->batch_us / est);
    else if (est > 0.0) {
        double call = e->call_us > 0.0 ? e->call_us : est;
        double len = fmax(o->batch_us, CT_BATCH_OVERHEAD_TIMES * fmax(e->overhead_us, 0.0));
        k = fmax(ceil(len / call), CT_BATCH_MIN_CALLS);
    }
    if (o->iters == 0 && est > 0.0)
        k = fmin(k, floor(o->size_budget_s * 1e6 / (double)o->min_samples / est));
    k = fmin(fmax(k, 1.0), CT_BATCH_MAX_CALLS);
    if (o->iters > 0) {
        /* Fixed count: keep at least min_samples samples where possible. */
        int most = o->iters / (o->iters < o->min_samples ? o->iters : o->min_samples);
        k = fmin(k, (double)(most > 0 ? most : 1));
    }
    return (int)k;
}

/* Keeps the samples of a round that no rank started late; returns how many. */
static size_t ct_measure_keep_valid(const double *times, const double *late, size_t count,
                                    double *out)
{
    size_t kept = 0;
    for (size_t i = 0; i < count; i++)
        if (late[i] == 0.0)
            out[kept++] = times[i];
    return kept;
}

/* Window mode: the window must hold one whole call, the clocks' error on
 * both sides, and the spread of call times.  Calls timed alone (batches
 * of one would include a barrier's exit skew, so they are timed in wide
 * windows instead) give the call time; the median across samples of the
 * slowest rank's time, times 1.5, plus twice the clock error, is the width.
 * Rounds with many late calls widen it later.  Adaptive, the calibration
 * takes at most a quarter of --size-budget (fewer calls, at least one):
 * a host whose calls take a scheduler slice each (another job on the
 * cores) would otherwise spend 9 wide windows, several budgets, on it. */
static ct_status_t ct_measure_window_width(const ct_measure_env_t *env,
                                           const ct_backend_call_t *call, double est,
                                           double *width_p)
{
    double times[CT_WINDOW_CALIBRATION], late[CT_WINDOW_CALIBRATION];
    ct_status_t st = ct_clocksync_resync(env->clock);
    if (st != CT_OK)
        return st;
    double err = ct_clocksync_error_us(env->clock);
    ct_world_allreduce_double(env->world, &err, 1, CT_REDUCE_MAX);
    /* Generous: four estimated calls plus the clock error, never tight. */
    ct_sampler_t s = {.batch = 1};
    s.window.width_us = 4.0 * est + 4.0 * err + 10.0;
    s.window.start_us = ct_clocksync_now_us(env->clock) + 50.0 + s.window.width_us;
    ct_world_allreduce_double(env->world, &s.window.start_us, 1, CT_REDUCE_MAX);
    size_t ncal = CT_WINDOW_CALIBRATION;
    if (env->opts->iters == 0) {
        double fit = floor(env->opts->size_budget_s * 1e6 / 4.0 / s.window.width_us);
        if (fit < (double)ncal)
            ncal = fit >= 1.0 ? (size_t)fit : 1;
    }
    st = ct_measure_round(env, call, &s, ncal, times, late);
    long long failed[2] = {st != CT_OK, st != CT_ERR_REFUSED};
    ct_world_allreduce_long(env->world, failed, 2, CT_REDUCE_MAX);
    st = ct_measure_agreed(env->world, env->ops, env->ctx, st, failed[0] != 0, failed[1] == 0);
    if (st != CT_OK)
        return st;
    ct_world_allreduce_double(env->world, times, ncal, CT_REDUCE_MAX);
    ct_world_allreduce_double(env->world, late, ncal, CT_REDUCE_MAX);
    /* A call some rank started late (start-up stragglers) would inflate
     * the width, and a wide window slows small calls down: only calls
     * started on time count.  With none, the generous width stays. */
    double valid[CT_WINDOW_CALIBRATION];
    size_t nvalid = ct_measure_keep_valid(times, late, ncal, valid);
    if (nvalid == 0) {
        *width_p = s.window.width_us;
        return CT_OK;
    }
    ct_stats_t cal;
    ct_stats_compute(valid, nvalid, &cal);
    *width_p = 1.5 * cal.median + 2.0 * err + 1.0;
    return CT_OK;
}

/* When a size stops at the latest: its budget, or, once the least was met
 * at least_s (0: not yet), the end of its patience if sooner. */
static double ct_measure_end_s(const ct_options_t *o, double least_s)
{
    double patience_s = (1.0 + o->ci_patience) * least_s;
    return least_s > 0.0 && patience_s < o->size_budget_s ? patience_s : o->size_budget_s;
}

/* Whether a size is measured.  *least_s is when the least measuring
 * (--min-time and --min-samples) was first met, 0 before: past it the
 * CI is chased for --ci-patience times as long, then given up (the row
 * says not converged), so that a noisy spell costs a bounded multiple of
 * the size's quiet time rather than the whole budget. */
static int ct_measure_done(const ct_options_t *o, size_t attempted, size_t target_n, size_t n,
                           double elapsed_s, const double *sorted, double *least_s,
                           int *converged_p)
{
    if (o->iters > 0)
        return attempted >= target_n;
    if (attempted >= target_n || elapsed_s >= o->size_budget_s)
        return 1;
    /* A few ms of samples can all fall in one slow spell (another
     * process, a frequency change): keep measuring for min_time. */
    if (n < (size_t)o->min_samples || elapsed_s < o->min_time_s)
        return 0;
    if (*least_s <= 0.0)
        *least_s = elapsed_s;
    ct_stats_t s;
    ct_stats_from_sorted(sorted, n, &s);
    *converged_p = ct_stats_ci_relative(&s) <= o->target_ci;
    return *converged_p || elapsed_s >= ct_measure_end_s(o, *least_s);
}

/* Samples for the next round: rounds grow geometrically to keep agreement
 * traffic small, but none may run past the time budget.  per_sample_s is
 * the measured (or, before the first round, estimated) cost of a sample,
 * warm-up included; round_s that of a sample in the rounds alone (0:
 * none yet).  No stop comes before --min-time: once a round has measured
 * the rate, the next reaches it in one go rather than in many small
 * rounds, each an agreement and a lead, that overshoot it by up to half.
 * Nor does a round run past the patience (least_s: when the least was
 * met, 0 before). */
static size_t ct_measure_next_round(const ct_options_t *o, size_t attempted, size_t target_n,
                                    double elapsed_s, double per_sample_s, double round_s,
                                    double least_s)
{
    size_t next = attempted / 2 > (size_t)o->min_samples ? attempted / 2 : (size_t)o->min_samples;
    if (o->iters == 0 && round_s > 0.0 && elapsed_s < o->min_time_s) {
        double fill = ceil((o->min_time_s - elapsed_s) / round_s);
        if (fill > (double)next)
            next = fill < (double)(target_n - attempted) ? (size_t)fill : target_n - attempted;
    }
    if (o->iters == 0 && per_sample_s > 0.0) {
        double left = (ct_measure_end_s(o, least_s) - elapsed_s) / per_sample_s;
        if (left < (double)next)
            next = left >= 1.0 ? (size_t)left : 1;
    }
    return next < target_n - attempted ? next : target_n - attempted;
}

ct_status_t ct_measure_call(const ct_measure_env_t *env, const ct_backend_call_t *call,
                            ct_measurement_t *out)
{
    const ct_options_t *o = env->opts;
    double start = ct_clock_now_us(), est = 0.0;
    int converged = 0;
    ct_sampler_t s = {.batch = 1, .lead_us = 50.0};
    ct_estimate_t e;
    ct_status_t st = ct_measure_warmup(env, call, start, &e);

    est = e.est;
    if (st == CT_OK && env->sync == CT_SYNC_BATCH)
        s.batch = ct_measure_batch_size(o, &e);
    if (st == CT_OK && env->sync == CT_SYNC_WINDOW)
        st = ct_measure_window_width(env, call, est, &s.window.width_us);
    if (st != CT_OK)
        return st;

    size_t target_n = o->iters > 0 ? (size_t)(o->iters / s.batch) : (size_t)o->max_samples;
    if (target_n == 0)
        target_n = 1;
    double *own = malloc(target_n * sizeof *own); /* this rank, valid samples */
    double *agg = malloc(target_n * sizeof *agg); /* aggregated, valid samples */
    double *sorted = malloc(target_n * sizeof *sorted);
    double *times = malloc(target_n * sizeof *times); /* one round, this rank */
    double *late = malloc(target_n * sizeof *late);
    double *round_agg = malloc(target_n * sizeof *round_agg);
    if (!own || !agg || !sorted || !times || !late || !round_agg) {
        free(own), free(agg), free(sorted), free(times), free(late), free(round_agg);
        return CT_ERR_NOMEM;
    }

    size_t n = 0, attempted = 0, round = 0;
    long long late_total = 0;
    /* Before the first round a sample's cost is the warm-up's estimate. */
    double per_sample_s = (env->sync == CT_SYNC_WINDOW ? s.window.width_us : s.batch * est) * 1e-6;
    double agree_us = 0.0, first_s = 0.0, least_s = 0.0;
    for (;;) {
        /* One agreement per round: whether any rank failed (it must not
         * leave the others waiting in the next round), the time spent and,
         * in window mode, the first instant (far enough ahead for every
         * rank to have left this agreement). */
        double t_agree = ct_clock_now_us();
        double agree[5] = {st != CT_OK, (t_agree - start) * 1e-6, 0.0, agree_us,
                           st != CT_ERR_REFUSED};
        if (env->sync == CT_SYNC_WINDOW)
            agree[2] = ct_clocksync_now_us(env->clock) + s.lead_us;
        ct_world_allreduce_double(env->world, agree, 5, CT_REDUCE_MAX);
        agree_us = ct_clock_now_us() - t_agree;
        st =
            ct_measure_agreed(env->world, env->ops, env->ctx, st, agree[0] != 0.0, agree[4] == 0.0);
        if (st != CT_OK)
            break;
        /* Round sizes come from agreed figures only: ranks that disagreed
         * on a count would pass different counts to one collective. */
        double elapsed_s = agree[1];
        if (attempted > 0) {
            per_sample_s = elapsed_s / (double)attempted;
            if (ct_measure_done(o, attempted, target_n, n, elapsed_s, sorted, &least_s, &converged))
                break;
        } else
            first_s = elapsed_s;
        double round_s = attempted > 0 ? (elapsed_s - first_s) / (double)attempted : 0.0;
        /* The first round is bounded by the budget too. */
        round = ct_measure_next_round(o, attempted, target_n, elapsed_s, per_sample_s, round_s,
                                      least_s);
        /* The agreement's own spread, seen last round, sets the lead. */
        s.lead_us = fmax(20.0, 4.0 * agree[3]) + s.window.width_us;
        s.window.start_us = agree[2];

        st = ct_measure_round(env, call, &s, round, times, late);
        memcpy(round_agg, times, round * sizeof *round_agg);
        ct_measure_aggregate(env, round_agg, round);
        /* Only window mode has late calls: the others need no agreement. */
        if (env->sync == CT_SYNC_WINDOW)
            ct_world_allreduce_double(env->world, late, round, CT_REDUCE_MAX);
        size_t kept = ct_measure_keep_valid(round_agg, late, round, &agg[n]);
        ct_measure_keep_valid(times, late, round, &own[n]);
        late_total += (long long)(round - kept);
        if ((double)(round - kept) > CT_WINDOW_WIDEN_ABOVE * (double)round)
            s.window.width_us *= CT_WINDOW_WIDEN_FACTOR;
        attempted += round;
        n += kept;
        memcpy(sorted, agg, n * sizeof *sorted);
        ct_stats_sort(sorted, n);
    }

    if (st == CT_OK && n == 0) {
        /* Every call was late (a badly oversubscribed host): report the
         * last round's times, which are upper bounds, and say so in late. */
        n = round;
        memcpy(sorted, round_agg, n * sizeof *sorted);
        memcpy(own, times, n * sizeof *own);
        ct_stats_sort(sorted, n);
    }
    if (st == CT_OK) {
        ct_stats_from_sorted(sorted, n, &out->stats);
        out->sync = env->sync;
        out->iterations = (long long)n * s.batch;
        out->batch = s.batch;
        out->batch_overhead_us = e.overhead_us;
        out->converged = converged;
        out->late = late_total;
        ct_stats_t own_stats;
        ct_stats_compute(own, n, &own_stats);
        double mm[3] = {own_stats.median, -own_stats.median, own_stats.median};
        ct_world_allreduce_double(env->world, mm, 2, CT_REDUCE_MIN);
        ct_world_allreduce_double(env->world, &mm[2], 1, CT_REDUCE_SUM);
        out->rank_median_min = mm[0];
        out->rank_median_max = -mm[1];
        out->rank_median_avg = mm[2] / ct_world_size(env->world);
        out->own_median = own_stats.median;
    }
    free(own), free(agg), free(sorted), free(times), free(late), free(round_agg);
    return st;
}
