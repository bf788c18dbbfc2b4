/* allreduce: every rank ends with the reduction of all inputs. */
#include "coll.h"
#include "ct_busbw.h"
#include "pattern.h"

static double ct_allreduce_busbw_factor(int nranks)
{
    return ct_coll_busbw_factor(CT_COLL_ALLREDUCE, nranks);
}

static void ct_allreduce_counts(size_t bytes, size_t typesize, int nranks, ct_coll_counts_t *c)
{
    (void)nranks;
    c->bytes = bytes;
    c->row_count = bytes / typesize;
    c->send_count = c->recv_count = c->param_count = c->row_count;
}

static void ct_allreduce_inplace(const ct_coll_counts_t *c, int rank, ct_coll_inplace_t *l)
{
    (void)c;
    (void)rank;
    l->send_offset = l->recv_offset = 0;
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
    .counts = ct_allreduce_counts,
    .inplace = ct_allreduce_inplace,
    .fill_send = ct_allreduce_fill,
    .check_recv = ct_allreduce_check,
};
