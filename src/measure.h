/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * measure.h - timing one collective call, adaptively.
 *
 * Method (documented in doc/timing.md, "Timing modes"):
 *  - warm-up calls, then probe batches, estimate the cost of one call;
 *    ranks agree on the largest estimate.
 *  - a sample is timed in one of three modes (--sync):
 *      window   each call starts at an instant agreed on a common clock
 *               (clocksync.h); its time on a rank is that rank's finish
 *               minus the agreed start.  A call some rank started late (the
 *               previous one overran its window) is discarded and counted.
 *      barrier  a barrier, then one call timed alone on each rank.
 *      batch    k back-to-back calls between a barrier and the completion
 *               of the last, divided by k; k makes the batch last
 *               --batch-us and (unless that was given) hold 20 calls and
 *               100 times the per-batch overhead measured in the warm-up.
 *               A throughput: calls may overlap.
 *  - each rank's sample is aggregated across ranks (-a: the max by
 *    default, -a 3, since a collective is done only when its slowest rank
 *    is; -a 1 is nccl-tests' and OSU's average).
 *  - samples are taken in rounds.  After each round all ranks hold the same
 *    aggregated samples and make the same stop decision: the 95% CI of the
 *    median within --target-ci after at least --min-time of sampling, or
 *    the --size-budget spent (it bounds warm-up, window mode's calibration
 *    and every round, the first included, and wins over --min-samples), or
 *    --max-samples reached.
 *    With -n the number of timed calls is fixed instead.
 */
#ifndef CT_MEASURE_H
#define CT_MEASURE_H

#include "backend/backend.h"
#include "clocksync.h"
#include "ct_stats.h"
#include "options.h"
#include "world.h"

/* Batch mode, unless --batch-us is given: a batch holds at least this many
 * calls (nccl-tests' -n 20 between two synchronisations) ... */
#define CT_BATCH_MIN_CALLS 20
/* ... and lasts at least this many times the per-batch overhead (the
 * barrier's exit skew, the first launch, the final synchronisation), which
 * then costs at most 1% of a batch. */
#define CT_BATCH_OVERHEAD_TIMES 100.0
/* Never more calls than this in one batch. */
#define CT_BATCH_MAX_CALLS 100000

typedef struct {
    ct_world_t *world;
    const ct_backend_ops_t *ops;
    void *ctx;
    const ct_options_t *opts;
    ct_sync_mode_t sync;   /* resolved: never CT_SYNC_DEFAULT */
    ct_clocksync_t *clock; /* the common clock; required in window mode */
} ct_measure_env_t;

typedef struct {
    ct_sync_mode_t sync;      /* the mode that produced these numbers */
    ct_stats_t stats;         /* per-call µs, aggregated across ranks; stats.n
                                samples, stats.ci_low/ci_high the median's CI */
    long long iterations;     /* timed calls (samples * batch) */
    int batch;                /* calls per sample */
    double batch_overhead_us; /* batch mode's rule: a batch's cost beyond its
                                 calls, measured at this size; -1: not */
    int converged;            /* CI target met (adaptive only) */
    long long late;           /* window: calls discarded, some rank started late */
    double rank_median_min;   /* each rank's own median, across ranks; max is
                                the slowest rank's own median */
    double rank_median_avg;
    double rank_median_max;
    double own_median; /* this rank's own median (the engine gathers them) */
} ct_measurement_t;

/* The mode a run uses: --sync, else window where a call has completed when
 * it returns on the host (host-memory backends), else batch, which for
 * NCCL keeps busbw comparable with nccl-tests. */
ct_sync_mode_t ct_measure_sync_mode(const ct_options_t *opts, const ct_backend_ops_t *ops);

/* Measures call.  Collective: a failure on any rank ends it on every
 * rank (ct_measure_agreed); CT_ERR_REFUSED, on every rank alike, when
 * every rank's call was refused. */
ct_status_t ct_measure_call(const ct_measure_env_t *env, const ct_backend_call_t *call,
                            ct_measurement_t *out);

/* The outcome every rank takes from an agreement on a step (the engine's
 * validation, each of ct_measure_call's): own is this rank's status,
 * any_failed whether some rank failed, all_refused whether every rank's
 * call was refused (backend.h).  CT_OK when none failed; CT_ERR_REFUSED
 * when all refused, which the engine reports once and skips; otherwise
 * fatal: own's error, or CT_ERR_BACKEND where this rank was fine or only
 * refused (it then prints the refusal's reason, which the backend kept
 * quiet, as "collbench: rank R: refused here, not on every rank: ..."). */
ct_status_t ct_measure_agreed(ct_world_t *world, const ct_backend_ops_t *ops, void *ctx,
                              ct_status_t own, int any_failed, int all_refused);

#endif
