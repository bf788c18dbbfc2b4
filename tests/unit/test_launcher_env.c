/* SPDX-License-Identifier: BSD-3-Clause */
/* The launchers' variables (ct_launcher_env.h): names and prefixes, what
 * each bit marks, "NAME=value" forms, the table's end, and which library a
 * launcher kind runs and back. */
#include <string.h>

#include "ct_launcher_env.h"
#include "ct_test.h"

static void test_sets(ct_test_tally_t *t)
{
    unsigned v = CT_LAUNCHER_VOLATILE, w = CT_LAUNCHER_WIRING;
    /* Exact names, with and without a value. */
    CT_CHECK(t, ct_launcher_env_sets("OMPI_COMM_WORLD_RANK", v));
    CT_CHECK(t, ct_launcher_env_sets("OMPI_COMM_WORLD_RANK=3", v));
    CT_CHECK(t, !ct_launcher_env_sets("OMPI_COMM_WORLD_RANK", w));  /* volatile, not wiring */
    CT_CHECK(t, !ct_launcher_env_sets("OMPI_COMM_WORLD_RANKS", v)); /* exact: no prefix */
    CT_CHECK(t, !ct_launcher_env_sets("OMPI_COMM_WORLD_RAN", v));
    CT_CHECK(t, ct_launcher_env_sets("MPI_LOCALRANKID=0", v));
    CT_CHECK(t, ct_launcher_env_sets("SLURM_JOB_ID", v));
    /* Prefixes ("...*"): the prefix itself and longer names, not shorter. */
    CT_CHECK(t, ct_launcher_env_sets("OMPI_MCA_orte_hnp_uri=x", v));
    CT_CHECK(t, ct_launcher_env_sets("OMPI_MCA_orte_", w));
    CT_CHECK(t, !ct_launcher_env_sets("OMPI_MCA_orte", w));
    CT_CHECK(t, ct_launcher_env_sets("OMPI_MCA_plm", v));  /* "OMPI_MCA_plm*" */
    CT_CHECK(t, !ct_launcher_env_sets("OMPI_MCA_plm", w)); /* wiring is "plm_*" */
    CT_CHECK(t, ct_launcher_env_sets("OMPI_MCA_plm_rsh_agent", w));
    CT_CHECK(t, ct_launcher_env_sets("PMIX_SERVER_URI2=x", v));
    /* A setting, not the launcher's. */
    CT_CHECK(t, !ct_launcher_env_sets("OMPI_MCA_coll_tuned_use_dynamic_rules", v | w));
    CT_CHECK(t, !ct_launcher_env_sets("NCCL_ALGO=Ring", v | w));
    CT_CHECK(t, !ct_launcher_env_sets("", v | w));
    CT_CHECK(t, !ct_launcher_env_sets("=x", v | w));
    CT_CHECK(t, !ct_launcher_env_sets("SLURM_JOB_ID", 0));
}

static void test_table(ct_test_tally_t *t)
{
    size_t n = 0;
    while (ct_launcher_env_at(n) != NULL)
        n++;
    CT_CHECK(t, n == 4);
    CT_CHECK(t, ct_launcher_env_at(n) == NULL && ct_launcher_env_at(n + 1) == NULL);
    CT_CHECK_STR(t, ct_launcher_env_at(0)->kind, "mpirun"); /* the default first */
    for (size_t i = 0; i < n; i++)
        CT_CHECK(t, ct_launcher_env_at(i)->nvars > 0 && ct_launcher_env_at(i)->name != NULL);
}

static void test_runs(ct_test_tally_t *t)
{
    CT_CHECK(t, ct_launcher_env_runs("mpirun") == CT_LIB_OMPI);
    CT_CHECK(t, ct_launcher_env_runs("mpiexec.hydra") == CT_LIB_MPICH);
    /* srun runs any library; an unknown or untold kind: the default's. */
    CT_CHECK(t, ct_launcher_env_runs("srun") == CT_LIB_OMPI);
    CT_CHECK(t, ct_launcher_env_runs("prefix") == CT_LIB_OMPI);
    CT_CHECK(t, ct_launcher_env_runs(NULL) == CT_LIB_OMPI);
    CT_CHECK_STR(t, ct_launcher_env_kind_of(CT_LIB_OMPI), "mpirun");
    CT_CHECK_STR(t, ct_launcher_env_kind_of(CT_LIB_MPICH), "mpiexec.hydra");
    CT_CHECK(t, ct_launcher_env_kind_of(CT_LIB_NCCL) == NULL);
    CT_CHECK(t, ct_launcher_env_kind_of(CT_LIB_UCX) == NULL);
    /* "Any library" (CT_LIB_COUNT) is srun's: PMIx, which no command names
     * (kind NULL), is passed over. */
    CT_CHECK_STR(t, ct_launcher_env_kind_of(CT_LIB_COUNT), "srun");
}

int main(void)
{
    ct_test_tally_t t = {0, 0};
    test_sets(&t);
    test_table(&t);
    test_runs(&t);
    return CT_DONE(&t);
}
