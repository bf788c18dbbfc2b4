/*
 * measure.h - timing one collective call, adaptively.
 *
 * Method (documented in README.md, "Timing method"):
 *  - warm-up calls, timed as a whole, estimate the cost of one call; ranks
 *    agree on the largest estimate.
 *  - a sample is a batch of k back-to-back calls between a barrier and the
 *    completion of the last call, divided by k.  k is the smallest count
 *    whose batch lasts --batch-us, so reading the clock costs well under 1%
 *    even for an 8-byte allreduce; large messages get k = 1.
 *  - each rank times its own batch; the per-sample time is then aggregated
 *    across ranks (-a: max by default, since a collective is done only when
 *    its slowest rank is).
 *  - samples are taken in rounds.  After each round all ranks hold the same
 *    aggregated samples and make the same stop decision: the 95% CI of the
 *    median within --target-ci after at least --min-time of sampling, or
 *    the --size-budget spent, or --max-samples reached.  With -n the round count is fixed instead.
 */
#ifndef CT_MEASURE_H
#define CT_MEASURE_H

#include "backend/backend.h"
#include "ct_stats.h"
#include "options.h"
#include "world.h"

typedef struct {
    ct_world_t *world;
    const ct_backend_ops_t *ops;
    void *ctx;
    const ct_options_t *opts;
} ct_measure_env_t;

typedef struct {
    ct_sync_mode_t sync;     /* the mode that produced these numbers */
    ct_stats_t stats;        /* per-call µs, aggregated across ranks; stats.n
                                samples, stats.ci_low/ci_high the median's CI */
    long long iterations;    /* timed calls (samples * batch) */
    int batch;               /* calls per sample */
    int converged;           /* CI target met (adaptive only) */
    long long late;          /* window: calls discarded, some rank started late */
    double rank_median_min;  /* each rank's own median, across ranks; max is
                                the slowest rank's own median */
    double rank_median_avg;
    double rank_median_max;
} ct_measurement_t;

ct_status_t ct_measure_call(const ct_measure_env_t *env, const ct_backend_call_t *call,
                            ct_measurement_t *out);

#endif
