/* SPDX-License-Identifier: BSD-3-Clause */
#include "tune_launch.h"

#include <string.h>

#include "trial.h"

/* The journal's status for a trial outcome (a failure is a crash there). */
static ct_journal_status_t ct_tune_status_of(ct_trial_outcome_t o)
{
    switch (o) {
    case CT_TRIAL_OK:
    case CT_TRIAL_REFUSED: return CT_JOURNAL_OK; /* what was refused: the trial's JSON */
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
    ct_trial_result_t r;
    ct_status_t st = ct_run_once(spec, &r, NULL, err, errlen);
    if (st != CT_OK)
        return st;
    out->status = ct_tune_status_of(r.outcome);
    out->exit_code = r.exit_code;
    out->interrupted = r.outcome == CT_TRIAL_INTERRUPTED;
    out->wall_s = r.wall_s;
    ct_run_once_reason(spec, &r, out->reason, sizeof out->reason);
    return CT_OK;
}
