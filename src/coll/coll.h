/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * coll.h - one descriptor per collective.
 *
 * A descriptor knows the collective's shape (how a size in bytes becomes
 * send/receive counts), its bus-bandwidth factor, and how to fill inputs and
 * check outputs with data whose results are exactly predictable.  It knows
 * nothing about MPI, NCCL or timing: the engine and the backends do that.
 *
 * Sizes follow nccl-tests: "bytes" is the size column and the S in
 * algbw = S / t, namely count*typesize for allreduce and broadcast, and the
 * whole gathered/scattered buffer for allgather, alltoall and reduce_scatter.
 */
#ifndef CT_COLL_H
#define CT_COLL_H

#include <stddef.h>
#include "ct_dtype.h"
#include "ct_names.h" /* ct_coll_id_t and the names, shared with the tuner */
#include "ct_status.h"

typedef struct {
    size_t bytes;       /* size column and algbw numerator */
    size_t row_count;   /* count column: bytes / typesize */
    size_t send_count;  /* elements in each rank's send buffer */
    size_t recv_count;  /* elements in each rank's receive buffer */
    size_t param_count; /* count argument of the call (per-rank block where split) */
} ct_coll_counts_t;

/* What the data pattern of one rank depends on. */
typedef struct {
    ct_dtype_t dtype;
    ct_op_t op;
    int root;
    int rank;
    int nranks;
} ct_coll_data_t;

/* In-place placement: where a rank's input starts and where its output is
 * found, in elements from the start of the single buffer. */
typedef struct {
    size_t send_offset;
    size_t recv_offset;
} ct_coll_inplace_t;

typedef struct ct_coll_desc {
    const char *name;  /* as in -C and in the CSV; equals ct_coll_name(id) */
    const char *alias; /* nccl-tests' binary stem, e.g. "all_reduce" */
    ct_coll_id_t id;
    int uses_op;         /* a reduction: redop column, -o applies */
    int uses_root;       /* rooted: root column, -r applies */
    int splits_by_ranks; /* bytes must divide into nranks equal blocks */
    double (*busbw_factor)(int nranks);
    void (*counts)(size_t bytes, size_t typesize, int nranks, ct_coll_counts_t *counts_p);
    /* nccl-tests' in-place layout; a backend may substitute its own. */
    void (*inplace)(const ct_coll_counts_t *counts, int rank, ct_coll_inplace_t *layout_p);
    void (*fill_send)(void *send, const ct_coll_counts_t *counts, const ct_coll_data_t *data);
    /* Returns the number of wrong elements in recv. */
    size_t (*check_recv)(const void *recv, const ct_coll_counts_t *counts,
                         const ct_coll_data_t *data);
} ct_coll_desc_t;

/* Slots several descriptors share (coll_table.c), so that a layout common
 * to collectives is written once.  ct_coll_counts_whole: every buffer and
 * the call's count are the whole row (allreduce, broadcast).
 * ct_coll_inplace_same: in place, the input and the output both start at
 * the buffer's start (allreduce, broadcast, alltoall). */
void ct_coll_counts_whole(size_t bytes, size_t typesize, int nranks, ct_coll_counts_t *counts_p);
void ct_coll_inplace_same(const ct_coll_counts_t *counts, int rank, ct_coll_inplace_t *layout_p);

extern const ct_coll_desc_t ct_coll_allreduce;
extern const ct_coll_desc_t ct_coll_allgather;
extern const ct_coll_desc_t ct_coll_alltoall;
extern const ct_coll_desc_t ct_coll_broadcast;
extern const ct_coll_desc_t ct_coll_reduce_scatter;

/* All descriptors in table order (the order of "-C all"). */
const ct_coll_desc_t *ct_coll_by_index(int index);
/* By name or alias ("allreduce", "all_reduce", "bcast", ...), as
 * src/lib/ct_names.c spells them. */
const ct_coll_desc_t *ct_coll_find(const char *name);

/* Bytes divisible into a valid call: a multiple of typesize, and of
 * typesize*nranks where the collective splits by ranks. */
size_t ct_coll_granularity(const ct_coll_desc_t *coll, size_t typesize, int nranks);

#endif
