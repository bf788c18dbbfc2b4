/* SPDX-License-Identifier: BSD-3-Clause */
/* reduce_scatter: rank r ends with block r of the reduction of all inputs. */
#include "coll.h"
#include "ct_busbw.h"
#include "pattern.h"

static double ct_reduce_scatter_busbw_factor(int nranks)
{
    return ct_coll_busbw_factor(CT_COLL_REDUCE_SCATTER, nranks);
}

static void ct_reduce_scatter_counts(size_t bytes, size_t typesize, int nranks, ct_coll_counts_t *c)
{
    c->bytes = bytes;
    c->row_count = bytes / typesize;
    c->send_count = c->row_count;
    c->recv_count = c->param_count = c->row_count / (size_t)nranks;
}

/* nccl-tests: the output block sits at the rank's own offset. */
static void ct_reduce_scatter_inplace(const ct_coll_counts_t *c, int rank, ct_coll_inplace_t *l)
{
    l->send_offset = 0;
    l->recv_offset = (size_t)rank * c->recv_count;
}

static void ct_reduce_scatter_fill(void *send, const ct_coll_counts_t *c, const ct_coll_data_t *d)
{
    ct_pattern_fill_reduce(send, c->send_count, 0, d);
}

static size_t ct_reduce_scatter_check(const void *recv, const ct_coll_counts_t *c,
                                      const ct_coll_data_t *d)
{
    return ct_pattern_check_reduce(recv, c->recv_count, (size_t)d->rank * c->recv_count, d);
}

const ct_coll_desc_t ct_coll_reduce_scatter = {
    .name = "reduce_scatter",
    .alias = "reducescatter",
    .id = CT_COLL_REDUCE_SCATTER,
    .uses_op = 1,
    .splits_by_ranks = 1,
    .busbw_factor = ct_reduce_scatter_busbw_factor,
    .counts = ct_reduce_scatter_counts,
    .inplace = ct_reduce_scatter_inplace,
    .fill_send = ct_reduce_scatter_fill,
    .check_recv = ct_reduce_scatter_check,
};
