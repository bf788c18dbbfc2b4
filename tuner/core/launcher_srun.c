/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * launcher_srun.c - Slurm's srun: "--export=ALL,NAME=VALUE,...,
 * OMPI_MCA_name=value", "--mpi=pmix" unless the user names an --mpi
 * (Debian's Open MPI works only with pmix), "--ntasks=N" for --np.  The
 * same variables are also set in srun's own environment, because a
 * variable already set there wins over --export (DESIGN.md).  --export
 * separates entries with commas, so a value containing one travels in
 * that environment only (ALL exports it).  Nodes come from Slurm, never
 * from a hostfile.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launcher_words.h"

static ct_status_t ct_srun_refuse(const ct_launcher_t *l, const ct_launch_vars_t *vars, char *err,
                                  size_t errlen)
{
    (void)vars;
    if (l->hostfile == NULL)
        return CT_OK;
    snprintf(err, errlen,
             "--hostfile: srun takes its nodes from Slurm (say -w or "
             "--nodelist in --launcher)");
    return CT_ERR_USAGE;
}

/* stpcpy() without _GNU_SOURCE: copies src to dst, returns the end. */
static char *ct_stpcpy(char *dst, const char *src)
{
    size_t len = strlen(src);
    memcpy(dst, src, len + 1);
    return dst + len;
}

static ct_status_t ct_srun_flags(const ct_launcher_t *l, const ct_launch_vars_t *vars,
                                 ct_argv_t *argv)
{
    const ct_launch_var_t *env = vars->env, *mca = vars->mca;
    size_t nenv = vars->nenv, nmca = vars->nmca;
    ct_status_t st = CT_OK;
    if (!ct_launcher_has(l, "--mpi"))
        st = ct_argv_push(argv, "--mpi=pmix");
    if (st == CT_OK && l->np > 0) {
        char np[48];
        snprintf(np, sizeof np, "--ntasks=%ld", l->np);
        st = ct_argv_push(argv, np);
    }
    if (st != CT_OK || nenv + nmca == 0)
        return st;

    /* --export=ALL,A=1,B=2.  Slurm splits the list at every comma and has
     * no escape for one, so a value holding one (UCX_TLS=rc,sm, a list of
     * MCA files) is left out of the list: srun's own environment, which
     * ALL exports and which wins over the list anyway, carries it. */
    size_t len = strlen("--export=ALL") + 1;
    for (size_t k = 0; k < nenv; k++)
        len += 2 + strlen(env[k].name) + strlen(env[k].value);
    for (size_t k = 0; k < nmca; k++)
        len += 2 + strlen(CT_MCA_ENV_PREFIX) + strlen(mca[k].name) + strlen(mca[k].value);
    char *list = malloc(len);
    if (list == NULL)
        return CT_ERR_NOMEM;
    char *end = list;
    end = ct_stpcpy(end, "--export=ALL");
    for (size_t k = 0; k < nenv; k++) {
        if (strchr(env[k].value, ',') != NULL)
            continue;
        end = ct_stpcpy(ct_stpcpy(end, ","), env[k].name);
        end = ct_stpcpy(ct_stpcpy(end, "="), env[k].value);
    }
    for (size_t k = 0; k < nmca; k++) {
        if (strchr(mca[k].value, ',') != NULL)
            continue;
        end = ct_stpcpy(ct_stpcpy(end, "," CT_MCA_ENV_PREFIX), mca[k].name);
        end = ct_stpcpy(ct_stpcpy(end, "="), mca[k].value);
    }
    st = ct_argv_push(argv, list);
    free(list);
    return st;
}

/* -n/--ntasks N, else nodes (-N/--nodes, a plain number) times
 * --ntasks-per-node (1 when not given); without any count inside an
 * allocation srun starts SLURM_NTASKS tasks. */
static long ct_srun_ranks(const ct_launcher_t *l, const char *slurm_ntasks)
{
    static const char *const ntasks[] = {"-n", "--ntasks", NULL};
    static const char *const nodes[] = {"-N", "--nodes", NULL};
    static const char *const per_node[] = {"--ntasks-per-node", NULL};
    long n = ct_launcher_flag(l, ntasks), N = ct_launcher_flag(l, nodes);
    long k = ct_launcher_flag(l, per_node);
    if (n >= 0)
        return n;
    if (N < 0 && k < 0)
        return ct_launcher_count(slurm_ntasks);
    if (N == 0 || k == 0)
        return 0;
    return (N < 0 ? 1 : N) * (k < 0 ? 1 : k);
}

static ct_status_t ct_srun_scale_flags(long nodes, long per_node, ct_argv_t *extra)
{
    char arg[64];
    snprintf(arg, sizeof arg, "--nodes=%ld", nodes);
    ct_status_t st = ct_argv_push(extra, arg);
    snprintf(arg, sizeof arg, "--ntasks-per-node=%ld", per_node);
    if (st == CT_OK)
        st = ct_argv_push(extra, arg);
    return st;
}

static const char *const ct_srun_words[] = {"srun", NULL};

const ct_launcher_ops_t ct_launcher_srun = {
    .name = "srun",
    .words = ct_srun_words,
    .help = "  srun     --export=ALL,NAME=VALUE,...,OMPI_MCA_name=value, --mpi=pmix and\n"
            "           --ntasks=N for --np; the same variables are set in srun's own\n"
            "           environment (which wins over --export, and carries a value with\n"
            "           a ','); put srun's own limit in the line (srun -t MINUTES ...)\n",
    .refuse = ct_srun_refuse,
    .flags = ct_srun_flags,
    .env_too = 1,
    .ranks = ct_srun_ranks,
    .scale_flags = ct_srun_scale_flags,
};
