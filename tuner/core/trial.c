/* SPDX-License-Identifier: BSD-3-Clause */
#include "trial.h"
#include "trial_relay.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

extern char **environ;

/* How often the wait loop looks at the clock, at most. */
#define CT_TRIAL_TICK_S 0.25
/* How long the rest of a session gets to die after SIGKILL. */
#define CT_TRIAL_REAP_S 5.0

static double ct_trial_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

const char *ct_trial_outcome_name(ct_trial_outcome_t outcome)
{
    switch (outcome) {
    case CT_TRIAL_OK: return "ok";
    case CT_TRIAL_WRONG: return "wrong";
    case CT_TRIAL_BAD_INPUT: return "bad-input";
    case CT_TRIAL_FAILURE: return "failure";
    case CT_TRIAL_UNAVAILABLE: return "unavailable";
    case CT_TRIAL_TIMEOUT: return "timeout";
    case CT_TRIAL_CRASH: return "crash";
    case CT_TRIAL_INTERRUPTED: return "interrupted";
    case CT_TRIAL_REFUSED: return "refused";
    }
    return "?";
}

int ct_trial_exit_code(ct_trial_outcome_t outcome)
{
    switch (outcome) {
    case CT_TRIAL_OK: return CT_EXIT_OK;
    case CT_TRIAL_WRONG: return CT_EXIT_WRONG;
    case CT_TRIAL_BAD_INPUT: return CT_EXIT_USAGE;
    case CT_TRIAL_UNAVAILABLE: return CT_EXIT_SKIP;
    case CT_TRIAL_TIMEOUT: return CT_EXIT_TIMEOUT;
    case CT_TRIAL_INTERRUPTED: return 130;
    case CT_TRIAL_REFUSED: return CT_EXIT_REFUSED;
    case CT_TRIAL_FAILURE:
    case CT_TRIAL_CRASH: break;
    }
    return CT_EXIT_FAILURE;
}

/* Sends sig (0: none) to every live process of session sid and returns
 * how many there were; -1 where /proc cannot tell.  A session, not only
 * the process group: Open MPI puts each rank in a process group of its
 * own, but ranks stay in their launcher's session. */
static int ct_trial_session_signal(pid_t sid, int sig)
{
    if (sig != 0)
        kill(-sid, sig); /* the leader's group, whatever /proc says */
    DIR *d = opendir("/proc");
    if (d == NULL)
        return -1;
    int live = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end != '\0' || pid <= 0)
            continue;
        char path[64], buf[512];
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        FILE *f = fopen(path, "r");
        if (f == NULL)
            continue; /* gone meanwhile */
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = '\0';
        /* "pid (comm) S ppid pgrp session ...": comm may hold spaces and ')'. */
        char *close = strrchr(buf, ')');
        char state;
        long ppid, pgrp, session;
        if (close == NULL ||
            sscanf(close + 1, " %c %ld %ld %ld", &state, &ppid, &pgrp, &session) != 4)
            continue;
        if (session != (long)sid || state == 'Z' || state == 'X')
            continue;
        live++;
        if (sig != 0)
            kill((pid_t)pid, sig);
    }
    closedir(d);
    return live;
}

/* After the leader exited (and while it is an unreaped zombie, so its id
 * cannot be reused): kill whatever is left of its session and wait until
 * /proc shows none of it alive.  Returns whether anything was left. */
static int ct_trial_clear_session(pid_t sid)
{
    int live = ct_trial_session_signal(sid, 0);
    if (live == 0)
        return 0;
    double until = ct_trial_now() + CT_TRIAL_REAP_S;
    while (ct_trial_session_signal(sid, SIGKILL) > 0 && ct_trial_now() < until) {
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return 1;
}

static void ct_trial_classify(const siginfo_t *info, ct_trial_result_t *r)
{
    if (info->si_code == CLD_EXITED) {
        r->exit_code = info->si_status;
        switch (r->exit_code) {
        case CT_EXIT_OK: r->outcome = CT_TRIAL_OK; break;
        case CT_EXIT_WRONG: r->outcome = CT_TRIAL_WRONG; break;
        case CT_EXIT_USAGE: r->outcome = CT_TRIAL_BAD_INPUT; break;
        case CT_EXIT_SKIP: r->outcome = CT_TRIAL_UNAVAILABLE; break;
        case CT_EXIT_TIMEOUT: r->outcome = CT_TRIAL_TIMEOUT; break;
        case CT_EXIT_REFUSED: r->outcome = CT_TRIAL_REFUSED; break;
        default:
            /* mpirun and shells report a rank killed by signal N as 128+N;
             * collbench itself never exits above 124. */
            if (r->exit_code > 128 && r->exit_code < 128 + 65) {
                r->outcome = CT_TRIAL_CRASH;
                r->term_signal = r->exit_code - 128;
            } else {
                r->outcome = CT_TRIAL_FAILURE;
            }
        }
    } else {
        r->exit_code = -1;
        r->term_signal = info->si_status;
        r->outcome = CT_TRIAL_CRASH;
    }
    if (r->over_cap)
        r->outcome = CT_TRIAL_FAILURE;
    if (r->timed_out)
        r->outcome = CT_TRIAL_TIMEOUT;
    if (r->interrupt)
        r->outcome = CT_TRIAL_INTERRUPTED;
}

/* The child: its own session (so its own process group, and no
 * controlling terminal: a ^C reaches colltune alone, which passes it on),
 * stdin from /dev/null, stdout and stderr to the files, the
 * signal state colltune started with, then exec.  Never returns. */
static void ct_trial_child(const ct_trial_spec_t *spec, int in_fd, int out_fd, int err_fd,
                           int report_fd, const sigset_t *mask, pid_t parent)
{
    setsid();
#ifdef __linux__
    /* If colltune itself is killed, the launcher gets SIGTERM and takes its
     * ranks down, instead of running on beside the next attempt. */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent)
        _exit(127);
#else
    (void)parent;
#endif
    int sigs[] = {SIGINT, SIGTERM, SIGCHLD, SIGPIPE};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], SIG_DFL);
    if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0) {
        int e = errno;
        ssize_t w = write(report_fd, &e, sizeof e);
        (void)w;
        _exit(127);
    }
    if (spec->hard_cap && spec->max_output > 0) {
        struct rlimit rl = {(rlim_t)spec->max_output + 1, (rlim_t)spec->max_output + 1};
        setrlimit(RLIMIT_FSIZE, &rl);
    }
    sigprocmask(SIG_SETMASK, mask, NULL);
    if (spec->envp != NULL)
        environ = (char **)spec->envp;
    execvp(spec->argv[0], spec->argv);
    int e = errno;
    ssize_t w = write(report_fd, &e, sizeof e);
    (void)w;
    _exit(127);
}

static int ct_trial_open_out(const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
    return fd;
}

/* Waits for the leader to exit (without reaping it), enforcing the
 * timeout and forwarding SIGINT/SIGTERM. */
/* Which output file (1 stdout, 2 stderr) went past the cap; 0: none. */
static int ct_trial_over_cap(const ct_trial_spec_t *spec, int out_fd, int err_fd)
{
    struct stat st;
    if (spec->max_output <= 0)
        return 0;
    if (fstat(out_fd, &st) == 0 && (long long)st.st_size > spec->max_output)
        return 1;
    if (fstat(err_fd, &st) == 0 && (long long)st.st_size > spec->max_output)
        return 2;
    return 0;
}

/* Polled rather than enforced by RLIMIT_FSIZE alone: the limit covers
 * every file the child and its descendants write, which a launch must
 * not have (see hard_cap), and a size is all a limit on output needs. */
static void ct_trial_wait(const ct_trial_spec_t *spec, pid_t pid, const sigset_t *set, int out_fd,
                          int err_fd, siginfo_t *info, ct_trial_result_t *r)
{
    double tick = spec->max_output > 0 ? CT_TRIAL_CAP_TICK_S : CT_TRIAL_TICK_S;
    double start = ct_trial_now();
    double deadline = start + spec->timeout_s;
    double kill_at = 0; /* when SIGKILL follows a SIGTERM; 0: none sent */
    ct_trial_relay_t relay;
    ct_trial_relay_open(&relay, spec->stderr_path, spec->relay_as);

    for (;;) {
        memset(info, 0, sizeof *info);
        if (waitid(P_PID, (id_t)pid, info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
            info->si_pid == pid) {
            ct_trial_relay_close(&relay);
            return;
        }
        ct_trial_relay_poll(&relay);
        double t = ct_trial_now();
        if (kill_at == 0 && r->over_cap == 0 &&
            (r->over_cap = ct_trial_over_cap(spec, out_fd, err_fd)) != 0) {
            ct_trial_session_signal(pid, SIGTERM);
            kill_at = t + spec->grace_s;
        }
        if (kill_at == 0 && t >= deadline) {
            r->timed_out = 1;
            ct_trial_session_signal(pid, SIGTERM);
            kill_at = t + spec->grace_s;
        }
        if (kill_at > 0 && !r->killed && t >= kill_at) {
            ct_trial_session_signal(pid, SIGKILL);
            r->killed = 1;
        }
        double next = kill_at == 0 ? deadline : r->killed ? t + tick : kill_at;
        double wait = next - t;
        if (wait > tick)
            wait = tick;
        if (wait < 0.001)
            wait = 0.001;
        struct timespec ts = {(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
        int sig = sigtimedwait(set, NULL, &ts);
        if (sig != SIGINT && sig != SIGTERM)
            continue;
        if (r->interrupt == 0) {
            /* Pass the user's signal on (mpirun tears its job down on
             * either), then escalate like a timeout. */
            r->interrupt = sig;
            ct_trial_session_signal(pid, sig);
            if (kill_at == 0)
                kill_at = ct_trial_now() + spec->grace_s;
        } else if (!r->killed) {
            /* A second ^C: the user does not want to wait. */
            ct_trial_session_signal(pid, SIGKILL);
            r->killed = 1;
        }
    }
}

ct_status_t ct_trial_run(const ct_trial_spec_t *spec, ct_trial_result_t *result, char *err,
                         size_t errlen)
{
    *result = (ct_trial_result_t){.outcome = CT_TRIAL_FAILURE, .exit_code = -1};
    ct_status_t st = CT_OK;
    int in_fd = -1, out_fd = -1, err_fd = -1, report[2] = {-1, -1};

    out_fd = ct_trial_open_out(spec->stdout_path, err, errlen);
    if (out_fd >= 0)
        err_fd = ct_trial_open_out(spec->stderr_path, err, errlen);
    if (out_fd < 0 || err_fd < 0) {
        st = CT_ERR_IO;
        goto close_files;
    }
    in_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    /* The child reports a failed exec through this pipe; a successful exec
     * closes it (close-on-exec), so the read below sees end of file. */
    if (in_fd < 0 || pipe(report) != 0 || fcntl(report[0], F_SETFD, FD_CLOEXEC) != 0 ||
        fcntl(report[1], F_SETFD, FD_CLOEXEC) != 0) {
        snprintf(err, errlen, "cannot set up the trial: %s", strerror(errno));
        st = CT_ERR_BACKEND;
        goto close_files;
    }

    /* Blocked from before fork to after the last wait: the signals are
     * taken with sigtimedwait(), so no handler and no global state. */
    sigset_t set, old;
    ct_trial_stop_set(&set);
    sigaddset(&set, SIGCHLD);
    sigprocmask(SIG_BLOCK, &set, &old);

    double start = ct_trial_now();
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        st = CT_ERR_BACKEND;
        goto restore_mask;
    }
    if (pid == 0)
        ct_trial_child(spec, in_fd, out_fd, err_fd, report[1], &old, parent);

    /* The child's setsid() has run once the pipe below reports: it comes
     * before the exec that closes the pipe. */
    result->sid = pid;
    close(report[1]);
    report[1] = -1;
    int child_errno = 0;
    ssize_t got;
    do
        got = read(report[0], &child_errno, sizeof child_errno);
    while (got < 0 && errno == EINTR);
    if (got == (ssize_t)sizeof child_errno) {
        waitpid(pid, NULL, 0);
        snprintf(err, errlen, "cannot run '%s': %s", spec->argv[0], strerror(child_errno));
        st = (child_errno == ENOENT || child_errno == EACCES || child_errno == ENOTDIR ||
              child_errno == ENOEXEC)
                 ? CT_ERR_USAGE
                 : CT_ERR_BACKEND;
        goto restore_mask;
    }

    siginfo_t info;
    ct_trial_wait(spec, pid, &set, out_fd, err_fd, &info, result);
    /* What it wrote in its last moments, or a hard cap's SIGXFSZ. */
    if (result->over_cap == 0 && !result->timed_out)
        result->over_cap = ct_trial_over_cap(spec, out_fd, err_fd);
    result->strays = ct_trial_clear_session(pid);
    waitpid(pid, NULL, 0);
    result->wall_s = ct_trial_now() - start;

    /* A signal that came as the trial ended still counts. */
    struct timespec zero = {0, 0};
    int sig;
    while ((sig = sigtimedwait(&set, NULL, &zero)) > 0)
        if ((sig == SIGINT || sig == SIGTERM) && result->interrupt == 0)
            result->interrupt = sig;
    ct_trial_classify(&info, result);

restore_mask:
    sigprocmask(SIG_SETMASK, &old, NULL);
close_files:
    if (report[0] >= 0)
        close(report[0]);
    if (report[1] >= 0)
        close(report[1]);
    if (in_fd >= 0)
        close(in_fd);
    if (out_fd >= 0)
        close(out_fd);
    if (err_fd >= 0)
        close(err_fd);
    return st;
}

void ct_trial_reason(const ct_trial_spec_t *spec, const ct_trial_result_t *r, char *buf, size_t len)
{
    buf[0] = '\0';
    if (r->interrupt != 0)
        snprintf(buf, len, "was interrupted (signal %d)", r->interrupt);
    else if (r->timed_out)
        snprintf(buf, len, "did not finish in %g s", spec->timeout_s);
    else if (r->over_cap != 0)
        snprintf(buf, len, "printed more than %g MiB on %s", (double)spec->max_output / 1048576.0,
                 r->over_cap == 1 ? "stdout" : "stderr");
    else if (r->term_signal != 0)
        snprintf(buf, len, "ended by signal %d", r->term_signal);
    else if (r->outcome != CT_TRIAL_OK)
        snprintf(buf, len, "exited %d", r->exit_code);
}

void ct_trial_stop_set(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
}
