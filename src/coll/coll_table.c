/* SPDX-License-Identifier: BSD-3-Clause */
#include "coll.h"

/* Indexed by ct_coll_id_t: a collective without a descriptor does not build. */
static const ct_coll_desc_t *const ct_coll_table[] = {
    [CT_COLL_ALLREDUCE] = &ct_coll_allreduce,
    [CT_COLL_ALLGATHER] = &ct_coll_allgather,
    [CT_COLL_ALLTOALL] = &ct_coll_alltoall,
    [CT_COLL_BROADCAST] = &ct_coll_broadcast,
    [CT_COLL_REDUCE_SCATTER] = &ct_coll_reduce_scatter,
};
_Static_assert(sizeof ct_coll_table / sizeof ct_coll_table[0] == CT_COLL_COUNT,
               "one descriptor per collective id");

const ct_coll_desc_t *ct_coll_by_index(int index)
{
    return (index >= 0 && index < CT_COLL_COUNT) ? ct_coll_table[index] : NULL;
}

/* The spellings are src/lib's (ct_names.c), shared with the tuner plugin;
 * a name collbench does not measure (NCCL's reduce) finds nothing. */
const ct_coll_desc_t *ct_coll_find(const char *name)
{
    const ct_coll_name_t *n = ct_coll_name_find(name);
    return n && n->id != CT_COLL_NONE ? ct_coll_table[n->id] : NULL;
}

size_t ct_coll_granularity(const ct_coll_desc_t *coll, size_t typesize, int nranks)
{
    return coll->splits_by_ranks ? typesize * (size_t)nranks : typesize;
}

void ct_coll_counts_whole(size_t bytes, size_t typesize, int nranks, ct_coll_counts_t *counts_p)
{
    (void)nranks;
    counts_p->bytes = bytes;
    counts_p->row_count = bytes / typesize;
    counts_p->send_count = counts_p->recv_count = counts_p->param_count = counts_p->row_count;
}

void ct_coll_inplace_same(const ct_coll_counts_t *counts, int rank, ct_coll_inplace_t *layout_p)
{
    (void)counts;
    (void)rank;
    layout_p->send_offset = layout_p->recv_offset = 0;
}
