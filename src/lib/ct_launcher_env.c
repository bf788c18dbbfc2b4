/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_launcher_env.c - the variables each launcher sets (ct_launcher_env.h;
 * doc/formats.md, "fingerprint", lists the volatile ones).  A volatile
 * name would make every run's digest new, and hosts or ranks differ for
 * no reason; what they describe is in the JSON elsewhere (command_line,
 * ranks, hosts).  A wiring name is in a library's family (OMPI_MCA_) but
 * is the launcher's, not a setting: two runs with the same settings get
 * the same configuration id.
 */
#include "ct_launcher_env.h"

#include <string.h>

#define V CT_LAUNCHER_VOLATILE
#define W CT_LAUNCHER_WIRING
#define CT_N(a) (sizeof(a) / sizeof((a)[0]))

/* Open MPI's mpirun (ORTE, PRRTE): ranks, placement, the program's
 * arguments (command_line has them, output paths included), session
 * files; ORTE's runtime wiring (orte_*: URIs, session dirs, node lists,
 * random keys; ess*: job ids, vpids; plm*, routed*), which also differs
 * between mpirun's host and the hosts an orted launched; and what it
 * sets the same on every launch (pmix*, rmaps_*, the shmem hint). */
static const ct_launcher_var_t ct_launcher_ompi[] = {
    {"OMPI_COMM_WORLD_RANK", V},
    {"OMPI_COMM_WORLD_LOCAL_RANK", V},
    {"OMPI_COMM_WORLD_NODE_RANK", V},
    {"OMPI_COMM_WORLD_LOCAL_SIZE", V},
    {"OMPI_ARGV", V},
    {"OMPI_FILE_LOCATION", V},
    {"OMPI_MCA_initial_wdir", V | W},
    {"OMPI_MCA_orte_*", V | W},
    {"OMPI_MCA_ess*", V | W},
    {"OMPI_MCA_plm*", V},
    {"OMPI_MCA_plm_*", W},
    {"OMPI_MCA_routed*", V},
    {"OMPI_MCA_pmix*", W},
    {"OMPI_MCA_rmaps_*", W},
    {"OMPI_MCA_shmem_RUNTIME_QUERY_hint", W},
    {"OMPI_MCA_mpi_oversubscribe", W},
};
/* PMIx (mpirun and srun --mpi=pmix): rank, namespace, server URIs and
 * directories, the shared-memory store's session paths, host name. */
static const ct_launcher_var_t ct_launcher_pmix[] = {
    {"PMIX_RANK", V},     {"PMIX_ID", V},       {"PMIX_NAMESPACE", V},
    {"PMIX_HOSTNAME", V}, {"PMIX_SERVER_*", V}, {"PMIX_SYSTEM_TMPDIR", V},
    {"PMIX_DSTORE_*", V},
};
/* Hydra (MPICH, Intel MPI): the rank's place on its host. */
static const ct_launcher_var_t ct_launcher_hydra[] = {
    {"MPI_LOCALRANKID", V},
    {"MPI_LOCALNRANKS", V},
};
/* Slurm: job and step ids, ranks, node ids and lists, ports, times,
 * submit host and directory, per-task CPU masks. */
static const ct_launcher_var_t ct_launcher_slurm[] = {
    {"SLURM_JOB_ID", V},
    {"SLURM_JOBID", V},
    {"SLURM_STEP_ID", V},
    {"SLURM_STEPID", V},
    {"SLURM_ARRAY_JOB_ID", V},
    {"SLURM_ARRAY_TASK_ID", V},
    {"SLURM_PROCID", V},
    {"SLURM_LOCALID", V},
    {"SLURM_NODEID", V},
    {"SLURM_TASK_PID", V},
    {"SLURM_GTIDS", V},
    {"SLURM_TOPOLOGY_ADDR", V},
    {"SLURM_JOB_START_TIME", V},
    {"SLURM_JOB_END_TIME", V},
    {"SLURM_SRUN_COMM_HOST", V},
    {"SLURM_SRUN_COMM_PORT", V},
    {"SLURM_STEP_LAUNCHER_PORT", V},
    {"SLURM_STEP_RESV_PORTS", V},
    {"SLURM_RESV_PORTS", V},
    {"SLURM_PMIXP_ABORT_AGENT_PORT", V},
    {"SLURM_LAUNCH_NODE_IPADDR", V},
    {"SLURM_SUBMIT_HOST", V},
    {"SLURM_SUBMIT_DIR", V},
    {"SLURM_JOB_NODELIST", V},
    {"SLURM_NODELIST", V},
    {"SLURM_STEP_NODELIST", V},
    {"SLURM_NODE_ALIASES", V},
    {"SLURM_CPU_BIND", V},
    {"SLURM_CPU_BIND_LIST", V},
};

/* The default (configure's mpirun) first. */
static const ct_launcher_env_t ct_launchers[] = {
    {"Open MPI's mpirun", "mpirun", CT_LIB_OMPI, ct_launcher_ompi, CT_N(ct_launcher_ompi)},
    {"PMIx", NULL, CT_LIB_COUNT, ct_launcher_pmix, CT_N(ct_launcher_pmix)},
    {"Hydra", "mpiexec.hydra", CT_LIB_MPICH, ct_launcher_hydra, CT_N(ct_launcher_hydra)},
    {"Slurm's srun", "srun", CT_LIB_COUNT, ct_launcher_slurm, CT_N(ct_launcher_slurm)},
};

const ct_launcher_env_t *ct_launcher_env_at(size_t i)
{
    return i < CT_N(ct_launchers) ? &ct_launchers[i] : NULL;
}

/* A pattern matches a name exactly, or as a prefix when it ends in '*'. */
static int ct_launcher_env_match(const char *pattern, const char *name, size_t nlen)
{
    size_t len = strlen(pattern);
    if (len > 0 && pattern[len - 1] == '*')
        return nlen >= len - 1 && strncmp(name, pattern, len - 1) == 0;
    return nlen == len && strncmp(name, pattern, len) == 0;
}

int ct_launcher_env_sets(const char *name, unsigned what)
{
    size_t nlen = strcspn(name, "=");
    for (size_t i = 0; i < CT_N(ct_launchers); i++)
        for (size_t k = 0; k < ct_launchers[i].nvars; k++)
            if ((ct_launchers[i].vars[k].what & what) != 0 &&
                ct_launcher_env_match(ct_launchers[i].vars[k].pattern, name, nlen))
                return 1;
    return 0;
}

ct_library_id_t ct_launcher_env_runs(const char *kind)
{
    for (size_t i = 0; kind != NULL && i < CT_N(ct_launchers); i++)
        if (ct_launchers[i].kind != NULL && strcmp(ct_launchers[i].kind, kind) == 0 &&
            ct_launchers[i].runs != CT_LIB_COUNT)
            return ct_launchers[i].runs;
    return ct_launchers[0].runs;
}

const char *ct_launcher_env_kind_of(ct_library_id_t lib)
{
    for (size_t i = 0; i < CT_N(ct_launchers); i++)
        if (ct_launchers[i].runs == lib && ct_launchers[i].kind != NULL)
            return ct_launchers[i].kind;
    return NULL;
}
