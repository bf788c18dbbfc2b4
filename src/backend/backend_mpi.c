/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * backend_mpi.c - collectives through the MPI library collbench runs on.
 *
 * Calls are blocking, so wait() has nothing to do.  Two places where MPI's
 * semantics differ from nccl-tests' are handled here, not in the engine:
 * MPI has no out-of-place broadcast, and an in-place
 * MPI_Reduce_scatter_block leaves the result at the start of the buffer.
 *
 * Out-of-place broadcast: the root broadcasts straight from its send
 * buffer, the others receive into their receive buffers.  A copy from send
 * to receive buffer at the root inside the call would be timed, and at 32
 * KiB-1 MiB it cost 2-4 times the broadcast itself.  The root's output is
 * then its send buffer; settle() copies it into the receive buffer after a
 * validation call only, so the engine checks every rank the same way and
 * the timed calls never copy.
 */
#include "backend.h"
#include "configs_kind.h"
#include "mpi_check.h"

#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    MPI_Comm comm;
    int rank;
    char refused[256]; /* the last refusal's reason (ct_mpi_coll_status) */
} ct_mpi_ctx_t;

/* MPICH 4's text for its **collalgo error (src/mpi/errhan/errnames.txt). */
#define CT_MPICH_COLLALGO "User set collective algorithm is not usable for the provided arguments"

/* Whether rc is MPICH refusing the algorithm forced on this call: with
 * MPIR_CVAR_COLLECTIVE_FALLBACK=error, MPII_COLLECTIVE_FALLBACK_CHECK in
 * MPIR_<Coll>_impl returns **collalgo (MPI_ERR_OTHER) when the forced
 * algorithm's restriction fails (allgather recursive_doubling on 3 ranks).
 * That is safe to go on from: it is raised before the algorithm runs, so
 * no message has moved and the communicator is as it was, and the
 * restrictions (communicator size, op, count, in-place) read only what
 * every rank passes alike, so every rank refuses (ct_measure_agreed makes
 * a disagreement a failure).  Only the call's own check counts: an error
 * stack with an algorithm's frame (MPIR_<Coll>_intra_<algo>) above the
 * check is a sub-collective inside an algorithm that had already started
 * (bcast smp's on the node communicator), a failure.  A build that gives
 * no error stack (generic messages) loses the text: a failure too. */
static int ct_mpi_refused(int rc, const char *text)
{
    int cls = MPI_SUCCESS;
    if (MPI_Error_class(rc, &cls) != MPI_SUCCESS || cls != MPI_ERR_OTHER)
        return 0;
    const char *hit = strstr(text, CT_MPICH_COLLALGO);
    if (hit == NULL)
        return 0;
    for (const char *p = strstr(text, "MPIR_"); p != NULL && p < hit; p = strstr(p + 1, "MPIR_")) {
        const char *end = p + strcspn(p, "(\n");
        const char *intra = strstr(p, "_intra_");
        if (intra != NULL && intra < end)
            return 0;
    }
    return 1;
}

/* A collective call's status: MPICH's refusal of a forced algorithm is
 * CT_ERR_REFUSED, its reason kept for refusal() and nothing printed (the
 * engine reports it once when every rank agrees); anything else is
 * ct_mpi_status's failure. */
static ct_status_t ct_mpi_coll_status(ct_mpi_ctx_t *ctx, int rc, const char *call, const char *file,
                                      int line)
{
    char text[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (rc == MPI_SUCCESS)
        return CT_OK;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS || !ct_mpi_refused(rc, text))
        return ct_mpi_status(rc, call, file, line);
    snprintf(ctx->refused, sizeof ctx->refused,
             "%s: %s (MPICH, a forced algorithm under MPIR_CVAR_COLLECTIVE_FALLBACK=error)", call,
             CT_MPICH_COLLALGO);
    return CT_ERR_REFUSED;
}

#define CT_MPI_COLL_CALL(ctx, fn, args) ct_mpi_coll_status((ctx), fn args, #fn, __FILE__, __LINE__)

static ct_status_t ct_mpi_open(ct_world_t *world, const ct_backend_config_t *config, void **ctx_p,
                               char *why, size_t whylen)
{
    ct_mpi_ctx_t *ctx = calloc(1, sizeof *ctx);
    (void)config;
    if (ctx == NULL) {
        snprintf(why, whylen, "out of memory");
        return CT_ERR_NOMEM;
    }
    /* The world's communicator returns errors (world_mpi.c). */
    ctx->comm = *(MPI_Comm *)ct_world_native(world);
    ct_status_t st = CT_MPI_CALL(MPI_Comm_rank, (ctx->comm, &ctx->rank));
    if (st != CT_OK) {
        free(ctx);
        snprintf(why, whylen, "MPI_Comm_rank failed");
        return st;
    }
    *ctx_p = ctx;
    return CT_OK;
}

static void ct_mpi_close(void *ctx) { free(ctx); }

static MPI_Datatype ct_mpi_dtype(ct_dtype_t dtype)
{
    switch (dtype) {
    case CT_DTYPE_INT8: return MPI_INT8_T;
    case CT_DTYPE_UINT8: return MPI_UINT8_T;
    case CT_DTYPE_INT32: return MPI_INT32_T;
    case CT_DTYPE_UINT32: return MPI_UINT32_T;
    case CT_DTYPE_INT64: return MPI_INT64_T;
    case CT_DTYPE_UINT64: return MPI_UINT64_T;
    case CT_DTYPE_FLOAT: return MPI_FLOAT;
    case CT_DTYPE_DOUBLE: return MPI_DOUBLE;
    default: return MPI_DATATYPE_NULL;
    }
}

static MPI_Op ct_mpi_op(ct_op_t op)
{
    switch (op) {
    case CT_OP_SUM: return MPI_SUM;
    case CT_OP_PROD: return MPI_PROD;
    case CT_OP_MAX: return MPI_MAX;
    case CT_OP_MIN: return MPI_MIN;
    default: return MPI_OP_NULL;
    }
}

static ct_status_t ct_mpi_supports(void *ctx, const ct_coll_desc_t *coll, ct_dtype_t dtype,
                                   ct_op_t op, char *why, size_t whylen)
{
    (void)ctx;
    if (ct_mpi_dtype(dtype) == MPI_DATATYPE_NULL) {
        snprintf(why, whylen, "MPI has no datatype for %s (the nccl backend has)",
                 ct_dtype_name(dtype));
        return CT_ERR_USAGE;
    }
    if (coll->uses_op && ct_mpi_op(op) == MPI_OP_NULL) {
        snprintf(why, whylen, "MPI cannot reduce with op %s (the nccl backend can)",
                 ct_op_name(op));
        return CT_ERR_USAGE;
    }
    return CT_OK;
}

static ct_status_t ct_mpi_alloc(void *ctx, size_t bytes, void **buf_p)
{
    void *buf = NULL;
    (void)ctx;
    /* Page alignment keeps large copies on their fast path. */
    if (posix_memalign(&buf, 4096, bytes ? bytes : 1) != 0)
        return CT_ERR_NOMEM;
    *buf_p = buf;
    return CT_OK;
}

static void ct_mpi_free(void *ctx, void *buf)
{
    (void)ctx;
    free(buf);
}

static ct_status_t ct_mpi_copy(void *ctx, void *dst, const void *src, size_t bytes)
{
    (void)ctx;
    memcpy(dst, src, bytes);
    return CT_OK;
}

static ct_status_t ct_mpi_download(void *ctx, void *host, const void *src, size_t bytes)
{
    return ct_mpi_copy(ctx, host, src, bytes);
}

/* One collective's MPI call; send is MPI_IN_PLACE for in-place calls. */
typedef ct_status_t (*ct_mpi_coll_fn_t)(ct_mpi_ctx_t *ctx, const ct_backend_call_t *call,
                                        const void *send, int count, MPI_Datatype dt);

static ct_status_t ct_mpi_allreduce(ct_mpi_ctx_t *ctx, const ct_backend_call_t *call,
                                    const void *send, int count, MPI_Datatype dt)
{
    return CT_MPI_COLL_CALL(ctx, MPI_Allreduce,
                            (send, call->recv, count, dt, ct_mpi_op(call->op), ctx->comm));
}

static ct_status_t ct_mpi_allgather(ct_mpi_ctx_t *ctx, const ct_backend_call_t *call,
                                    const void *send, int count, MPI_Datatype dt)
{
    return CT_MPI_COLL_CALL(ctx, MPI_Allgather,
                            (send, count, dt, call->recv, count, dt, ctx->comm));
}

static ct_status_t ct_mpi_alltoall(ct_mpi_ctx_t *ctx, const ct_backend_call_t *call,
                                   const void *send, int count, MPI_Datatype dt)
{
    return CT_MPI_COLL_CALL(ctx, MPI_Alltoall, (send, count, dt, call->recv, count, dt, ctx->comm));
}

static ct_status_t ct_mpi_reduce_scatter(ct_mpi_ctx_t *ctx, const ct_backend_call_t *call,
                                         const void *send, int count, MPI_Datatype dt)
{
    return CT_MPI_COLL_CALL(ctx, MPI_Reduce_scatter_block,
                            (send, call->recv, count, dt, ct_mpi_op(call->op), ctx->comm));
}

/* Out of place, the root sends from its send buffer (see the top of this
 * file); MPI_Bcast's buffer is not const, but the root only reads it. */
static ct_status_t ct_mpi_broadcast(ct_mpi_ctx_t *ctx, const ct_backend_call_t *call,
                                    const void *send, int count, MPI_Datatype dt)
{
    (void)send;
    void *buf = !call->in_place && ctx->rank == call->root ? (void *)call->send : call->recv;
    return CT_MPI_COLL_CALL(ctx, MPI_Bcast, (buf, count, dt, call->root, ctx->comm));
}

/* Indexed by ct_coll_id_t; a collective added to ct_names.h without an
 * entry here stops the build instead of failing at run time. */
static const ct_mpi_coll_fn_t ct_mpi_colls[] = {
    [CT_COLL_ALLREDUCE] = ct_mpi_allreduce,
    [CT_COLL_ALLGATHER] = ct_mpi_allgather,
    [CT_COLL_ALLTOALL] = ct_mpi_alltoall,
    [CT_COLL_BROADCAST] = ct_mpi_broadcast,
    [CT_COLL_REDUCE_SCATTER] = ct_mpi_reduce_scatter,
};
_Static_assert(sizeof ct_mpi_colls / sizeof ct_mpi_colls[0] == CT_COLL_COUNT,
               "the MPI backend runs every collective");

static ct_status_t ct_mpi_run(void *vctx, const ct_backend_call_t *call)
{
    ct_coll_id_t id = call->coll->id;

    /* The plan refused larger counts (max_count): reaching here is a bug,
     * and wrapping the count would hide it. */
    if (call->counts->param_count > INT_MAX || (int)id < 0 || id >= CT_COLL_COUNT ||
        ct_mpi_colls[id] == NULL) {
        fprintf(stderr, "collbench: internal: %s with count %zu reached the MPI backend\n",
                call->coll->name, call->counts->param_count);
        return CT_ERR_BACKEND;
    }
    return ct_mpi_colls[id](vctx, call, call->in_place ? MPI_IN_PLACE : call->send,
                            (int)call->counts->param_count, ct_mpi_dtype(call->dtype));
}

static void ct_mpi_refusal(void *vctx, char *buf, size_t buflen)
{
    const ct_mpi_ctx_t *ctx = vctx;
    snprintf(buf, buflen, "%s", ctx->refused);
}

static ct_status_t ct_mpi_wait(void *ctx)
{
    (void)ctx;
    return CT_OK;
}

/* The root of an out-of-place broadcast sent from its send buffer and left
 * its receive buffer alone (see the top of this file). */
static ct_status_t ct_mpi_settle(void *vctx, const ct_backend_call_t *call)
{
    ct_mpi_ctx_t *ctx = vctx;
    if (call->coll->id == CT_COLL_BROADCAST && !call->in_place && ctx->rank == call->root)
        memcpy(call->recv, call->send, call->counts->bytes);
    return CT_OK;
}

/* With MPI_IN_PLACE, MPI_Reduce_scatter_block reads the whole buffer and
 * writes this rank's block at its start, not at the rank's offset. */
static void ct_mpi_inplace(const ct_coll_desc_t *coll, const ct_coll_counts_t *counts, int rank,
                           ct_coll_inplace_t *layout_p)
{
    coll->inplace(counts, rank, layout_p);
    if (coll->id == CT_COLL_REDUCE_SCATTER)
        layout_p->recv_offset = 0;
}

const ct_backend_ops_t ct_backend_mpi = {
    .name = "mpi",
    .host_memory = 1,
    /* Refused, never wrapped: the (int) cast below would turn 2^32+8 int8
     * into a count of 8 and report a busbw of petabytes. */
    .max_count = INT_MAX,
    .max_count_why = "an MPI count is an int, and Open MPI 4.1 has no large-count MPI_*_c "
                     "calls",
    /* --config writes MPI_T control variables around MPI_Comm_dup. */
    .configs = &ct_configs_mpit,
    .open = ct_mpi_open,
    .close = ct_mpi_close,
    .supports = ct_mpi_supports,
    .alloc = ct_mpi_alloc,
    .free = ct_mpi_free,
    .upload = ct_mpi_copy,
    .download = ct_mpi_download,
    .run = ct_mpi_run,
    .wait = ct_mpi_wait,
    .settle = ct_mpi_settle,
    .refusal = ct_mpi_refusal,
    .inplace = ct_mpi_inplace,
};
