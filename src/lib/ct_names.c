/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_names.c - the name tables (see ct_names.h).
 *
 * Collective aliases: nccl-tests' binary stems (all_reduce), NVIDIA's
 * example tuner plugin's spellings (reducescatter), and NCCL's ncclFunc*
 * enumerators, so that rules files written for NVIDIA's plugin and values
 * copied from NCCL's logs both work.
 */
#define _POSIX_C_SOURCE 200809L

#include "ct_names.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define CT_COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* coll/tuned's variables for collective stem, spelled once: Open MPI
 * 4.1 names them coll_tuned_<stem>_algorithm[_segmentsize]. */
#define CT_TUNED(ompi_id, stem, json_name, alg_max, two_proc_alg)                                  \
    {                                                                                              \
        (ompi_id), stem, "coll_tuned_" stem "_", "coll_tuned_" stem "_algorithm",                  \
            "coll_tuned_" stem "_algorithm_segmentsize", NULL, (json_name), (alg_max),             \
            (two_proc_alg)                                                                         \
    }
/* bcast's chain and pipeline algorithms also read a fan-out. */
#define CT_TUNED_FANOUT(ompi_id, stem, json_name, alg_max, two_proc_alg)                           \
    {                                                                                              \
        (ompi_id), stem, "coll_tuned_" stem "_", "coll_tuned_" stem "_algorithm",                  \
            "coll_tuned_" stem "_algorithm_segmentsize",                                           \
            "coll_tuned_" stem "_algorithm_chain_fanout", (json_name), (alg_max), (two_proc_alg)   \
    }
#define CT_TUNED_NONE                                                                              \
    {                                                                                              \
        CT_OMPI_COLL_NONE, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0                                \
    }

/* collbench's collectives at their ids, then the ones it does not run.
 * The coll/tuned ids are Open MPI 4.1's COLLTYPE_T (allgather 0,
 * allreduce 2, alltoall 3, bcast 7, reduce_scatter_block 13); the
 * highest algorithm ids are 4.1's coll_tuned_<stem>_algorithm ranges,
 * and allgather 6 and alltoall 5 are its two_proc algorithms.
 * collbench's reduce_scatter calls MPI_Reduce_scatter_block, so it is
 * coll/tuned's reduce_scatter_block, not its reduce_scatter (12). */
static const ct_coll_name_t ct_colls[] = {
    [CT_COLL_ALLREDUCE] = {"allreduce",
                           {"all_reduce", "ncclFuncAllReduce", NULL},
                           CT_COLL_ALLREDUCE,
                           CT_NCCL_FUNC_ALLREDUCE,
                           "AllReduce",
                           CT_BUSBW_REDUCE,
                           CT_TUNED(2, "allreduce", "allreduce", 6, 0)},
    [CT_COLL_ALLGATHER] = {"allgather",
                           {"all_gather", "ncclFuncAllGather", NULL},
                           CT_COLL_ALLGATHER,
                           CT_NCCL_FUNC_ALLGATHER,
                           "AllGather",
                           CT_BUSBW_SPLIT,
                           CT_TUNED(0, "allgather", "allgather", 6, 6)},
    [CT_COLL_ALLTOALL] = {"alltoall",
                          {"all_to_all", NULL, NULL},
                          CT_COLL_ALLTOALL,
                          CT_NCCL_FUNC_NONE,
                          NULL,
                          CT_BUSBW_SPLIT,
                          CT_TUNED(3, "alltoall", "alltoall", 5, 5)},
    [CT_COLL_BROADCAST] = {"broadcast",
                           {"bcast", "ncclFuncBroadcast", NULL},
                           CT_COLL_BROADCAST,
                           CT_NCCL_FUNC_BROADCAST,
                           "Broadcast",
                           CT_BUSBW_WHOLE,
                           CT_TUNED_FANOUT(7, "bcast", "bcast", 9, 0)},
    [CT_COLL_REDUCE_SCATTER] = {"reduce_scatter",
                                {"reducescatter", "ncclFuncReduceScatter", NULL},
                                CT_COLL_REDUCE_SCATTER,
                                CT_NCCL_FUNC_REDUCESCATTER,
                                "ReduceScatter",
                                CT_BUSBW_SPLIT,
                                CT_TUNED(13, "reduce_scatter_block", "reducescatterblock", 4, 0)},
    [CT_COLL_COUNT] = {"reduce",
                       {"ncclFuncReduce", NULL, NULL},
                       CT_COLL_NONE,
                       CT_NCCL_FUNC_REDUCE,
                       "Reduce",
                       CT_BUSBW_NONE,
                       CT_TUNED_NONE},
};

_Static_assert(CT_COUNT_OF(ct_colls) == CT_COLL_COUNT + 1,
               "one name per collbench collective, then NCCL's reduce");

size_t ct_coll_names_count(void) { return CT_COUNT_OF(ct_colls); }

const ct_coll_name_t *ct_coll_names_at(size_t index)
{
    return index < CT_COUNT_OF(ct_colls) ? &ct_colls[index] : NULL;
}

const ct_coll_name_t *ct_coll_name_find(const char *word)
{
    for (size_t i = 0; i < CT_COUNT_OF(ct_colls); i++) {
        const ct_coll_name_t *c = &ct_colls[i];
        if (strcasecmp(word, c->name) == 0)
            return c;
        for (int a = 0; a < CT_COLL_NAME_ALIASES && c->aliases[a]; a++)
            if (strcasecmp(word, c->aliases[a]) == 0)
                return c;
    }
    return NULL;
}

const char *ct_coll_name(ct_coll_id_t id)
{
    return (int)id >= 0 && id < CT_COLL_COUNT ? ct_colls[id].name : NULL;
}

const ct_coll_name_t *ct_coll_name_of_nccl(int func)
{
    for (size_t i = 0; func != CT_NCCL_FUNC_NONE && i < CT_COUNT_OF(ct_colls); i++)
        if (ct_colls[i].nccl_func == func)
            return &ct_colls[i];
    return NULL;
}

const ct_coll_name_t *ct_coll_name_of_tuned_var(const char *name)
{
    for (size_t i = 0; i < CT_COLL_COUNT; i++) {
        const char *prefix = ct_colls[i].tuned.prefix;
        if (prefix && strncmp(name, prefix, strlen(prefix)) == 0)
            return &ct_colls[i];
    }
    return NULL;
}

const ct_coll_name_t *ct_coll_name_of_ompi(int ompi_id)
{
    for (size_t i = 0; ompi_id != CT_OMPI_COLL_NONE && i < CT_COLL_COUNT; i++)
        if (ct_colls[i].tuned.id == ompi_id)
            return &ct_colls[i];
    return NULL;
}

void ct_coll_name_list(const char *sep, char *buf, size_t buflen)
{
    size_t used = 0;

    if (buflen == 0)
        return;
    buf[0] = '\0';
    for (size_t i = 0; i < CT_COLL_COUNT; i++) {
        int n = snprintf(buf + used, buflen - used, "%s%s", i ? sep : "", ct_colls[i].name);
        if (n < 0 || (size_t)n >= buflen - used)
            return; /* truncated, but terminated by snprintf */
        used += (size_t)n;
    }
}

static const ct_name_t ct_algos[] = {
    {"tree", CT_NCCL_ALGO_TREE},
    {"ring", CT_NCCL_ALGO_RING},
    {"collnet_direct", CT_NCCL_ALGO_COLLNET_DIRECT},
    {"collnet_chain", CT_NCCL_ALGO_COLLNET_CHAIN},
    {"nvls", CT_NCCL_ALGO_NVLS},
    {"nvls_tree", CT_NCCL_ALGO_NVLS_TREE},
    {"pat", CT_NCCL_ALGO_PAT},
    {"collnetdirect", CT_NCCL_ALGO_COLLNET_DIRECT},
    {"collnetchain", CT_NCCL_ALGO_COLLNET_CHAIN},
    {"nvlstree", CT_NCCL_ALGO_NVLS_TREE},
};

static const ct_name_t ct_protos[] = {
    {"ll", CT_NCCL_PROTO_LL},
    {"ll128", CT_NCCL_PROTO_LL128},
    {"simple", CT_NCCL_PROTO_SIMPLE},
};

const ct_name_table_t ct_nccl_algo_names = {"algorithm", ct_algos, CT_COUNT_OF(ct_algos)};
const ct_name_table_t ct_nccl_proto_names = {"protocol", ct_protos, CT_COUNT_OF(ct_protos)};

int ct_name_lookup(const ct_name_table_t *table, const char *word, int *value_p)
{
    for (size_t i = 0; i < table->count; i++) {
        if (strcasecmp(table->names[i].name, word) == 0) {
            *value_p = table->names[i].value;
            return 0;
        }
    }
    return -1;
}

const char *ct_name_of(const ct_name_table_t *table, int value)
{
    for (size_t i = 0; i < table->count; i++)
        if (table->names[i].value == value)
            return table->names[i].name;
    return "?";
}

void ct_name_list(const ct_name_table_t *table, char *buf, size_t buflen)
{
    size_t used = 0;

    if (buflen == 0)
        return;
    buf[0] = '\0';
    for (size_t i = 0; i < table->count; i++) {
        /* Aliases repeat a value already listed; list each value once. */
        if (strcmp(ct_name_of(table, table->names[i].value), table->names[i].name) != 0)
            continue;
        int n = snprintf(buf + used, buflen - used, "%s%s", used ? ", " : "", table->names[i].name);
        if (n < 0 || (size_t)n >= buflen - used)
            return; /* truncated, but terminated by snprintf */
        used += (size_t)n;
    }
}
