/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pairs.h - collbench --pairs: the health mode that runs the selected
 * collectives on every pair of hosts, to isolate a slow node or link.
 *
 * The hosts (told apart by hostname) meet in the rounds of a round-robin
 * tournament (ct_pairs.h).  In each round the world is split into one
 * communicator per pair, holding every rank of both hosts, and all pairs
 * run the whole sweep at once through the ordinary engine on their own
 * world (backend and clock opened on it).  Each pair's first rank keeps
 * its rows; after the round world rank 0 collects them and reports them
 * as one block per round: the table, the CSV rows as usual, and the JSON's
 * "pairs" array.
 */
#ifndef CT_PAIRS_RUN_H
#define CT_PAIRS_RUN_H

#include "engine.h"

typedef struct {
    ct_world_t *world;
    const ct_backend_ops_t *ops;
    const ct_backend_config_t *config;
    const ct_options_t *opts;
    const ct_run_ident_t *ident;
    ct_reports_t *reports; /* rank 0's outputs; NULL elsewhere */
    ct_watchdog_t *watchdog;
} ct_pairs_env_t;

/* Collective.  CT_ERR_USAGE (rank 0 printed it) with fewer than 2 hosts,
 * CT_ERR_WRONG when a pair's results were wrong, else as ct_engine_run. */
ct_status_t ct_pairs_run(const ct_pairs_env_t *env);

#endif
