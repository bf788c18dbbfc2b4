/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_faults.c - misplaced data is caught by every collective's checker.
 *
 * For nranks 2, 3, 4 and 8, every collective, every type and (for
 * reductions) every op, and blocks of 1, 2, 3, 4, 8, 12 and 97 elements
 * (multiples of the periods an index-periodic pattern would have): each
 * rank's input comes from desc->fill_send, the simulator (coll_sim.h)
 * computes what a correct collective delivers, and check_recv must count 0
 * wrong.  Then it plants the faults of a collective that moves the right
 * data to the wrong place:
 *   - the whole output rotated by one element (either way);
 *   - one block replaced by another block, two blocks swapped, one block
 *     rotated by one inside itself (allgather, alltoall);
 *   - another rank's output (reduce_scatter: its block of the reduction;
 *     alltoall: what it received; broadcast: a non-root rank's input);
 *   - for allreduce and broadcast, which have no blocks, the analogues of
 *     a chunked algorithm's slips: one chunk (count/nranks elements)
 *     replaced by another, two chunks swapped, the halves swapped;
 * and check_recv must count more than 0 wrong, exactly the elements that
 * no longer match.  Every miss is listed on stderr as
 * "MISSED coll op type nranks block fault" before the test fails.
 */
#include <string.h>

#include "coll.h"
#include "coll_sim.h"
#include "ct_test.h"

static ct_test_tally_t tally;

/* One case: the simulated collective, and what this test keeps beside it. */
typedef struct {
    ct_sim_t sim;
    size_t block; /* elements per block (allreduce/broadcast: per chunk) */
    int missed;   /* faults of this case not caught */
} fault_case_t;

/* The fault now in work, planted in rank's output, must be caught. */
static void expect_caught(fault_case_t *fc, int rank, const char *fault)
{
    const ct_sim_t *s = &fc->sim;
    ct_coll_data_t data = s->data;
    data.rank = rank;
    size_t got = s->desc->check_recv(s->work, &s->c, &data);
    size_t want = ct_sim_count_mismatch(s, s->work, s->out[rank]);
    CT_CHECK(&tally, got == want);
    if (got == 0) {
        fc->missed++;
        fprintf(stderr, "MISSED %s %s %s %d %zu %s (rank %d)\n", s->desc->name,
                s->desc->uses_op ? ct_op_name(s->data.op) : "-", ct_dtype_name(s->data.dtype),
                s->data.nranks, fc->block, fault, rank);
    }
    tally.checks++;
    if (got == 0)
        tally.failures++;
}

static unsigned char *elem(const ct_sim_t *s, unsigned char *buf, size_t j)
{
    return buf + j * s->ts;
}

/* work = rank's correct output rotated by shift elements. */
static void plant_rotate(ct_sim_t *s, int rank, size_t first, size_t len, size_t shift)
{
    memcpy(s->work, s->out[rank], s->c.recv_count * s->ts);
    for (size_t j = 0; j < len; j++)
        memcpy(elem(s, s->work, first + j), elem(s, s->out[rank], first + (j + shift) % len),
               s->ts);
}

/* work = rank's correct output with block a replaced by block b, and
 * (swap) b by a. */
static void plant_blocks(fault_case_t *fc, int rank, size_t a, size_t b, int swap)
{
    ct_sim_t *s = &fc->sim;
    size_t bytes = fc->block * s->ts;
    memcpy(s->work, s->out[rank], s->c.recv_count * s->ts);
    memcpy(s->work + a * bytes, s->out[rank] + b * bytes, bytes);
    if (swap)
        memcpy(s->work + b * bytes, s->out[rank] + a * bytes, bytes);
}

static void plant_faults(fault_case_t *fc, int r)
{
    ct_sim_t *s = &fc->sim;
    int n = s->data.nranks;
    size_t rc = s->c.recv_count, nblocks = rc / fc->block;
    char what[64];

    if (rc >= 2) {
        plant_rotate(s, r, 0, rc, 1);
        expect_caught(fc, r, "rotated-left-by-1");
        plant_rotate(s, r, 0, rc, rc - 1);
        expect_caught(fc, r, "rotated-right-by-1");
    }

    switch (s->desc->id) {
    case CT_COLL_REDUCE_SCATTER:
        for (int t = 0; t < n; t++) {
            if (t == r)
                continue;
            memcpy(s->work, s->out[t], rc * s->ts);
            snprintf(what, sizeof what, "block-of-rank-%d", t);
            expect_caught(fc, r, what);
        }
        return;
    case CT_COLL_BROADCAST:
        for (int t = 0; t < n; t++) {
            if (t == s->data.root)
                continue;
            memcpy(s->work, s->in[t], rc * s->ts);
            snprintf(what, sizeof what, "input-of-non-root-%d", t);
            expect_caught(fc, r, what);
        }
        break;
    case CT_COLL_ALLTOALL:
        for (int t = 0; t < n; t++) {
            if (t == r)
                continue;
            memcpy(s->work, s->out[t], rc * s->ts);
            snprintf(what, sizeof what, "output-of-rank-%d", t);
            expect_caught(fc, r, what);
        }
        break;
    default: break;
    }

    /* Blocks (allgather, alltoall) or chunks (allreduce, broadcast). */
    const char *unit = s->desc->splits_by_ranks ? "block" : "chunk";
    for (size_t a = 0; a < nblocks; a++) {
        for (size_t b = 0; b < nblocks; b++) {
            if (a == b)
                continue;
            plant_blocks(fc, r, a, b, 0);
            snprintf(what, sizeof what, "%s-%zu-has-%s-%zu", unit, a, unit, b);
            expect_caught(fc, r, what);
            if (a < b) {
                plant_blocks(fc, r, a, b, 1);
                snprintf(what, sizeof what, "%ss-%zu-%zu-swapped", unit, a, b);
                expect_caught(fc, r, what);
            }
        }
        if (fc->block > 1) {
            plant_rotate(s, r, a * fc->block, fc->block, 1);
            snprintf(what, sizeof what, "%s-%zu-rotated-by-1", unit, a);
            expect_caught(fc, r, what);
        }
    }
    if (!s->desc->splits_by_ranks && rc >= 2) {
        plant_rotate(s, r, 0, rc, rc / 2);
        expect_caught(fc, r, "halves-swapped");
    }
}

/* One collective x type x op at nranks, with block elements per block. */
static int run_case(const ct_coll_desc_t *desc, ct_dtype_t dtype, ct_op_t op, int nranks, int root,
                    size_t block)
{
    fault_case_t fc;
    memset(&fc, 0, sizeof fc);
    fc.block = block;
    ct_sim_t *s = &fc.sim;
    /* nranks blocks in every output: the gathered/scattered buffer, or a
     * row of nranks chunks for allreduce and broadcast. */
    ct_sim_setup(s, desc, dtype, op, nranks, root, ct_dtype_size(dtype) * block * (size_t)nranks);

    for (int r = 0; r < nranks; r++) {
        ct_coll_data_t data = s->data;
        data.rank = r;
        size_t got = desc->check_recv(s->out[r], &s->c, &data);
        CT_CHECK(&tally, got == 0);
        if (got != 0)
            fprintf(stderr, "  %s %s %s n=%d block=%zu rank %d: correct output has %zu wrong\n",
                    desc->name, ct_op_name(op), ct_dtype_name(dtype), nranks, block, r, got);
        plant_faults(&fc, r);
    }

    ct_sim_free(s);
    return fc.missed;
}

int main(void)
{
    static const int nranks_list[] = {2, 3, 4, 8};
    static const size_t blocks[] = {1, 2, 3, 4, 8, 12, 97};
    int cases = 0, missed_cases = 0;

    for (size_t k = 0; k < sizeof nranks_list / sizeof nranks_list[0]; k++) {
        int n = nranks_list[k];
        for (int ci = 0; ci < CT_COLL_COUNT; ci++) {
            const ct_coll_desc_t *desc = ct_coll_by_index(ci);
            int nops = desc->uses_op ? CT_OP_COUNT : 1;
            for (int d = 0; d < CT_DTYPE_COUNT; d++) {
                for (int op = 0; op < nops; op++) {
                    /* Rooted: the first and the last rank as root. */
                    for (int root = 0; root < n; root += desc->uses_root ? n - 1 : n) {
                        int missed = 0;
                        for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++)
                            missed +=
                                run_case(desc, (ct_dtype_t)d, (ct_op_t)op, n, root, blocks[b]);
                        cases++;
                        if (missed) {
                            missed_cases++;
                            fprintf(stderr, "MISSED-CASE %s %s %s %d: %d faults\n", desc->name,
                                    desc->uses_op ? ct_op_name((ct_op_t)op) : "-",
                                    ct_dtype_name((ct_dtype_t)d), n, missed);
                        }
                    }
                }
            }
        }
    }
    fprintf(stderr, "%d of %d (collective, op, type, nranks, root) cases missed a fault\n",
            missed_cases, cases);
    return CT_DONE(&tally);
}
