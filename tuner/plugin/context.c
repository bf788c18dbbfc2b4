/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * context.c - per-communicator tuner state (see context.h).
 *
 * The only state that changes after init is a per-rule "already said so"
 * flag, so a rule that cannot be applied is logged once per communicator
 * rather than on every collective call.  A rule's -1 algorithm or protocol
 * is resolved per call, from the cost table NCCL hands over.
 */
#define _POSIX_C_SOURCE 200809L

#include "context.h"

#include <stdlib.h>

#include "log.h"
#include "names.h"
#include "rules.h"

struct ct_plugin_ctx {
    ct_plugin_rules_t rules;
    unsigned char *noted; /* per rule: its "cannot apply" note was logged */
    int noted_table;      /* the "table shape unknown" note was logged */
    size_t nranks;
    size_t nnodes;
    ncclDebugLogger_t logger;
};

ct_plugin_ctx_t *ct_plugin_ctx_create(uint64_t comm_id, size_t nranks, size_t nnodes,
                                      ncclDebugLogger_t logger, const char *api)
{
    char err[CT_PLUGIN_RULES_ERR_MAX];
    ct_plugin_ctx_t *ctx = calloc(1, sizeof(*ctx));
    const char *path = getenv(CT_PLUGIN_CONFIG_ENV);

    if (ctx == NULL) {
        CT_PLUGIN_WARN(logger, "out of memory; NCCL tunes this communicator "
                               "itself");
        return NULL;
    }
    ctx->nranks = nranks;
    ctx->nnodes = nnodes;
    ctx->logger = logger;
    if (path == NULL || *path == '\0')
        path = CT_PLUGIN_CONFIG_DEFAULT;

    if (ct_plugin_rules_load(path, err, sizeof(err), &ctx->rules) != CT_PLUGIN_RULES_OK) {
        CT_PLUGIN_WARN(logger,
                       "%s; no rules applied, NCCL tunes this communicator "
                       "itself",
                       err);
        return ctx;
    }
    if (ctx->rules.count > 0) {
        ctx->noted = calloc(ctx->rules.count, 1);
        if (ctx->noted == NULL) {
            CT_PLUGIN_WARN(logger, "out of memory; no rules applied, NCCL "
                                   "tunes this communicator itself");
            ct_plugin_rules_free(&ctx->rules);
            return ctx;
        }
    }
    CT_PLUGIN_INFO(logger,
                   "loaded %zu rule(s) from %s for comm 0x%llx (%zu ranks, "
                   "%zu nodes, %s API)",
                   ctx->rules.count, path, (unsigned long long)comm_id, nranks, nnodes, api);
    return ctx;
}

/* NCCL's test for an entry it may choose (enqueue.cc, topoGetAlgoInfo in
 * 2.28): not NCCL_ALGO_PROTO_IGNORE, and a cost of at least 0.  NCCL marks
 * what NCCL_ALGO, NCCL_PROTO or the machine rule out as IGNORE; the plugin
 * never makes such an entry win. */
static int entry_available(float cost)
{
    return cost != (float)NCCL_ALGO_PROTO_IGNORE && cost >= 0.0f;
}

/* The entry rule r makes win: its algorithm and protocol, or for a -1
 * the available entry of the other that NCCL costs lowest (NCCL's own
 * choice within the rule).  0 when there is none for this call. */
static int pick_entry(const ct_plugin_rule_t *r, float (*table)[NCCL_NUM_PROTOCOLS], int num_algo,
                      int *algo_p, int *proto_p)
{
    int best_a = -1, best_p = -1;

    if (r->algo >= num_algo)
        return 0; /* e.g. pat under an NCCL whose table has no PAT row */
    for (int a = 0; a < num_algo; a++) {
        if (r->algo != -1 && a != r->algo)
            continue;
        for (int p = 0; p < NCCL_NUM_PROTOCOLS; p++) {
            if (r->proto != -1 && p != r->proto)
                continue;
            if (!entry_available(table[a][p]))
                continue;
            if (best_a < 0 || table[a][p] < table[best_a][best_p]) {
                best_a = a;
                best_p = p;
            }
        }
    }
    if (best_a < 0)
        return 0;
    *algo_p = best_a;
    *proto_p = best_p;
    return 1;
}

/* A rule's algorithm or protocol for log lines: -1 is "any". */
static const char *rule_word(const ct_plugin_name_table_t *table, int value)
{
    return value == -1 ? "any" : ct_plugin_name_of(table, value);
}

void ct_plugin_ctx_apply(ct_plugin_ctx_t *ctx, ncclFunc_t coll, size_t nbytes, int pipe_ops,
                         int reg_buff, float **cost_table, int num_algo, int num_proto,
                         int *nchannels)
{
    ct_plugin_query_t q;
    const ct_plugin_rule_t *r;
    long hit;

    if (ctx == NULL || ctx->rules.count == 0 || cost_table == NULL || nchannels == NULL)
        return;

    /* Every NCCL with a cost table has had three protocols; a different
     * row length means a table this code does not know how to index. */
    if (num_proto != NCCL_NUM_PROTOCOLS || num_algo <= 0) {
        if (!ctx->noted_table)
            CT_PLUGIN_INFO(ctx->logger,
                           "cost table is %dx%d, expected rows of %d; "
                           "deferring to NCCL",
                           num_algo, num_proto, NCCL_NUM_PROTOCOLS);
        ctx->noted_table = 1;
        return;
    }

    q.coll = (int)coll;
    q.nbytes = nbytes;
    q.nnodes = ctx->nnodes;
    q.nranks = ctx->nranks;
    q.pipe_ops = pipe_ops;
    q.reg_buff = reg_buff;
    hit = ct_plugin_rules_match(&ctx->rules, &q);
    if (hit < 0)
        return; /* no rule: NCCL's choice, table and channels untouched */
    r = &ctx->rules.rules[hit];

    /* The table is float[num_algo][NCCL_NUM_PROTOCOLS] in one block; NCCL
     * only casts it to float **.  Reading it as row pointers crashes. */
    float(*table)[NCCL_NUM_PROTOCOLS] = (float(*)[NCCL_NUM_PROTOCOLS])(void *)cost_table;
    int algo, proto;

    if (!pick_entry(r, table, num_algo, &algo, &proto)) {
        if (!ctx->noted[hit])
            CT_PLUGIN_INFO(ctx->logger,
                           "rule at line %d (%s %s/%s) is not available to "
                           "NCCL for this call (%zu bytes); NCCL decides",
                           r->line, ct_plugin_name_of(&ct_plugin_colls, r->coll),
                           rule_word(&ct_plugin_algos, r->algo),
                           rule_word(&ct_plugin_protos, r->proto), nbytes);
        ctx->noted[hit] = 1;
        return;
    }
    table[algo][proto] = 0.0f;
    if (r->channels != -1)
        *nchannels = r->channels;
    CT_PLUGIN_TRACE(ctx->logger, "%s %zu bytes: rule at line %d chose %s/%s, channels %d",
                    ct_plugin_name_of(&ct_plugin_colls, r->coll), nbytes, r->line,
                    ct_plugin_name_of(&ct_plugin_algos, algo),
                    ct_plugin_name_of(&ct_plugin_protos, proto), r->channels);
}

void ct_plugin_ctx_destroy(ct_plugin_ctx_t *ctx)
{
    if (ctx == NULL)
        return;
    ct_plugin_rules_free(&ctx->rules);
    free(ctx->noted);
    free(ctx);
}
