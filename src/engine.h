/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * engine.h - the sweep: plan, then for every collective, type, op and size
 * validate and time both placements, and report each row as it is done.
 *
 * The engine is the only place with the warm-up/time/aggregate loop; the
 * collectives and backends are table entries it drives.  Everything the
 * user asked for is checked (sizes, root, backend abilities, memory) before
 * the first measurement, so bad input fails in seconds, not mid-sweep.
 */
#ifndef CT_ENGINE_H
#define CT_ENGINE_H

#include <stdio.h>

#include "backend/backend.h"
#include "clocksync.h"
#include "configs.h"
#include "ct_result.h"
#include "measure.h"
#include "options.h"
#include "report.h"
#include "watchdog.h"
#include "world.h"

typedef struct {
    ct_world_t *world;
    const ct_backend_ops_t *ops;
    void *ctx;
    const ct_options_t *opts;
    const ct_run_ident_t *ident;
    ct_reports_t *reports; /* rank 0: the outputs, and the rank that prints
                                messages; other ranks: NULL */
    ct_watchdog_t *watchdog;
    ct_sync_mode_t sync;         /* resolved timing mode (ct_measure_sync_mode) */
    ct_clocksync_t *clock;       /* common clock and p2p floor, every rank */
    const ct_configs_t *configs; /* --config: each size runs every
                                    configuration in turn; NULL: none */
    double *rank_medians;        /* set by ct_engine_run on the world's rank 0: the
                              rows' per-rank medians (ct_report_row_t) */
} ct_engine_t;

/* Runs the whole sweep and reports it: begin, every collective and row,
 * and end (the outputs commit) when the sweep finished.  Returns
 * CT_ERR_USAGE (message printed by rank 0) for input that cannot run,
 * CT_ERR_WRONG when any result was wrong, else CT_ERR_REFUSED when the
 * library refused some collective x type x op in some configuration
 * (reported, its later sizes skipped there, the rest measured),
 * CT_ERR_IO (on every rank) when an output failed. */
ct_status_t ct_engine_run(ct_engine_t *engine);

/* The end of a run, the sweep's and the pairs' alike: when it finished
 * (st CT_OK, CT_ERR_WRONG or CT_ERR_REFUSED), commits the outputs (ct_reports_end), under
 * the watchdog, since the JSON's rename is also bounded by -T.  Returns
 * st, or the outputs' error when they failed. */
ct_status_t ct_engine_end_reports(ct_reports_t *reports, ct_watchdog_t *watchdog, ct_status_t st);

/* ISO 8601 UTC of now, into buf (>= 21 bytes). */
void ct_engine_utc_now(char *buf, size_t buflen);

#endif
