/*
 * test_stats.c - ct_stats: interpolated quantiles, min/max/mean, and the
 * distribution-free confidence interval of the median.
 */
#include <math.h>
#include <stddef.h>

#include "ct_stats.h"
#include "ct_test.h"

static ct_test_tally_t tally;

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
    return CT_DONE(&tally);
}
