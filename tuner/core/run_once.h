/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * run_once.h - the one way colltune launches collbench once: the launch
 * built by the launcher (launcher.h) and run as a trial (trial.h), with
 * its own session, timeout and output files.  Every subcommand that runs
 * collbench comes here: sweep and health through the directory form
 * (ct_run_once_dir: DIR/results.*, collbench.txt/.err, launch.json), tune
 * through ct_run_once itself (its trials keep their files where the
 * journal says).
 */
#ifndef CT_RUN_ONCE_H
#define CT_RUN_ONCE_H

#include <stddef.h>
#include "argv.h"
#include "ct_status.h"
#include "launch_opts.h"
#include "launcher.h"
#include "trial.h"

/* One launch: collbench with args through launcher, the settings env and
 * mca (the user's, then a configuration's), output into two files. */
typedef struct {
    const ct_launcher_t *launcher;
    const char *collbench;
    const ct_launch_var_t *env;
    size_t nenv;
    const ct_launch_var_t *mca;
    size_t nmca;
    char *const *args; /* collbench's arguments */
    size_t nargs;
    const char *stdout_path, *stderr_path;
    /* The results CSV the run writes (its --csv), or NULL.  collbench's
     * exit 1 means #wrong > 0, but mpirun also exits 1 when it cannot
     * start the ranks (more ranks than slots): an exit 1 with no wrong
     * row in this file is the launch's failure (CT_TRIAL_FAILURE). */
    const char *csv_path;
    double timeout_s, grace_s;
    long long max_output; /* bytes each of stdout_path and stderr_path may hold; 0: no cap */
    const char *relay_as; /* collbench's progress lines passed on (trial.h); NULL: none */
    /* When napps > 0: a launch of napps app contexts instead, taking turns
     * (collbench's world.h), each with its own settings and arguments;
     * env, mca and args above are then unused. */
    const ct_launch_app_t *apps;
    size_t napps;
} ct_run_once_t;

/* The cap on each of a launch's two output files (collbench.txt/.err, a
 * trial's): far above what collbench prints (a table row per size), low
 * enough that a run printing without end cannot fill the disk. */
#define CT_RUN_ONCE_MAX_OUTPUT (64LL << 20)

/* The spec of one collbench run under the launch options lo: their --env
 * and --mca settings, --timeout and --grace, the output cap CT_RUN_ONCE_MAX_OUTPUT, args as collbench's
 * arguments, its output into out and errf.  A caller with settings of its
 * own (a tune's configuration) replaces env and mca after. */
ct_run_once_t ct_run_once_spec(const ct_launch_opts_t *lo, const ct_launcher_t *l,
                               const char *collbench, const ct_argv_t *args, const char *csv,
                               const char *out, const char *errf);

/* Builds the launch from colltune's environment and runs it.  CT_OK
 * whenever it ran, whatever its outcome (in r); an error with err when it
 * could not be built (a launcher's refusal: CT_ERR_USAGE) or started.
 * ran_p, when not NULL, gets the argv that ran (the caller frees it);
 * on an error it is left empty. */
ct_status_t ct_run_once(const ct_run_once_t *spec, ct_trial_result_t *r, ct_argv_t *ran_p,
                        char *err, size_t errlen);

/* Why a run that did not end ok failed, in a line ("" when ok): the
 * timeout, the output cap, the signal, or collbench's outcome and where its stderr is. */
void ct_run_once_reason(const ct_run_once_t *spec, const ct_trial_result_t *r, char *buf,
                        size_t len);

/* collbench --ci-patience of the launches whose results decide (tune's
 * search and verification, health's verdicts), unless the user's
 * collbench arguments name one: past the least, each size chases its CI
 * up to its --size-budget.  A sweep stops at the least by default (a
 * fixed effort, its wall as steady as OSU's, doc/timing.md); a decision
 * wants the CI, and at scale a launch costs far more than a size's
 * samples (30-120 s at 256 nodes). */
#define CT_DECIDING_CI_PATIENCE "1e6"

/* The directory form: what a subcommand that keeps one run in a
 * directory gives. */
typedef struct {
    const char *cmd;            /* "colltune CMD: " messages, launch.json's generator */
    const ct_launch_opts_t *lo; /* --env, --mca, --timeout, --grace, --collbench */
    int force;                  /* replace results already in the directory */
    char *const *cb_args;       /* collbench's arguments after --csv/--json */
    size_t ncb_args;
} ct_run_dir_t;

/* One collbench run through launcher l (its np, hostfile and extra as
 * the caller set them) into dir: prepared, old results refused or (with
 * force) removed, then results.csv/.json, collbench.txt/.err and
 * launch.json; the outcome on stderr.  Returns colltune's exit code. */
int ct_run_once_dir(const ct_run_dir_t *a, const char *dir, const ct_launcher_t *l);

/* Prints the last lines of collbench's stderr file at path (as
 * "colltune CMD: ..."), so a failed run says why without a trip to the
 * file. */
void ct_run_once_tail(const char *cmd, const char *path, int lines);

#endif
