/* SPDX-License-Identifier: BSD-3-Clause */
/* The per-library table (ct_library.h) at its edges: which library ran by
 * its version line, which emitted file carries a family, the variable
 * that loads a file, the shell syntaxes, MPI_T names that just fit. */
#include <string.h>

#include "ct_library.h"
#include "ct_test.h"

static void test_ran(ct_test_tally_t *t)
{
    CT_CHECK(t, ct_library_ran("Open MPI v4.1.4, package: Debian")->id == CT_LIB_OMPI);
    CT_CHECK(t, ct_library_ran("MPICH Version:      4.0.2")->id == CT_LIB_MPICH);
    CT_CHECK(t, ct_library_ran("MVAPICH Version: 3.0")->id == CT_LIB_MVAPICH);
    /* MVAPICH2 has no MVP_ aliases: not MVAPICH 3. */
    CT_CHECK(t, ct_library_ran("MVAPICH2 Version: 2.3.7") == NULL);
    CT_CHECK(t, ct_library_ran("Open MPI") == NULL); /* shorter than "Open MPI v" */
    CT_CHECK(t, ct_library_ran("") == NULL && ct_library_ran(NULL) == NULL);
    CT_CHECK(t, ct_library_get(CT_LIB_ONECCL) != NULL && !ct_library_get(CT_LIB_ONECCL)->run_here);
    CT_CHECK(t, ct_library_get(CT_LIB_NCCL) != NULL && ct_library_get(CT_LIB_NCCL)->run_here);
}

static void test_carries(ct_test_tally_t *t)
{
    const ct_library_t *lib = NULL;
    const ct_library_family_t *cvar =
        ct_library_family_of("MPIR_CVAR_BCAST_INTRA_ALGORITHM", 0, &lib);
    CT_CHECK(t, cvar != NULL && lib != NULL && lib->id == CT_LIB_MPICH);
    CT_CHECK(t, ct_library_family_carries(cvar, "mpich.env"));
    CT_CHECK(t, ct_library_family_carries(cvar, "mvapich.env")); /* MVAPICH writes MPICH's */
    CT_CHECK(t, !ct_library_family_carries(cvar, "nccl.env"));
    CT_CHECK(t, !ct_library_family_carries(cvar, "no-such.conf"));
    CT_CHECK(t, !ct_library_family_carries(NULL, "mpich.env"));
    /* OMPI_MCA_ in the environment: Open MPI's, but never written. */
    const ct_library_family_t *env = ct_library_family_of("OMPI_MCA_coll", 0, &lib);
    CT_CHECK(t, env != NULL && !env->emitted);
    CT_CHECK(t, !ct_library_family_carries(env, "mca-params.conf"));
    const ct_library_family_t *mca = ct_library_family_of("coll_tuned_use_dynamic_rules", 1, NULL);
    CT_CHECK(t, mca != NULL && ct_library_family_carries(mca, "mca-params.conf"));
}

static void test_file_env(ct_test_tally_t *t)
{
    char buf[64];
    const ct_library_file_t *mca = ct_library_file_named("mca-params.conf");
    const ct_library_file_t *ucx = ct_library_file_named("ucx.conf");
    CT_CHECK(t, ct_library_file_env(mca, buf, sizeof buf));
    CT_CHECK_STR(t, buf, "OMPI_MCA_mca_base_param_files");
    CT_CHECK(t, mca->load.keeps_defaults);
    CT_CHECK(t, ct_library_file_env(ucx, buf, sizeof buf));
    CT_CHECK_STR(t, buf, "UCX_CONFIG_DIR");
    CT_CHECK(t, ucx->load.names_dir); /* UCX reads DIR/ucx.conf */
    /* Exactly enough room ("UCX_CONFIG_DIR" and its NUL), and one short. */
    CT_CHECK(t, ct_library_file_env(ucx, buf, 15));
    CT_CHECK(t, !ct_library_file_env(ucx, buf, 14));
    /* Loaded otherwise: sourced, or named by another file. */
    CT_CHECK(t, !ct_library_file_env(ct_library_file_named("oneccl.env"), buf, sizeof buf));
    CT_CHECK(t, !ct_library_file_env(NULL, buf, sizeof buf));
    CT_CHECK(t, ct_library_syntax_sh(CT_FILE_SYNTAX_SH));
    CT_CHECK(t, ct_library_syntax_sh(CT_FILE_SYNTAX_SH_QUOTED));
    CT_CHECK(t, !ct_library_syntax_sh(CT_FILE_SYNTAX_MCA));
    CT_CHECK(t, !ct_library_syntax_sh(CT_FILE_SYNTAX_UCX_INI));
}

int main(void)
{
    ct_test_tally_t t = {0, 0};
    test_ran(&t);
    test_carries(&t);
    test_file_env(&t);
    return CT_DONE(&t);
}
