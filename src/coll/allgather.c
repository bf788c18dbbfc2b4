/* allgather: every rank ends with all ranks' blocks, in rank order. */
#include "coll.h"
#include "pattern.h"

static double ct_allgather_busbw_factor(int nranks)
{
    return (double)(nranks - 1) / nranks;
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

static void ct_allgather_fill(void *send, const ct_coll_counts_t *c, const ct_coll_data_t *d)
{
    for (size_t j = 0; j < c->send_count; j++)
        ct_dtype_store(send, j, d->dtype, ct_pattern_source(d->rank, j));
}

static size_t ct_allgather_check(const void *recv, const ct_coll_counts_t *c,
                                 const ct_coll_data_t *d)
{
    size_t wrong = 0;
    for (int src = 0; src < d->nranks; src++) {
        size_t base = (size_t)src * c->send_count;
        for (size_t j = 0; j < c->send_count; j++)
            if (ct_dtype_load(recv, base + j, d->dtype) != ct_pattern_source(src, j))
                wrong++;
    }
    return wrong;
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
