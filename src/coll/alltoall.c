/* alltoall: block j of rank i's input lands as block i of rank j's output. */
#include "coll.h"
#include "pattern.h"

static double ct_alltoall_busbw_factor(int nranks)
{
    return (double)(nranks - 1) / nranks;
}

static void ct_alltoall_counts(size_t bytes, size_t typesize, int nranks, ct_coll_counts_t *c)
{
    c->bytes = bytes;
    c->row_count = bytes / typesize;
    c->send_count = c->recv_count = c->row_count;
    c->param_count = c->row_count / (size_t)nranks;
}

static void ct_alltoall_inplace(const ct_coll_counts_t *c, int rank, ct_coll_inplace_t *l)
{
    (void)c;
    (void)rank;
    l->send_offset = l->recv_offset = 0;
}

static void ct_alltoall_fill(void *send, const ct_coll_counts_t *c, const ct_coll_data_t *d)
{
    for (size_t j = 0; j < c->send_count; j++)
        ct_dtype_store(send, j, d->dtype, ct_pattern_source(d->rank, j));
}

static size_t ct_alltoall_check(const void *recv, const ct_coll_counts_t *c,
                                const ct_coll_data_t *d)
{
    size_t block = c->param_count, wrong = 0;
    for (int src = 0; src < d->nranks; src++) {
        size_t from = (size_t)d->rank * block; /* where src kept our block */
        for (size_t j = 0; j < block; j++)
            if (ct_dtype_load(recv, (size_t)src * block + j, d->dtype) !=
                ct_pattern_source(src, from + j))
                wrong++;
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
    .inplace = ct_alltoall_inplace,
    .fill_send = ct_alltoall_fill,
    .check_recv = ct_alltoall_check,
};
