/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_pattern.c - fill_send/check_recv of every collective, against a
 * collective simulated in-process (coll_sim.h).
 *
 * For nranks in {1,2,3,4,8}, every collective, dtype and (for reductions)
 * op: each rank's input comes from desc->fill_send; the simulator computes
 * what a correct collective delivers (reductions in double, stored back
 * through ct_dtype_store so integer results wrap like the type; data
 * movement byte for byte), and check_recv must count 0 wrong.  Then it plants errors (one element, three
 * elements, swapped blocks, a dropped rank, another rank's data, zeros, and
 * a no-op that leaves 0xff bytes) and check_recv must count exactly the
 * elements that differ from the correct output.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coll.h"
#include "coll_sim.h"
#include "ct_test.h"
#include "pattern.h"

static ct_test_tally_t tally;

/* One case: the simulated collective, and its name for the messages. */
typedef struct {
    ct_sim_t sim;
    char what[160];
} pattern_case_t;

/* Elements of a that differ from b. */
static size_t count_diff(const ct_sim_t *s, const void *a, const void *b)
{
    size_t n = 0;
    for (size_t j = 0; j < s->c.recv_count; j++) {
        double x = ct_dtype_load(a, j, s->data.dtype), y = ct_dtype_load(b, j, s->data.dtype);
        if (!(x == y))
            n++;
    }
    return n;
}

static size_t run_check(const ct_sim_t *s, int rank, const void *recv)
{
    ct_coll_data_t data = s->data;
    data.rank = rank;
    return s->desc->check_recv(recv, &s->c, &data);
}

static void expect_wrong(const pattern_case_t *pc, int rank, size_t want, const char *plant)
{
    size_t got = run_check(&pc->sim, rank, pc->sim.work);
    CT_CHECK(&tally, got == want);
    if (got != want)
        fprintf(stderr, "  %s rank %d, %s: check_recv = %zu, want %zu\n", pc->what, rank, plant,
                got, want);
}

/* Moves element j of work to the nearest larger value the type holds
 * (v+1 rounds back to v for large half or bfloat16 values). */
static void bump(ct_sim_t *s, size_t j)
{
    ct_dtype_t d = s->data.dtype;
    double v = ct_dtype_load(s->work, j, d);
    for (double step = 1.0; ct_dtype_load(s->work, j, d) == v; step *= 2.0)
        ct_dtype_store(s->work, j, d, v + step);
}

static void swap_blocks(ct_sim_t *s, size_t block, size_t a, size_t b)
{
    size_t bytes = block * s->ts;
    unsigned char *tmp = malloc(bytes);
    memcpy(tmp, s->work + a * bytes, bytes);
    memcpy(s->work + a * bytes, s->work + b * bytes, bytes);
    memcpy(s->work + b * bytes, tmp, bytes);
    free(tmp);
}

static void run_case(const ct_coll_desc_t *desc, ct_dtype_t dtype, ct_op_t op, int nranks, int root,
                     size_t bytes)
{
    pattern_case_t pc;
    memset(&pc, 0, sizeof pc);
    ct_sim_t *s = &pc.sim;
    ct_sim_setup(s, desc, dtype, op, nranks, root, bytes);
    snprintf(pc.what, sizeof pc.what, "%s %s %s n=%d root=%d bytes=%zu", desc->name,
             ct_dtype_name(dtype), desc->uses_op ? ct_op_name(op) : "-", nranks, root, bytes);
    size_t rbytes = s->c.recv_count * s->ts;

    for (int r = 0; r < nranks; r++) {
        size_t rc = s->c.recv_count;

        /* Correct output. */
        memcpy(s->work, s->out[r], rbytes);
        expect_wrong(&pc, r, 0, "correct output");

        /* One element off by one. */
        bump(s, rc / 2);
        expect_wrong(&pc, r, 1, "one element +1");

        /* Three elements: first, last, and one in between. */
        memcpy(s->work, s->out[r], rbytes);
        if (rc >= 3) {
            bump(s, 0);
            bump(s, rc - 1);
            bump(s, rc / 3 == 0 ? 1 : rc / 3);
            expect_wrong(&pc, r, 3, "three elements +1");
        }

        /* A no-op collective: the 0xff bytes the buffer was poisoned with. */
        memset(s->work, 0xff, rbytes);
        expect_wrong(&pc, r, rc, "0xff output (no-op)");

        /* All zeros: wrong wherever the correct value is non-zero. */
        memset(s->work, 0, rbytes);
        expect_wrong(&pc, r, count_diff(s, s->work, s->out[r]), "zero output");

        /* Structural mistakes, which need at least two ranks. */
        if (nranks < 2)
            continue;
        switch (desc->id) {
        case CT_COLL_ALLGATHER:
        case CT_COLL_ALLTOALL: {
            size_t block = desc->id == CT_COLL_ALLGATHER ? s->c.send_count : s->c.param_count;
            memcpy(s->work, s->out[r], rbytes);
            swap_blocks(s, block, 0, 1);
            size_t diff = count_diff(s, s->work, s->out[r]);
            /* Sources of different ranks differ. */
            CT_CHECK(&tally, diff > 0);
            expect_wrong(&pc, r, diff, "blocks 0 and 1 swapped");
            /* The rank's own send buffer delivered instead (alltoall) or a
             * shifted gather. */
            memcpy(s->work, s->out[r], rbytes);
            swap_blocks(s, block, 0, (size_t)nranks - 1);
            expect_wrong(&pc, r, count_diff(s, s->work, s->out[r]), "blocks 0 and n-1 swapped");
            break;
        }
        case CT_COLL_BROADCAST: {
            /* Another rank's data leaked through. */
            int other = (root + 1) % nranks;
            memcpy(s->work, s->in[other], rbytes);
            size_t diff = count_diff(s, s->work, s->out[r]);
            CT_CHECK(&tally, diff > 0);
            expect_wrong(&pc, r, diff, "non-root data");
            break;
        }
        case CT_COLL_ALLREDUCE:
        case CT_COLL_REDUCE_SCATTER: {
            /* A rank dropped from the reduction. */
            for (int skip = 0; skip < nranks; skip++) {
                ct_sim_simulate(s, r, skip, s->work);
                size_t diff = ct_sim_count_mismatch(s, s->work, s->out[r]);
                expect_wrong(&pc, r, diff, "rank dropped");
                /* Every rank's input shows somewhere: its 2s in prod, its
                 * non-zero terms in sum, its distinct values in min/max. */
                if (op != CT_OP_AVG) {
                    CT_CHECK(&tally, diff > 0);
                    if (diff == 0)
                        fprintf(stderr, "  %s rank %d: dropping rank %d changes nothing\n", pc.what,
                                r, skip);
                }
            }
            if (desc->id == CT_COLL_REDUCE_SCATTER) {
                /* Another rank's block of the reduction. */
                ct_sim_simulate(s, (r + 1) % nranks, -1, s->work);
                expect_wrong(&pc, r, count_diff(s, s->work, s->out[r]), "neighbour's block");
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
            ct_coll_data_t data = s->data;
            data.rank = r;
            desc->inplace(&s->c, r, &l);
            memset(s->work, 0xff, rbytes);
            desc->fill_send(s->work + l.send_offset * s->ts, &s->c, &data);
            size_t same = 0;
            for (size_t j = 0; j < s->c.send_count; j++)
                same += ct_dtype_load(s->work, l.send_offset + j, dtype) ==
                        ct_dtype_load(s->out[r], l.recv_offset + l.send_offset + j, dtype);
            CT_CHECK(&tally, same == s->c.send_count);
            /* Only the others' blocks are wrong before the collective runs. */
            expect_wrong(&pc, r, s->c.recv_count - s->c.send_count, "in-place before gather");
        }
    }

    ct_sim_free(s);
}

/* ---- the reduction patterns' own properties, up to 1000 ranks ---- */

static double op_apply(ct_op_t op, double acc, double v)
{
    switch (op) {
    case CT_OP_PROD: return acc * v;
    case CT_OP_MAX: return fmax(acc, v);
    case CT_OP_MIN: return fmin(acc, v);
    default: return acc + v;
    }
}

/* Whether the mean of exact inputs must be 0 everywhere: |sum| < nranks
 * for every sum the type holds exactly (documented in pattern.h). */
static int avg_has_no_room(ct_dtype_t d, int n)
{
    switch (d) {
    case CT_DTYPE_INT8: return n > 127;
    case CT_DTYPE_UINT8: return n > 254;
    case CT_DTYPE_BFLOAT16: return n > 256;
    case CT_DTYPE_HALF: return n > 2048;
    default: return 0;
    }
}

/* Signed types and floats draw a sign per element (pattern.h). */
static int is_signed_type(ct_dtype_t d)
{
    return ct_dtype_is_float(d) || d == CT_DTYPE_INT8 || d == CT_DTYPE_INT32 || d == CT_DTYPE_INT64;
}

/* Negative expected values prop_case saw, per type and op. */
static int negatives_seen[CT_DTYPE_COUNT][CT_OP_COUNT];

/* For G elements from global index first: every input holds exactly in
 * the type; reducing them in rank order and in reverse order, rounding to
 * the type after every step, gives exactly the expected value (avg: sum,
 * then divide); no expected value reads like the 0xff poison; expected
 * values vary with the index; and (G >= nranks) dropping any one rank
 * changes some result, except for avg. */
static void prop_case(ct_dtype_t d, ct_op_t op, int n, size_t first, size_t G)
{
    ct_coll_data_t data = {d, op, 0, 0, n};
    size_t ts = ct_dtype_size(d);
    unsigned char *in = malloc((size_t)n * G * ts), *poison = malloc(ts);
    double *want = malloc(G * sizeof *want);
    int bad_input = 0, bad_reduce = 0, poisoned = 0, same_neighbours = 0, distinct = 0;
    /* distinct: values unlike want[0], plus one */
    int invisible = 0;
    int negative = 0; /* expected values below 0 */

    memset(poison, 0xff, ts);
    for (int r = 0; r < n; r++) {
        data.rank = r;
        ct_pattern_fill_reduce(in + (size_t)r * G * ts, G, first, &data);
    }
    for (size_t j = 0; j < G; j++) {
        want[j] = ct_pattern_reduce_expected(&data, first + j);
        double fwd = 0.0, bwd = 0.0, sum = 0.0;
        for (int k = 0; k < n; k++) {
            double vf = ct_dtype_load(in + (size_t)k * G * ts, j, d);
            double vb = ct_dtype_load(in + (size_t)(n - 1 - k) * G * ts, j, d);
            /* The stored input is the unrounded one (sampled: costly). */
            if ((k * 7 + (int)j) % 13 == 0 && vf != ct_pattern_reduce_input(&data, k, first + j))
                bad_input++;
            fwd = k == 0 ? vf : ct_dtype_represent(d, op_apply(op, fwd, vf));
            bwd = k == 0 ? vb : ct_dtype_represent(d, op_apply(op, bwd, vb));
            sum += vf;
        }
        if (op == CT_OP_AVG) {
            double mean = ct_dtype_represent(d, ct_dtype_is_float(d) ? fwd / n : trunc(fwd / n));
            bad_reduce += fwd != sum || !ct_pattern_matches(&data, mean, want[j]);
        } else {
            bad_reduce += fwd != want[j] || bwd != want[j];
        }
        poisoned += ct_pattern_matches(&data, ct_dtype_load(poison, 0, d), want[j]);
        poisoned += ct_dtype_represent(d, want[j]) != want[j];
        if (j > 0)
            same_neighbours += want[j] == want[j - 1];
        distinct += j == 0 || want[j] != want[0];
        negative += want[j] < 0;
    }
    if (op != CT_OP_AVG && G >= (size_t)n && n > 1) {
        /* The reduction without rank k is op(prefix[k-1], suffix[k+1]). */
        double *pre = malloc((size_t)n * sizeof *pre), *suf = malloc((size_t)n * sizeof *suf);
        char *seen = calloc((size_t)n, 1);
        for (size_t j = 0; j < G; j++) {
            for (int k = 0; k < n; k++) {
                double v = ct_dtype_load(in + (size_t)k * G * ts, j, d);
                pre[k] = k == 0 ? v : op_apply(op, pre[k - 1], v);
            }
            for (int k = n - 1; k >= 0; k--) {
                double v = ct_dtype_load(in + (size_t)k * G * ts, j, d);
                suf[k] = k == n - 1 ? v : op_apply(op, suf[k + 1], v);
            }
            for (int k = 0; k < n; k++) {
                double without = k == 0       ? suf[1]
                                 : k == n - 1 ? pre[n - 2]
                                              : op_apply(op, pre[k - 1], suf[k + 1]);
                seen[k] |= without != want[j];
            }
        }
        for (int k = 0; k < n; k++)
            invisible += !seen[k];
        free(pre);
        free(suf);
        free(seen);
    }

    int fixed = op == CT_OP_AVG && avg_has_no_room(d, n);
    CT_CHECK(&tally, bad_input == 0);
    CT_CHECK(&tally, bad_reduce == 0);
    CT_CHECK(&tally, poisoned == 0);
    CT_CHECK(&tally, n == 1 || fixed || distinct >= 2);
    /* Inside a window of the stream all values differ; equal neighbours
     * only where a window starts, and only where few values exist. */
    CT_CHECK(&tally, fixed || same_neighbours <= (int)G / 2);
    CT_CHECK(&tally, invisible == 0);
    /* Unsigned results are never negative; signed ones are counted for
     * the check in main. */
    if (!is_signed_type(d))
        CT_CHECK(&tally, negative == 0);
    negatives_seen[d][op] += negative;
    if (bad_input || bad_reduce || poisoned || (n > 1 && !fixed && distinct < 2) ||
        (!fixed && same_neighbours > (int)G / 2) || invisible)
        fprintf(stderr,
                "  pattern %s %s n=%d: %d inexact inputs, %d inexact results, %d poison-like, "
                "%d values unlike the first's, %d equal neighbours, %d invisible ranks, "
                "%d negative\n",
                ct_dtype_name(d), ct_op_name(op), n, bad_input, bad_reduce, poisoned, distinct,
                same_neighbours, invisible, negative);
    free(in);
    free(poison);
    free(want);
}

/* NCCL's avg on floats: each rank's x times 1/n (both rounded to the
 * type), summed in the type; in rank order, in reverse, and pairwise (a
 * tree).  ct_pattern_matches must accept all of them: its tolerance is an
 * error bound, not a guess. */
static double premul_tree(const double *t, int lo, int hi, ct_dtype_t d)
{
    if (hi - lo == 1)
        return t[lo];
    int mid = (lo + hi) / 2;
    return ct_dtype_represent(d, premul_tree(t, lo, mid, d) + premul_tree(t, mid, hi, d));
}

static void avg_premul_case(ct_dtype_t d, int n, size_t G)
{
    ct_coll_data_t data = {d, CT_OP_AVG, 0, 0, n};
    double scale = ct_dtype_represent(d, 1.0 / n);
    double *t = malloc((size_t)n * sizeof *t);
    int rejected = 0;

    for (size_t g = 0; g < G; g++) {
        double want = ct_pattern_reduce_expected(&data, g), fwd = 0.0, bwd = 0.0;
        for (int r = 0; r < n; r++)
            t[r] = ct_dtype_represent(d, ct_pattern_reduce_input(&data, r, g) * scale);
        for (int r = 0; r < n; r++) {
            fwd = ct_dtype_represent(d, fwd + t[r]);
            bwd = ct_dtype_represent(d, bwd + t[n - 1 - r]);
        }
        rejected += !ct_pattern_matches(&data, fwd, want);
        rejected += !ct_pattern_matches(&data, bwd, want);
        rejected += !ct_pattern_matches(&data, premul_tree(t, 0, n, d), want);
        /* A neighbouring mean is never accepted. */
        rejected += ct_pattern_matches(&data, want + 1.0, want);
        rejected += ct_pattern_matches(&data, want - 1.0, want);
    }
    CT_CHECK(&tally, rejected == 0);
    if (rejected)
        fprintf(stderr, "  avg premul %s n=%d: %d mismatches\n", ct_dtype_name(d), n, rejected);
    free(t);
}

/* Data movement at many ranks (the old source pattern repeated every 97
 * ranks): with b elements per rank, no two ranks' blocks of the stream are
 * equal, and no block equals the stream shifted by one element.  Blocks
 * in one window always differ; across windows they are independent draws,
 * so an 8-bit type with one or two elements per block can repeat a block
 * by chance (1 in 254^b per pair) once the ranks outnumber a window (128
 * elements): those are left out. */
static void source_case(ct_dtype_t d, int n, size_t b)
{
    size_t N = (size_t)n * b + 1;
    double *v = malloc(N * sizeof *v);
    unsigned char *buf = malloc(N * ct_dtype_size(d));
    int equal_pairs = 0, equal_shifted = 0;
    size_t wrong;

    ct_pattern_fill_source(buf, N, 0, d);
    for (size_t g = 0; g < N; g++)
        v[g] = ct_dtype_load(buf, g, d);
    /* The fill and the random-access view agree, and the checker accepts
     * the stream from any start. */
    CT_CHECK(&tally, v[N / 2] == ct_pattern_source(d, N / 2));
    wrong = ct_pattern_check_source(buf + b * ct_dtype_size(d), N - b, b, d);
    CT_CHECK(&tally, wrong == 0);
    for (int s = 0; s < n; s++) {
        equal_shifted += memcmp(v + (size_t)s * b, v + (size_t)s * b + 1, b * sizeof *v) == 0;
        for (int t = s + 1; t < n; t++)
            equal_pairs += memcmp(v + (size_t)s * b, v + (size_t)t * b, b * sizeof *v) == 0;
    }
    CT_CHECK(&tally, equal_pairs == 0 && equal_shifted == 0);
    if (equal_pairs || equal_shifted)
        fprintf(stderr, "  source %s n=%d block=%zu: %d equal pairs, %d equal to a shift\n",
                ct_dtype_name(d), n, b, equal_pairs, equal_shifted);
    free(v);
    free(buf);
}

/* The nearest value above (dir > 0) or below v that dtype holds: one ulp
 * away (steps double from far below half an ulp, so the first step that
 * changes the stored value lands on the neighbour). */
static double ulp_step(ct_dtype_t d, double v, int dir)
{
    double step = ldexp(1.0, ilogb(v == 0.0 ? 1.0 : v) - 70);
    double w = v;
    for (; w == v; step *= 2.0)
        w = ct_dtype_represent(d, dir > 0 ? v + step : v - step);
    return w;
}

/* The tolerance is for avg on floats only: sum, prod, min and max of the
 * pattern are exact (integers the type holds, and the reductions of
 * them), so a result one ulp off, the smallest corruption a float can
 * have, is exactly one wrong element.  The float bound avg is allowed is
 * wider than an ulp (relative 2u at most, the bound (n+1)u and more), so
 * a tolerance leaking to the other ops would hide this; avg accepts it. */
static void ulp_case(const ct_coll_desc_t *desc, ct_dtype_t dtype, ct_op_t op, int nranks)
{
    pattern_case_t pc;
    memset(&pc, 0, sizeof pc);
    ct_sim_t *s = &pc.sim;
    ct_sim_setup(s, desc, dtype, op, nranks, 0, ct_dtype_size(dtype) * (size_t)nranks * 37);
    snprintf(pc.what, sizeof pc.what, "%s %s %s n=%d", desc->name, ct_dtype_name(dtype),
             ct_op_name(op), nranks);
    size_t rc = s->c.recv_count, rbytes = rc * s->ts, want = op == CT_OP_AVG ? 0 : 1;
    for (int r = 0; r < nranks; r++) {
        /* About 16 elements spread over the buffer, the last included. */
        for (size_t j = 0, step = 1 + rc / 16; j < rc;
             j = j + 1 < rc && j + step >= rc ? rc - 1 : j + step) {
            double v = ct_dtype_load(s->out[r], j, dtype);
            for (int dir = -1; dir <= 1; dir += 2) {
                char plant[64];
                memcpy(s->work, s->out[r], rbytes);
                ct_dtype_store(s->work, j, dtype, ulp_step(dtype, v, dir));
                snprintf(plant, sizeof plant, "element %zu (%g) one ulp %s", j, v,
                         dir > 0 ? "up" : "down");
                expect_wrong(&pc, r, want, plant);
            }
        }
    }
    ct_sim_free(s);
}

/* ct_pattern_matches, at its boundary: for avg on floats, |got - want| <=
 * min(gamma * max(1, |want|), 0.45) with gamma = k*u / (1 - k*u), k = the
 * non-zero terms + 1 (nranks up to 16 ranks, 1 beyond), u the type's unit
 * roundoff; everything else exact.  NaN never matches. */
static void tolerance_case(ct_dtype_t d, ct_op_t op, int n)
{
    ct_coll_data_t data = {d, op, 0, 0, n};
    double u = 0.0;
    switch (d) {
    case CT_DTYPE_HALF: u = ldexp(1.0, -11); break;
    case CT_DTYPE_BFLOAT16: u = ldexp(1.0, -8); break;
    case CT_DTYPE_FLOAT: u = ldexp(1.0, -24); break;
    case CT_DTYPE_DOUBLE: u = ldexp(1.0, -53); break;
    default: break;
    }
    double terms = n <= 16 ? (double)n : 1.0, ku = (terms + 1.0) * u;
    double gamma = op == CT_OP_AVG && u > 0.0 ? ku / (1.0 - ku) : 0.0;
    int bad = 0;
    static const double wants[] = {0.0, 1.0, 3.0, -7.0, 100.0, -1e9};
    for (size_t w = 0; w < sizeof wants / sizeof wants[0]; w++) {
        double want = wants[w];
        bad += !ct_pattern_matches(&data, want, want);
        bad += ct_pattern_matches(&data, NAN, want);
        if (gamma == 0.0) {
            bad += ct_pattern_matches(&data, nextafter(want, INFINITY), want);
            bad += ct_pattern_matches(&data, nextafter(want, -INFINITY), want);
            continue;
        }
        double tol = fmin(gamma * fmax(1.0, fabs(want)), 0.45);
        /* Only where a double resolves a hundredth of the bound at want
         * (double avg: want 0 only). */
        if (fabs(want) * DBL_EPSILON > 0.001 * tol)
            continue;
        bad += !ct_pattern_matches(&data, want + 0.99 * tol, want);
        bad += !ct_pattern_matches(&data, want - 0.99 * tol, want);
        bad += ct_pattern_matches(&data, want + 1.01 * tol, want);
        bad += ct_pattern_matches(&data, want - 1.01 * tol, want);
    }
    if (gamma > 0.0) {
        /* Exactly at the bound (want 0: the difference is gamma itself). */
        bad += !ct_pattern_matches(&data, gamma, 0.0);
        bad += !ct_pattern_matches(&data, -gamma, 0.0);
        bad += ct_pattern_matches(&data, nextafter(gamma, INFINITY), 0.0);
    }
    CT_CHECK(&tally, bad == 0);
    if (bad)
        fprintf(stderr, "  tolerance %s %s n=%d (gamma %g): %d wrong answers\n", ct_dtype_name(d),
                ct_op_name(op), n, gamma, bad);
}

/* The data-movement stream is what pattern.c documents: its codes are
 * the type's values in [lo, hi] less -1, lo + code (+1 from -1 on), and
 * inside each window of 2^bits elements (bits the largest with 2^(bits+1)
 * <= codes, at most 16) the codes step by one multiplier modulo the number
 * of codes.  A stream over fewer or more values (one range end lost or
 * gained) breaks the step where it wraps around. */
static void source_stream_case(ct_dtype_t d, int64_t lo, int64_t hi)
{
    uint64_t codes = (uint64_t)(hi - lo) + 1 - (lo < 0);
    unsigned bits = 0;
    while (bits < 16 && (UINT64_C(2) << bits) <= codes)
        bits++;
    size_t window = (size_t)1 << bits, N = 3 * window + 5;
    unsigned char *buf = malloc(N * ct_dtype_size(d));
    int out_of_range = 0, bad_steps = 0, wraps = 0;
    uint64_t prev = 0, step = 0;

    ct_pattern_fill_source(buf, N, 0, d);
    for (size_t g = 0; g < N; g++) {
        double v = ct_dtype_load(buf, g, d);
        if (v < (double)lo || v > (double)hi || (lo < 0 && v == -1.0) || v != floor(v)) {
            out_of_range++;
            continue;
        }
        uint64_t code = (uint64_t)((int64_t)v - lo) - (lo < 0 && v > -1.0);
        if (g % window == 1)
            step = (code + codes - prev) % codes;
        else if (g % window > 1) {
            bad_steps += (prev + step) % codes != code;
            wraps += code < prev;
        }
        prev = code;
    }
    CT_CHECK(&tally, out_of_range == 0 && bad_steps == 0 && wraps > 0);
    if (out_of_range || bad_steps || wraps == 0)
        fprintf(stderr,
                "  source stream %s [%lld, %lld]: %d values out of range, %d steps off, %d "
                "wraps\n",
                ct_dtype_name(d), (long long)lo, (long long)hi, out_of_range, bad_steps, wraps);
    free(buf);
}

int main(void)
{
    /* The source stream's range per type (pattern.c's ct_pattern_type):
     * 64-bit types and double keep to 32-bit ranges, half and bfloat16 to
     * their exact integers, unsigned types stop short of all ones. */
    {
        const int64_t i31 = INT64_C(1) << 31, u32 = (INT64_C(1) << 32) - 2;
        const int64_t f24 = INT64_C(1) << 24;
        source_stream_case(CT_DTYPE_INT8, -128, 127);
        source_stream_case(CT_DTYPE_UINT8, 0, 254);
        source_stream_case(CT_DTYPE_INT32, -i31, i31 - 1);
        source_stream_case(CT_DTYPE_UINT32, 0, u32);
        source_stream_case(CT_DTYPE_INT64, -i31, i31 - 1);
        source_stream_case(CT_DTYPE_UINT64, 0, u32);
        source_stream_case(CT_DTYPE_HALF, -2048, 2048);
        source_stream_case(CT_DTYPE_FLOAT, -f24, f24);
        source_stream_case(CT_DTYPE_DOUBLE, -i31, i31 - 1);
        source_stream_case(CT_DTYPE_BFLOAT16, -256, 256);
    }

    static const int tol_nranks[] = {1, 2, 3, 15, 16, 17, 1000};
    for (size_t k = 0; k < sizeof tol_nranks / sizeof tol_nranks[0]; k++)
        for (int d = 0; d < CT_DTYPE_COUNT; d++)
            for (int op = 0; op < CT_OP_COUNT; op++)
                tolerance_case((ct_dtype_t)d, (ct_op_t)op, tol_nranks[k]);

    static const int ulp_nranks[] = {1, 2, 3, 8};
    static const ct_dtype_t ulp_floats[] = {CT_DTYPE_HALF, CT_DTYPE_BFLOAT16, CT_DTYPE_FLOAT,
                                            CT_DTYPE_DOUBLE};
    for (size_t k = 0; k < sizeof ulp_nranks / sizeof ulp_nranks[0]; k++)
        for (size_t f = 0; f < sizeof ulp_floats / sizeof ulp_floats[0]; f++)
            for (int op = 0; op < CT_OP_COUNT; op++) {
                ulp_case(&ct_coll_allreduce, ulp_floats[f], (ct_op_t)op, ulp_nranks[k]);
                ulp_case(&ct_coll_reduce_scatter, ulp_floats[f], (ct_op_t)op, ulp_nranks[k]);
            }

    static const int source_nranks[] = {97, 128, 194, 300};
    static const size_t source_blocks[] = {1, 2, 3, 97};
    for (size_t k = 0; k < sizeof source_nranks / sizeof source_nranks[0]; k++)
        for (size_t b = 0; b < sizeof source_blocks / sizeof source_blocks[0]; b++)
            for (int d = 0; d < CT_DTYPE_COUNT; d++)
                if (ct_dtype_size((ct_dtype_t)d) > 1 || source_blocks[b] > 2 ||
                    source_nranks[k] * source_blocks[b] <= 128)
                    source_case((ct_dtype_t)d, source_nranks[k], source_blocks[b]);

    static const int prop_nranks[] = {1,  2,  3,  4,   5,   7,   8,   16,  17,
                                      31, 64, 97, 128, 255, 256, 257, 1000};
    for (size_t k = 0; k < sizeof prop_nranks / sizeof prop_nranks[0]; k++) {
        int n = prop_nranks[k];
        for (int d = 0; d < CT_DTYPE_COUNT; d++) {
            for (int op = 0; op < CT_OP_COUNT; op++) {
                /* More than n elements, so that every rank plays every
                 * part; a few times over for prod, where the part that
                 * holds the odd factor shows only if the product is not 1
                 * (an 8-bit type has 64 products). */
                size_t G = (size_t)n * (op == CT_OP_PROD ? 3 : 1) + 64;
                prop_case((ct_dtype_t)d, (ct_op_t)op, n, (size_t)n * 40503u, n > 257 ? 256 : G);
            }
        }
    }
    /* Over all those rank counts (streams of their own), every op of a
     * signed type gave negative results: the sign is drawn for each. */
    for (int d = 0; d < CT_DTYPE_COUNT; d++)
        for (int op = 0; op < CT_OP_COUNT; op++)
            if (is_signed_type((ct_dtype_t)d)) {
                CT_CHECK(&tally, negatives_seen[d][op] > 0);
                if (negatives_seen[d][op] == 0)
                    fprintf(stderr, "  pattern %s %s: no negative result at any nranks\n",
                            ct_dtype_name((ct_dtype_t)d), ct_op_name((ct_op_t)op));
            }
    static const int premul_nranks[] = {2, 3, 4, 5, 6, 7, 8, 9, 12, 15, 16, 17, 24, 100, 256};
    static const ct_dtype_t floats[] = {CT_DTYPE_HALF, CT_DTYPE_BFLOAT16, CT_DTYPE_FLOAT,
                                        CT_DTYPE_DOUBLE};
    for (size_t k = 0; k < sizeof premul_nranks / sizeof premul_nranks[0]; k++)
        for (size_t f = 0; f < sizeof floats / sizeof floats[0]; f++)
            avg_premul_case(floats[f], premul_nranks[k], 200);

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
    /* Long buffers: past the stream's 2^16-element windows. */
    run_case(&ct_coll_broadcast, CT_DTYPE_FLOAT, CT_OP_SUM, 3, 2, 4 * 70001);
    run_case(&ct_coll_allgather, CT_DTYPE_INT32, CT_OP_SUM, 2, 0, 4 * 2 * 40007);
    run_case(&ct_coll_alltoall, CT_DTYPE_INT64, CT_OP_SUM, 2, 0, 8 * 2 * 40007);
    run_case(&ct_coll_allreduce, CT_DTYPE_FLOAT, CT_OP_SUM, 2, 0, 4 * 70000);
    run_case(&ct_coll_allreduce, CT_DTYPE_BFLOAT16, CT_OP_MAX, 8, 0, 2 * 20000);
    run_case(&ct_coll_reduce_scatter, CT_DTYPE_HALF, CT_OP_AVG, 3, 0, 2 * 3 * 5000);
    return CT_DONE(&tally);
}
