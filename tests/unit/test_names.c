/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_names.c - src/lib's name tables (ct_names.c): every spelling of a
 * collective finds it, collbench's descriptors agree with the table, the
 * NCCL values are NCCL's, and the algorithm/protocol lists are complete.
 */
#include <string.h>

#include "coll.h"
#include "ct_names.h"
#include "ct_test.h"

static ct_test_tally_t tally;

int main(void)
{
    /* collbench's collectives first, at their ids, then NCCL's reduce. */
    CT_CHECK(&tally, ct_coll_names_count() == CT_COLL_COUNT + 1);
    for (int id = 0; id < CT_COLL_COUNT; id++) {
        const ct_coll_desc_t *d = ct_coll_by_index(id);
        const ct_coll_name_t *n = ct_coll_names_at((size_t)id);
        CT_CHECK(&tally, d != NULL && n != NULL && n->id == id && (int)d->id == id);
        if (d == NULL || n == NULL)
            continue;
        /* The descriptors' own strings are the table's (one vocabulary). */
        CT_CHECK_STR(&tally, d->name, ct_coll_name((ct_coll_id_t)id));
        CT_CHECK(&tally, ct_coll_name_find(d->name) == n);
        CT_CHECK(&tally, ct_coll_name_find(d->alias) == n);
        for (int a = 0; a < CT_COLL_NAME_ALIASES && n->aliases[a]; a++)
            CT_CHECK(&tally, ct_coll_find(n->aliases[a]) == d);
    }
    CT_CHECK(&tally, ct_coll_name((ct_coll_id_t)CT_COLL_COUNT) == NULL);
    CT_CHECK(&tally, ct_coll_name((ct_coll_id_t)-1) == NULL);
    CT_CHECK(&tally, ct_coll_names_at(ct_coll_names_count()) == NULL);

    /* The row's Open MPI facts: 4.1's COLLTYPE_T ids and coll/tuned
     * variables; collbench's reduce_scatter is reduce_scatter_block. */
    CT_CHECK(&tally, ct_coll_name_of_ompi(0)->id == CT_COLL_ALLGATHER);
    CT_CHECK(&tally, ct_coll_name_of_ompi(2)->id == CT_COLL_ALLREDUCE);
    CT_CHECK(&tally, ct_coll_name_of_ompi(3)->id == CT_COLL_ALLTOALL);
    CT_CHECK(&tally, ct_coll_name_of_ompi(7)->id == CT_COLL_BROADCAST);
    CT_CHECK(&tally, ct_coll_name_of_ompi(13)->id == CT_COLL_REDUCE_SCATTER);
    CT_CHECK(&tally, ct_coll_name_of_ompi(12) == NULL);
    CT_CHECK(&tally, ct_coll_name_of_ompi(CT_OMPI_COLL_NONE) == NULL);
    CT_CHECK_STR(&tally, ct_coll_name_find("broadcast")->tuned.alg, "coll_tuned_bcast_algorithm");
    CT_CHECK(&tally, ct_coll_name_of_tuned_var("coll_tuned_bcast_algorithm_chain_fanout")->id ==
                         CT_COLL_BROADCAST);
    CT_CHECK(&tally, ct_coll_name_of_tuned_var("coll_tuned_reduce_scatter_block_algorithm")->id ==
                         CT_COLL_REDUCE_SCATTER);
    CT_CHECK(&tally, ct_coll_name_of_tuned_var("coll_tuned_reduce_scatter_algorithm") == NULL);
    CT_CHECK_STR(&tally, ct_coll_name_of_nccl(CT_NCCL_FUNC_REDUCESCATTER)->nccl_name,
                 "ReduceScatter");
    char list[128];
    ct_coll_name_list(", ", list, sizeof list);
    CT_CHECK_STR(&tally, list, "allreduce, allgather, alltoall, broadcast, reduce_scatter");

    /* Spellings from nccl-tests, NVIDIA's plugin and NCCL, any case. */
    CT_CHECK(&tally, ct_coll_name_find("ReduceScatter")->id == CT_COLL_REDUCE_SCATTER);
    CT_CHECK(&tally, ct_coll_name_find("ncclFuncAllGather")->id == CT_COLL_ALLGATHER);
    CT_CHECK(&tally, ct_coll_name_find("BCAST")->id == CT_COLL_BROADCAST);
    CT_CHECK(&tally, ct_coll_name_find("all") == NULL);
    CT_CHECK(&tally, ct_coll_name_find("") == NULL);
    /* reduce is a name NCCL's tuner uses, not a collbench collective. */
    const ct_coll_name_t *reduce = ct_coll_name_find("reduce");
    CT_CHECK(&tally,
             reduce && reduce->id == CT_COLL_NONE && reduce->nccl_func == CT_NCCL_FUNC_REDUCE);
    CT_CHECK(&tally, ct_coll_find("reduce") == NULL);

    /* ncclFunc_t both ways; alltoall has none. */
    CT_CHECK(&tally, ct_coll_name_find("alltoall")->nccl_func == CT_NCCL_FUNC_NONE);
    CT_CHECK_STR(&tally, ct_coll_name_of_nccl(CT_NCCL_FUNC_ALLREDUCE)->name, "allreduce");
    CT_CHECK_STR(&tally, ct_coll_name_of_nccl(CT_NCCL_FUNC_REDUCESCATTER)->name, "reduce_scatter");
    CT_CHECK(&tally, ct_coll_name_of_nccl(CT_NCCL_FUNC_NONE) == NULL);
    CT_CHECK(&tally, ct_coll_name_of_nccl(5) == NULL); /* ncclFuncSendRecv */

    /* Algorithms: NCCL_ALGO's spellings are aliases of the canonical ones. */
    int v = -7;
    CT_CHECK(&tally, ct_name_lookup(&ct_nccl_algo_names, "NVLSTree", &v) == 0 &&
                         v == CT_NCCL_ALGO_NVLS_TREE);
    CT_CHECK(&tally, ct_name_lookup(&ct_nccl_algo_names, "CollNetDirect", &v) == 0 &&
                         v == CT_NCCL_ALGO_COLLNET_DIRECT);
    v = -7;
    CT_CHECK(&tally, ct_name_lookup(&ct_nccl_algo_names, "rings", &v) == -1 && v == -7);
    CT_CHECK_STR(&tally, ct_name_of(&ct_nccl_algo_names, CT_NCCL_ALGO_NVLS_TREE), "nvls_tree");
    CT_CHECK_STR(&tally, ct_name_of(&ct_nccl_algo_names, 99), "?");
    char buf[256];
    ct_name_list(&ct_nccl_algo_names, buf, sizeof buf);
    CT_CHECK_STR(&tally, buf, "tree, ring, collnet_direct, collnet_chain, nvls, nvls_tree, pat");
    ct_name_list(&ct_nccl_proto_names, buf, sizeof buf);
    CT_CHECK_STR(&tally, buf, "ll, ll128, simple");
    /* Every id has a canonical name. */
    for (int a = 0; a < CT_NCCL_NUM_ALGORITHMS; a++)
        CT_CHECK(&tally, strcmp(ct_name_of(&ct_nccl_algo_names, a), "?") != 0);
    for (int p = 0; p < CT_NCCL_NUM_PROTOCOLS; p++)
        CT_CHECK(&tally, strcmp(ct_name_of(&ct_nccl_proto_names, p), "?") != 0);
    /* A short buffer is cut but terminated. */
    char small[8];
    ct_name_list(&ct_nccl_algo_names, small, sizeof small);
    CT_CHECK(&tally, strlen(small) < sizeof small);
    return CT_DONE(&tally);
}
