/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * names.c - rules-file words from src/lib's name tables (see names.h).
 *
 * The plugin speaks NCCL's values: ncclFunc_t, NCCL_ALGO_* and
 * NCCL_PROTO_* (abi.h).  ct_names.h carries the same values; the
 * assertions below prove that they agree, so a rules file means to NCCL
 * what it means to collbench and the tuner.
 */
#define _POSIX_C_SOURCE 200809L

#include "names.h"

#include <stdio.h>
#include <string.h>

#include "abi.h"

_Static_assert(CT_NCCL_FUNC_BROADCAST == ncclFuncBroadcast &&
                   CT_NCCL_FUNC_REDUCE == ncclFuncReduce &&
                   CT_NCCL_FUNC_ALLGATHER == ncclFuncAllGather &&
                   CT_NCCL_FUNC_REDUCESCATTER == ncclFuncReduceScatter &&
                   CT_NCCL_FUNC_ALLREDUCE == ncclFuncAllReduce,
               "ct_names.h's ncclFunc_t values match NCCL's");
_Static_assert(CT_NCCL_ALGO_TREE == NCCL_ALGO_TREE && CT_NCCL_ALGO_RING == NCCL_ALGO_RING &&
                   CT_NCCL_ALGO_COLLNET_DIRECT == NCCL_ALGO_COLLNET_DIRECT &&
                   CT_NCCL_ALGO_COLLNET_CHAIN == NCCL_ALGO_COLLNET_CHAIN &&
                   CT_NCCL_ALGO_NVLS == NCCL_ALGO_NVLS &&
                   CT_NCCL_ALGO_NVLS_TREE == NCCL_ALGO_NVLS_TREE &&
                   CT_NCCL_ALGO_PAT == NCCL_ALGO_PAT &&
                   CT_NCCL_NUM_ALGORITHMS == NCCL_NUM_ALGORITHMS,
               "ct_names.h's algorithm ids match NCCL's");
_Static_assert(CT_NCCL_PROTO_LL == NCCL_PROTO_LL && CT_NCCL_PROTO_LL128 == NCCL_PROTO_LL128 &&
                   CT_NCCL_PROTO_SIMPLE == NCCL_PROTO_SIMPLE &&
                   CT_NCCL_NUM_PROTOCOLS == NCCL_NUM_PROTOCOLS,
               "ct_names.h's protocol ids match NCCL's");

const ct_plugin_name_table_t ct_plugin_colls = {"collective", NULL};
const ct_plugin_name_table_t ct_plugin_algos = {"algorithm", &ct_nccl_algo_names};
const ct_plugin_name_table_t ct_plugin_protos = {"protocol", &ct_nccl_proto_names};

int ct_plugin_name_lookup(const ct_plugin_name_table_t *table, const char *word, int *value_p)
{
    if (table->names)
        return ct_name_lookup(table->names, word, value_p);
    const ct_coll_name_t *c = ct_coll_name_find(word);
    if (c == NULL || c->nccl_func == CT_NCCL_FUNC_NONE)
        return -1;
    *value_p = c->nccl_func;
    return 0;
}

const char *ct_plugin_name_of(const ct_plugin_name_table_t *table, int value)
{
    if (table->names)
        return ct_name_of(table->names, value);
    const ct_coll_name_t *c = ct_coll_name_of_nccl(value);
    return c ? c->name : "?";
}

void ct_plugin_name_list(const ct_plugin_name_table_t *table, char *buf, size_t buflen)
{
    size_t used = 0;

    if (table->names) {
        ct_name_list(table->names, buf, buflen);
        return;
    }
    if (buflen == 0)
        return;
    buf[0] = '\0';
    for (size_t i = 0; i < ct_coll_names_count(); i++) {
        const ct_coll_name_t *c = ct_coll_names_at(i);
        if (c->nccl_func == CT_NCCL_FUNC_NONE)
            continue;
        int n = snprintf(buf + used, buflen - used, "%s%s", used ? ", " : "", c->name);
        if (n < 0 || (size_t)n >= buflen - used)
            return; /* truncated, but terminated by snprintf */
        used += (size_t)n;
    }
}
