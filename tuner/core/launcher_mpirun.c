/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * launcher_mpirun.c - Open MPI's mpirun (also mpiexec, orterun):
 * environment variables as "-x NAME=VALUE", MCA parameters as
 * "--mca NAME VALUE", scale as "--np N" and "--hostfile F" (an Open MPI
 * hostfile: "host slots=K"), "--allow-run-as-root" when root.  Every
 * setting travels in its flags, so the child's environment is colltune's.
 */
#include <stdio.h>

#include "launcher_words.h"

/* --allow-run-as-root (when root and not given), --np (when np > 0),
 * --hostfile and each environment variable as "-x NAME=VALUE": what a
 * launch, or each app context of one, says first. */
static ct_status_t ct_mpirun_common(const ct_launcher_t *l, const ct_launch_vars_t *vars, int root,
                                    ct_argv_t *argv)
{
    char np[32];
    ct_status_t st = CT_OK;
    if (root && l->as_root && !ct_launcher_has(l, "--allow-run-as-root"))
        st = ct_argv_push(argv, "--allow-run-as-root");
    if (st == CT_OK && l->np > 0) {
        snprintf(np, sizeof np, "%ld", l->np);
        st = ct_launcher_push2(argv, "--np", np);
    }
    if (st == CT_OK && l->hostfile != NULL)
        st = ct_launcher_push2(argv, "--hostfile", l->hostfile);
    for (size_t k = 0; k < vars->nenv && st == CT_OK; k++) {
        st = ct_argv_push(argv, "-x");
        if (st == CT_OK)
            st = ct_argv_push3(argv, vars->env[k].name, "=", vars->env[k].value);
    }
    return st;
}

/* Each MCA setting of vars as "--mca NAME VALUE": the launch's, for
 * every context and mpirun itself. */
static ct_status_t ct_mpirun_mca(const ct_launch_vars_t *vars, ct_argv_t *argv)
{
    ct_status_t st = CT_OK;
    for (size_t k = 0; k < vars->nmca && st == CT_OK; k++) {
        st = ct_launcher_push2(argv, "--mca", vars->mca[k].name);
        if (st == CT_OK)
            st = ct_argv_push(argv, vars->mca[k].value);
    }
    return st;
}

static ct_status_t ct_mpirun_flags(const ct_launcher_t *l, const ct_launch_vars_t *vars,
                                   ct_argv_t *argv)
{
    ct_status_t st = ct_mpirun_common(l, vars, 1, argv);
    return st == CT_OK ? ct_mpirun_mca(vars, argv) : st;
}

/* One app context's flags: its --np and --hostfile (ct_launcher_apps_ok
 * requires --np), and each of its own settings as "-x NAME=VALUE" (MCA
 * parameters as OMPI_MCA_NAME): mpirun's --mca holds for every context,
 * its -x for its own.  The first also carries the shared ones as --mca. */
static ct_status_t ct_mpirun_app_flags(const ct_launcher_t *l, const ct_launch_vars_t *vars,
                                       const ct_launch_vars_t *shared, ct_argv_t *argv)
{
    ct_status_t st = ct_mpirun_common(l, vars, shared != NULL, argv);
    if (st == CT_OK && shared != NULL)
        st = ct_mpirun_mca(shared, argv);
    for (size_t k = 0; k < vars->nmca && st == CT_OK; k++) {
        char name[300];
        snprintf(name, sizeof name, "OMPI_MCA_%s", vars->mca[k].name);
        st = ct_argv_push(argv, "-x");
        if (st == CT_OK)
            st = ct_argv_push3(argv, name, "=", vars->mca[k].value);
    }
    return st;
}

/* -np/-n/--np/-c N. */
static long ct_mpirun_ranks(const ct_launcher_t *l, const char *slurm_ntasks)
{
    (void)slurm_ntasks; /* mpirun inside an allocation: the count is not ours to guess */
    static const char *const np[] = {"-np", "--np", "-n", "--n", "-c", NULL};
    long n = ct_launcher_flag(l, np);
    return n > 0 ? n : 0;
}

static void ct_mpirun_host_line(FILE *f, const char *host, long slots)
{
    fprintf(f, "%s slots=%ld\n", host, slots);
}

static const char *const ct_mpirun_words[] = {"mpirun", "mpiexec", "orterun", NULL};

const ct_launcher_ops_t ct_launcher_mpirun = {
    .name = "mpirun",
    .words = ct_mpirun_words,
    .help = "  mpirun   variables as -x NAME=VALUE, MCA as --mca NAME VALUE, --np, --hostfile,\n"
            "           --allow-run-as-root when root; the default, with --np alone\n",
    .flags = ct_mpirun_flags,
    .env_too = 0,
    .ranks = ct_mpirun_ranks,
    .host_end = " \t\r\n#",
    .host_line = ct_mpirun_host_line,
    .app_flags = ct_mpirun_app_flags,
};
