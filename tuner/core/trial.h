/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * trial.h - run one launch as a trial: its own session, its output
 * in files, a timeout, and nothing left behind.
 *
 * A launcher (mpirun, srun) starts ranks, daemons and helpers; killing
 * only the launcher can leave ranks spinning on the machine the next
 * trial measures on.  So the trial runs in a new session, which is also a
 * new process group (setsid(): Open MPI moves every rank into a process
 * group of its own, but not out of the session).  On a timeout or an
 * interrupt every process of the session gets SIGTERM, then SIGKILL after
 * a grace period.  When the launcher exits, any process still in its
 * session is a stray and is killed before ct_trial_run() returns.  The
 * session's members are found in /proc (Linux); elsewhere only the
 * leader's process group is signalled.  No shell is involved: the argv
 * goes to execvp() as it is.
 */
#ifndef CT_TRIAL_H
#define CT_TRIAL_H

#include <signal.h>
#include <sys/types.h>
#include <stddef.h>
#include "ct_status.h"

typedef enum {
    CT_TRIAL_OK,          /* exit 0 */
    CT_TRIAL_WRONG,       /* exit 1: #wrong > 0 */
    CT_TRIAL_BAD_INPUT,   /* exit 2 */
    CT_TRIAL_FAILURE,     /* exit 3, or any exit collbench does not document */
    CT_TRIAL_UNAVAILABLE, /* exit 77: backend unavailable */
    CT_TRIAL_TIMEOUT,     /* exit 124 (collbench -T), or our timeout killed it */
    CT_TRIAL_CRASH,       /* a signal ended it (or a launcher's 128+signal) */
    CT_TRIAL_INTERRUPTED, /* colltune got SIGINT/SIGTERM and passed it on */
    CT_TRIAL_REFUSED,     /* exit 4: the library refused some collective; the rest ran */
} ct_trial_outcome_t;

typedef struct {
    char *const *argv;       /* argv[0] is looked up in PATH */
    char *const *envp;       /* the child's environment; NULL: colltune's own */
    const char *stdout_path; /* created or truncated */
    const char *stderr_path;
    double timeout_s; /* > 0 */
    double grace_s;   /* between SIGTERM and SIGKILL */
    /* The most bytes each of the two output files may hold; 0: no cap.
     * The wait loop looks at their sizes every CT_TRIAL_CAP_TICK_S; past
     * the cap the session is stopped as on a timeout (SIGTERM, then
     * SIGKILL).  A fast writer may add what it writes in one tick first. */
    long long max_output;
    /* Also RLIMIT_FSIZE = max_output + 1 in the child, inherited by all it
     * starts: no file it writes can grow past that (a write beyond gets
     * SIGXFSZ, or EFBIG), so the cap is exact.  Only for a helper whose
     * files are its output (ucx_info, ompi_info): a launcher's ranks map
     * shared-memory files larger than any output cap, gnuplot writes its
     * image. */
    int hard_cap;
    /* When not NULL: collbench's progress lines in the stderr file are
     * passed on to colltune's stderr as they come, each prefixed by it
     * (trial_relay.h). */
    const char *relay_as;
} ct_trial_spec_t;

/* How often the wait loop looks at the output's size when it has a cap. */
#define CT_TRIAL_CAP_TICK_S 0.02

typedef struct {
    ct_trial_outcome_t outcome;
    int exit_code;   /* the launcher's exit status; -1 when a signal ended it */
    int term_signal; /* the signal that ended it (or 128+N from a launcher); 0 if none */
    int timed_out;   /* our timeout fired */
    int over_cap;    /* 1 or 2: stdout or stderr went past max_output (then a failure) */
    int killed;      /* the session needed SIGKILL */
    int interrupt;   /* SIGINT or SIGTERM colltune received, else 0 */
    int strays;      /* processes outlived the launcher in its session and were killed */
    pid_t sid;       /* the trial's session and process group id (its leader's pid) */
    double wall_s;
} ct_trial_result_t;

/* Runs spec and fills result.  SIGINT and SIGTERM are blocked while it
 * runs and forwarded to the trial's session (a second one sends SIGKILL);
 * result->outcome is then CT_TRIAL_INTERRUPTED.  Fails, with a message in
 * err, only when the trial could not be started: CT_ERR_USAGE when argv[0]
 * cannot be executed (not found, not executable), CT_ERR_IO when an output
 * file cannot be created, CT_ERR_BACKEND when fork fails. */
ct_status_t ct_trial_run(const ct_trial_spec_t *spec, ct_trial_result_t *result, char *err,
                         size_t errlen);

/* Why the trial did not end ok, in words that name the limit hit ("did
 * not finish in 10 s", "printed more than 16 MiB on stdout", "ended by
 * signal 9", "exited 3", "was interrupted (signal 2)"); "" when ok. */
void ct_trial_reason(const ct_trial_spec_t *spec, const ct_trial_result_t *r, char *buf,
                     size_t len);

/* "ok", "wrong", "bad-input", "failure", "unavailable", "timeout",
 * "crash", "interrupted". */
const char *ct_trial_outcome_name(ct_trial_outcome_t outcome);

/* colltune's exit code for an outcome: collbench's own codes, 3 for a
 * crash, 130 for an interrupt. */
int ct_trial_exit_code(ct_trial_outcome_t outcome);

/* set = the signals that stop a colltune run (SIGINT, SIGTERM): what a
 * trial passes on to its launch, and what tune and import hold back while
 * a file is only half written. */
void ct_trial_stop_set(sigset_t *set);

#endif
