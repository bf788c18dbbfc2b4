/* SPDX-License-Identifier: BSD-3-Clause */
#include "run_once.h"

#include <stdio.h>

#include "ct_results_read.h"

extern char **environ;

/* Whether the results at csv hold a row with #wrong > 0: what collbench's
 * exit 1 says. */
static int ct_run_once_csv_wrong(const char *csv)
{
    ct_results_t rows = {0};
    char err[512];
    int wrong = 0;
    (void)ct_results_read(csv, &rows, NULL, err, sizeof err);
    for (size_t i = 0; i < rows.n && !wrong; i++)
        wrong = rows.v[i].wrong > 0;
    ct_results_free(&rows);
    return wrong;
}

ct_status_t ct_run_once(const ct_run_once_t *spec, ct_trial_result_t *r, ct_argv_t *ran_p,
                        char *err, size_t errlen)
{
    ct_launch_t launch = {CT_ARGV_INIT, CT_ARGV_INIT};
    ct_status_t st = spec->napps > 0
                         ? ct_launcher_build_apps(spec->launcher, environ, spec->apps, spec->napps,
                                                  &launch, err, errlen)
                         : ct_launcher_build(spec->launcher, environ, spec->env, spec->nenv,
                                             spec->mca, spec->nmca, spec->collbench, spec->args,
                                             spec->nargs, &launch, err, errlen);
    if (st != CT_OK)
        return st;
    /* An empty environment is still one to pass: NULL would mean ours. */
    char *empty_env[] = {NULL};
    ct_trial_spec_t ts = {
        .argv = launch.argv.v,
        .envp = launch.envp.v ? launch.envp.v : empty_env,
        .stdout_path = spec->stdout_path,
        .stderr_path = spec->stderr_path,
        .timeout_s = spec->timeout_s,
        .grace_s = spec->grace_s,
        .max_output = spec->max_output,
        .relay_as = spec->relay_as,
    };
    st = ct_trial_run(&ts, r, err, errlen);
    if (st == CT_OK && r->outcome == CT_TRIAL_WRONG && spec->csv_path != NULL &&
        !ct_run_once_csv_wrong(spec->csv_path))
        r->outcome = CT_TRIAL_FAILURE;
    if (st == CT_OK && ran_p != NULL) {
        *ran_p = launch.argv;
        launch.argv = (ct_argv_t)CT_ARGV_INIT;
    }
    ct_launch_free(&launch);
    return st;
}

void ct_run_once_reason(const ct_run_once_t *spec, const ct_trial_result_t *r, char *buf,
                        size_t len)
{
    buf[0] = '\0';
    ct_trial_spec_t ts = {.timeout_s = spec->timeout_s, .max_output = spec->max_output};
    char why[128];
    ct_trial_reason(&ts, r, why, sizeof why);
    if (r->outcome == CT_TRIAL_TIMEOUT && r->timed_out)
        snprintf(buf, len, "the launch %s (--timeout); killed", why);
    else if (r->over_cap != 0)
        snprintf(buf, len, "the launch %s; killed, see %s", why,
                 r->over_cap == 1 ? spec->stdout_path : spec->stderr_path);
    else if (r->term_signal != 0)
        snprintf(buf, len, "ended by signal %d", r->term_signal);
    else if (r->outcome == CT_TRIAL_FAILURE && r->exit_code == CT_EXIT_WRONG)
        snprintf(buf, len, "the launch failed (exit 1 with no wrong result in its results), see %s",
                 spec->stderr_path);
    else if (r->outcome != CT_TRIAL_OK)
        snprintf(buf, len, "collbench %s (exit %d), see %s", ct_trial_outcome_name(r->outcome),
                 r->exit_code, spec->stderr_path);
}

ct_run_once_t ct_run_once_spec(const ct_launch_opts_t *lo, const ct_launcher_t *l,
                               const char *collbench, const ct_argv_t *args, const char *csv,
                               const char *out, const char *errf)
{
    return (ct_run_once_t){
        .launcher = l,
        .collbench = collbench,
        .env = lo->env,
        .nenv = lo->nenv,
        .mca = lo->mca,
        .nmca = lo->nmca,
        .args = args->v,
        .nargs = args->n,
        .stdout_path = out,
        .stderr_path = errf,
        .csv_path = csv,
        .timeout_s = lo->timeout_s,
        .grace_s = lo->grace_s,
        .max_output = CT_RUN_ONCE_MAX_OUTPUT,
    };
}
