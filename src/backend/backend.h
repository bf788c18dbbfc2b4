/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * backend.h - a communication library as an ops table.
 *
 * The engine drives every backend through this table and never sees its
 * types.  Buffers are opaque pointers from alloc(); when host_memory is set
 * the engine fills and checks them directly, otherwise it stages through
 * host buffers with upload()/download().  run() issues one collective and
 * may return before it completes; wait() returns when everything issued has
 * completed, which is where the engine reads the clock.
 */
#ifndef CT_BACKEND_H
#define CT_BACKEND_H

#include <stddef.h>
#include "coll.h"
#include "ct_json.h"
#include "ct_status.h"
#include "world.h"

typedef struct {
    const char *nccl_library;   /* NULL: the backend's default search */
    const char *cudart_library; /* NULL: the backend's default search */
} ct_backend_config_t;

typedef struct {
    const ct_coll_desc_t *coll;
    const ct_coll_counts_t *counts;
    const void *send; /* equals recv's buffer (at its offset) when in_place */
    void *recv;
    int in_place;
    ct_dtype_t dtype;
    ct_op_t op;
    int root;
} ct_backend_call_t;

struct ct_configs_kind; /* configs_kind.h */

typedef struct ct_backend_ops {
    const char *name;
    int host_memory;
    /* Bit (1u << ct_coll_id_t) set: the library has no in-place form of
     * that collective, so its in-place half is timed but not validated
     * (#wrong N/A), as nccl-tests does for NCCL's alltoall. */
    unsigned inplace_unchecked;
    /* Most elements one call's count argument carries (0: no limit), and
     * why; the plan refuses larger sizes (exit 2) before allocating. */
    size_t max_count;
    const char *max_count_why;
    /* --config: what a configuration's settings are and when they are put
     * in force (configs_kind.h); NULL: the backend has no --config. */
    const struct ct_configs_kind *configs;

    /* Collective: all ranks agree before returning.  On CT_ERR_UNAVAILABLE,
     * why holds the reason every rank prints. */
    ct_status_t (*open)(ct_world_t *world, const ct_backend_config_t *config, void **ctx_p,
                        char *why, size_t whylen);
    void (*close)(void *ctx);

    /* Whether this backend can run coll on dtype/op; why names what not. */
    ct_status_t (*supports)(void *ctx, const ct_coll_desc_t *coll, ct_dtype_t dtype, ct_op_t op,
                            char *why, size_t whylen);

    ct_status_t (*alloc)(void *ctx, size_t bytes, void **buf_p);
    void (*free)(void *ctx, void *buf);
    ct_status_t (*upload)(void *ctx, void *dst, const void *host, size_t bytes);
    ct_status_t (*download)(void *ctx, void *host, const void *src, size_t bytes);

    /* run() returns CT_ERR_REFUSED when the library refused the call under
     * the settings in force (NCCL with NCCL_ALGO=tree refuses broadcast)
     * and left the communicator usable; it prints nothing then, so that
     * the engine, once every rank agrees it was a refusal, reports it once
     * (refusal() below has the reason).  The mpi backend refuses only
     * where MPICH refuses a forced algorithm (backend_mpi.c). */
    ct_status_t (*run)(void *ctx, const ct_backend_call_t *call);
    ct_status_t (*wait)(void *ctx);
    /* Optional: after run() returned CT_ERR_REFUSED, the library's reason
     * on one line (NCCL's ncclGetLastError where it has one). */
    void (*refusal)(void *ctx, char *buf, size_t buflen);
    /* Optional, after a validation call only (never inside a timed one):
     * puts this rank's output into call->recv where the library left it
     * elsewhere, so the engine checks every rank's receive buffer the same
     * way.  MPI's out-of-place broadcast is the case: the root sends from
     * its send buffer and never writes its receive buffer. */
    ct_status_t (*settle)(void *ctx, const ct_backend_call_t *call);

    /* Optional: the backend's own in-place layout (else the collective's). */
    void (*inplace)(const ct_coll_desc_t *coll, const ct_coll_counts_t *counts, int rank,
                    ct_coll_inplace_t *layout_p);
    /* Optional, rank 0 after open(): the preamble's device columns for a
     * rank, e.g. "device  0 [0000:04:00.0]" (else "device -1 [host]"). */
    void (*device_label)(void *ctx, int rank, char *buf, size_t buflen);
    /* Optional, rank 0: adds the backend's metadata as members of the JSON
     * "backend" object (ct_json_set); CT_ERR_NOMEM when one fails. */
    ct_status_t (*describe)(void *ctx, json_t *object);
    /* Optional, every rank after open(): this rank's device index and PCI
     * bus id ("0000:3b:00.0"), for the placement metadata (hwloc finds the
     * device's NUMA node by it).  CT_ERR_UNAVAILABLE when it has none. */
    ct_status_t (*device_pci)(void *ctx, int *index_p, char *bus_id, size_t buflen);
    /* Optional, every rank after open(): how many nodes the library sees,
     * when that is not MPI's distinct hostnames (NCCL counts NCCL_HOSTID
     * values): the rows' nnodes, the scale a tuned choice is written for. */
    int (*nnodes)(void *ctx);
} ct_backend_ops_t;

extern const ct_backend_ops_t ct_backend_mpi;
/* dlopens NCCL and CUDA at run time, so it is built everywhere. */
extern const ct_backend_ops_t ct_backend_nccl;

/* By name ("mpi", "nccl"), or NULL. */
const ct_backend_ops_t *ct_backend_find(const char *name);
/* The node count the run reports: the backend's own (ops->nnodes, once
 * ctx is open), else MPI's distinct hostnames. */
int ct_backend_nnodes(const ct_backend_ops_t *ops, void *ctx, const ct_world_t *world);
/* The table's names, ", "-separated, into buf (truncated to buflen), for
 * usage text and errors: a backend added to the table is listed. */
void ct_backend_names(char *buf, size_t buflen);

#endif
