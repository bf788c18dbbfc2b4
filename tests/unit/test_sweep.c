/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_sweep.c - the sizes of a sweep (-b/-e/-f/-i), their filtering per
 * collective, dtype and rank count, and the per-rank memory estimate.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ct_test.h"
#include "sizes.h"

static ct_test_tally_t tally;
static char err[512];

static ct_options_t opts_for(size_t b, size_t e, size_t factor, size_t step)
{
    ct_options_t o;
    memset(&o, 0, sizeof o);
    o.min_bytes = b;
    o.max_bytes = e;
    o.step_factor = factor;
    o.step_bytes = step;
    return o;
}

/* Runs ct_sweep_sizes and compares with want[0..nwant). */
static void check_sizes(int line, size_t b, size_t e, size_t factor, size_t step,
                        const size_t *want, size_t nwant)
{
    ct_options_t o = opts_for(b, e, factor, step);
    size_t *sizes = NULL, n = 0;
    ct_status_t st = ct_sweep_sizes(&o, &sizes, &n, err, sizeof err);
    int ok = st == CT_OK && n == nwant;
    for (size_t i = 0; ok && i < n; i++)
        ok = sizes[i] == want[i];
    tally.checks++;
    if (!ok) {
        tally.failures++;
        fprintf(stderr, "%s:%d: sweep -b %zu -e %zu -f %zu -i %zu: status %d, %zu sizes\n",
                __FILE__, line, b, e, factor, step, (int)st, n);
    }
    free(sizes);
}

static int has(const char *needle)
{
    int ok = strstr(err, needle) != NULL;
    if (!ok)
        fprintf(stderr, "  \"%s\" lacks \"%s\"\n", err, needle);
    return ok;
}

static ct_sweep_notes_t notes;

/* ct_sweep_filter on sizes[0..n), with a backend's count limit; the notes
 * land in the file's notes, and *skipped mirrors notes.skipped. */
static ct_status_t filter_max(const size_t *sizes, size_t n, const ct_coll_desc_t *coll,
                              ct_dtype_t dtype, int nranks, size_t max_count, size_t *valid,
                              size_t *nvalid, size_t *skipped)
{
    ct_sweep_target_t t = {coll, dtype, nranks, max_count, "the backend's reason"};
    err[0] = '\0';
    *nvalid = *skipped = 9999;
    memset(&notes, 0xab, sizeof notes);
    ct_status_t st = ct_sweep_filter(sizes, n, &t, valid, nvalid, &notes, err, sizeof err);
    if (st == CT_OK)
        *skipped = notes.skipped;
    return st;
}

/* ct_sweep_filter on sizes[0..n), no count limit. */
static ct_status_t filter(const size_t *sizes, size_t n, const ct_coll_desc_t *coll,
                          ct_dtype_t dtype, int nranks, size_t *valid, size_t *nvalid,
                          size_t *skipped)
{
    return filter_max(sizes, n, coll, dtype, nranks, 0, valid, nvalid, skipped);
}

/* valid[0..n) equals want[0..n). */
static int same(const size_t *valid, size_t nvalid, const size_t *want, size_t nwant)
{
    if (nvalid != nwant)
        return 0;
    for (size_t i = 0; i < nwant; i++)
        if (valid[i] != want[i])
            return 0;
    return 1;
}

int main(void)
{
    /* -b 8 -e 16M -f 2: 8, 16, ..., 16M = 2^3..2^24, 22 sizes. */
    {
        size_t want[22];
        for (int i = 0; i < 22; i++)
            want[i] = (size_t)8 << i;
        check_sizes(__LINE__, 8, (size_t)16 << 20, 2, (size_t)1 << 20, want, 22);
    }
    /* -b 1K -e 4K -i 1K, and an -e that is not on the grid. */
    {
        const size_t want[] = {1024, 2048, 3072, 4096};
        check_sizes(__LINE__, 1024, 4096, 0, 1024, want, 4);
        check_sizes(__LINE__, 1024, 4000, 0, 1024, want, 3);
        check_sizes(__LINE__, 1024, 4096, 1, 1024, want, 4); /* -f 1 adds -i */
    }
    /* -f 3 from 1 to 100. */
    {
        const size_t want[] = {1, 3, 9, 27, 81};
        check_sizes(__LINE__, 1, 100, 3, 0, want, 5);
    }
    /* A single size, with or without a step. */
    {
        const size_t want[] = {(size_t)32 << 20};
        check_sizes(__LINE__, (size_t)32 << 20, (size_t)32 << 20, 0, (size_t)1 << 20, want, 1);
        check_sizes(__LINE__, (size_t)32 << 20, (size_t)32 << 20, 0, 0, want, 1);
        check_sizes(__LINE__, (size_t)32 << 20, (size_t)32 << 20, 2, 0, want, 1);
    }
    /* Exactly CT_SWEEP_MAX_SIZES sizes is fine. */
    {
        size_t *want = malloc(CT_SWEEP_MAX_SIZES * sizeof *want);
        for (size_t i = 0; i < CT_SWEEP_MAX_SIZES; i++)
            want[i] = i + 1;
        check_sizes(__LINE__, 1, CT_SWEEP_MAX_SIZES, 0, 1, want, CT_SWEEP_MAX_SIZES);
        free(want);
    }
    /* One more, or -b 1 -e 1M -i 1, is an error that points at -i. */
    {
        size_t ends[] = {CT_SWEEP_MAX_SIZES + 1, (size_t)1 << 20};
        for (int k = 0; k < 2; k++) {
            ct_options_t o = opts_for(1, ends[k], 0, 1);
            size_t *sizes = (size_t *)&tally, n = 12345; /* must stay untouched */
            err[0] = '\0';
            ct_status_t st = ct_sweep_sizes(&o, &sizes, &n, err, sizeof err);
            CT_CHECK(&tally, st == CT_ERR_USAGE);
            CT_CHECK(&tally, has("-i"));
            CT_CHECK(&tally, has("4096"));
            CT_CHECK(&tally, sizes == (size_t *)&tally && n == 12345);
        }
    }
    /* Sizes near SIZE_MAX stop instead of wrapping around. */
    {
        ct_options_t o = opts_for(1, SIZE_MAX, 2, 0);
        size_t *sizes = NULL, n = 0;
        CT_CHECK(&tally, ct_sweep_sizes(&o, &sizes, &n, err, sizeof err) == CT_OK);
        CT_CHECK(&tally, n == sizeof(size_t) * 8);
        int ascending = 1;
        for (size_t i = 1; i < n; i++)
            ascending &= sizes[i] > sizes[i - 1];
        CT_CHECK(&tally, ascending && n > 0 && sizes[n - 1] == (SIZE_MAX >> 1) + 1);
        free(sizes);
        o = opts_for(SIZE_MAX - 10, SIZE_MAX, 0, 4);
        sizes = NULL;
        CT_CHECK(&tally, ct_sweep_sizes(&o, &sizes, &n, err, sizeof err) == CT_OK);
        CT_CHECK(&tally, n == 3 && sizes && sizes[2] == SIZE_MAX - 2);
        free(sizes);
    }

    size_t valid[16], nvalid, skipped;

    /* A size that is not a whole number of elements is rounded down to one
     * that is, as nccl-tests does (D7), and said so in the notes. */
    {
        const size_t sizes[] = {6, 8, 16};
        const size_t want[] = {4, 8, 16};
        CT_CHECK(&tally, filter(sizes, 3, &ct_coll_allreduce, CT_DTYPE_INT32, 2, valid, &nvalid,
                                &skipped) == CT_OK);
        CT_CHECK(&tally, same(valid, nvalid, want, 3));
        CT_CHECK(&tally, notes.rounded == 1 && notes.dropped == 0 && skipped == 0);
        CT_CHECK(&tally, notes.example_from == 6 && notes.example_to == 4);
        /* Below one element: skipped, as before. */
        const size_t odd[] = {1, 3};
        const size_t want_odd[] = {2};
        CT_CHECK(&tally, filter(odd, 2, &ct_coll_broadcast, CT_DTYPE_HALF, 1, valid, &nvalid,
                                &skipped) == CT_OK);
        CT_CHECK(&tally, same(valid, nvalid, want_odd, 1) && skipped == 1 && notes.rounded == 1);
    }
    /* allgather, 4 ranks, float: 16 B granularity; 8 B is skipped. */
    {
        const size_t sizes[] = {8, 16, 32, 64};
        CT_CHECK(&tally, filter(sizes, 4, &ct_coll_allgather, CT_DTYPE_FLOAT, 4, valid, &nvalid,
                                &skipped) == CT_OK);
        CT_CHECK(&tally, nvalid == 3 && skipped == 1 && notes.rounded == 0);
        CT_CHECK(&tally, valid[0] == 16 && valid[1] == 32 && valid[2] == 64);

        const size_t two_small[] = {4, 8, 16, 48};
        CT_CHECK(&tally, filter(two_small, 4, &ct_coll_allgather, CT_DTYPE_FLOAT, 4, valid, &nvalid,
                                &skipped) == CT_OK);
        CT_CHECK(&tally, nvalid == 2 && skipped == 2 && valid[0] == 16 && valid[1] == 48);

        /* 24 rounds down to 16, already in the sweep: it runs once. */
        const size_t dup[] = {8, 16, 24, 40};
        const size_t want_dup[] = {16, 32};
        CT_CHECK(&tally, filter(dup, 4, &ct_coll_allgather, CT_DTYPE_FLOAT, 4, valid, &nvalid,
                                &skipped) == CT_OK);
        CT_CHECK(&tally, same(valid, nvalid, want_dup, 2));
        CT_CHECK(&tally, skipped == 1 && notes.rounded == 2 && notes.dropped == 1);
        CT_CHECK(&tally, notes.example_from == 24 && notes.example_to == 16);

        const size_t below[] = {4, 8, 12};
        CT_CHECK(&tally, filter(below, 3, &ct_coll_allgather, CT_DTYPE_FLOAT, 4, valid, &nvalid,
                                &skipped) == CT_ERR_USAGE);
        CT_CHECK(&tally, has("16") && has("-e"));
        CT_CHECK(&tally, nvalid == 9999);
    }
    /* -b 8 -e 128M -f 2 (the failing case of D7) at 3, 5, 6, 12 and 24
     * ranks: every size becomes the nearest multiple of 4 * nranks below
     * it, distinct and ascending, for every splitting collective. */
    {
        const ct_coll_desc_t *split[] = {&ct_coll_allgather, &ct_coll_alltoall,
                                         &ct_coll_reduce_scatter};
        const int ranks[] = {3, 5, 6, 12, 24};
        size_t sizes[25], big[25];
        for (int i = 0; i < 25; i++)
            sizes[i] = (size_t)8 << i; /* 8 .. 128M */
        for (int k = 0; k < 3; k++) {
            for (int r = 0; r < 5; r++) {
                size_t gran = 4 * (size_t)ranks[r];
                CT_CHECK(&tally, filter(sizes, 25, split[k], CT_DTYPE_FLOAT, ranks[r], big, &nvalid,
                                        &skipped) == CT_OK);
                int ok = nvalid + skipped + notes.dropped == 25;
                for (size_t i = 0; ok && i < nvalid; i++)
                    ok = big[i] % gran == 0 && big[i] + gran > sizes[25 - nvalid + i] &&
                         big[i] <= sizes[25 - nvalid + i] && (i == 0 || big[i] > big[i - 1]);
                CT_CHECK(&tally, ok);
                CT_CHECK(&tally,
                         notes.rounded > 0 && big[nvalid - 1] == ((size_t)128 << 20) / gran * gran);
            }
        }
    }
    /* The other splitting collectives behave the same. */
    {
        const ct_coll_desc_t *split[] = {&ct_coll_alltoall, &ct_coll_reduce_scatter};
        for (int k = 0; k < 2; k++) {
            const size_t sizes[] = {8, 16, 32};
            CT_CHECK(&tally, filter(sizes, 3, split[k], CT_DTYPE_FLOAT, 4, valid, &nvalid,
                                    &skipped) == CT_OK);
            CT_CHECK(&tally, nvalid == 2 && skipped == 1 && valid[0] == 16);
            const size_t odd[] = {40};
            CT_CHECK(&tally, filter(odd, 1, split[k], CT_DTYPE_FLOAT, 4, valid, &nvalid,
                                    &skipped) == CT_OK);
            CT_CHECK(&tally, nvalid == 1 && valid[0] == 32 && notes.rounded == 1);
        }
    }
    /* allreduce and broadcast (root or not) only need whole elements. */
    {
        const ct_coll_desc_t *whole[] = {&ct_coll_allreduce, &ct_coll_broadcast};
        for (int k = 0; k < 2; k++) {
            const size_t sizes[] = {4, 8, 12, 24};
            CT_CHECK(&tally, filter(sizes, 4, whole[k], CT_DTYPE_FLOAT, 4, valid, &nvalid,
                                    &skipped) == CT_OK);
            CT_CHECK(&tally, nvalid == 4 && skipped == 0 && valid[0] == 4 && valid[2] == 12);
            CT_CHECK(&tally, notes.rounded == 0 && notes.dropped == 0);
            CT_CHECK(&tally, filter(sizes, 4, whole[k], CT_DTYPE_FLOAT, 64, valid, &nvalid,
                                    &skipped) == CT_OK);
            CT_CHECK(&tally, nvalid == 4 && skipped == 0);
        }
    }
    /* The run's one note names each rounded collective and type once. */
    {
        char note[512] = "";
        ct_sweep_target_t ag = {&ct_coll_allgather, CT_DTYPE_FLOAT, 3, 0, NULL};
        ct_sweep_target_t ar = {&ct_coll_allreduce, CT_DTYPE_FLOAT, 3, 0, NULL};
        ct_sweep_notes_t some = {0, 18, 0, 16, 12}, none = {1, 0, 0, 0, 0};
        ct_sweep_note_rounded(note, sizeof note, &ag, &some);
        ct_sweep_note_rounded(note, sizeof note, &ar, &none);
        ct_sweep_note_rounded(note, sizeof note, &ag, &some); /* another op */
        CT_CHECK_STR(&tally, note, "allgather float (18 sizes, e.g. 16 -> 12 B)");
        ag.dtype = CT_DTYPE_INT8;
        some.rounded = 1;
        ct_sweep_note_rounded(note, sizeof note, &ag, &some);
        CT_CHECK_STR(&tally, note,
                     "allgather float (18 sizes, e.g. 16 -> 12 B), "
                     "allgather int8 (1 size, e.g. 16 -> 12 B)");
        /* A list too long for the buffer says it is cut, and stays terminated. */
        char small[64] = "";
        for (int d = 0; d < CT_DTYPE_COUNT; d++) {
            ag.dtype = (ct_dtype_t)d;
            ct_sweep_note_rounded(small, sizeof small, &ag, &some);
        }
        size_t len = strlen(small);
        CT_CHECK(&tally, len < sizeof small && len > 5 && strcmp(small + len - 5, ", ...") == 0);
    }
    /* One rank: a splitting collective needs just whole elements. */
    {
        const size_t sizes[] = {8, 24};
        CT_CHECK(&tally, filter(sizes, 2, &ct_coll_allgather, CT_DTYPE_DOUBLE, 1, valid, &nvalid,
                                &skipped) == CT_OK);
        CT_CHECK(&tally, nvalid == 2 && skipped == 0);
    }

    /* A backend's count limit (MPI: INT_MAX) refuses larger counts with a
     * message, never wraps them; 0 means no limit (NCCL's size_t). */
    {
        const size_t imax = 2147483647;
        const size_t int8[] = {imax, imax + 1}; /* 2 GiB int8: one over */
        CT_CHECK(&tally, filter_max(int8, 1, &ct_coll_allreduce, CT_DTYPE_INT8, 2, imax, valid,
                                    &nvalid, &skipped) == CT_OK);
        CT_CHECK(&tally, nvalid == 1 && valid[0] == imax);
        CT_CHECK(&tally, filter_max(int8, 2, &ct_coll_allreduce, CT_DTYPE_INT8, 2, imax, valid,
                                    &nvalid, &skipped) == CT_ERR_USAGE);
        CT_CHECK(&tally, has("allreduce int8 at 2147483648 bytes") && has("2147483648 elements") &&
                             has("limit of 2147483647") && has("the backend's reason") &&
                             has("-e"));
        CT_CHECK(&tally, nvalid == 9999);
        /* 2^32 + 8 bytes would wrap to a count of 8 through an int. */
        const size_t wrap[] = {((size_t)1 << 32) + 8};
        CT_CHECK(&tally, filter_max(wrap, 1, &ct_coll_broadcast, CT_DTYPE_INT8, 2, imax, valid,
                                    &nvalid, &skipped) == CT_ERR_USAGE);
        CT_CHECK(&tally, has("4294967304 elements"));
        CT_CHECK(&tally, filter_max(wrap, 1, &ct_coll_broadcast, CT_DTYPE_INT8, 2, 0, valid,
                                    &nvalid, &skipped) == CT_OK);
        CT_CHECK(&tally, nvalid == 1 && valid[0] == wrap[0]);
        /* A wider type fits the same bytes in fewer elements. */
        const size_t f4g[] = {(size_t)4 << 30};
        CT_CHECK(&tally, filter_max(f4g, 1, &ct_coll_allreduce, CT_DTYPE_FLOAT, 2, imax, valid,
                                    &nvalid, &skipped) == CT_OK);
        /* The count is per call: allgather's block at 4 ranks. */
        const size_t ag[] = {(size_t)8 << 30, ((size_t)8 << 30) - 4};
        CT_CHECK(&tally, filter_max(ag, 1, &ct_coll_allgather, CT_DTYPE_INT8, 4, imax, valid,
                                    &nvalid, &skipped) == CT_ERR_USAGE);
        CT_CHECK(&tally, has("2147483648 elements"));
        CT_CHECK(&tally, filter_max(ag + 1, 1, &ct_coll_allgather, CT_DTYPE_INT8, 4, imax, valid,
                                    &nvalid, &skipped) == CT_OK);
    }

    /* Per-rank bytes: send + receive buffers at the largest size. */
    {
        size_t mb = (size_t)1 << 20;
        CT_CHECK(&tally,
                 ct_sweep_rank_bytes(&ct_coll_allreduce, mb, CT_DTYPE_FLOAT, 4, 0) == 2 * mb);
        CT_CHECK(&tally,
                 ct_sweep_rank_bytes(&ct_coll_broadcast, mb, CT_DTYPE_FLOAT, 4, 0) == 2 * mb);
        CT_CHECK(&tally,
                 ct_sweep_rank_bytes(&ct_coll_alltoall, mb, CT_DTYPE_FLOAT, 4, 0) == 2 * mb);
        CT_CHECK(&tally,
                 ct_sweep_rank_bytes(&ct_coll_allgather, mb, CT_DTYPE_FLOAT, 4, 0) == mb + mb / 4);
        /* reduce_scatter's receive buffer also holds the whole in-place
         * input, so it is as large as the send buffer. */
        CT_CHECK(&tally,
                 ct_sweep_rank_bytes(&ct_coll_reduce_scatter, mb, CT_DTYPE_FLOAT, 4, 0) == 2 * mb);
        CT_CHECK(&tally,
                 ct_sweep_rank_bytes(&ct_coll_allgather, mb, CT_DTYPE_DOUBLE, 8, 0) == mb + mb / 8);
        /* Staged backends double it. */
        CT_CHECK(&tally,
                 ct_sweep_rank_bytes(&ct_coll_allreduce, mb, CT_DTYPE_FLOAT, 4, 1) == 4 * mb);
        CT_CHECK(&tally, ct_sweep_rank_bytes(&ct_coll_allgather, mb, CT_DTYPE_FLOAT, 4, 1) ==
                             2 * (mb + mb / 4));
        /* Huge sizes saturate instead of wrapping. */
        CT_CHECK(&tally, ct_sweep_rank_bytes(&ct_coll_allreduce, SIZE_MAX, CT_DTYPE_FLOAT, 4, 1) ==
                             SIZE_MAX);
        CT_CHECK(&tally, ct_sweep_rank_bytes(&ct_coll_alltoall, SIZE_MAX / 2, CT_DTYPE_INT8, 2,
                                             0) == SIZE_MAX);
        CT_CHECK(&tally, ct_sweep_rank_bytes(&ct_coll_allgather, SIZE_MAX / 8 + 1, CT_DTYPE_INT8, 2,
                                             1) == SIZE_MAX);
        size_t big = (SIZE_MAX / 8) & ~(size_t)7; /* largest non-saturated, whole doubles */
        size_t got = ct_sweep_rank_bytes(&ct_coll_allreduce, big, CT_DTYPE_DOUBLE, 2, 1);
        CT_CHECK(&tally, got == 4 * big && got > big);
    }

    /* Memory check: need per rank times local ranks against what is free. */
    {
        size_t gib = (size_t)1 << 30;
        CT_CHECK(&tally, ct_sweep_check_memory(gib, 4, 8 * gib, err, sizeof err) == CT_OK);
        CT_CHECK(&tally, ct_sweep_check_memory(gib, 4, 4 * gib, err, sizeof err) == CT_OK);
        CT_CHECK(&tally, ct_sweep_check_memory(gib, 0, gib, err, sizeof err) == CT_OK);
        err[0] = '\0';
        CT_CHECK(&tally, ct_sweep_check_memory(gib, 4, 3 * gib, err, sizeof err) == CT_ERR_USAGE);
        CT_CHECK(&tally,
                 has("-e") && has("per rank") && has("1 GiB") && has("3 GiB") && has("4 ranks"));
        err[0] = '\0';
        CT_CHECK(&tally,
                 ct_sweep_check_memory(SIZE_MAX, 1, 64 * gib, err, sizeof err) == CT_ERR_USAGE);
        CT_CHECK(&tally, has("-e") && has("per rank"));
        size_t avail = 0;
        ct_status_t st = ct_sweep_host_memory(&avail);
        CT_CHECK(&tally, st == CT_OK ? avail > 0 : st == CT_ERR_IO);
    }
    return CT_DONE(&tally);
}
