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
    json_t *meta; /* NULL: an imported run */
} ct_reg_run_t;

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

/* The diagnosis after the table, for the series of one verdict (SLOWER
 * or FASTER): grouped by the run they moved at, each group's members
 * named and what changed in the metadata printed once (md: markdown). */
void ct_reg_diagnosis(FILE *f, int md, const ct_reg_runs_t *runs, const ct_reg_series_t *s,
                      size_t ns, ct_regress_verdict_t verdict);

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

/* A configuration id as people should read it: "default" for the hash of
 * no settings (CT_HASH_INIT, what collbench's default configuration
 * gets), "-" for none, else the id. */
const char *ct_reg_config_name(const char *config_id);

#endif
