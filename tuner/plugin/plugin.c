/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * plugin.c - the symbols NCCL looks up in libnccl-tuner-colltune.so.
 *
 * NCCL 2.28 tries ncclTunerPlugin_v5, then _v4, then _v3; older releases
 * start lower.  All three tables are const data and share one
 * implementation (context.c); the v3/v4 entries only adapt argument order
 * and the missing regBuff.  No entry point ever fails a collective: when
 * in doubt the plugin leaves the decision to NCCL.
 */
#define _POSIX_C_SOURCE 200809L

#include "abi.h"
#include "context.h"

#define CT_PLUGIN_NAME "colltune"

/* The exported tables, declared once so that the definitions below are
 * checked against a declaration like any other external symbol. */
extern CT_PLUGIN_EXPORT const ncclTuner_v5_t ncclTunerPlugin_v5;
extern CT_PLUGIN_EXPORT const ncclTuner_v4_t ncclTunerPlugin_v4;
extern CT_PLUGIN_EXPORT const ncclTuner_v3_t ncclTunerPlugin_v3;

static ncclResult_t init_v5(void **ctx, uint64_t comm_id, size_t nranks, size_t nnodes,
                            ncclDebugLogger_t logger, ncclNvlDomainInfo_v5_t *nvl_domain_info,
                            ncclTunerConstants_v5_t *constants)
{
    (void)nvl_domain_info;
    (void)constants; /* NCCL's model constants are left as NCCL set them */
    if (ctx == NULL)
        return ncclInvalidArgument;
    *ctx = ct_plugin_ctx_create(comm_id, nranks, nnodes, logger, "v5");
    return ncclSuccess;
}

static ncclResult_t init_v3v4(size_t nranks, size_t nnodes, ncclDebugLogger_t logger, void **ctx)
{
    if (ctx == NULL)
        return ncclInvalidArgument;
    *ctx = ct_plugin_ctx_create(0, nranks, nnodes, logger, "v3/v4");
    return ncclSuccess;
}

static ncclResult_t get_coll_info(void *ctx, ncclFunc_t coll, size_t nbytes, int pipe_ops,
                                  float **cost_table, int num_algo, int num_proto, int reg_buff,
                                  int *nchannels)
{
    ct_plugin_ctx_apply(ctx, coll, nbytes, pipe_ops, reg_buff, cost_table, num_algo, num_proto,
                        nchannels);
    return ncclSuccess;
}

/* v3 predates regBuff: -1 matches only rules that leave regBuff open. */
static ncclResult_t get_coll_info_v3(void *ctx, ncclFunc_t coll, size_t nbytes, int pipe_ops,
                                     float **cost_table, int num_algo, int num_proto,
                                     int *nchannels)
{
    ct_plugin_ctx_apply(ctx, coll, nbytes, pipe_ops, -1, cost_table, num_algo, num_proto,
                        nchannels);
    return ncclSuccess;
}

static ncclResult_t finalize(void *ctx)
{
    ct_plugin_ctx_destroy(ctx);
    return ncclSuccess;
}

CT_PLUGIN_EXPORT const ncclTuner_v5_t ncclTunerPlugin_v5 = {
    .name = CT_PLUGIN_NAME,
    .init = init_v5,
    .getCollInfo = get_coll_info,
    .finalize = finalize,
};

CT_PLUGIN_EXPORT const ncclTuner_v4_t ncclTunerPlugin_v4 = {
    .name = CT_PLUGIN_NAME,
    .init = init_v3v4,
    .getCollInfo = get_coll_info,
    .destroy = finalize,
};

CT_PLUGIN_EXPORT const ncclTuner_v3_t ncclTunerPlugin_v3 = {
    .name = CT_PLUGIN_NAME,
    .init = init_v3v4,
    .getCollInfo = get_coll_info_v3,
    .destroy = finalize,
};
