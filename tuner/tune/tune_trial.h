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
#include "launcher.h"
#include "tune.h"

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
    double trial_time; /* sum of wall times of trials run now */
} ct_tune_runner_t;

/* Runs one trial of sc's configuration ci at launch (unless journaled or
 * excluded; an invalid one is journaled as skipped): CT_OK with *stop 0,
 * 1 (the budget is spent; only when budgeted) or 130 (interrupted), or an
 * error.  short_run: halving's first look (collbench --size-budget 0.05).
 * done and total are for the progress line. */
ct_status_t ct_tune_trial(ct_tune_runner_t *x, ct_tune_scope_t *sc, size_t ci, long launch,
                          int short_run, int budgeted, size_t done, size_t total, int *stop);

/* Appends t to s->trials, taking what it owns (t is zeroed). */
ct_status_t ct_tune_keep(ct_tune_state_t *s, ct_trial_t *t);

/* Monotonic seconds. */
double ct_tune_now(void);

#endif
