/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_sleeper - a stand-in for a launcher that will not stop, for the trial
 * tests (tests/unit/colltune_trial.sh).
 *
 *   ct_sleeper PIDFILE MODE [ignored...]
 *
 * Forks a child that forks a grandchild and exits, so the grandchild is an
 * orphan (like a rank whose daemon died).  The grandchild moves into a
 * process group of its own, as Open MPI does with every rank, but stays in
 * the trial's session.  Then the leader writes "LEADER GRANDCHILD" to PIDFILE (atomically).
 * MODE:
 *   hang   the leader ignores SIGTERM and sleeps: only SIGKILL ends it
 *   exit   the leader exits 0 at once, leaving the grandchild sleeping
 * The grandchild sleeps with SIGTERM at its default.  The arguments after
 * MODE (collbench's path and arguments) are ignored.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: ct_sleeper PIDFILE hang|exit\n");
        return 2;
    }
    int fds[2];
    if (pipe(fds) != 0)
        return 3;
    pid_t child = fork();
    if (child < 0)
        return 3;
    if (child == 0) {
        pid_t grandchild = fork();
        if (grandchild == 0) {
            setpgid(0, 0);
            close(fds[0]);
            close(fds[1]);
            for (;;)
                pause();
        }
        ssize_t w = write(fds[1], &grandchild, sizeof grandchild);
        _exit(w == (ssize_t)sizeof grandchild ? 0 : 3);
    }
    close(fds[1]);
    pid_t grandchild = 0;
    if (read(fds[0], &grandchild, sizeof grandchild) != (ssize_t)sizeof grandchild)
        return 3;
    waitpid(child, NULL, 0);

    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", argv[1]);
    FILE *f = fopen(tmp, "w");
    if (f == NULL)
        return 3;
    fprintf(f, "%ld %ld\n", (long)getpid(), (long)grandchild);
    if (fclose(f) != 0 || rename(tmp, argv[1]) != 0)
        return 3;
    printf("sleeper started\n");
    fflush(stdout);

    if (strcmp(argv[2], "exit") == 0)
        return 0;
    signal(SIGTERM, SIG_IGN);
    for (;;)
        pause();
}
