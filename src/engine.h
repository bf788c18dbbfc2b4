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
#include "ct_result.h"
#include "measure.h"
#include "report_table.h"
#include "options.h"
#include "watchdog.h"
#include "world.h"

typedef struct {
    char run_id[64];
    char config_id[24];
    char start_time[32];
} ct_run_ident_t;

typedef struct {
    ct_result_t result;
    ct_measurement_t measurement;
} ct_engine_row_t;

typedef struct {
    ct_world_t *world;
    const ct_backend_ops_t *ops;
    void *ctx;
    const ct_options_t *opts;
    const ct_run_ident_t *ident;
    FILE *table;             /* rank 0: stdout; other ranks: NULL */
    FILE *csv;               /* rank 0 with --csv, else NULL */
    ct_watchdog_t *watchdog;
    ct_sync_mode_t sync;     /* resolved timing mode (ct_measure_sync_mode) */
    ct_clocksync_t *clock;   /* common clock and p2p floor, every rank */
    ct_engine_row_t *rows;   /* rank 0: every row, for the JSON file */
    size_t nrows;
    size_t rows_cap;
} ct_engine_t;

/* Runs the whole sweep.  Returns CT_ERR_USAGE (message printed by rank 0)
 * for input that cannot run, CT_ERR_WRONG when any result was wrong. */
ct_status_t ct_engine_run(ct_engine_t *engine);

/* ISO 8601 UTC of now, into buf (>= 21 bytes). */
void ct_engine_utc_now(char *buf, size_t buflen);

#endif
