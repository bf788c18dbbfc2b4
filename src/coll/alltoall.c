/* SPDX-License-Identifier: BSD-3-Clause */
/* alltoall: block j of rank i's input lands as block i of rank j's output. */
#include "coll.h"
#include "ct_busbw.h"
#include "pattern.h"

static double ct_alltoall_busbw_factor(int nranks)
{
    return ct_coll_busbw_factor(CT_COLL_ALLTOALL, nranks);
}

static void ct_alltoall_counts(size_t bytes, size_t typesize, int nranks, ct_coll_counts_t *c)
{
    c->bytes = bytes;
    c->row_count = bytes / typesize;
    c->send_count = c->recv_count = c->row_count;
    c->param_count = c->row_count / (size_t)nranks;
}

/* Rank r sends elements r*send_count.. of the pattern stream: every
 * (source, destination) block holds its own part of it. */
static void ct_alltoall_fill(void *send, const ct_coll_counts_t *c, const ct_coll_data_t *d)
{
    ct_pattern_fill_source(send, c->send_count, (size_t)d->rank * c->send_count, d->dtype);
}

static size_t ct_alltoall_check(const void *recv, const ct_coll_counts_t *c,
                                const ct_coll_data_t *d)
{
    size_t block = c->param_count, wrong = 0, ts = ct_dtype_size(d->dtype);
    for (int src = 0; src < d->nranks; src++) {
        /* Where src kept our block, in the stream. */
        size_t from = (size_t)src * c->send_count + (size_t)d->rank * block;
        wrong += ct_pattern_check_source((const char *)recv + (size_t)src * block * ts, block, from,
                                         d->dtype);
    }
    return wrong;
}

const ct_coll_desc_t ct_coll_alltoall = {
    .name = "alltoall",
    .alias = "all_to_all",
    .id = CT_COLL_ALLTOALL,
    .splits_by_ranks = 1,
    .busbw_factor = ct_alltoall_busbw_factor,
    .counts = ct_alltoall_counts,
    .inplace = ct_coll_inplace_same,
    .fill_send = ct_alltoall_fill,
    .check_recv = ct_alltoall_check,
};
