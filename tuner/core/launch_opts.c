/* SPDX-License-Identifier: BSD-3-Clause */
#include "launch_opts.h"
#include "ct_path.h"
#include "self_path.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef CT_DEFAULT_MPIRUN
#define CT_DEFAULT_MPIRUN "mpirun"
#endif

ct_status_t ct_launch_opts_init(ct_launch_opts_t *o, const char *cmd, int argc, double timeout_s)
{
    memset(o, 0, sizeof *o);
    o->cmd = cmd;
    o->launcher_args = (ct_argv_t)CT_ARGV_INIT;
    o->timeout_s = timeout_s;
    o->grace_s = 5;
    o->env = calloc((size_t)argc, sizeof *o->env);
    o->mca = calloc((size_t)argc, sizeof *o->mca);
    if (o->env == NULL || o->mca == NULL) {
        fprintf(stderr, "colltune %s: out of memory\n", cmd);
        return CT_ERR_NOMEM;
    }
    return CT_OK;
}

void ct_launch_opts_free(ct_launch_opts_t *o)
{
    ct_argv_free(&o->launcher_args);
    free(o->env);
    free(o->mca);
    o->env = o->mca = NULL;
}

int ct_launch_opts_apply(ct_launch_opts_t *o, int id, const char *value, ct_status_t *st)
{
    char err[512];
    *st = CT_OK;
    switch (id) {
    case CT_LOPT_NP: *st = ct_cli_long(o->cmd, "np", value, 1, CT_MAX_RANKS, &o->np); break;
    case CT_LOPT_HOSTFILE: o->hostfile = value; break;
    case CT_LOPT_LAUNCHER: o->launcher = value; break;
    case CT_LOPT_LAUNCHER_ARG: *st = ct_argv_push(&o->launcher_args, value); break;
    case CT_LOPT_ENV:
    case CT_LOPT_MCA: {
        int is_mca = id == CT_LOPT_MCA;
        ct_launch_var_t *var = is_mca ? &o->mca[o->nmca] : &o->env[o->nenv];
        *st = ct_launch_var_parse(value, is_mca, var, err, sizeof err);
        if (*st != CT_OK)
            fprintf(stderr, "colltune %s: --%s %s\n", o->cmd, is_mca ? "mca" : "env", err);
        else if (is_mca)
            o->nmca++;
        else
            o->nenv++;
        break;
    }
    case CT_LOPT_TIMEOUT:
        *st = ct_cli_seconds(o->cmd, "timeout", value, 0.001, &o->timeout_s);
        break;
    case CT_LOPT_GRACE: *st = ct_cli_seconds(o->cmd, "grace", value, 0, &o->grace_s); break;
    case CT_LOPT_COLLBENCH: o->collbench = value; break;
    default: return 0;
    }
    return 1;
}

static long ct_launch_opts_ranks_with(const ct_launch_opts_t *o, long np, const char *slurm);

int ct_launch_opts_check(const ct_launch_opts_t *o)
{
    if (o->np == 0 && o->launcher == NULL) {
        fprintf(stderr,
                "colltune %s: give the scale: --np N (through mpirun) or "
                "--launcher 'CMD ARGS'\n",
                o->cmd);
        return CT_EXIT_USAGE;
    }
    /* --np and a count in the launcher line (mpirun -np 4, srun -n 4) that
     * disagree: which one runs would be the launcher's guess (E24). */
    long line = o->launcher != NULL ? ct_launch_opts_ranks_with(o, 0, NULL) : 0;
    if (line > CT_MAX_RANKS) {
        fprintf(stderr,
                "colltune %s: --launcher: the launcher line's rank count (-np, -n, --ntasks) "
                "%s%ld is out of range: want 1 to %ld\n",
                o->cmd, line == LONG_MAX ? "at least " : "", line, CT_MAX_RANKS);
        return CT_EXIT_USAGE;
    }
    if (o->np > 0 && line > 0 && line != o->np) {
        fprintf(stderr,
                "colltune %s: --np %ld and the launcher line's %ld ranks disagree: give the "
                "count once\n",
                o->cmd, o->np, line);
        return CT_EXIT_USAGE;
    }
    return ct_launch_opts_check_files(o);
}

/* path is a regular file with the access mode; else a message on stderr
 * naming OPT and the reason. */
static int ct_launch_opts_file(const char *cmd, const char *opt, const char *path, int mode)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "colltune %s: --%s %s: %s\n", cmd, opt, path, strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        fprintf(stderr, "colltune %s: --%s %s: is %s, not a regular file\n", cmd, opt, path,
                ct_path_kind(st.st_mode));
    } else if (access(path, mode) != 0) {
        fprintf(stderr, "colltune %s: --%s %s: %s\n", cmd, opt, path,
                mode == X_OK ? "is not executable" : strerror(errno));
    } else {
        return CT_EXIT_OK;
    }
    return CT_EXIT_USAGE;
}

int ct_launch_opts_check_files(const ct_launch_opts_t *o)
{
    if (o->hostfile != NULL && ct_launch_opts_file(o->cmd, "hostfile", o->hostfile, R_OK) != 0)
        return CT_EXIT_USAGE;
    /* A bare name is looked up on PATH where the launcher runs it. */
    if (o->collbench != NULL && strchr(o->collbench, '/') != NULL &&
        ct_launch_opts_file(o->cmd, "collbench", o->collbench, X_OK) != 0)
        return CT_EXIT_USAGE;
    return CT_EXIT_OK;
}

ct_status_t ct_launch_opts_launcher(ct_launch_opts_t *o, ct_launcher_t *l)
{
    char err[512];
    const char *mpirun = *CT_DEFAULT_MPIRUN ? CT_DEFAULT_MPIRUN : "mpirun";
    ct_status_t st = ct_launcher_init(l, o->launcher, mpirun, err, sizeof err);
    if (st != CT_OK) {
        fprintf(stderr, "colltune %s: --launcher: %s\n", o->cmd, err);
        return st;
    }
    l->np = o->np;
    l->hostfile = o->hostfile;
    l->as_root = geteuid() == 0;
    l->extra = o->launcher_args;
    o->launcher_args = (ct_argv_t)CT_ARGV_INIT;
    return CT_OK;
}

/* The rank count of o's launcher with np as --np (0: the line's own) and
 * slurm as $SLURM_NTASKS (NULL: none). */
static long ct_launch_opts_ranks_with(const ct_launch_opts_t *o, long np, const char *slurm)
{
    char err[512];
    const char *mpirun = *CT_DEFAULT_MPIRUN ? CT_DEFAULT_MPIRUN : "mpirun";
    ct_launcher_t l;
    if (ct_launcher_init(&l, o->launcher, mpirun, err, sizeof err) != CT_OK)
        return 0;
    l.np = np;
    l.extra = o->launcher_args; /* borrowed: not freed below */
    long n = ct_launcher_ranks(&l, slurm);
    ct_argv_free(&l.words);
    return n;
}

const char *ct_launch_opts_kind(const ct_launch_opts_t *o)
{
    char err[512];
    const char *mpirun = *CT_DEFAULT_MPIRUN ? CT_DEFAULT_MPIRUN : "mpirun";
    ct_launcher_t l;
    if (ct_launcher_init(&l, o->launcher, mpirun, err, sizeof err) != CT_OK)
        return NULL;
    const char *name = l.kind != NULL ? l.kind->name : NULL;
    ct_argv_free(&l.words);
    return name;
}

long ct_launch_opts_ranks(const ct_launch_opts_t *o)
{
    return ct_launch_opts_ranks_with(o, o->np, getenv("SLURM_NTASKS"));
}

void ct_launch_opts_collbench(const ct_launch_opts_t *o, char *buf, size_t buflen)
{
    if (o->collbench != NULL) {
        snprintf(buf, buflen, "%s", o->collbench);
        return;
    }
    static const char *const rel[] = {"/collbench", "/../src/collbench"};
    if (ct_self_path_find(rel, 2, "", X_OK, buf, buflen) == 0)
        return;
    snprintf(buf, buflen, "collbench"); /* from PATH, wherever the launcher runs it */
}
