/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * context.h - one communicator's tuner: its rules and how they are applied.
 *
 * NCCL calls init() once per communicator, so every communicator loads its
 * own copy of the rules and nothing is shared between them; the plugin has
 * no global mutable state.  All NCCL-version shims (plugin.c) funnel into
 * these three functions.
 */
#ifndef CT_PLUGIN_CONTEXT_H
#define CT_PLUGIN_CONTEXT_H

#include <stddef.h>
#include <stdint.h>

#include "abi.h"

/* Environment variable naming the rules file, and the file used when it
 * is unset or empty (relative to the working directory), as in NVIDIA's
 * example plugin. */
#define CT_PLUGIN_CONFIG_ENV "NCCL_TUNER_CONFIG_FILE"
#define CT_PLUGIN_CONFIG_DEFAULT "nccl_tuner.conf"

typedef struct ct_plugin_ctx ct_plugin_ctx_t;

/*
 * Creates a communicator's context and loads its rules file.  A missing or
 * invalid file is logged once, as a WARN, and leaves a context with no
 * rules, which defers every call to NCCL.  Returns NULL only when memory
 * runs out (also logged); a NULL context defers likewise.
 */
ct_plugin_ctx_t *ct_plugin_ctx_create(uint64_t comm_id, size_t nranks, size_t nnodes,
                                      ncclDebugLogger_t logger, const char *api);

/*
 * Applies the first rule matching this call.  cost_table is NCCL's
 * contiguous float[num_algo][num_proto] (cast to float **).  A match sets
 * that entry to 0.0 and, when the rule names a channel count, *nchannels;
 * a rule whose algorithm (or protocol) is -1 sets the entry of its
 * protocol (or algorithm) that NCCL costs lowest.  Only entries NCCL left
 * available count (not NCCL_ALGO_PROTO_IGNORE, inside the table); with no
 * match, or no such entry, nothing is written (logged once per rule).
 * reg_buff is -1 when unknown.
 */
void ct_plugin_ctx_apply(ct_plugin_ctx_t *ctx, ncclFunc_t coll, size_t nbytes, int pipe_ops,
                         int reg_buff, float **cost_table, int num_algo, int num_proto,
                         int *nchannels);

/* Frees ctx; NULL is fine. */
void ct_plugin_ctx_destroy(ct_plugin_ctx_t *ctx);

#endif
