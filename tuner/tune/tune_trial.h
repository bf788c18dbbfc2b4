/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_trial.h - the trial runner of `colltune tune`: one call runs one
 * trial of a scope's configuration (unless the journal has it), journals
 * it and keeps it in the state.  The search and the A/B verification each
 * call it for their own scopes; only the search's trials count against
 * --budget.
 */
#ifndef CT_TUNE_TRIAL_H
#define CT_TUNE_TRIAL_H

#include <limits.h>
#include <stddef.h>

#include "journal.h"
#include "launch_opts.h"
#include "argv.h"
#include "launcher.h"
#include "tune_state.h"
#include "tune_launch.h"

/* A trial the in-process search queued (tune_inproc.h).  done and total:
 * its place in the search when queued, for its progress line should it
 * run alone. */
typedef struct {
    size_t scope, ci;
    long launch;
    int short_run;
    size_t done, total;
} ct_tune_pending_t;

typedef struct {
    ct_tune_state_t *s;
    const char *out;            /* --out */
    const ct_launch_opts_t *lo; /* --np ... --collbench: settings every trial has */
    char **cb_args;             /* the arguments after --, for every trial */
    size_t ncb_args;
    ct_launcher_t launcher;
    char collbench[PATH_MAX];
    ct_journal_t journal;
    int tty;
    double best_speedup; /* the progress line's hint */
    char best[256];
    double trial_time;          /* sum of wall times of trials run now */
    ct_tune_pending_t *pending; /* queued by the in-process search */
    size_t npending, pending_cap;
    char placed[4096]; /* the JSON of the last trial that ran whole: where its ranks were */
    int no_turns; /* a turns launch could not start: the A/B's sides get launches of their own */
} ct_tune_runner_t;

/* Runs one trial of sc's configuration ci at launch (unless journaled or
 * excluded; an invalid one is journaled as skipped): CT_OK with *stop 0,
 * 1 (the budget is spent; only when budgeted) or 130 (interrupted), or an
 * error.  short_run: halving's first look (collbench --size-budget 0.05).
 * done and total are for the progress line. */
ct_status_t ct_tune_trial(ct_tune_runner_t *x, ct_tune_scope_t *sc, size_t ci, long launch,
                          int short_run, int budgeted, size_t done, size_t total, int *stop);

/* collbench --sync of every launch the tuner makes, search and
 * verification (unless the user's collbench arguments name one): barrier.
 * Window mode calibrates its window and resyncs the clocks for every
 * configuration x size, which on the emulated cluster at 1 Gbit cost 17 s
 * for a 1-4 MiB allreduce against 3.4 s in barrier mode; both sides of
 * every comparison are measured in the same mode. */
#define CT_TUNE_SYNC "barrier"

/* Whether sc's configuration ci at launch is in the journal already. */
int ct_tune_trial_journaled(const ct_tune_state_t *s, const ct_tune_scope_t *sc, size_t ci,
                            long launch);

/* One launch's collbench settings and arguments for sc with cfg's
 * settings over the user's (they win), extra arguments after the user's
 * collbench arguments (NULL: none), --sync CT_TUNE_SYNC and --ci-patience
 * CT_DECIDING_CI_PATIENCE unless the user's name them, and a --size-budget
 * (NULL: collbench's own; the user's wins);
 * its results into csv (and the JSON beside).  Free with
 * ct_tune_app_free. */
typedef struct {
    ct_launch_var_t *env, *mca;
    size_t nenv, nmca;
    ct_argv_t args;
    char json[4096];
} ct_tune_app_t;
ct_status_t ct_tune_trial_app(const ct_tune_runner_t *x, const ct_tune_scope_t *sc,
                              const ct_space_config_t *cfg, const ct_argv_t *extra,
                              const char *budget, const char *csv, ct_tune_app_t *app);
void ct_tune_app_free(ct_tune_app_t *app);

/* Launches collbench once through the launcher for sc with cfg's
 * settings over the user's (they win), extra arguments after the user's
 * collbench arguments (NULL: none), --sync CT_TUNE_SYNC and --ci-patience
 * CT_DECIDING_CI_PATIENCE unless the user's name them, and a --size-budget
 * (NULL: collbench's own; the user's wins);
 * paths: results.csv, collbench.txt, collbench.err. */
ct_status_t ct_tune_trial_launch(ct_tune_runner_t *x, const ct_tune_scope_t *sc,
                                 const ct_space_config_t *cfg, const ct_argv_t *extra,
                                 const char *budget, const char *const paths[3],
                                 ct_tune_outcome_t *o);

/* The JSON collbench writes beside a trial's results CSV (csv's name
 * with .json for .csv): its refusals and its configurations' ids. */
void ct_tune_trial_json_path(const char *csv, char *buf, size_t len);

/* Journals and keeps the finished trial of sc's configuration ci at
 * launch: its rows from csv (config: collbench --config's index of it in
 * a shared launch, whose group names it; -1 and NULL for a launch of its
 * own), or why it failed (which excludes the configuration). */
ct_status_t ct_tune_trial_record(ct_tune_runner_t *x, ct_tune_scope_t *sc, size_t ci, long launch,
                                 const char *csv, long config, const char *group,
                                 const ct_tune_outcome_t *o);

/* The same, keeping only the rows and refusals of collective only (NULL:
 * every one): a scope's share of a launch that measured several scopes'
 * collectives (tune_inproc.h), journaled as its own launch would have
 * been. */
ct_status_t ct_tune_trial_record_only(ct_tune_runner_t *x, ct_tune_scope_t *sc, size_t ci,
                                      long launch, const char *csv, long config, const char *group,
                                      const char *only, const ct_tune_outcome_t *o);

/* Whether the search's --budget (trials: run, resumed and queued so far;
 * -1 to look at the time alone) or --budget-s is spent; sets
 * s->budget_hit when it is. */
int ct_tune_budget_spent(ct_tune_state_t *s, long trials);

/* Whether s has the trial of sc's configuration ci at launch. */
int ct_tune_journaled(const ct_tune_state_t *s, const ct_tune_scope_t *sc, size_t ci, long launch);

/* Appends t to s->trials, taking what it owns (t is zeroed). */
ct_status_t ct_tune_keep(ct_tune_state_t *s, ct_trial_t *t);

/* Whether SIGINT or SIGTERM is pending (blocked across the search). */
int ct_tune_interrupted(void);

/* Monotonic seconds. */
double ct_tune_now(void);

#endif
