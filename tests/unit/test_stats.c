/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_stats.c - ct_stats: interpolated quantiles, min/max/mean, the
 * distribution-free confidence interval of the median, the one median
 * (NaN on the empty set) and the exact Mann-Whitney test.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "ct_stats.h"
#include "ct_test.h"

static ct_test_tally_t tally;

/* P(U <= u) over every way of choosing which na of the na + nb pooled
 * values are a's, by enumerating bit masks: the definition the exact test
 * must agree with (no ties in pool). */
static double brute_mw(const double *pool, int na, int nb, double u)
{
    int total = na + nb, le = 0, all = 0;
    for (unsigned mask = 0; mask < (1u << total); mask++) {
        if (__builtin_popcount(mask) != na)
            continue;
        double uu = 0;
        for (int i = 0; i < total; i++)
            for (int j = 0; j < total; j++)
                if ((mask >> i & 1) && !(mask >> j & 1) && pool[i] > pool[j])
                    uu += 1;
        all++;
        le += uu <= u;
    }
    return (double)le / all;
}

static int near(double got, double want)
{
    return fabs(got - want) <= 1e-12 * fmax(1.0, fabs(want));
}

#define CHECK_NEAR(got, want)                                                                      \
    do {                                                                                           \
        double g_ = (got), w_ = (want);                                                            \
        CT_CHECK(&tally, near(g_, w_));                                                            \
        if (!near(g_, w_))                                                                         \
            fprintf(stderr, "  %s = %.17g, want %.17g\n", #got, g_, w_);                           \
    } while (0)

int main(void)
{
    /* 1..10, given out of order: linear interpolation at q*(n-1). */
    {
        double x[10] = {7, 3, 10, 1, 9, 2, 8, 5, 4, 6};
        ct_stats_t s;
        ct_stats_compute(x, 10, &s);
        for (int i = 0; i < 10; i++) /* sorted in place */
            CT_CHECK(&tally, x[i] == (double)(i + 1));
        CT_CHECK(&tally, s.n == 10);
        CHECK_NEAR(s.median, 5.5);
        CHECK_NEAR(s.p10, 1.9);
        CHECK_NEAR(s.p90, 9.1);
        CHECK_NEAR(s.min, 1.0);
        CHECK_NEAR(s.max, 10.0);
        CHECK_NEAR(s.mean, 5.5);
        /* n = 10: j = floor(5 - 3.099) = 1, k = ceil(5 + 3.099) + 1 = 10. */
        CHECK_NEAR(s.ci_low, 1.0);
        CHECK_NEAR(s.ci_high, 10.0);
        CHECK_NEAR(ct_stats_ci_relative(&s), 9.0 / 11.0);
    }

    /* Odd n: the median is the middle sample; skewed data, mean != median. */
    {
        const double x[5] = {1, 2, 3, 4, 100};
        ct_stats_t s;
        ct_stats_from_sorted(x, 5, &s);
        CHECK_NEAR(s.median, 3.0);
        CHECK_NEAR(s.mean, 22.0);
        CHECK_NEAR(s.p10, 1.4);  /* 0.1*4 = 0.4 */
        CHECK_NEAR(s.p90, 61.6); /* 4 + 0.6*96 */
        CHECK_NEAR(s.min, 1.0);
        CHECK_NEAR(s.max, 100.0);
        CT_CHECK(&tally, isinf(ct_stats_ci_relative(&s)) && ct_stats_ci_relative(&s) > 0);
    }

    /* Quantile endpoints and a single sample. */
    {
        const double x[4] = {10, 20, 30, 40};
        CHECK_NEAR(ct_stats_quantile(x, 4, 0.0), 10.0);
        CHECK_NEAR(ct_stats_quantile(x, 4, 1.0), 40.0);
        CHECK_NEAR(ct_stats_quantile(x, 4, 0.5), 25.0);
        CHECK_NEAR(ct_stats_quantile(x, 4, 0.25), 17.5);
        CHECK_NEAR(ct_stats_quantile(x, 4, 0.75), 32.5);
        CT_CHECK(&tally, isnan(ct_stats_quantile(x, 0, 0.5)));
        ct_stats_t s;
        ct_stats_from_sorted(x + 2, 1, &s);
        CHECK_NEAR(s.median, 30.0);
        CHECK_NEAR(s.p10, 30.0);
        CHECK_NEAR(s.p90, 30.0);
        CHECK_NEAR(s.mean, 30.0);
        CHECK_NEAR(s.ci_low, 30.0);
        CHECK_NEAR(s.ci_high, 30.0);
        CT_CHECK(&tally, s.n == 1);
        CT_CHECK(&tally, isinf(ct_stats_ci_relative(&s)));
    }

    /* n = 100, a permutation of 1..100: j = floor(50 - 9.8) = 40 and
     * k = ceil(50 + 9.8) + 1 = 61, so the CI is [x(40), x(61)] = [40, 61]. */
    {
        double x[100];
        for (int i = 0; i < 100; i++)
            x[i] = (double)((i * 37) % 100 + 1);
        ct_stats_t s;
        ct_stats_compute(x, 100, &s);
        CT_CHECK(&tally, s.n == 100);
        CHECK_NEAR(s.median, 50.5);
        CHECK_NEAR(s.p10, 10.9);
        CHECK_NEAR(s.p90, 90.1);
        CHECK_NEAR(s.min, 1.0);
        CHECK_NEAR(s.max, 100.0);
        CHECK_NEAR(s.mean, 50.5);
        CHECK_NEAR(s.ci_low, 40.0);
        CHECK_NEAR(s.ci_high, 61.0);
        CHECK_NEAR(ct_stats_ci_relative(&s), 21.0 / 101.0);
    }

    /* n = 400: half = 19.6, j = floor(180.4) = 180, k = ceil(219.6) + 1 = 221. */
    {
        static double x[400];
        for (int i = 0; i < 400; i++)
            x[i] = (double)(i + 1) * 0.5;
        ct_stats_t s;
        ct_stats_from_sorted(x, 400, &s);
        CHECK_NEAR(s.ci_low, 90.0);
        CHECK_NEAR(s.ci_high, 110.5);
        CT_CHECK(&tally, s.ci_low <= s.median && s.median <= s.ci_high);
    }

    /* ci_relative: INFINITY below 6 samples, finite from 6 on. */
    {
        const double x[6] = {1, 2, 3, 4, 5, 6};
        for (size_t n = 1; n < 6; n++) {
            ct_stats_t s;
            ct_stats_from_sorted(x, n, &s);
            CT_CHECK(&tally, isinf(ct_stats_ci_relative(&s)));
        }
        ct_stats_t s;
        ct_stats_from_sorted(x, 6, &s);
        double rel = ct_stats_ci_relative(&s);
        CT_CHECK(&tally, isfinite(rel));
        CT_CHECK(&tally, s.ci_low >= s.min && s.ci_high <= s.max);
        CT_CHECK(&tally, rel > 0.0);
    }

    /* ci_relative is relative to the median, so it has no meaning unless
     * the median is positive: INFINITY at a zero or negative median even
     * with enough samples; finite for any positive median, at 1 and below
     * 1 too (times in seconds are mostly below 1). */
    {
        const double zero[6] = {-3, -2, -1, 1, 2, 3};   /* median 0 */
        const double neg[6] = {-6, -5, -4, -3, -2, -1}; /* median -3.5 */
        const double one[6] = {0.5, 0.75, 1, 1, 1.25, 1.5};
        const double tenth[6] = {0.05, 0.075, 0.1, 0.1, 0.125, 0.15};
        ct_stats_t s;
        ct_stats_from_sorted(zero, 6, &s);
        CT_CHECK(&tally, isinf(ct_stats_ci_relative(&s)) && ct_stats_ci_relative(&s) > 0);
        ct_stats_from_sorted(neg, 6, &s);
        CT_CHECK(&tally, isinf(ct_stats_ci_relative(&s)) && ct_stats_ci_relative(&s) > 0);
        /* n = 6: j = 0, so the interval is [min, max]: (1.5 - 0.5) / 2. */
        ct_stats_from_sorted(one, 6, &s);
        CHECK_NEAR(s.median, 1.0);
        CHECK_NEAR(ct_stats_ci_relative(&s), 0.5);
        ct_stats_from_sorted(tenth, 6, &s);
        CHECK_NEAR(ct_stats_ci_relative(&s), 0.5);
    }

    /* The CI's order statistics at small n, x(i) = i: j = floor(n/2 -
     * 0.98 sqrt(n)) and k = ceil(n/2 + 0.98 sqrt(n)) + 1 (1-based); below
     * j = 1 the interval is [min, max]; k = n + 1 - j, so j = 1 is
     * [min, max] too. */
    {
        static const struct {
            size_t n;
            double lo, hi;
        } ci[] = {
            {2, 1, 2},   {3, 1, 3},    {5, 1, 5},    {6, 1, 6},   /* j = 0 */
            {7, 1, 7},   {8, 1, 8},    {9, 1, 9},    {10, 1, 10}, /* 7: j = 0; 8-10: j = 1, k = n */
            {11, 2, 10}, {12, 2, 11},  {15, 3, 13},  {16, 4, 13}, /* 16: 8 -+ 3.92 */
            {25, 7, 19}, {36, 12, 25}, {49, 17, 33},              /* 49: 24.5 -+ 6.86 */
        };
        double x[49];
        for (int i = 0; i < 49; i++)
            x[i] = i + 1;
        for (size_t c = 0; c < sizeof ci / sizeof ci[0]; c++) {
            ct_stats_t s;
            ct_stats_from_sorted(x, ci[c].n, &s);
            CT_CHECK(&tally, s.ci_low == ci[c].lo && s.ci_high == ci[c].hi);
            if (s.ci_low != ci[c].lo || s.ci_high != ci[c].hi)
                fprintf(stderr, "  n=%zu: CI [%g, %g], want [%g, %g]\n", ci[c].n, s.ci_low,
                        s.ci_high, ci[c].lo, ci[c].hi);
            /* Exact median: the middle one, or the mean of the two. */
            double med = ci[c].n % 2 ? (double)(ci[c].n + 1) / 2 : (double)ci[c].n / 2 + 0.5;
            CT_CHECK(&tally, s.median == med && ct_stats_median(x, ci[c].n) == med);
        }
    }

    /* Identical samples: zero-width interval. */
    {
        double x[50];
        for (int i = 0; i < 50; i++)
            x[i] = 3.25;
        ct_stats_t s;
        ct_stats_compute(x, 50, &s);
        CHECK_NEAR(ct_stats_ci_relative(&s), 0.0);
        CHECK_NEAR(s.median, 3.25);
    }

    /* The one median: NaN on the empty set (both forms, and the quantile). */
    {
        double none[1] = {7};
        CT_CHECK(&tally, isnan(ct_stats_median(none, 0)));
        CT_CHECK(&tally, isnan(ct_stats_median_inplace(none, 0)));
        CT_CHECK(&tally, isnan(ct_stats_quantile(none, 0, 0.5)));
        CT_CHECK(&tally, none[0] == 7);
        /* The caller's meaning for "no launches" instead, and the median
         * itself otherwise. */
        CT_CHECK(&tally, ct_stats_median_or(none, 0, 0) == 0);
        CT_CHECK(&tally, isinf(ct_stats_median_or(none, 0, INFINITY)));
        CT_CHECK(&tally, ct_stats_median_or(none, 1, 0) == 7);
    }

    /* Odd and even n; ct_stats_median leaves its input alone, the in-place
     * form sorts it; both agree with the quantile at 0.5. */
    {
        const double odd[5] = {9, 1, 5, 3, 7};
        double even[4] = {4, 1, 3, 2};
        CHECK_NEAR(ct_stats_median(odd, 5), 5.0);
        CT_CHECK(&tally, odd[0] == 9 && odd[4] == 7);
        CHECK_NEAR(ct_stats_median(even, 4), 2.5);
        CT_CHECK(&tally, even[0] == 4 && even[3] == 2);
        CHECK_NEAR(ct_stats_median_inplace(even, 4), 2.5);
        CT_CHECK(&tally, even[0] == 1 && even[1] == 2 && even[2] == 3 && even[3] == 4);
        CHECK_NEAR(ct_stats_median(odd, 1), 9.0);
        CHECK_NEAR(ct_stats_quantile(even, 4, 0.5), ct_stats_median(even, 4));
    }

    /* Past the stack buffer (64 values): 1..201 reversed, median 101. */
    {
        double *x = malloc(201 * sizeof *x);
        CT_CHECK(&tally, x != NULL);
        if (x != NULL) {
            for (int i = 0; i < 201; i++)
                x[i] = 201 - i;
            CHECK_NEAR(ct_stats_median(x, 201), 101.0);
            CHECK_NEAR(ct_stats_median(x, 200), 101.5); /* 201..2 */
            CT_CHECK(&tally, x[0] == 201);
            free(x);
        }
    }

    /* Mann-Whitney, by hand: all of a below all of b is U = 0, the one
     * ordering in C(6,3) = 20; all above is p = 1. */
    {
        const double lo[3] = {1, 2, 3}, hi[3] = {4, 5, 6};
        CHECK_NEAR(ct_stats_mw_p_less(lo, 3, hi, 3), 1.0 / 20.0);
        CHECK_NEAR(ct_stats_mw_p_less(hi, 3, lo, 3), 1.0);
        /* 4 vs 4, disjoint: 1/C(8,4) = 1/70, under 0.05. */
        const double a[4] = {10, 11, 12, 13}, b[4] = {20, 21, 22, 23};
        CHECK_NEAR(ct_stats_mw_p_less(a, 4, b, 4), 1.0 / 70.0);
        /* All tied: U = 2 of 4 pairs; P(U <= 2) for m = n = 2 is 4/6. */
        const double t[2] = {1, 1};
        CHECK_NEAR(ct_stats_mw_p_less(t, 2, t, 2), 4.0 / 6.0);
        /* A half tie rounds U up (toward "not shown"): a = {1, 2},
         * b = {2, 3}: U = 0.5 -> 1, P(U <= 1) = 2/6. */
        const double ta[2] = {1, 2}, tb[2] = {2, 3};
        CHECK_NEAR(ct_stats_mw_p_less(ta, 2, tb, 2), 2.0 / 6.0);
    }

    /* Published table values of the exact null distribution, P(U <= u):
     * m = n = 3: P(U <= 2) = 4/20; m = n = 4: P(U <= 3) = 7/70 = 0.100;
     * m = n = 5: P(U <= 4) = 12/252 = 0.048 (the 5% critical value); and
     * m = 2, n = 5: P(U <= 1) = 2/21.  A tie counts one half, rounded up. */
    {
        const double a3[3] = {1, 2, 6}, b3[3] = {3, 4, 5};              /* U = 3 */
        const double a3b[3] = {1, 2, 4.5}, b3b[3] = {3, 4, 5};          /* U = 2 */
        const double a4[4] = {1, 2, 3, 8}, b4[4] = {4, 5, 6, 7};        /* U = 4 */
        const double a4b[4] = {1, 2, 5, 3.5}, b4b[4] = {3, 4, 6, 7};    /* U = 3 */
        const double a5[5] = {1, 2, 3, 4, 9}, b5[5] = {5, 6, 7, 8, 10}; /* U = 4 */
        const double a2[2] = {1, 3}, b5b[5] = {2, 4, 5, 6, 7};          /* U = 1 */
        const double t3[3] = {1, 2, 2}, u3[3] = {2, 3, 4};              /* U = 0.5 + 0.5 -> 1 */
        CHECK_NEAR(ct_stats_mw_p_less(a3, 3, b3, 3), 7.0 / 20.0);
        CHECK_NEAR(ct_stats_mw_p_less(a3b, 3, b3b, 3), 4.0 / 20.0);
        CHECK_NEAR(ct_stats_mw_p_less(a4, 4, b4, 4), 12.0 / 70.0);
        CHECK_NEAR(ct_stats_mw_p_less(a4b, 4, b4b, 4), 7.0 / 70.0);
        CHECK_NEAR(ct_stats_mw_p_less(a5, 5, b5, 5), 12.0 / 252.0);
        CHECK_NEAR(ct_stats_mw_p_less(a2, 2, b5b, 5), 2.0 / 21.0);
        CHECK_NEAR(ct_stats_mw_p_less(t3, 3, u3, 3), 2.0 / 20.0);
        /* One value on each side: U is 0, 1/2 (rounded to 1) or 1. */
        const double one[1] = {1}, two[1] = {2};
        CHECK_NEAR(ct_stats_mw_p_less(one, 1, two, 1), 0.5);
        CHECK_NEAR(ct_stats_mw_p_less(one, 1, one, 1), 1.0);
        CHECK_NEAR(ct_stats_mw_p_less(two, 1, one, 1), 1.0);
    }

    /* Against enumeration of every split, on interleaved samples. */
    {
        const double pool[9] = {3.1, 1.2, 4.7, 2.2, 5.9, 2.8, 6.4, 0.9, 5.3};
        for (int na = 1; na <= 5; na++) {
            int nb = 9 - na > 5 ? 5 : 9 - na;
            double u = 0;
            for (int i = 0; i < na; i++)
                for (int j = 0; j < nb; j++)
                    u += pool[i] > pool[na + j];
            CHECK_NEAR(ct_stats_mw_p_less(pool, (size_t)na, pool + na, (size_t)nb),
                       brute_mw(pool, na, nb, u));
        }
    }

    /* Cannot be made: an empty side, or more than CT_STATS_MW_MAX values. */
    {
        double big[CT_STATS_MW_MAX + 1] = {0};
        const double one[1] = {1};
        CT_CHECK(&tally, ct_stats_mw_p_less(one, 0, one, 1) == 1.0);
        CT_CHECK(&tally, ct_stats_mw_p_less(one, 1, one, 0) == 1.0);
        CT_CHECK(&tally, ct_stats_mw_p_less(big, CT_STATS_MW_MAX + 1, one, 1) == 1.0);
        /* At the limit it is still made: -1 below 64 zeros, U = 0, 1/65. */
        const double neg[1] = {-1};
        CHECK_NEAR(ct_stats_mw_p_less(neg, 1, big, CT_STATS_MW_MAX), 1.0 / 65.0);
    }
    return CT_DONE(&tally);
}
