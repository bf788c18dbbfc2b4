/* SPDX-License-Identifier: BSD-3-Clause */
/* broadcast: every rank ends with the root's buffer. */
#include "coll.h"
#include "ct_busbw.h"
#include "pattern.h"

static double ct_broadcast_busbw_factor(int nranks)
{
    return ct_coll_busbw_factor(CT_COLL_BROADCAST, nranks);
}

/* Every rank fills its send buffer with its own part of the pattern
 * stream (from r*count); only the root's may survive, so a non-root
 * buffer leaking through shows up as wrong. */
static void ct_broadcast_fill(void *send, const ct_coll_counts_t *c, const ct_coll_data_t *d)
{
    ct_pattern_fill_source(send, c->send_count, (size_t)d->rank * c->send_count, d->dtype);
}

static size_t ct_broadcast_check(const void *recv, const ct_coll_counts_t *c,
                                 const ct_coll_data_t *d)
{
    return ct_pattern_check_source(recv, c->recv_count, (size_t)d->root * c->send_count, d->dtype);
}

const ct_coll_desc_t ct_coll_broadcast = {
    .name = "broadcast",
    .alias = "bcast",
    .id = CT_COLL_BROADCAST,
    .uses_root = 1,
    .busbw_factor = ct_broadcast_busbw_factor,
    .counts = ct_coll_counts_whole,
    .inplace = ct_coll_inplace_same,
    .fill_send = ct_broadcast_fill,
    .check_recv = ct_broadcast_check,
};
