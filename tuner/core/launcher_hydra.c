/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * launcher_hydra.c - MPICH's and Intel MPI's mpiexec.hydra: scale as
 * "-n N" and "-f FILE" (a Hydra hostfile: "host:K"), every environment
 * variable as "-genv NAME VALUE" (Hydra's own form: the value is one
 * argv word, so nothing in it needs quoting).  Hydra has no MCA
 * parameters: an --mca setting is refused rather than passed as an
 * OMPI_MCA_* variable that MPICH would silently ignore.
 */
#include <stdio.h>

#include "launcher_words.h"

static ct_status_t ct_hydra_refuse(const ct_launcher_t *l, const ct_launch_vars_t *vars, char *err,
                                   size_t errlen)
{
    (void)l;
    if (vars->nmca == 0)
        return CT_OK;
    snprintf(err, errlen,
             "--mca %s: mpiexec.hydra (MPICH, Intel MPI) has no MCA parameters; they are Open "
             "MPI's (use mpirun, or --env for the MPI's own variables)",
             vars->mca[0].name);
    return CT_ERR_USAGE;
}

static ct_status_t ct_hydra_flags(const ct_launcher_t *l, const ct_launch_vars_t *vars,
                                  ct_argv_t *argv)
{
    ct_status_t st = CT_OK;
    if (l->np > 0) {
        char np[32];
        snprintf(np, sizeof np, "%ld", l->np);
        st = ct_launcher_push2(argv, "-n", np);
    }
    if (st == CT_OK && l->hostfile != NULL)
        st = ct_launcher_push2(argv, "-f", l->hostfile);
    for (size_t k = 0; k < vars->nenv && st == CT_OK; k++) {
        st = ct_launcher_push2(argv, "-genv", vars->env[k].name);
        if (st == CT_OK)
            st = ct_argv_push(argv, vars->env[k].value);
    }
    return st;
}

/* -n/-np N. */
static long ct_hydra_ranks(const ct_launcher_t *l, const char *slurm_ntasks)
{
    (void)slurm_ntasks;
    static const char *const np[] = {"-np", "-n", NULL};
    long n = ct_launcher_flag(l, np);
    return n > 0 ? n : 0;
}

static void ct_hydra_host_line(FILE *f, const char *host, long slots)
{
    fprintf(f, "%s:%ld\n", host, slots);
}

static const char *const ct_hydra_words[] = {"mpiexec.hydra", "mpiexec.mpich", NULL};

const ct_launcher_ops_t ct_launcher_hydra = {
    .name = "mpiexec.hydra",
    .words = ct_hydra_words,
    .help = "  mpiexec.hydra  (MPICH, Intel MPI) variables as -genv NAME VALUE, -n for --np,\n"
            "           -f for --hostfile (host:K lines); --mca is refused\n",
    .refuse = ct_hydra_refuse,
    .flags = ct_hydra_flags,
    .env_too = 0,
    .ranks = ct_hydra_ranks,
    .host_end = " \t\r\n#:",
    .host_line = ct_hydra_host_line,
};
