/*
 * names.c - name tables for rules files (see names.h).
 *
 * The canonical spellings are those of NVIDIA's example tuner plugin
 * (ext-tuner/example), so its rules files load unchanged.  The aliases are
 * the spellings NCCL itself uses elsewhere: ncclFunc* enumerators for
 * collectives and the NCCL_ALGO / NCCL_PROTO environment values, so that a
 * value copied from an nccl.env file also works here.
 */
#define _POSIX_C_SOURCE 200809L

#include "names.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "abi.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static const ct_plugin_name_t colls[] = {
    {"broadcast", ncclFuncBroadcast},
    {"reduce", ncclFuncReduce},
    {"allgather", ncclFuncAllGather},
    {"reducescatter", ncclFuncReduceScatter},
    {"allreduce", ncclFuncAllReduce},
    {"ncclFuncBroadcast", ncclFuncBroadcast},
    {"ncclFuncReduce", ncclFuncReduce},
    {"ncclFuncAllGather", ncclFuncAllGather},
    {"ncclFuncReduceScatter", ncclFuncReduceScatter},
    {"ncclFuncAllReduce", ncclFuncAllReduce},
};

static const ct_plugin_name_t algos[] = {
    {"tree", NCCL_ALGO_TREE},
    {"ring", NCCL_ALGO_RING},
    {"collnet_direct", NCCL_ALGO_COLLNET_DIRECT},
    {"collnet_chain", NCCL_ALGO_COLLNET_CHAIN},
    {"nvls", NCCL_ALGO_NVLS},
    {"nvls_tree", NCCL_ALGO_NVLS_TREE},
    {"pat", NCCL_ALGO_PAT},
    {"collnetdirect", NCCL_ALGO_COLLNET_DIRECT},
    {"collnetchain", NCCL_ALGO_COLLNET_CHAIN},
    {"nvlstree", NCCL_ALGO_NVLS_TREE},
};

static const ct_plugin_name_t protos[] = {
    {"ll", NCCL_PROTO_LL},
    {"ll128", NCCL_PROTO_LL128},
    {"simple", NCCL_PROTO_SIMPLE},
};

const ct_plugin_name_table_t ct_plugin_colls = {"collective", colls,
                                                COUNT_OF(colls)};
const ct_plugin_name_table_t ct_plugin_algos = {"algorithm", algos,
                                                COUNT_OF(algos)};
const ct_plugin_name_table_t ct_plugin_protos = {"protocol", protos,
                                                 COUNT_OF(protos)};

int ct_plugin_name_lookup(const ct_plugin_name_table_t *table,
                          const char *word, int *value_p)
{
    for (size_t i = 0; i < table->count; i++) {
        if (strcasecmp(table->names[i].name, word) == 0) {
            *value_p = table->names[i].value;
            return 0;
        }
    }
    return -1;
}

const char *ct_plugin_name_of(const ct_plugin_name_table_t *table, int value)
{
    /* The first entry with a value is its canonical spelling. */
    for (size_t i = 0; i < table->count; i++) {
        if (table->names[i].value == value)
            return table->names[i].name;
    }
    return "?";
}

void ct_plugin_name_list(const ct_plugin_name_table_t *table, char *buf,
                         size_t buflen)
{
    size_t used = 0;

    if (buflen == 0)
        return;
    buf[0] = '\0';
    for (size_t i = 0; i < table->count; i++) {
        /* Aliases repeat a value already listed; list each value once. */
        if (strcmp(ct_plugin_name_of(table, table->names[i].value),
                   table->names[i].name) != 0)
            continue;
        int n = snprintf(buf + used, buflen - used, "%s%s", used ? ", " : "",
                         table->names[i].name);
        if (n < 0 || (size_t)n >= buflen - used)
            return; /* truncated, but terminated by snprintf */
        used += (size_t)n;
    }
}
