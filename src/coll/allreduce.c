/* SPDX-License-Identifier: BSD-3-Clause */
/* allreduce: every rank ends with the reduction of all inputs. */
#include "coll.h"
#include "ct_busbw.h"
#include "pattern.h"

static double ct_allreduce_busbw_factor(int nranks)
{
    return ct_coll_busbw_factor(CT_COLL_ALLREDUCE, nranks);
}

static void ct_allreduce_fill(void *send, const ct_coll_counts_t *c, const ct_coll_data_t *d)
{
    ct_pattern_fill_reduce(send, c->send_count, 0, d);
}

static size_t ct_allreduce_check(const void *recv, const ct_coll_counts_t *c,
                                 const ct_coll_data_t *d)
{
    return ct_pattern_check_reduce(recv, c->recv_count, 0, d);
}

const ct_coll_desc_t ct_coll_allreduce = {
    .name = "allreduce",
    .alias = "all_reduce",
    .id = CT_COLL_ALLREDUCE,
    .uses_op = 1,
    .busbw_factor = ct_allreduce_busbw_factor,
    .counts = ct_coll_counts_whole,
    .inplace = ct_coll_inplace_same,
    .fill_send = ct_allreduce_fill,
    .check_recv = ct_allreduce_check,
};
