/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * launch_opts.h - the launcher options every subcommand that runs
 * collbench shares: --np, --hostfile, --launcher, --launcher-arg, --env,
 * --mca, --timeout, --grace and --collbench.
 *
 * A subcommand puts CT_LAUNCH_OPTS(...) and CT_LAUNCH_OPT_COLLBENCH in its
 * own option table (cli.h), hands every id its switch does not know to
 * ct_launch_opts_apply(), and turns the parsed values into a launcher with
 * ct_launch_opts_launcher().  Every message names the subcommand.
 */
#ifndef CT_LAUNCH_OPTS_H
#define CT_LAUNCH_OPTS_H

#include <stddef.h>
#include "argv.h"
#include "cli.h"
#include "ct_status.h"
#include "launcher.h"

/* The most ranks colltune launches, by --np or a launcher line's count
 * (mpirun -np N, srun -n N): 2^24, above the largest machines' core
 * counts, and small enough that ranks times collbench's per-rank counts
 * and a communicator's int size stay far from overflow.  A count above it
 * is a typo, refused up front rather than left to the launcher, whose
 * failure used to read as a crashed trial (issue 26, E8). */
#define CT_MAX_RANKS (1L << 24)

/* The ids of the shared options; a subcommand's own ids stay below. */
enum {
    CT_LOPT_NP = 1000,
    CT_LOPT_HOSTFILE,
    CT_LOPT_LAUNCHER,
    CT_LOPT_LAUNCHER_ARG,
    CT_LOPT_ENV,
    CT_LOPT_MCA,
    CT_LOPT_TIMEOUT,
    CT_LOPT_GRACE,
    CT_LOPT_COLLBENCH,
};

/* The rows from --np to --grace, in that order; the help of --env, --mca
 * and --timeout says what they apply to, so it is the subcommand's.  (Out
 * of clang-format: it cannot indent rows in a macro body evenly.) */
/* clang-format off */
#define CT_LAUNCH_OPTS(env_help, mca_help, timeout_help)                                           \
    {CT_LOPT_NP, "np", "N", "ranks, through mpirun (or srun's --ntasks)"},                         \
    {CT_LOPT_HOSTFILE, "hostfile", "FILE", "mpirun's --hostfile"},                                 \
    {CT_LOPT_LAUNCHER, "launcher", "'CMD ARGS'",                                                   \
     "launcher command line: mpirun ..., srun ..., or a prefix"},                                  \
    {CT_LOPT_LAUNCHER_ARG, "launcher-arg", "ARG",                                                  \
     "one more launcher argument, unsplit (repeatable)"},                                          \
    {CT_LOPT_ENV, "env", "NAME=VALUE", env_help},                                                  \
    {CT_LOPT_MCA, "mca", "NAME=VALUE", mca_help},                                                  \
    {CT_LOPT_TIMEOUT, "timeout", "SEC", timeout_help},                                             \
    {CT_LOPT_GRACE, "grace", "SEC", "from SIGTERM to SIGKILL on timeout (default 5)"}
#define CT_LAUNCH_OPT_COLLBENCH                                                                    \
    {CT_LOPT_COLLBENCH, "collbench", "PATH",                                                       \
     "collbench to run (default: the one installed beside colltune)"}
/* clang-format on */

typedef struct {
    const char *cmd; /* "sweep", for messages */
    long np;         /* 0: not given */
    const char *hostfile;
    const char *launcher;  /* NULL: configure's mpirun */
    const char *collbench; /* NULL: the one beside colltune */
    ct_argv_t launcher_args;
    ct_launch_var_t *env; /* argc entries allocated */
    size_t nenv;
    ct_launch_var_t *mca;
    size_t nmca;
    double timeout_s, grace_s;
} ct_launch_opts_t;

/* Defaults (timeout_s, grace 5 s) and room for argc --env and --mca.
 * CT_ERR_NOMEM with "colltune CMD: out of memory" on stderr. */
ct_status_t ct_launch_opts_init(ct_launch_opts_t *o, const char *cmd, int argc, double timeout_s);
void ct_launch_opts_free(ct_launch_opts_t *o);

/* Takes option id with its value: 0 when id is not one of CT_LOPT_*, 1
 * when it is, with *st set (CT_ERR_USAGE with a message on stderr on a bad
 * value; CT_ERR_NOMEM without one). */
int ct_launch_opts_apply(ct_launch_opts_t *o, int id, const char *value, ct_status_t *st);

/* After parsing: the scale must be given, by --np or --launcher, a
 * launcher line's rank count must be 1 to CT_MAX_RANKS (and agree with
 * --np), and the files must be usable (ct_launch_opts_check_files).  CT_EXIT_OK, or
 * CT_EXIT_USAGE with a message on stderr. */
int ct_launch_opts_check(const ct_launch_opts_t *o);

/* --hostfile a readable regular file, --collbench (when it names a path)
 * an executable regular file: checked before any launch, so that a typo
 * is exit 2 with its reason rather than a failed run (exit 1 or 3, or an
 * exec of a directory that mpirun reports as a signal).  CT_EXIT_OK, or
 * CT_EXIT_USAGE with a message on stderr. */
int ct_launch_opts_check_files(const ct_launch_opts_t *o);

/* Sets up l from --launcher (or configure's mpirun), --np, --hostfile and
 * --launcher-arg (moved into l->extra); as root, mpirun's
 * --allow-run-as-root.  The rest (--np or --hostfile with a prefix, ...)
 * ct_launcher_build() refuses.  An error with a message on stderr. */
ct_status_t ct_launch_opts_launcher(ct_launch_opts_t *o, ct_launcher_t *l);

/* The name of the launcher o's --launcher selects (its ops' name, e.g.
 * "mpiexec.hydra"), NULL when it cannot be told. */
const char *ct_launch_opts_kind(const ct_launch_opts_t *o);

/* The rank count the launch will have (ct_launcher_ranks, with
 * SLURM_NTASKS from the environment); 0 when unknown or on a bad
 * --launcher line (the launch itself then says why). */
long ct_launch_opts_ranks(const ct_launch_opts_t *o);

/* The collbench to run: --collbench as given, else the one beside this
 * program (installed, both live in bindir; in the build tree colltune is
 * tuner/colltune and collbench src/collbench), else "collbench" from PATH. */
void ct_launch_opts_collbench(const ct_launch_opts_t *o, char *buf, size_t buflen);

#endif
