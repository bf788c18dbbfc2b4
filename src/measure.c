#include "measure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ct_clock.h"

/* Times one batch of k calls on this rank, in µs per call. */
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

/* Replaces each rank's samples with the -a aggregate across ranks. */
static void ct_measure_aggregate(const ct_measure_env_t *env, double *samples, size_t n)
{
    switch (env->opts->rank_agg) {
    case CT_AGG_RANK0:
        ct_world_bcast(env->world, samples, n * sizeof *samples, 0);
        break;
    case CT_AGG_AVG:
        ct_world_allreduce_double(env->world, samples, n, CT_REDUCE_SUM);
        for (size_t i = 0; i < n; i++)
            samples[i] /= ct_world_size(env->world);
        break;
    case CT_AGG_MIN:
        ct_world_allreduce_double(env->world, samples, n, CT_REDUCE_MIN);
        break;
    case CT_AGG_MAX:
    default:
        ct_world_allreduce_double(env->world, samples, n, CT_REDUCE_MAX);
        break;
    }
}

/* Warms up, then picks the calls per sample: enough to fill batch_us.
 * The estimate comes from probe batches after the warm-up, since the first
 * calls pay for connection set-up; probes double until they last a quarter
 * of batch_us.  Ranks agree on the largest estimate. */
static ct_status_t ct_measure_warmup(const ct_measure_env_t *env, const ct_backend_call_t *call,
                                     int *batch_p)
{
    const ct_options_t *o = env->opts;
    double est = 0.0;
    ct_status_t st = CT_OK;

    for (int i = 0; i < o->warmup && st == CT_OK; i++)
        st = env->ops->run(env->ctx, call);
    if (st == CT_OK)
        st = env->ops->wait(env->ctx);
    for (int probe = 1; st == CT_OK; probe *= 2) {
        st = ct_measure_batch(env, call, probe, &est);
        /* Every rank must run the same probes: decide on the agreed max. */
        ct_world_allreduce_double(env->world, &est, 1, CT_REDUCE_MAX);
        if (est * probe >= o->batch_us / 4.0 || probe >= 1024)
            break;
    }
    if (st != CT_OK)
        return st;
    double k = est > 0.0 ? ceil(o->batch_us / est) : 1.0;
    k = fmin(fmax(k, 1.0), 100000.0);
    if (o->iters > 0) {
        /* Fixed count: keep at least min_samples samples where possible. */
        int most = o->iters / (o->iters < o->min_samples ? o->iters : o->min_samples);
        k = fmin(k, (double)(most > 0 ? most : 1));
    }
    *batch_p = (int)k;
    return CT_OK;
}

static int ct_measure_done(const ct_options_t *o, size_t n, size_t target_n, double elapsed_s,
                           double *sorted, int *converged_p)
{
    if (o->iters > 0)
        return n >= target_n;
    if (n >= (size_t)o->max_samples || elapsed_s >= o->size_budget_s)
        return 1;
    /* A few ms of samples can all fall in one slow spell (another
     * process, a frequency change): keep measuring for min_time. */
    if (n < (size_t)o->min_samples || elapsed_s < o->min_time_s)
        return 0;
    ct_stats_t s;
    ct_stats_from_sorted(sorted, n, &s);
    *converged_p = ct_stats_ci_relative(&s) <= o->target_ci;
    return *converged_p;
}

ct_status_t ct_measure_call(const ct_measure_env_t *env, const ct_backend_call_t *call,
                            ct_measurement_t *out)
{
    const ct_options_t *o = env->opts;
    int batch = 1, converged = 0;
    ct_status_t st = ct_measure_warmup(env, call, &batch);
    if (st != CT_OK)
        return st;

    size_t target_n = o->iters > 0 ? (size_t)(o->iters / batch) : (size_t)o->max_samples;
    if (target_n == 0)
        target_n = 1;
    double *local = malloc(target_n * sizeof *local);
    double *agg = malloc(target_n * sizeof *agg);
    double *sorted = malloc(target_n * sizeof *sorted);
    if (!local || !agg || !sorted) {
        free(local), free(agg), free(sorted);
        return CT_ERR_NOMEM;
    }

    size_t n = 0;
    size_t round = (size_t)o->min_samples < target_n ? (size_t)o->min_samples : target_n;
    double start = ct_clock_now_us();
    for (;;) {
        for (size_t i = 0; i < round && st == CT_OK; i++)
            st = ct_measure_batch(env, call, batch, &local[n + i]);
        /* One agreement per round: whether any rank failed (it must not
         * leave the others waiting in the next round) and the time spent. */
        double agree[2] = {st != CT_OK, (ct_clock_now_us() - start) * 1e-6};
        ct_world_allreduce_double(env->world, agree, 2, CT_REDUCE_MAX);
        if (agree[0] != 0.0) {
            st = st != CT_OK ? st : CT_ERR_BACKEND;
            break;
        }
        double elapsed_s = agree[1];
        memcpy(&agg[n], &local[n], round * sizeof *agg);
        ct_measure_aggregate(env, &agg[n], round);
        n += round;

        memcpy(sorted, agg, n * sizeof *sorted);
        ct_stats_sort(sorted, n);
        if (ct_measure_done(o, n, target_n, elapsed_s, sorted, &converged))
            break;

        /* Grow rounds geometrically to keep agreement traffic small, but do
         * not overshoot the time budget by more than one round. */
        size_t next = n / 2 > (size_t)o->min_samples ? n / 2 : (size_t)o->min_samples;
        if (o->iters == 0 && elapsed_s > 0.0) {
            double per_sample = elapsed_s / (double)n;
            double left = (o->size_budget_s - elapsed_s) / per_sample;
            if (left < (double)next)
                next = left >= 1.0 ? (size_t)left : 1;
        }
        round = next < target_n - n ? next : target_n - n;
    }

    if (st == CT_OK) {
        ct_stats_from_sorted(sorted, n, &out->stats);
        out->iterations = (long long)n * batch;
        out->batch = batch;
        out->converged = converged;
        ct_stats_t own_stats;
        ct_stats_compute(local, n, &own_stats);
        double own = own_stats.median;
        double mm[3] = {own, -own, own};
        ct_world_allreduce_double(env->world, mm, 2, CT_REDUCE_MIN);
        ct_world_allreduce_double(env->world, &mm[2], 1, CT_REDUCE_SUM);
        out->rank_median_min = mm[0];
        out->rank_median_max = -mm[1];
        out->rank_median_avg = mm[2] / ct_world_size(env->world);
    }
    free(local);
    free(agg);
    free(sorted);
    return st;
}
