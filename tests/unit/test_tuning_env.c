/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_tuning_env.c - which environment variables tune a run, and the
 * configuration id that hashes them (launcher variables left out).
 */
#include <ctype.h>
#include <string.h>

#include "ct_library.h"
#include "ct_test.h"
#include "ct_tuning_env.h"

static ct_test_tally_t tally;

static int is_hex16(const char *s)
{
    if (strlen(s) != 16)
        return 0;
    for (int i = 0; i < 16; i++)
        if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
            return 0;
    return 1;
}

/* The id of envp (NULL-terminated). */
static void id_of(char *const *envp, char *buf)
{
    ct_tuning_env_t env;
    CT_CHECK(&tally, ct_tuning_env_collect(envp, &env) == CT_OK);
    ct_tuning_env_id(&env, buf, 17);
    CT_CHECK(&tally, is_hex16(buf));
    ct_tuning_env_free(&env);
}

/* By name, a name before the longer names it begins ("NCCL_A=9" before
 * "NCCL_A0=1", whatever the values); none of the environment is tuning:
 * an empty, valid list. */
static void test_order(void)
{
    char *envp[] = {"NCCL_A0=1", "NCCL_B=0", "NCCL_A=9", "PATH=/bin", NULL};
    ct_tuning_env_t env;
    CT_CHECK(&tally, ct_tuning_env_collect(envp, &env) == CT_OK && env.n == 3);
    const char *want[] = {"NCCL_A=9", "NCCL_A0=1", "NCCL_B=0"};
    for (size_t i = 0; i < 3 && i < env.n; i++)
        CT_CHECK_STR(&tally, env.vars[i], want[i]);
    ct_tuning_env_free(&env);
    char *sorted[] = {"NCCL_A=9", "NCCL_A0=1", NULL}; /* already in order: stays */
    CT_CHECK(&tally, ct_tuning_env_collect(sorted, &env) == CT_OK && env.n == 2);
    CT_CHECK(&tally, env.n == 2 && strcmp(env.vars[0], "NCCL_A=9") == 0);
    ct_tuning_env_free(&env);
    char *none[] = {"PATH=/bin", NULL};
    CT_CHECK(&tally, ct_tuning_env_collect(none, &env) == CT_OK && env.n == 0 && env.vars != NULL);
    ct_tuning_env_free(&env);
    CT_CHECK(&tally, env.vars == NULL && env.n == 0);
}

int main(void)
{
    test_order();
    char *envp[] = {
        "PATH=/usr/bin",
        "UCX_TLS=rc,sm",
        "NCCL_PROTO=Simple",
        "HOME=/root",
        "OMPI_MCA_coll_tuned_use_dynamic_rules=1",
        "NCCL_ALGO=Ring",
        "OMPI_MCA_orte_hnp_uri=1234.0;tcp://10.0.0.1:5555",
        "MY_NCCL_X=1",    /* prefix must be at the start */
        "nccl_algo=tree", /* case matters */
        "NCCL=1",
        "UCX_RNDV_THRESH=8192",
        "OMPI_MCA_ess_base_jobid=42",
        "LD_LIBRARY_PATH=/opt/lib",
        NULL,
    };
    static const char *const want[] = {
        "NCCL_ALGO=Ring",
        "NCCL_PROTO=Simple",
        "OMPI_MCA_coll_tuned_use_dynamic_rules=1",
        "OMPI_MCA_ess_base_jobid=42",
        "OMPI_MCA_orte_hnp_uri=1234.0;tcp://10.0.0.1:5555",
        "UCX_RNDV_THRESH=8192",
        "UCX_TLS=rc,sm",
    };

    /* Collect: NCCL_, UCX_, OMPI_MCA_ kept (launcher ones too), the rest
     * dropped, sorted by name, copies owned by env. */
    ct_tuning_env_t env;
    CT_CHECK(&tally, ct_tuning_env_collect(envp, &env) == CT_OK);
    CT_CHECK(&tally, env.n == sizeof want / sizeof want[0]);
    for (size_t i = 0; i < env.n && i < sizeof want / sizeof want[0]; i++) {
        CT_CHECK_STR(&tally, env.vars[i], want[i]);
        CT_CHECK(&tally, env.vars[i] != envp[0] && env.vars[i] != envp[1]);
    }
    int owned = 1;
    for (size_t i = 0; i < env.n; i++)
        for (size_t j = 0; envp[j]; j++)
            owned &= env.vars[i] != envp[j];
    CT_CHECK(&tally, owned);
    ct_tuning_env_free(&env);
    CT_CHECK(&tally, env.vars == NULL && env.n == 0);

    /* Predicates. */
    CT_CHECK(&tally, ct_tuning_env_is_tuning("NCCL_ALGO=Ring"));
    CT_CHECK(&tally, ct_tuning_env_is_tuning("UCX_TLS=rc"));
    CT_CHECK(&tally, ct_tuning_env_is_tuning("OMPI_MCA_btl=self"));
    CT_CHECK(&tally, !ct_tuning_env_is_tuning("PATH=/bin"));
    CT_CHECK(&tally, !ct_tuning_env_is_tuning("OMPI_COMM_WORLD_RANK=0"));
    CT_CHECK(&tally, !ct_tuning_env_is_tuning("XNCCL_ALGO=Ring"));
    CT_CHECK(&tally, ct_tuning_env_is_launcher("OMPI_MCA_orte_hnp_uri=x"));
    CT_CHECK(&tally, ct_tuning_env_is_launcher("OMPI_MCA_ess_base_jobid=1"));
    CT_CHECK(&tally, ct_tuning_env_is_launcher("OMPI_MCA_pmix_server_uri=x"));
    CT_CHECK(&tally, !ct_tuning_env_is_launcher("OMPI_MCA_coll_tuned_use_dynamic_rules=1"));
    CT_CHECK(&tally, !ct_tuning_env_is_launcher("NCCL_ALGO=Ring"));
    CT_CHECK(&tally, !ct_tuning_env_is_launcher("UCX_TLS=rc"));

    /* An empty environment: the defaults' id, the same every time. */
    char *empty[] = {NULL};
    char *untuned[] = {"PATH=/bin", "HOME=/root", NULL};
    char id0[17], id1[17], id2[17], id3[17];
    CT_CHECK(&tally, ct_tuning_env_collect(empty, &env) == CT_OK && env.n == 0);
    ct_tuning_env_free(&env);
    id_of(empty, id0);
    id_of(untuned, id1);
    CT_CHECK_STR(&tally, id0, id1);
    /* FNV-1a's offset basis: nothing hashed. */
    CT_CHECK_STR(&tally, id0, "cbf29ce484222325");

    /* Launcher variables alone do not change the id. */
    char *a[] = {"NCCL_ALGO=Ring", "OMPI_MCA_orte_hnp_uri=1111.0;tcp://10.0.0.1:1",
                 "OMPI_MCA_ess_base_jobid=1", "PATH=/a", NULL};
    char *b[] = {"PATH=/b", "OMPI_MCA_ess_base_jobid=2",
                 "OMPI_MCA_orte_hnp_uri=2222.0;tcp://10.0.0.2:2", "NCCL_ALGO=Ring", NULL};
    char *c[] = {"NCCL_ALGO=Ring", NULL};
    id_of(a, id0);
    id_of(b, id1);
    id_of(c, id2);
    CT_CHECK_STR(&tally, id0, id1);
    CT_CHECK_STR(&tally, id0, id2);

    /* A tuning variable does. */
    char *d[] = {"NCCL_ALGO=Tree", "OMPI_MCA_ess_base_jobid=1", NULL};
    id_of(d, id3);
    CT_CHECK(&tally, strcmp(id3, id0) != 0);
    char *e[] = {"NCCL_ALGO=Ring", "NCCL_PROTO=LL", NULL};
    id_of(e, id3);
    CT_CHECK(&tally, strcmp(id3, id0) != 0);
    char *f[] = {"NCCL_ALGO=Ring", "OMPI_MCA_coll_tuned_allreduce_algorithm=4", NULL};
    id_of(f, id3);
    CT_CHECK(&tally, strcmp(id3, id0) != 0);

    /* Order of the environment does not matter; the id is stable. */
    char *g1[] = {"UCX_TLS=rc", "NCCL_ALGO=Ring", "NCCL_PROTO=LL", NULL};
    char *g2[] = {"NCCL_PROTO=LL", "UCX_TLS=rc", "NCCL_ALGO=Ring", NULL};
    id_of(g1, id0);
    id_of(g2, id1);
    CT_CHECK_STR(&tally, id0, id1);
    id_of(g1, id2);
    CT_CHECK_STR(&tally, id0, id2);

    /* Variables are hashed as units: moving text between them shows. */
    char *h1[] = {"NCCL_A=1", "NCCL_B=2", NULL};
    char *h2[] = {"NCCL_A=1NCCL_B=2", NULL};
    id_of(h1, id0);
    id_of(h2, id1);
    CT_CHECK(&tally, strcmp(id0, id1) != 0);

    /* MPICH, Intel MPI and MVAPICH variables tune a run too (ct_library.h):
     * runs that differ only in them are told apart, and UCX_, NCCL_ and
     * OMPI_MCA_ still are. */
    {
        char *base[] = {"PATH=/bin", NULL};
        static const char *const one[] = {
            "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=recursive_doubling",
            "MPICH_ALLREDUCE_INTRA_ALGORITHM=ring",
            "MPIR_PARAM_BCAST_INTRA_ALGORITHM=binomial",
            "I_MPI_ADJUST_ALLREDUCE=2:0-8192",
            "MV2_INTER_ALLREDUCE_TUNING=1",
            "MVP_ALLREDUCE_INTRA_ALGORITHM=ring",
            "UCX_TLS=sm",
            "NCCL_ALGO=Tree",
            "OMPI_MCA_coll_tuned_allreduce_algorithm=3",
        };
        id_of(base, id0);
        for (size_t i = 0; i < sizeof one / sizeof one[0]; i++) {
            char *set[] = {"PATH=/bin", (char *)one[i], NULL};
            CT_CHECK(&tally, ct_tuning_env_is_tuning(one[i]));
            id_of(set, id1);
            CT_CHECK(&tally, strcmp(id0, id1) != 0);
        }
        char *x1[] = {"MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=auto", NULL};
        char *x2[] = {"MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=recursive_doubling", NULL};
        id_of(x1, id1);
        id_of(x2, id2);
        CT_CHECK(&tally, strcmp(id1, id2) != 0);
        /* The collected environment (the JSON's "environment") has it. */
        CT_CHECK(&tally, ct_tuning_env_collect(x2, &env) == CT_OK && env.n == 1);
        CT_CHECK_STR(&tally, env.n ? env.vars[0] : "", x2[0]);
        ct_tuning_env_free(&env);
        CT_CHECK(&tally, !ct_tuning_env_is_tuning("MPIRUN=mpirun"));
        CT_CHECK(&tally, !ct_tuning_env_is_tuning("XI_MPI_ADJUST_BCAST=1"));
        CT_CHECK(&tally, !ct_tuning_env_is_launcher(one[0]));
    }

    /* The table itself: whose setting, in which family. */
    {
        const ct_library_t *lib = NULL;
        const ct_library_family_t *f = ct_library_family_of("UCX_TLS", 0, &lib);
        CT_CHECK(&tally, f != NULL && lib != NULL && lib->id == CT_LIB_UCX);
        CT_CHECK(&tally, f != NULL && f->readback == CT_READBACK_TRANSPORT);
        CT_CHECK(&tally, ct_library_family_carries(f, "ucx.conf"));
        CT_CHECK(&tally, !ct_library_family_carries(f, "nccl.conf"));
        f = ct_library_family_of("coll_tuned_allreduce_algorithm", 1, &lib);
        CT_CHECK(&tally, f != NULL && lib != NULL && lib->id == CT_LIB_OMPI);
        CT_CHECK(&tally,
                 f != NULL && (f->apply & CT_APPLY_MPIT) && strcmp(f->launch_opt, "--mca") == 0);
        CT_CHECK(&tally, ct_library_family_carries(f, "mca-params.conf"));
        f = ct_library_family_of("OMPI_MCA_btl", 0, &lib);
        CT_CHECK(&tally, f != NULL && lib->id == CT_LIB_OMPI &&
                             !ct_library_family_carries(f, "mca-params.conf"));
        CT_CHECK(&tally, ct_library_family_of("coll_tuned_x", 0, NULL) == NULL);
        CT_CHECK(&tally, ct_library_of("PATH", 0) == NULL && ct_library_of("", 1) == NULL);
        CT_CHECK(&tally, ct_library_env_is(CT_LIB_NCCL, "NCCL_PROTO=LL"));
        CT_CHECK(&tally, !ct_library_env_is(CT_LIB_NCCL, "UCX_TLS"));
        CT_CHECK(&tally, ct_library_env_is(CT_LIB_MPICH, "MPICH_X"));
        CT_CHECK(&tally, ct_library_env_is(CT_LIB_INTEL_MPI, "I_MPI_ADJUST_BCAST"));
        CT_CHECK(&tally, ct_library_env_is(CT_LIB_MVAPICH, "MV2_USE_SHMEM_COLL"));
        CT_CHECK(&tally, !ct_library_get(CT_LIB_MPICH)->run_here);
        CT_CHECK(&tally, ct_library_get(CT_LIB_OMPI)->run_here);
        CT_CHECK(&tally, ct_library_get(CT_LIB_COUNT) == NULL);
        CT_CHECK_STR(&tally,
                     ct_library_mca_param_of_env("OMPI_MCA_btl")
                         ? ct_library_mca_param_of_env("OMPI_MCA_btl")
                         : "",
                     "btl");
        CT_CHECK(&tally, ct_library_mca_param_of_env("OMPI_MCA_") == NULL);
        CT_CHECK(&tally, ct_library_is_coll_var(CT_LIB_OMPI, "coll_tuned_bcast_algorithm"));
        CT_CHECK(&tally, !ct_library_is_coll_var(CT_LIB_OMPI, "btl_tcp_if_include"));
        char cv[64];
        CT_CHECK(&tally, ct_library_cvar_name("MPICH_BCAST_INTRA_ALGORITHM", 0, cv, sizeof cv));
        CT_CHECK_STR(&tally, cv, "MPIR_CVAR_BCAST_INTRA_ALGORITHM");
        CT_CHECK(&tally, ct_library_cvar_name("OMPI_MCA_coll_tuned_priority", 0, cv, sizeof cv));
        CT_CHECK_STR(&tally, cv, "coll_tuned_priority");
        CT_CHECK(&tally, ct_library_cvar_name("coll_tuned_priority", 1, cv, sizeof cv));
        CT_CHECK_STR(&tally, cv, "coll_tuned_priority");
        CT_CHECK(&tally, !ct_library_cvar_name("UCX_TLS", 0, cv, sizeof cv));
        CT_CHECK(&tally, !ct_library_cvar_name("coll_tuned_priority", 1, cv, 4));
    }

    /* A short buffer is still terminated. */
    {
        char small[5];
        ct_tuning_env_t one;
        CT_CHECK(&tally, ct_tuning_env_collect(c, &one) == CT_OK);
        memset(small, 'z', sizeof small);
        ct_tuning_env_id(&one, small, sizeof small);
        CT_CHECK(&tally, strlen(small) == 4);
        ct_tuning_env_free(&one);
    }
    return CT_DONE(&tally);
}
