/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_coll.c - the collective descriptors: names, flags, bus-bandwidth
 * factors (DESIGN.md / nccl-tests), counts, in-place layouts, lookup and
 * granularity.
 */
#include <math.h>
#include <stddef.h>

#include "coll.h"
#include "ct_test.h"

static ct_test_tally_t tally;

static const int nranks_list[] = {1, 2, 4, 8, 64};
#define NN (int)(sizeof nranks_list / sizeof nranks_list[0])

static double want_factor(ct_coll_id_t id, int n)
{
    switch (id) {
    case CT_COLL_ALLREDUCE: return 2.0 * (n - 1) / n;
    case CT_COLL_BROADCAST: return 1.0;
    default: return (double)(n - 1) / n;
    }
}

int main(void)
{
    static const struct {
        const ct_coll_desc_t *desc;
        ct_coll_id_t id;
        const char *name, *alias;
        int uses_op, uses_root, splits;
    } colls[] = {
        {&ct_coll_allreduce, CT_COLL_ALLREDUCE, "allreduce", "all_reduce", 1, 0, 0},
        {&ct_coll_allgather, CT_COLL_ALLGATHER, "allgather", "all_gather", 0, 0, 1},
        {&ct_coll_alltoall, CT_COLL_ALLTOALL, "alltoall", "all_to_all", 0, 0, 1},
        {&ct_coll_broadcast, CT_COLL_BROADCAST, "broadcast", "bcast", 0, 1, 0},
        {&ct_coll_reduce_scatter, CT_COLL_REDUCE_SCATTER, "reduce_scatter", "reducescatter", 1, 0,
         1},
    };
    CT_CHECK(&tally, sizeof colls / sizeof colls[0] == CT_COLL_COUNT);

    for (int c = 0; c < CT_COLL_COUNT; c++) {
        const ct_coll_desc_t *d = colls[c].desc;
        /* Table order, identity, flags. */
        CT_CHECK(&tally, ct_coll_by_index(c) == d);
        CT_CHECK(&tally, d->id == colls[c].id);
        CT_CHECK_STR(&tally, d->name, colls[c].name);
        CT_CHECK_STR(&tally, d->alias, colls[c].alias);
        CT_CHECK(&tally, !!d->uses_op == colls[c].uses_op);
        CT_CHECK(&tally, !!d->uses_root == colls[c].uses_root);
        CT_CHECK(&tally, !!d->splits_by_ranks == colls[c].splits);
        CT_CHECK(&tally,
                 d->busbw_factor && d->counts && d->inplace && d->fill_send && d->check_recv);
        /* Lookup by name and alias. */
        CT_CHECK(&tally, ct_coll_find(colls[c].name) == d);
        CT_CHECK(&tally, ct_coll_find(colls[c].alias) == d);

        for (int k = 0; k < NN; k++) {
            int n = nranks_list[k];
            double got = d->busbw_factor(n), want = want_factor(d->id, n);
            CT_CHECK(&tally, fabs(got - want) < 1e-15);
            if (fabs(got - want) >= 1e-15)
                fprintf(stderr, "  %s busbw_factor(%d) = %.17g, want %.17g\n", d->name, n, got,
                        want);
        }
    }
    CT_CHECK(&tally, ct_coll_by_index(-1) == NULL);
    CT_CHECK(&tally, ct_coll_by_index(CT_COLL_COUNT) == NULL);

    /* Spot values of the factors. */
    CT_CHECK(&tally, ct_coll_allreduce.busbw_factor(1) == 0.0);
    CT_CHECK(&tally, ct_coll_allreduce.busbw_factor(2) == 1.0);
    CT_CHECK(&tally, ct_coll_allreduce.busbw_factor(4) == 1.5);
    CT_CHECK(&tally, ct_coll_allreduce.busbw_factor(8) == 1.75);
    CT_CHECK(&tally, ct_coll_allgather.busbw_factor(4) == 0.75);
    CT_CHECK(&tally, ct_coll_alltoall.busbw_factor(8) == 0.875);
    CT_CHECK(&tally, ct_coll_reduce_scatter.busbw_factor(2) == 0.5);
    CT_CHECK(&tally, ct_coll_reduce_scatter.busbw_factor(1) == 0.0);
    CT_CHECK(&tally, ct_coll_broadcast.busbw_factor(64) == 1.0);

    /* Lookup: other spellings. */
    CT_CHECK(&tally, ct_coll_find("all_reduce") == &ct_coll_allreduce);
    CT_CHECK(&tally, ct_coll_find("bcast") == &ct_coll_broadcast);
    CT_CHECK(&tally, ct_coll_find("reducescatter") == &ct_coll_reduce_scatter);
    CT_CHECK(&tally, ct_coll_find("AllReduce") == &ct_coll_allreduce);
    CT_CHECK(&tally, ct_coll_find("unknown") == NULL);
    CT_CHECK(&tally, ct_coll_find("") == NULL);
    CT_CHECK(&tally, ct_coll_find("all") == NULL);
    CT_CHECK(&tally, ct_coll_find("reduce") == NULL);
    CT_CHECK(&tally, ct_coll_find("allreduce ") == NULL);

    /* Counts: 1 MiB of floats (4 B) and of doubles, at each rank count. */
    static const size_t typesizes[] = {1, 2, 4, 8};
    for (size_t t = 0; t < sizeof typesizes / sizeof typesizes[0]; t++) {
        size_t ts = typesizes[t];
        for (int k = 0; k < NN; k++) {
            int n = nranks_list[k];
            size_t bytes = (size_t)1 << 20, row = bytes / ts, per = row / (size_t)n;
            ct_coll_counts_t c;

            ct_coll_allreduce.counts(bytes, ts, n, &c);
            CT_CHECK(&tally, c.bytes == bytes && c.row_count == row);
            CT_CHECK(&tally, c.send_count == row && c.recv_count == row && c.param_count == row);

            ct_coll_broadcast.counts(bytes, ts, n, &c);
            CT_CHECK(&tally, c.bytes == bytes && c.row_count == row);
            CT_CHECK(&tally, c.send_count == row && c.recv_count == row && c.param_count == row);

            ct_coll_allgather.counts(bytes, ts, n, &c);
            CT_CHECK(&tally, c.bytes == bytes && c.row_count == row);
            CT_CHECK(&tally, c.send_count == per && c.recv_count == row && c.param_count == per);

            ct_coll_reduce_scatter.counts(bytes, ts, n, &c);
            CT_CHECK(&tally, c.bytes == bytes && c.row_count == row);
            CT_CHECK(&tally, c.send_count == row && c.recv_count == per && c.param_count == per);

            ct_coll_alltoall.counts(bytes, ts, n, &c);
            CT_CHECK(&tally, c.bytes == bytes && c.row_count == row);
            CT_CHECK(&tally, c.send_count == row && c.recv_count == row && c.param_count == per);
        }
    }
    /* A concrete case: 96 bytes of float on 4 ranks. */
    {
        ct_coll_counts_t c;
        ct_coll_allgather.counts(96, 4, 4, &c);
        CT_CHECK(&tally, c.row_count == 24 && c.send_count == 6 && c.recv_count == 24 &&
                             c.param_count == 6);
        ct_coll_reduce_scatter.counts(96, 4, 4, &c);
        CT_CHECK(&tally, c.row_count == 24 && c.send_count == 24 && c.recv_count == 6 &&
                             c.param_count == 6);
        ct_coll_alltoall.counts(96, 4, 4, &c);
        CT_CHECK(&tally, c.row_count == 24 && c.send_count == 24 && c.recv_count == 24 &&
                             c.param_count == 6);
        ct_coll_allreduce.counts(96, 8, 4, &c);
        CT_CHECK(&tally, c.row_count == 12 && c.param_count == 12);
    }

    /* In-place layouts (nccl-tests). */
    for (int k = 0; k < NN; k++) {
        int n = nranks_list[k];
        ct_coll_counts_t c;
        ct_coll_inplace_t l;
        for (int rank = 0; rank < n; rank++) {
            ct_coll_allgather.counts((size_t)n * 4 * 10, 4, n, &c);
            l.send_offset = l.recv_offset = 999;
            ct_coll_allgather.inplace(&c, rank, &l);
            CT_CHECK(&tally, l.send_offset == (size_t)rank * c.send_count && l.recv_offset == 0);
            CT_CHECK(&tally, l.send_offset == (size_t)rank * 10);

            ct_coll_reduce_scatter.counts((size_t)n * 4 * 10, 4, n, &c);
            l.send_offset = l.recv_offset = 999;
            ct_coll_reduce_scatter.inplace(&c, rank, &l);
            CT_CHECK(&tally, l.send_offset == 0 && l.recv_offset == (size_t)rank * c.recv_count);
            CT_CHECK(&tally, l.recv_offset == (size_t)rank * 10);

            const ct_coll_desc_t *zero[] = {&ct_coll_allreduce, &ct_coll_broadcast,
                                            &ct_coll_alltoall};
            for (int z = 0; z < 3; z++) {
                zero[z]->counts((size_t)n * 4 * 10, 4, n, &c);
                l.send_offset = l.recv_offset = 999;
                zero[z]->inplace(&c, rank, &l);
                CT_CHECK(&tally, l.send_offset == 0 && l.recv_offset == 0);
            }
        }
    }

    /* Granularity. */
    for (int k = 0; k < NN; k++) {
        int n = nranks_list[k];
        for (size_t t = 0; t < sizeof typesizes / sizeof typesizes[0]; t++) {
            size_t ts = typesizes[t];
            CT_CHECK(&tally, ct_coll_granularity(&ct_coll_allreduce, ts, n) == ts);
            CT_CHECK(&tally, ct_coll_granularity(&ct_coll_broadcast, ts, n) == ts);
            CT_CHECK(&tally, ct_coll_granularity(&ct_coll_allgather, ts, n) == ts * (size_t)n);
            CT_CHECK(&tally, ct_coll_granularity(&ct_coll_alltoall, ts, n) == ts * (size_t)n);
            CT_CHECK(&tally, ct_coll_granularity(&ct_coll_reduce_scatter, ts, n) == ts * (size_t)n);
        }
    }
    return CT_DONE(&tally);
}
