/*
 * test_faults.c - misplaced data is caught by every collective's checker.
 *
 * For nranks 2, 3, 4 and 8, every collective, every type and (for
 * reductions) every op, and blocks of 1, 2, 3, 4, 8, 12 and 97 elements
 * (multiples of the periods an index-periodic pattern would have): each
 * rank's input comes from desc->fill_send, the test computes what a correct
 * collective delivers, and check_recv must count 0 wrong.  Then it plants
 * the faults of a collective that moves the right data to the wrong place:
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
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "coll.h"
#include "ct_test.h"
#include "pattern.h"

static ct_test_tally_t tally;

#define MAX_RANKS 8

typedef struct {
    const ct_coll_desc_t *desc;
    ct_coll_data_t data; /* rank filled in per use */
    size_t ts;
    size_t block; /* elements per block (allreduce/broadcast: per chunk) */
    ct_coll_counts_t c;
    unsigned char *in[MAX_RANKS];
    unsigned char *out[MAX_RANKS]; /* correct output of each rank */
    unsigned char *work;           /* recv_count elements to plant faults in */
    int missed;                    /* faults of this case not caught */
} sim_t;

static double load(const void *buf, size_t i, ct_dtype_t d) { return ct_dtype_load(buf, i, d); }

/* Reduction of element idx over all ranks' inputs, in double (the inputs
 * are small integers, so this is exact); avg divides by nranks and, for
 * integers, truncates like NCCL's integer avg. */
static double reduce_at(const sim_t *s, size_t idx)
{
    ct_dtype_t d = s->data.dtype;
    double acc = load(s->in[0], idx, d);
    for (int r = 1; r < s->data.nranks; r++) {
        double v = load(s->in[r], idx, d);
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

/* What a correct collective delivers to rank. */
static void simulate(const sim_t *s, int rank, void *out)
{
    ct_dtype_t d = s->data.dtype;
    const ct_coll_counts_t *c = &s->c;
    switch (s->desc->id) {
    case CT_COLL_ALLREDUCE:
        for (size_t j = 0; j < c->recv_count; j++)
            ct_dtype_store(out, j, d, reduce_at(s, j));
        break;
    case CT_COLL_REDUCE_SCATTER:
        for (size_t j = 0; j < c->recv_count; j++)
            ct_dtype_store(out, j, d, reduce_at(s, (size_t)rank * c->recv_count + j));
        break;
    case CT_COLL_ALLGATHER:
        for (int src = 0; src < s->data.nranks; src++)
            memcpy((char *)out + (size_t)src * c->send_count * s->ts, s->in[src],
                   c->send_count * s->ts);
        break;
    case CT_COLL_ALLTOALL: {
        size_t b = c->param_count * s->ts;
        for (int src = 0; src < s->data.nranks; src++)
            memcpy((char *)out + (size_t)src * b, s->in[src] + (size_t)rank * b, b);
        break;
    }
    case CT_COLL_BROADCAST: memcpy(out, s->in[s->data.root], c->recv_count * s->ts); break;
    default: break;
    }
}

/* Elements of a that the checker's comparison tells apart from b. */
static size_t count_mismatch(const sim_t *s, const void *a, const void *b)
{
    size_t n = 0;
    for (size_t j = 0; j < s->c.recv_count; j++)
        if (!ct_pattern_matches(&s->data, load(a, j, s->data.dtype), load(b, j, s->data.dtype)))
            n++;
    return n;
}

/* The fault now in work, planted in rank's output, must be caught. */
static void expect_caught(sim_t *s, int rank, const char *fault)
{
    ct_coll_data_t data = s->data;
    data.rank = rank;
    size_t got = s->desc->check_recv(s->work, &s->c, &data);
    size_t want = count_mismatch(s, s->work, s->out[rank]);
    CT_CHECK(&tally, got == want);
    if (got == 0) {
        s->missed++;
        fprintf(stderr, "MISSED %s %s %s %d %zu %s (rank %d)\n", s->desc->name,
                s->desc->uses_op ? ct_op_name(s->data.op) : "-", ct_dtype_name(s->data.dtype),
                s->data.nranks, s->block, fault, rank);
    }
    tally.checks++;
    if (got == 0)
        tally.failures++;
}

static unsigned char *elem(const sim_t *s, unsigned char *buf, size_t j) { return buf + j * s->ts; }

/* work = rank's correct output rotated by shift elements. */
static void plant_rotate(sim_t *s, int rank, size_t first, size_t len, size_t shift)
{
    memcpy(s->work, s->out[rank], s->c.recv_count * s->ts);
    for (size_t j = 0; j < len; j++)
        memcpy(elem(s, s->work, first + j), elem(s, s->out[rank], first + (j + shift) % len),
               s->ts);
}

/* work = rank's correct output with block a replaced by block b, and
 * (swap) b by a. */
static void plant_blocks(sim_t *s, int rank, size_t a, size_t b, int swap)
{
    size_t bytes = s->block * s->ts;
    memcpy(s->work, s->out[rank], s->c.recv_count * s->ts);
    memcpy(s->work + a * bytes, s->out[rank] + b * bytes, bytes);
    if (swap)
        memcpy(s->work + b * bytes, s->out[rank] + a * bytes, bytes);
}

static void plant_faults(sim_t *s, int r)
{
    int n = s->data.nranks;
    size_t rc = s->c.recv_count, nblocks = rc / s->block;
    char what[64];

    if (rc >= 2) {
        plant_rotate(s, r, 0, rc, 1);
        expect_caught(s, r, "rotated-left-by-1");
        plant_rotate(s, r, 0, rc, rc - 1);
        expect_caught(s, r, "rotated-right-by-1");
    }

    switch (s->desc->id) {
    case CT_COLL_REDUCE_SCATTER:
        for (int t = 0; t < n; t++) {
            if (t == r)
                continue;
            memcpy(s->work, s->out[t], rc * s->ts);
            snprintf(what, sizeof what, "block-of-rank-%d", t);
            expect_caught(s, r, what);
        }
        return;
    case CT_COLL_BROADCAST:
        for (int t = 0; t < n; t++) {
            if (t == s->data.root)
                continue;
            memcpy(s->work, s->in[t], rc * s->ts);
            snprintf(what, sizeof what, "input-of-non-root-%d", t);
            expect_caught(s, r, what);
        }
        break;
    case CT_COLL_ALLTOALL:
        for (int t = 0; t < n; t++) {
            if (t == r)
                continue;
            memcpy(s->work, s->out[t], rc * s->ts);
            snprintf(what, sizeof what, "output-of-rank-%d", t);
            expect_caught(s, r, what);
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
            plant_blocks(s, r, a, b, 0);
            snprintf(what, sizeof what, "%s-%zu-has-%s-%zu", unit, a, unit, b);
            expect_caught(s, r, what);
            if (a < b) {
                plant_blocks(s, r, a, b, 1);
                snprintf(what, sizeof what, "%ss-%zu-%zu-swapped", unit, a, b);
                expect_caught(s, r, what);
            }
        }
        if (s->block > 1) {
            plant_rotate(s, r, a * s->block, s->block, 1);
            snprintf(what, sizeof what, "%s-%zu-rotated-by-1", unit, a);
            expect_caught(s, r, what);
        }
    }
    if (!s->desc->splits_by_ranks && rc >= 2) {
        plant_rotate(s, r, 0, rc, rc / 2);
        expect_caught(s, r, "halves-swapped");
    }
}

/* One collective x type x op at nranks, with block elements per block. */
static int run_case(const ct_coll_desc_t *desc, ct_dtype_t dtype, ct_op_t op, int nranks, int root,
                    size_t block)
{
    sim_t s;
    memset(&s, 0, sizeof s);
    s.desc = desc;
    s.data.dtype = dtype;
    s.data.op = op;
    s.data.root = root;
    s.data.nranks = nranks;
    s.ts = ct_dtype_size(dtype);
    s.block = block;
    /* nranks blocks in every output: the gathered/scattered buffer, or a
     * row of nranks chunks for allreduce and broadcast. */
    desc->counts(s.ts * block * (size_t)nranks, s.ts, nranks, &s.c);

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
        simulate(&s, r, s.out[r]);

    for (int r = 0; r < nranks; r++) {
        ct_coll_data_t data = s.data;
        data.rank = r;
        size_t got = desc->check_recv(s.out[r], &s.c, &data);
        CT_CHECK(&tally, got == 0);
        if (got != 0)
            fprintf(stderr, "  %s %s %s n=%d block=%zu rank %d: correct output has %zu wrong\n",
                    desc->name, ct_op_name(op), ct_dtype_name(dtype), nranks, block, r, got);
        plant_faults(&s, r);
    }

    for (int r = 0; r < nranks; r++) {
        free(s.in[r]);
        free(s.out[r]);
    }
    free(s.work);
    return s.missed;
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
