/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * shapes_run.h - --shapes at run time: each shape's sweep on its own
 * sub-communicator of the launch (shapes.h for the option).
 *
 * For each shape, the first K hosts' first R ranks split off
 * (ct_world_split, ranked as in the world) and run the whole sweep there:
 * backend, clock and --config communicators made on the shape, the rows
 * reported as measured, after a "shape" event naming it.  The other ranks
 * wait in a barrier that sleeps (ct_world_barrier_idle), so they take no
 * CPU from the ranks being measured; the shape's ranks join it when done.
 */
#ifndef CT_SHAPES_RUN_H
#define CT_SHAPES_RUN_H

#include "engine.h"

typedef struct {
    ct_world_t *world;
    const ct_backend_ops_t *ops;
    const ct_backend_config_t *config;
    const ct_options_t *opts;
    const ct_run_ident_t *ident;
    ct_reports_t *reports; /* rank 0's outputs; NULL elsewhere */
    ct_watchdog_t *watchdog;
} ct_shapes_env_t;

/* Local, the same verdict on every rank (the world's host list is every
 * rank's): CT_ERR_USAGE, printed by rank 0, when a shape needs more hosts
 * than the launch has, or more ranks on one of its hosts than run there. */
ct_status_t ct_shapes_check(ct_world_t *world, const ct_options_t *opts);

/* Collective over the world: every shape's sweep, then the outputs' end.
 * Returns as ct_engine_run does, over all shapes (a failure stops at its
 * shape; wrong results, then refusals, otherwise). */
ct_status_t ct_shapes_run(const ct_shapes_env_t *env);

#endif
