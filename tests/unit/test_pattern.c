/*
 * test_pattern.c - fill_send/check_recv of every collective, against a
 * collective simulated here in-process.
 *
 * For nranks in {1,2,3,4,8}, every collective, dtype and (for reductions)
 * op: each rank's input comes from desc->fill_send; the test computes what a
 * correct collective delivers (loads in double, reduces or moves, stores
 * back through ct_dtype_store so integer results wrap like the type), and
 * check_recv must count 0 wrong.  Then it plants errors (one element, three
 * elements, swapped blocks, a dropped rank, another rank's data, zeros, and
 * a no-op that leaves 0xff bytes) and check_recv must count exactly the
 * elements that differ from the correct output.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "coll.h"
#include "ct_test.h"

static ct_test_tally_t tally;

#define MAX_RANKS 8

typedef struct {
    const ct_coll_desc_t *desc;
    ct_coll_data_t data; /* rank filled in per use */
    size_t ts;
    ct_coll_counts_t c;
    unsigned char *in[MAX_RANKS];
    unsigned char *out[MAX_RANKS]; /* correct output of each rank */
    unsigned char *work;           /* recv_count elements to plant errors in */
    char what[160];
} sim_t;

static double load(const void *buf, size_t i, ct_dtype_t d)
{
    return ct_dtype_load(buf, i, d);
}

/* Reduction over ranks of element idx of the inputs, leaving out rank skip
 * (-1: none).  avg divides by nranks, truncating for integers like NCCL's
 * integer avg (sum, then integer division). */
static double reduce_at(const sim_t *s, size_t idx, int skip)
{
    ct_dtype_t d = s->data.dtype;
    double acc = 0.0;
    int first = 1;
    for (int r = 0; r < s->data.nranks; r++) {
        if (r == skip)
            continue;
        double v = load(s->in[r], idx, d);
        if (first) {
            acc = v;
            first = 0;
            continue;
        }
        switch (s->data.op) {
        case CT_OP_PROD: acc *= v; break;
        case CT_OP_MAX: acc = fmax(acc, v); break;
        case CT_OP_MIN: acc = fmin(acc, v); break;
        default: acc += v; break;
        }
    }
    if (s->data.op == CT_OP_AVG) {
        acc /= (double)s->data.nranks;
        if (!ct_dtype_is_float(d))
            acc = trunc(acc);
    }
    return acc;
}

/* What a correct (skip < 0) or a rank-dropping collective delivers to rank. */
static void simulate(const sim_t *s, int rank, int skip, void *out)
{
    ct_dtype_t d = s->data.dtype;
    const ct_coll_counts_t *c = &s->c;
    switch (s->desc->id) {
    case CT_COLL_ALLREDUCE:
        for (size_t j = 0; j < c->recv_count; j++)
            ct_dtype_store(out, j, d, reduce_at(s, j, skip));
        break;
    case CT_COLL_REDUCE_SCATTER:
        for (size_t j = 0; j < c->recv_count; j++)
            ct_dtype_store(out, j, d, reduce_at(s, (size_t)rank * c->recv_count + j, skip));
        break;
    case CT_COLL_ALLGATHER:
        for (int src = 0; src < s->data.nranks; src++)
            for (size_t j = 0; j < c->send_count; j++)
                ct_dtype_store(out, (size_t)src * c->send_count + j, d, load(s->in[src], j, d));
        break;
    case CT_COLL_ALLTOALL: {
        size_t b = c->param_count;
        for (int src = 0; src < s->data.nranks; src++)
            for (size_t j = 0; j < b; j++)
                ct_dtype_store(out, (size_t)src * b + j, d,
                               load(s->in[src], (size_t)rank * b + j, d));
        break;
    }
    case CT_COLL_BROADCAST:
        for (size_t j = 0; j < c->recv_count; j++)
            ct_dtype_store(out, j, d, load(s->in[s->data.root], j, d));
        break;
    default: break;
    }
}

/* Elements of a that differ from b. */
static size_t count_diff(const sim_t *s, const void *a, const void *b)
{
    size_t n = 0;
    for (size_t j = 0; j < s->c.recv_count; j++) {
        double x = load(a, j, s->data.dtype), y = load(b, j, s->data.dtype);
        if (!(x == y))
            n++;
    }
    return n;
}

static size_t run_check(sim_t *s, int rank, const void *recv)
{
    ct_coll_data_t data = s->data;
    data.rank = rank;
    return s->desc->check_recv(recv, &s->c, &data);
}

static void expect_wrong(sim_t *s, int rank, size_t want, const char *plant)
{
    size_t got = run_check(s, rank, s->work);
    CT_CHECK(&tally, got == want);
    if (got != want)
        fprintf(stderr, "  %s rank %d, %s: check_recv = %zu, want %zu\n", s->what, rank, plant,
                got, want);
}

/* Adds one to element j of work (never a no-op for these small values). */
static void bump(sim_t *s, size_t j)
{
    ct_dtype_t d = s->data.dtype;
    ct_dtype_store(s->work, j, d, load(s->work, j, d) + 1.0);
}

static void swap_blocks(sim_t *s, size_t block, size_t a, size_t b)
{
    size_t bytes = block * s->ts;
    unsigned char *tmp = malloc(bytes);
    memcpy(tmp, s->work + a * bytes, bytes);
    memcpy(s->work + a * bytes, s->work + b * bytes, bytes);
    memcpy(s->work + b * bytes, tmp, bytes);
    free(tmp);
}

static void run_case(const ct_coll_desc_t *desc, ct_dtype_t dtype, ct_op_t op, int nranks,
                     int root, size_t bytes)
{
    sim_t s;
    memset(&s, 0, sizeof s);
    s.desc = desc;
    s.data.dtype = dtype;
    s.data.op = op;
    s.data.root = root;
    s.data.nranks = nranks;
    s.ts = ct_dtype_size(dtype);
    desc->counts(bytes, s.ts, nranks, &s.c);
    snprintf(s.what, sizeof s.what, "%s %s %s n=%d root=%d bytes=%zu", desc->name,
             ct_dtype_name(dtype), desc->uses_op ? ct_op_name(op) : "-", nranks, root, bytes);

    size_t sbytes = s.c.send_count * s.ts, rbytes = s.c.recv_count * s.ts;
    for (int r = 0; r < nranks; r++) {
        ct_coll_data_t data = s.data;
        data.rank = r;
        s.in[r] = malloc(sbytes);
        s.out[r] = malloc(rbytes);
        memset(s.in[r], 0x5a, sbytes);
        desc->fill_send(s.in[r], &s.c, &data);
    }
    s.work = malloc(rbytes);
    for (int r = 0; r < nranks; r++)
        simulate(&s, r, -1, s.out[r]);

    for (int r = 0; r < nranks; r++) {
        size_t rc = s.c.recv_count;

        /* Correct output. */
        memcpy(s.work, s.out[r], rbytes);
        expect_wrong(&s, r, 0, "correct output");

        /* One element off by one. */
        bump(&s, rc / 2);
        expect_wrong(&s, r, 1, "one element +1");

        /* Three elements: first, last, and one in between. */
        memcpy(s.work, s.out[r], rbytes);
        if (rc >= 3) {
            bump(&s, 0);
            bump(&s, rc - 1);
            bump(&s, rc / 3 == 0 ? 1 : rc / 3);
            expect_wrong(&s, r, 3, "three elements +1");
        }

        /* A no-op collective: the 0xff bytes the buffer was poisoned with. */
        memset(s.work, 0xff, rbytes);
        expect_wrong(&s, r, rc, "0xff output (no-op)");

        /* All zeros: wrong wherever the correct value is non-zero. */
        memset(s.work, 0, rbytes);
        expect_wrong(&s, r, count_diff(&s, s.work, s.out[r]), "zero output");

        /* Structural mistakes, which need at least two ranks. */
        if (nranks < 2)
            continue;
        switch (desc->id) {
        case CT_COLL_ALLGATHER:
        case CT_COLL_ALLTOALL: {
            size_t block = desc->id == CT_COLL_ALLGATHER ? s.c.send_count : s.c.param_count;
            memcpy(s.work, s.out[r], rbytes);
            swap_blocks(&s, block, 0, 1);
            size_t diff = count_diff(&s, s.work, s.out[r]);
            /* Sources of different ranks differ at every position. */
            CT_CHECK(&tally, diff == 2 * block);
            expect_wrong(&s, r, diff, "blocks 0 and 1 swapped");
            /* The rank's own send buffer delivered instead (alltoall) or a
             * shifted gather. */
            memcpy(s.work, s.out[r], rbytes);
            swap_blocks(&s, block, 0, (size_t)nranks - 1);
            expect_wrong(&s, r, count_diff(&s, s.work, s.out[r]), "blocks 0 and n-1 swapped");
            break;
        }
        case CT_COLL_BROADCAST: {
            /* Another rank's data leaked through. */
            int other = (root + 1) % nranks;
            memcpy(s.work, s.in[other], rbytes);
            size_t diff = count_diff(&s, s.work, s.out[r]);
            CT_CHECK(&tally, diff == rc);
            expect_wrong(&s, r, diff, "non-root data");
            break;
        }
        case CT_COLL_ALLREDUCE:
        case CT_COLL_REDUCE_SCATTER: {
            /* A rank dropped from the reduction. */
            for (int skip = 0; skip < nranks; skip++) {
                simulate(&s, r, skip, s.work);
                size_t diff = count_diff(&s, s.work, s.out[r]);
                expect_wrong(&s, r, diff, "rank dropped");
                /* Every rank's input shows somewhere: its 2s in prod, its
                 * non-zero terms in sum, its distinct values in min/max. */
                if (op != CT_OP_AVG)
                    CT_CHECK(&tally, diff > 0);
            }
            if (desc->id == CT_COLL_REDUCE_SCATTER) {
                /* Another rank's block of the reduction. */
                simulate(&s, (r + 1) % nranks, -1, s.work);
                expect_wrong(&s, r, count_diff(&s, s.work, s.out[r]), "neighbour's block");
            }
            break;
        }
        default: break;
        }
    }

    /* nccl-tests' in-place allgather: the rank's input, filled at its
     * send_offset, is already its block of the result. */
    if (desc->id == CT_COLL_ALLGATHER) {
        for (int r = 0; r < nranks; r++) {
            ct_coll_inplace_t l;
            ct_coll_data_t data = s.data;
            data.rank = r;
            desc->inplace(&s.c, r, &l);
            memset(s.work, 0xff, rbytes);
            desc->fill_send(s.work + l.send_offset * s.ts, &s.c, &data);
            size_t same = 0;
            for (size_t j = 0; j < s.c.send_count; j++)
                same += load(s.work, l.send_offset + j, dtype) ==
                        load(s.out[r], l.recv_offset + l.send_offset + j, dtype);
            CT_CHECK(&tally, same == s.c.send_count);
            /* Only the others' blocks are wrong before the collective runs. */
            expect_wrong(&s, r, s.c.recv_count - s.c.send_count, "in-place before gather");
        }
    }

    for (int r = 0; r < nranks; r++) {
        free(s.in[r]);
        free(s.out[r]);
    }
    free(s.work);
}

int main(void)
{
    static const int nranks_list[] = {1, 2, 3, 4, 8};
    for (size_t k = 0; k < sizeof nranks_list / sizeof nranks_list[0]; k++) {
        int n = nranks_list[k];
        for (int ci = 0; ci < CT_COLL_COUNT; ci++) {
            const ct_coll_desc_t *desc = ct_coll_by_index(ci);
            for (int d = 0; d < CT_DTYPE_COUNT; d++) {
                size_t ts = ct_dtype_size((ct_dtype_t)d);
                /* 37 elements per rank; an odd row for the unsplit ones. */
                size_t bytes = desc->splits_by_ranks ? ts * (size_t)n * 37 : ts * 101;
                if (desc->uses_op) {
                    for (int op = 0; op < CT_OP_COUNT; op++)
                        run_case(desc, (ct_dtype_t)d, (ct_op_t)op, n, 0, bytes);
                } else if (desc->uses_root) {
                    run_case(desc, (ct_dtype_t)d, CT_OP_SUM, n, 0, bytes);
                    if (n > 1)
                        run_case(desc, (ct_dtype_t)d, CT_OP_SUM, n, n - 1, bytes);
                } else {
                    run_case(desc, (ct_dtype_t)d, CT_OP_SUM, n, 0, bytes);
                }
            }
        }
    }
    /* Long buffers: past the sources' 9973-element period. */
    run_case(&ct_coll_broadcast, CT_DTYPE_FLOAT, CT_OP_SUM, 3, 2, 4 * 20011);
    run_case(&ct_coll_allgather, CT_DTYPE_INT8, CT_OP_SUM, 2, 0, 2 * 10007);
    run_case(&ct_coll_alltoall, CT_DTYPE_INT32, CT_OP_SUM, 2, 0, 4 * 2 * 10007);
    run_case(&ct_coll_allreduce, CT_DTYPE_BFLOAT16, CT_OP_MAX, 8, 0, 2 * 20000);
    run_case(&ct_coll_reduce_scatter, CT_DTYPE_HALF, CT_OP_AVG, 3, 0, 2 * 3 * 5000);
    return CT_DONE(&tally);
}
