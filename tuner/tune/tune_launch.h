/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_launch.h - one tune trial: collbench through core's run_once
 * service (run_once.h) with a configuration's settings, its files in its
 * own directory.
 *
 * A thin adapter, because the journal's types are tune's: it maps how a
 * run ended (trial.h) onto how the journal records it (journal.h).
 */
#ifndef CT_TUNE_LAUNCH_H
#define CT_TUNE_LAUNCH_H

#include <stddef.h>
#include "ct_status.h"
#include "journal.h"
#include "launcher.h"
#include "run_once.h"

/* The launch itself is core's run_once service; tune adds only how the
 * journal records the outcome. */
typedef ct_run_once_t ct_tune_launch_t;

typedef struct {
    ct_journal_status_t status;
    int exit_code;
    int interrupted; /* colltune got SIGINT/SIGTERM: stop, journal nothing */
    double wall_s;
    char reason[256]; /* why it failed, "" when ok */
} ct_tune_outcome_t;

/* Runs the trial.  CT_OK whenever it ran (whatever its outcome); an error
 * (with err) when it could not be built or started. */
ct_status_t ct_tune_launch(const ct_tune_launch_t *spec, ct_tune_outcome_t *out, char *err,
                           size_t errlen);

#endif
