#include "tune_launch.h"

#include <stdio.h>
#include <string.h>

#include "trial.h"

extern char **environ;

/* The journal's status for a trial outcome (a failure is a crash there). */
static ct_journal_status_t ct_tune_status_of(ct_trial_outcome_t o)
{
    switch (o) {
    case CT_TRIAL_OK: return CT_JOURNAL_OK;
    case CT_TRIAL_WRONG: return CT_JOURNAL_WRONG;
    case CT_TRIAL_BAD_INPUT: return CT_JOURNAL_BAD_INPUT;
    case CT_TRIAL_UNAVAILABLE: return CT_JOURNAL_UNAVAILABLE;
    case CT_TRIAL_TIMEOUT: return CT_JOURNAL_TIMEOUT;
    case CT_TRIAL_FAILURE:
    case CT_TRIAL_CRASH:
    case CT_TRIAL_INTERRUPTED: break;
    }
    return CT_JOURNAL_CRASH;
}

ct_status_t ct_tune_launch(const ct_tune_launch_t *spec, ct_tune_outcome_t *out, char *err,
                           size_t errlen)
{
    memset(out, 0, sizeof *out);
    ct_launch_t launch = {CT_ARGV_INIT, CT_ARGV_INIT};
    ct_status_t st =
        ct_launcher_build(spec->launcher, environ, spec->env, spec->nenv, spec->mca, spec->nmca,
                          spec->collbench, spec->args, spec->nargs, &launch, err, errlen);
    if (st != CT_OK)
        return st;
    char *empty_env[] = {NULL};
    ct_trial_spec_t ts = {
        .argv = launch.argv.v,
        .envp = launch.envp.v ? launch.envp.v : empty_env,
        .stdout_path = spec->stdout_path,
        .stderr_path = spec->stderr_path,
        .timeout_s = spec->timeout_s,
        .grace_s = spec->grace_s,
    };
    ct_trial_result_t r;
    st = ct_trial_run(&ts, &r, err, errlen);
    ct_launch_free(&launch);
    if (st != CT_OK)
        return st;
    out->status = ct_tune_status_of(r.outcome);
    out->exit_code = r.exit_code;
    out->interrupted = r.outcome == CT_TRIAL_INTERRUPTED;
    out->wall_s = r.wall_s;
    if (r.outcome == CT_TRIAL_TIMEOUT && r.timed_out)
        snprintf(out->reason, sizeof out->reason, "killed after the trial timeout (%g s)",
                 spec->timeout_s);
    else if (r.term_signal != 0)
        snprintf(out->reason, sizeof out->reason, "ended by signal %d", r.term_signal);
    else if (r.outcome != CT_TRIAL_OK)
        snprintf(out->reason, sizeof out->reason, "collbench %s (exit %d), see %s",
                 ct_trial_outcome_name(r.outcome), r.exit_code, spec->stderr_path);
    return CT_OK;
}
