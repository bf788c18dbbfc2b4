/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * report.h - one interface for every output of a run.
 *
 * The nccl-tests table, the CSV and the JSON file are each one
 * ct_report_ops_t (report_table.c, report_csv.c, report_json.c) and one
 * entry in the list in report.c.  The engine drives them through
 * ct_reports_t and knows neither which outputs exist nor where they write;
 * a new output (the tuner's journal, plots) is a new file and a new entry.
 *
 * Reports live on rank 0 only.  Order of events:
 *   open (before the first measurement: every problem with a destination is
 *   found here, exit 2) -> begin -> { [pair | shape] coll_begin ->
 *   (row | refused)... -> coll_end }...
 *   -> end (the sweep finished, ok or wrong: commit) -> close,
 *   or abort instead of end when the run fails (discard what is not
 *   committed; rows already written to a file stay).
 * A report prints its own error, naming its path and the reason, once.
 */
#ifndef CT_REPORT_H
#define CT_REPORT_H

#include <stddef.h>

#include "backend/backend.h"
#include "ct_path.h"
#include "ct_result.h"
#include "ct_tuning_env.h"
#include "configs.h"
#include "cvars.h"
#include "fingerprint.h"
#include "measure.h"
#include "options.h"
#include "rankinfo.h"
#include "world.h"

typedef struct {
    char run_id[64];
    char config_id[24];
    char start_time[32];
} ct_run_ident_t;

/* What a report may read about the run; owned by collbench and valid from
 * open to close.  backend_ctx is set once the backend is open (before
 * begin; reports must not use it in open). */
typedef struct {
    ct_world_t *world;
    const ct_backend_ops_t *ops;
    void *backend_ctx;
    const ct_options_t *opts;
    const ct_run_ident_t *ident;
    const ct_rankinfo_t *ranks; /* world-size entries */
    const ct_tuning_env_t *env;
    const ct_cvars_t *cvars;     /* --cvars, read on rank 0 (n is 0 without it) */
    const ct_configs_t *configs; /* --config, or NULL */
    int argc;
    char **argv;
    ct_sync_mode_t sync; /* resolved timing mode; set with backend_ctx */
    /* --json: the job's fingerprint (rank 0), set with backend_ctx */
    const ct_fingerprint_job_t *fingerprint;
    double floor_us; /* one-way small-message latency (clocksync.h) */
} ct_report_run_t;

/* One measured placement of one size. */
typedef struct {
    const ct_result_t *result;
    const ct_measurement_t *measurement;
    int in_place; /* the second of the size's two rows */
    /* Each rank's own median, in rank order (world-size entries), or NULL
     * (rows of --pairs, whose ranks are a pair's) */
    const double *rank_medians;
    int config;               /* --config: the configuration's index; else 0 */
    const char *config_label; /* --config: its settings ("start-up values"
                                 for 0); NULL without --config */
} ct_report_row_t;

/* A collective x type x op the library refused in one configuration, on
 * every rank (backend.h): its first refused size, and no rows from there
 * on in that configuration.  Between coll_begin and coll_end. */
typedef struct {
    const ct_coll_desc_t *coll;
    const char *dtype;
    const char *op;           /* "none" where the collective has no op, as in rows */
    int config;               /* --config: the configuration's index; else -1 */
    const char *config_id;    /* the config_id its rows would have carried */
    const char *config_label; /* --config: its settings; NULL without --config */
    long long bytes;
    const char *message; /* the library's reason, one line */
} ct_report_refusal_t;

/* --pairs: the rows that follow, up to the next pair, are this pair's. */
typedef struct {
    int round;
    const char *hosts[2];
    const char *round_line; /* on a round's first pair: "h1+h2, h3+h4"; else NULL */
} ct_report_pair_t;

/* --shapes: the rows that follow, up to the next shape, are measured on
 * this shape's sub-communicator (ct_shapes.h).  Their rank_medians are in its
 * rank order: world_ranks[i] is its rank i's in the run's world. */
typedef struct {
    int index; /* among --shapes, from 0 */
    ct_shape_t shape;
    int nranks;             /* nnodes x ranks_per_node */
    const int *world_ranks; /* nranks entries, ascending */
} ct_report_shape_t;

/* The files the run's reports write, so two flags never name one file. */
#define CT_REPORT_MAX 8
typedef struct {
    const char *flag[CT_REPORT_MAX];
    ct_path_target_t target[CT_REPORT_MAX];
    size_t n;
} ct_report_files_t;

typedef struct {
    const char *name;
    /* Whether the options ask for this output. */
    int (*wanted)(const ct_options_t *opts);
    /* Checks the destination and opens it; on a problem prints it (flag,
     * path, reason) and returns CT_ERR_USAGE.  Never blocks. */
    ct_status_t (*open)(const ct_report_run_t *run, ct_report_files_t *files, void **state_p);
    /* Each may be NULL.  An error (CT_ERR_IO: exit 3) ends the run. */
    ct_status_t (*begin)(void *state);
    ct_status_t (*coll_begin)(void *state, const ct_coll_desc_t *coll);
    ct_status_t (*row)(void *state, const ct_report_row_t *row);
    ct_status_t (*refused)(void *state, const ct_report_refusal_t *refusal);
    ct_status_t (*coll_end)(void *state, const ct_coll_desc_t *coll);
    ct_status_t (*pair)(void *state, const ct_report_pair_t *pair);
    ct_status_t (*shape)(void *state, const ct_report_shape_t *shape);
    /* run_status: CT_OK, CT_ERR_WRONG or CT_ERR_REFUSED. */
    ct_status_t (*end)(void *state, ct_status_t run_status);
    void (*close)(void *state);
    void (*abort)(void *state);
} ct_report_ops_t;

extern const ct_report_ops_t ct_report_table;
extern const ct_report_ops_t ct_report_csv;
extern const ct_report_ops_t ct_report_json;

/* The active reports of a run. */
typedef struct {
    const ct_report_ops_t *ops[CT_REPORT_MAX];
    void *state[CT_REPORT_MAX];
    size_t n;
    ct_status_t status;       /* the first error; later events are not delivered */
    int ended[CT_REPORT_MAX]; /* end() succeeded: close, not abort */
} ct_reports_t;

/* Opens every wanted report (rank 0).  On failure the ones already open
 * are aborted and the first error is returned (CT_ERR_USAGE: exit 2). */
ct_status_t ct_reports_open(ct_reports_t *reports, const ct_report_run_t *run);

/* Events; each is a no-op on NULL (the other ranks) or after an error. */
void ct_reports_begin(ct_reports_t *reports);
void ct_reports_coll_begin(ct_reports_t *reports, const ct_coll_desc_t *coll);
void ct_reports_row(ct_reports_t *reports, const ct_report_row_t *row);
void ct_reports_refused(ct_reports_t *reports, const ct_report_refusal_t *refusal);
void ct_reports_coll_end(ct_reports_t *reports, const ct_coll_desc_t *coll);
void ct_reports_pair(ct_reports_t *reports, const ct_report_pair_t *pair);
void ct_reports_shape(ct_reports_t *reports, const ct_report_shape_t *shape);
/* The first error so far (CT_OK on NULL). */
ct_status_t ct_reports_status(const ct_reports_t *reports);
/* Commits every output (each one, even after another failed); returns the
 * first error.  Nothing is committed when an event failed before. */
ct_status_t ct_reports_end(ct_reports_t *reports, ct_status_t run_status);
/* Closes the ended reports and aborts the others. */
void ct_reports_close(ct_reports_t *reports);

/* For a report's open(): resolves path (flag names it in messages), and
 * refuses what cannot be an output file: a missing directory, a directory,
 * anything but a regular file (devices, FIFOs, sockets; a symlink is
 * followed), no write permission, or a file another flag already names.
 * Prints the problem and returns CT_ERR_USAGE; on success *target_p points
 * at the recorded target. */
ct_status_t ct_report_claim(ct_report_files_t *files, const char *flag, const char *path,
                            const ct_path_target_t **target_p);

/* A report's I/O error, printed once: "collbench: error: FLAG PATH: WHAT: strerror(err)". */
ct_status_t ct_report_io_error(const char *flag, const char *path, const char *what, int err);

#endif
