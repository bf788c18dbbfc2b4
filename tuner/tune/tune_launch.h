/*
 * tune_launch.h - one tune trial: collbench through the launcher with a
 * configuration's settings, its files in its own directory.
 *
 * It maps how a run ended (trial.h) onto how the journal records it
 * (journal.h).
 */
#ifndef CT_TUNE_LAUNCH_H
#define CT_TUNE_LAUNCH_H

#include <stddef.h>
#include "ct_status.h"
#include "journal.h"
#include "launcher.h"

typedef struct {
    const ct_launcher_t *launcher;
    const char *collbench;
    const ct_launch_var_t *env; /* --env, then the configuration's env settings */
    size_t nenv;
    const ct_launch_var_t *mca;
    size_t nmca;
    char *const *args; /* collbench's arguments, --csv included */
    size_t nargs;
    const char *stdout_path, *stderr_path;
    double timeout_s, grace_s;
} ct_tune_launch_t;

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
