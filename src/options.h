/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * options.h - collbench's command line.
 *
 * Flags shared with nccl-tests keep their letters and meaning; everything
 * else is a long option.  Parsing needs no MPI: every rank parses the same
 * argv to the same result, and the checks that depend on the job (rank
 * count, backend abilities, memory) run later in ct_options_check_job().
 */
#ifndef CT_OPTIONS_H
#define CT_OPTIONS_H

#include <stddef.h>
#include <stdio.h>
#include "coll.h"
#include "ct_dtype.h"
#include "ct_status.h"
#include "ct_shapes.h"

typedef enum {
    CT_AGG_RANK0 = 0,
    CT_AGG_AVG = 1,
    CT_AGG_MIN = 2,
    CT_AGG_MAX = 3,
} ct_rank_agg_t;

/* How a sample is timed (doc/timing.md, "Timing modes"). */
typedef enum {
    CT_SYNC_DEFAULT = -1, /* window for host backends, batch otherwise */
    CT_SYNC_WINDOW = 0,   /* agreed start on a synchronised clock */
    CT_SYNC_BARRIER = 1,  /* barrier, then one call timed alone */
    CT_SYNC_BATCH = 2,    /* k back-to-back calls per sample */
} ct_sync_mode_t;

/* --config: one configuration's settings (configs.h): MPI_T control
 * variables for the mpi backend, NCCL_* environment variables for nccl
 * (configs_kind.h).  A value can be a rules file's path. */
#define CT_CONFIGS_MAX 64         /* --config options */
#define CT_CONFIG_SETTINGS_MAX 16 /* NAME=VALUE pairs in one */
typedef struct {
    char name[96];
    char value[256];
} ct_setting_t;

typedef struct {
    ct_setting_t s[CT_CONFIG_SETTINGS_MAX];
    int n;
    /* --config-for: the one collective it is measured on (the others skip
     * it); NULL: --config, every collective. */
    const ct_coll_desc_t *coll;
} ct_config_t;

/* --sizes: at most this many (as many as a -b/-e sweep may have). */
#define CT_SIZES_MAX 4096

typedef struct {
    size_t min_bytes, max_bytes; /* with --sizes: its smallest and largest */
    size_t step_bytes;
    size_t step_factor; /* > 1: multiply; else add step_bytes */
    /* --sizes: ascending, distinct; replaces the -b/-e/-i/-f sweep (nsizes 0: none) */
    size_t sizes[CT_SIZES_MAX];
    int nsizes;
    int iters; /* 0: adaptive */
    int warmup;
    int check; /* validation rounds; 0 disables #wrong */
    ct_op_t ops[CT_OP_COUNT];
    int nops;
    int ops_all; /* "-o all": skip pairs the backend cannot do */
    ct_dtype_t dtypes[CT_DTYPE_COUNT];
    int ndtypes;
    int dtypes_all;
    int root;
    ct_rank_agg_t rank_agg;
    ct_sync_mode_t sync; /* CT_SYNC_DEFAULT until the backend resolves it */
    int timeout_s;       /* 0: none */
    const ct_coll_desc_t *colls[CT_COLL_COUNT];
    int ncolls;
    const char *backend;
    const char *csv_path;
    const char *json_path;
    const char *run_id;
    const char *cvars; /* --cvars: MPI_T variables to record, comma-separated */
    /* --config, --config-for: configurations 1..nconfigs in the order
     * given (0 is the start-up values) */
    ct_config_t configs[CT_CONFIGS_MAX];
    int nconfigs;
    double target_ci; /* relative half-width of the median's 95% CI */
    double size_budget_s;
    double min_time_s;  /* adaptive: least measuring time per size */
    double ci_patience; /* adaptive: past the least, chase the CI this many times as long */
    int min_samples;
    int max_samples;
    double batch_us;    /* shortest timed batch, amortising the clock */
    int batch_us_given; /* --batch-us given: batches are exactly that long */
    int quiet;
    int no_table;     /* --no-table: no nccl-tests table */
    int pairs;        /* --pairs: host pairs, round-robin (pairs.h) */
    int pairs_rounds; /* --pairs-rounds: at most this many rounds; 0: all */
    int turns;        /* --turns: each app context a job of its own (world.h) */
    /* --shapes: ascending, each measured on a sub-communicator (ct_shapes.h);
     * nshapes 0: the launch's own shape only */
    ct_shape_t shapes[CT_SHAPES_MAX];
    int nshapes;
    const char *nccl_library;
    const char *cudart_library;
    int help;
    int version;
} ct_options_t;

/* Fills *opts with defaults, then argv.  On error returns CT_ERR_USAGE with
 * a message naming the flag and value in err. */
ct_status_t ct_options_parse(int argc, char **argv, ct_options_t *opts, char *err, size_t errlen);

void ct_options_usage(FILE *fp, const char *prog);

/* Whether argv holds the word flag (e.g. "--turns"), for a flag that must
 * be known even when the options as a whole did not parse. */
int ct_options_given(int argc, char **argv, const char *flag);

/* "rank0", "avg", "min" or "max", as the JSON and the preamble say it. */
const char *ct_options_rank_agg_name(ct_rank_agg_t agg);

/* "window", "barrier", "batch" (or "default"), as the CSV and JSON say it. */
const char *ct_options_sync_name(ct_sync_mode_t sync);

#endif
