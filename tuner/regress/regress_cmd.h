/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * regress_cmd.h - what the files of `colltune regress` share: the runs of
 * a history and its judged series.  regress.c reads the history, judges
 * every series (regress_stats.c) and writes the tables; regress_plot.c
 * draws the series (--plot) and their page, regress_index.c the history's
 * page (--index).
 */
#ifndef CT_REGRESS_CMD_H
#define CT_REGRESS_CMD_H

#include <jansson.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#include "ct_results_read.h"
#include "regress.h"

/* One run: its rows and, when it has a results.json, its metadata. */
typedef struct {
    char name[256];
    char dir[PATH_MAX];
    char date[64];
    ct_results_t rows;
    json_t *meta;     /* NULL: an imported run */
    int new_baseline; /* the run directory holds CT_REG_NEW_BASELINE */
} ct_reg_run_t;

/* A file that, in a run directory, starts a new baseline at that run: the
 * runs before it are not judged against (an intended change, such as a
 * new MPI library or a new configuration, made the old numbers moot). */
#define CT_REG_NEW_BASELINE "new-baseline"

typedef struct {
    ct_reg_run_t *v;
    size_t n;
} ct_reg_runs_t;

/* One judged series: its key (the newest run's row), its values oldest
 * first and the run each came from. */
typedef struct {
    const ct_result_t *key;
    size_t n;
    ct_regress_point_t *p;
    size_t *at; /* at[i]: the index in runs of p[i] */
    ct_regress_result_t res;
} ct_reg_series_t;

/* A history judged: its series, the events of the newest run (as a whole
 * and per collective: groups[g] is the collective of the series whose
 * key->collective is group_names[g]), and the runs a new baseline left
 * out. */
typedef struct {
    ct_reg_series_t *s;
    size_t ns;
    ct_regress_event_t ev;
    ct_regress_event_t *groups;
    const char **group_names;
    size_t ngroups;
    size_t dropped;
} ct_reg_judged_t;

/* Each run whose configuration (its tuning variables: OMPI_MCA_*, UCX_*,
 * NCCL_*, less the launcher's) differs from the run before it, with the
 * differences ("OMPI_MCA_coll_tuned_allreduce_algorithm: unset -> 4"). */
void ct_reg_config_changes(FILE *f, int md, const ct_reg_runs_t *runs);

/* --json FILE: the verdicts for dashboards (doc/formats.md,
 * colltune-regress/1), through a temporary file.  0, or -1 told. */
int ct_reg_json(const char *path, const ct_reg_runs_t *runs, const char *history,
                const ct_reg_judged_t *j, int slower, size_t window);

/* One candidate cause: what differs between the last good run and the
 * first slow one, most specific first (ct_reg_causes). */
typedef struct {
    char what[256]; /* "LD_PRELOAD", "library libmpi.so.40", "MPI_T coll_tuned_..." */
    char from[512]; /* the value in the last good run ("unset", "absent") */
    char to[512];   /* in the first slow one */
    int rank;       /* its kind: 1 preload .. 7 other metadata (regress_diag.c) */
    int consistent; /* every baseline run had `from` and every run of the step `to` */
} ct_reg_cause_t;

/* The differences between runs good and bad (indices in runs), ranked:
 * consistent ones first (the value held in every run of the baseline
 * window before bad, and the new one in every run from bad to the
 * newest), then by kind: a preloaded library, a library's build or
 * version, the configuration's tuning variables, MPI_T values in force,
 * other variables, the kernel and CPU, the hosts, other metadata.  *out (caller frees),
 * *n of them; -1 when either run has no metadata or memory runs out. */
int ct_reg_causes(const ct_reg_runs_t *runs, size_t good, size_t bad, size_t window,
                  ct_reg_cause_t **out, size_t *n);

/* The diagnosis after the table, for the series of one verdict (SLOWER
 * or FASTER): grouped by the run they moved at, each group's members
 * named and its candidate causes printed once (md: markdown). */
void ct_reg_diagnosis(FILE *f, int md, const ct_reg_runs_t *runs, const ct_reg_series_t *s,
                      size_t ns, ct_regress_verdict_t verdict, size_t window);

/* --plot, resolved before any work. */
typedef struct {
    const char *dir, *gnuplot, *scripts, *size;
    int png, svg;
    double threshold;
} ct_reg_plot_t;

/* Draws the series into pl->dir (plots/timeseries.gp: one overview image
 * per collective, one image per flagged series) and writes its
 * index.html with the verdict table.  0, or -1 after telling stderr. */
int ct_reg_plot(const ct_reg_plot_t *pl, const ct_reg_runs_t *runs, const ct_reg_series_t *s,
                size_t ns, const char *history);

/* --index FILE: the history's page (regress_index.c), written beside and
 * renamed.  Every run, newest first: its date, name and configuration,
 * links relative to FILE's directory to what exists of RUN/plots/
 * index.html (the night's plots), RUN/plots/regress/index.html (the
 * history drawn that night) and RUN/regress.json, and the verdict that
 * regress.json records ("-" when it is missing or unreadable); at the top
 * the newest recorded verdict in words and a link to latest_md (when
 * non-NULL and it exists).  0, or -1 after telling stderr. */
int ct_reg_index(const char *path, const ct_reg_runs_t *runs, const char *history,
                 const char *latest_md);

/* Room for one value of a report line made safe by ct_reg_safe: a cause's
 * value (512 bytes) with every byte escaped. */
#define CT_REG_SAFE_LEN 3200

/* s as one piece of a report line, into buf (len bytes; returns buf).
 * Values come from files regress did not write (results.json, run
 * directory names): each control byte is written '?' (a newline would
 * forge a line), as the emitters' headers do.  In markdown (md) '<', '>',
 * '&' and '"' also become HTML entities and '\\', '`', '*', '[', ']' and
 * '|' are backslash-escaped: no raw HTML, no link, no cell boundary of a
 * table.  A value that does not fit is cut at a whole character, "..."
 * marking the cut. */
const char *ct_reg_safe(const char *s, int md, char *buf, size_t len);

/* A configuration id as people should read it: "default" for the hash of
 * no settings (CT_HASH_INIT, what collbench's default configuration
 * gets), "-" for none, else the id. */
const char *ct_reg_config_name(const char *config_id);

#endif
