/* SPDX-License-Identifier: BSD-3-Clause */
/* allgather: every rank ends with all ranks' blocks, in rank order. */
#include "coll.h"
#include "ct_busbw.h"
#include "pattern.h"

static double ct_allgather_busbw_factor(int nranks)
{
    return ct_coll_busbw_factor(CT_COLL_ALLGATHER, nranks);
}

static void ct_allgather_counts(size_t bytes, size_t typesize, int nranks, ct_coll_counts_t *c)
{
    c->bytes = bytes;
    c->row_count = bytes / typesize;
    c->recv_count = c->row_count;
    c->send_count = c->param_count = c->row_count / (size_t)nranks;
}

/* nccl-tests: the rank's own block is already in its place. */
static void ct_allgather_inplace(const ct_coll_counts_t *c, int rank, ct_coll_inplace_t *l)
{
    l->send_offset = (size_t)rank * c->send_count;
    l->recv_offset = 0;
}

/* Rank r sends elements r*send_count.. of the pattern stream, so the
 * gathered output is the stream itself from element 0. */
static void ct_allgather_fill(void *send, const ct_coll_counts_t *c, const ct_coll_data_t *d)
{
    ct_pattern_fill_source(send, c->send_count, (size_t)d->rank * c->send_count, d->dtype);
}

static size_t ct_allgather_check(const void *recv, const ct_coll_counts_t *c,
                                 const ct_coll_data_t *d)
{
    return ct_pattern_check_source(recv, c->recv_count, 0, d->dtype);
}

const ct_coll_desc_t ct_coll_allgather = {
    .name = "allgather",
    .alias = "all_gather",
    .id = CT_COLL_ALLGATHER,
    .splits_by_ranks = 1,
    .busbw_factor = ct_allgather_busbw_factor,
    .counts = ct_allgather_counts,
    .inplace = ct_allgather_inplace,
    .fill_send = ct_allgather_fill,
    .check_recv = ct_allgather_check,
};
