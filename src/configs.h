/*
 * configs.h - several MPI_T configurations in one launch (--config).
 *
 * Configuration 0 is the values in force at start-up and runs on the
 * run's own world.  Each --config k writes its control variables (and
 * every variable another configuration names, back to its start-up
 * value), then duplicates the world: Open MPI's coll/tuned reads its
 * forced algorithm, segment size and fan-outs when a communicator is
 * created, so the duplicate keeps k's values after the start-up values are
 * written back.  The engine then runs configuration k's collectives on
 * that communicator, through a backend context of its own.  MPI-free
 * interface over world.h, cvars.h and the backend table.
 */
#ifndef CT_CONFIGS_H
#define CT_CONFIGS_H

#include "backend/backend.h"
#include "cvars.h"
#include "options.h"
#include "world.h"

typedef struct {
    int index;
    char config_id[24];        /* the run's for 0; a hash of it and the settings */
    char label[640];           /* "NAME=VALUE,..." as given; 0: "start-up values" */
    const ct_config_t *config; /* the option's settings; NULL for 0 */
    ct_world_t *world;         /* the duplicate; NULL for 0 (the run's world) */
    void *ctx;                 /* the backend on world; NULL for 0 */
    ct_cvars_t cvars;          /* every named variable, read back at creation */
} ct_config_run_t;

typedef struct {
    ct_config_run_t v[CT_CONFIGS_MAX + 1];
    int n;              /* 1 + --config options */
    ct_cvars_t startup; /* every name any configuration sets, at start-up */
    const ct_backend_ops_t *ops;
    int held; /* an MPI_T session open until ct_configs_free (cvars.h) */
} ct_configs_t;

/* Collective, before any output is opened: checks every --config setting
 * on every rank (cvars.h: ct_cvars_probe), then creates each
 * configuration's communicator and restores the start-up values.  *out is
 * NULL without --config.  CT_ERR_USAGE (exit 2, every rank, one message)
 * when a setting cannot run. */
ct_status_t ct_configs_create(ct_world_t *world, const ct_options_t *opts,
                              const char *run_config_id, ct_configs_t **out);

/* Collective: opens the backend on each configuration's communicator. */
ct_status_t ct_configs_open(ct_configs_t *configs, const ct_backend_ops_t *ops,
                            const ct_backend_config_t *bc);

/* Closes the backends and frees the communicators; NULL: nothing. */
void ct_configs_free(ct_configs_t *configs);

/* configs->v[k].ctx, or ctx0 (the run's backend) for 0 or without --config. */
void *ct_configs_ctx(const ct_configs_t *configs, int k, void *ctx0);

#endif
