/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * configs.h - several configurations in one launch (--config).
 *
 * Configuration 0 is the values in force at start-up and runs on the
 * run's own world and backend.  Each --config k gets a duplicate of the
 * world and a backend context of its own, made while k's settings are in
 * force (and every setting another configuration names is at its start-up
 * value); the start-up values are written back right after.  What a
 * setting is, and whether it must be in force at the duplicate or at the
 * backend's open(), is the backend's kind (configs_kind.h): MPI_T control
 * variables around MPI_Comm_dup for mpi (Open MPI's coll/tuned reads its
 * forced algorithm, segment size and fan-outs when a communicator is
 * created), NCCL_* environment variables around ncclCommInitRank for
 * nccl.  The engine then runs configuration k's collectives on that
 * context: every collective of -C for a --config, its own alone for a
 * --config-for (so one launch can carry the configurations of several
 * collectives, each measured only where its settings act).  MPI-free interface over world.h, configs_kind.h and the
 * backend table.
 */
#ifndef CT_CONFIGS_H
#define CT_CONFIGS_H

#include "backend/backend.h"
#include "configs_kind.h"
#include "cvars.h"
#include "options.h"
#include "world.h"

typedef struct {
    int index;
    char config_id[24];        /* the run's for 0; a hash of it and the settings */
    char label[640];           /* "[COLL:]NAME=VALUE,..." as given; 0: "start-up values" */
    const ct_config_t *config; /* the option's settings; NULL for 0 */
    ct_world_t *world;         /* the duplicate; NULL for 0 (the run's world) */
    void *ctx;                 /* the backend on world; NULL for 0 */
    ct_cvars_t cvars;          /* every named variable, read back at creation
                                  (the kind's read; for 0 the start-up values) */
} ct_config_run_t;

typedef struct {
    ct_config_run_t v[CT_CONFIGS_MAX + 1];
    int n;                         /* 1 + --config options */
    ct_cvars_t startup;            /* every name any configuration sets, at start-up */
    const ct_configs_kind_t *kind; /* the backend's (ops->configs) */
    const ct_backend_ops_t *ops;
    int held; /* the kind's hold (an MPI_T session) until ct_configs_free */
} ct_configs_t;

/* Collective, before any output is opened: checks every --config setting
 * on every rank (ops->configs->probe), then creates each configuration's
 * communicator (a kind applied at creation: with its values written, and
 * the start-up values restored).  *out is NULL without --config.
 * CT_ERR_USAGE (exit 2, every rank, one message) when a setting cannot
 * run. */
ct_status_t ct_configs_create(ct_world_t *world, const ct_backend_ops_t *ops,
                              const ct_options_t *opts, const char *run_config_id,
                              ct_configs_t **out);

/* Collective, after ops->open on the run's world: opens the backend on each
 * configuration's communicator (a kind applied at open: with its values in
 * force, read back into v[k].cvars, and the start-up values restored after
 * each open(), whether it succeeded or not). */
ct_status_t ct_configs_open(ct_configs_t *configs, const ct_backend_ops_t *ops,
                            const ct_backend_config_t *bc);

/* Closes the backends and frees the communicators; NULL: nothing. */
void ct_configs_free(ct_configs_t *configs);

/* A kind the library reads at every call (at_call, MPICH's MPI_T
 * variables): enter writes configuration k's values, leave the start-up
 * ones, on this rank (every rank makes the same calls).  Nothing for other
 * kinds, for k 0 or without --config.  An error is printed. */
ct_status_t ct_configs_enter(const ct_configs_t *configs, int k);
ct_status_t ct_configs_leave(const ct_configs_t *configs, int k);

/* Whether configuration k is measured on coll: 0 and a --config on every
 * collective, a --config-for on its own alone. */
int ct_configs_measures(const ct_configs_t *configs, int k, const ct_coll_desc_t *coll);

/* configs->v[k].ctx, or ctx0 (the run's backend) for 0 or without --config. */
void *ct_configs_ctx(const ct_configs_t *configs, int k, void *ctx0);

#endif
