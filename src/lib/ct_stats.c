/* SPDX-License-Identifier: BSD-3-Clause */
#include "ct_stats.h"
#include "ct_vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int ct_stats_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double ct_stats_quantile(const double *sorted, size_t n, double q)
{
    if (n == 0)
        return NAN;
    double pos = q * (double)(n - 1);
    size_t lo = (size_t)pos;
    if (lo + 1 >= n)
        return sorted[n - 1];
    double frac = pos - (double)lo;
    return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

void ct_stats_from_sorted(const double *sorted, size_t n, ct_stats_t *stats_p)
{
    ct_stats_t s = {0};
    double sum = 0.0;

    s.n = n;
    for (size_t i = 0; i < n; i++)
        sum += sorted[i];
    s.mean = sum / (double)n;
    s.min = sorted[0];
    s.max = sorted[n - 1];
    s.median = ct_stats_quantile(sorted, n, 0.5);
    s.p10 = ct_stats_quantile(sorted, n, 0.1);
    s.p90 = ct_stats_quantile(sorted, n, 0.9);

    /* 1-based ranks j and k of the bracketing order statistics. */
    double half = 1.96 * sqrt((double)n) / 2.0;
    double j = floor((double)n / 2.0 - half);
    double k = ceil((double)n / 2.0 + half) + 1.0;
    if (j >= 1.0 && k <= (double)n) {
        s.ci_low = sorted[(size_t)j - 1];
        s.ci_high = sorted[(size_t)k - 1];
    } else {
        s.ci_low = s.min;
        s.ci_high = s.max;
    }
    *stats_p = s;
}

void ct_stats_sort(double *samples, size_t n)
{
    ct_vec_sort(samples, n, sizeof(double), ct_stats_cmp_double);
}

void ct_stats_compute(double *samples, size_t n, ct_stats_t *stats_p)
{
    ct_stats_sort(samples, n);
    ct_stats_from_sorted(samples, n, stats_p);
}

double ct_stats_ci_relative(const ct_stats_t *stats)
{
    if (stats->n < 6 || stats->median <= 0.0)
        return INFINITY;
    return (stats->ci_high - stats->ci_low) / (2.0 * stats->median);
}

double ct_stats_median_inplace(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    ct_stats_sort(v, n);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double ct_stats_median(const double *v, size_t n)
{
    if (n == 0)
        return NAN;
    /* Most callers hold a few launch medians: no allocation for them. */
    double small[64];
    double *s = n <= sizeof small / sizeof small[0] ? small : malloc(n * sizeof *s);
    if (s == NULL)
        return NAN;
    memcpy(s, v, n * sizeof *s);
    double m = ct_stats_median_inplace(s, n);
    if (s != small)
        free(s);
    return m;
}

double ct_stats_median_or(const double *v, size_t n, double none)
{
    return n ? ct_stats_median(v, n) : none;
}

double ct_stats_mw_p_less(const double *a, size_t na, const double *b, size_t nb)
{
    if (na == 0 || nb == 0 || na > CT_STATS_MW_MAX || nb > CT_STATS_MW_MAX)
        return 1;
    double u = 0;
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            u += a[i] > b[j] ? 1.0 : a[i] == b[j] ? 0.5 : 0.0;
    size_t k = (size_t)ceil(u), umax = na * nb;
    /* f(m, n, u): orderings of m a's and n b's whose U is u.  The largest
     * value is an a (above all n b's: U grows by n) or a b (U unchanged):
     * f(m, n, u) = f(m - 1, n, u - n) + f(m, n - 1, u).  Rows over n, each
     * over m = 0..na; doubles hold C(128, 64) well enough for a p-value. */
    size_t W = umax + 1;
    double *prev = calloc((na + 1) * W, sizeof *prev), *cur = calloc((na + 1) * W, sizeof *cur);
    if (prev == NULL || cur == NULL) {
        free(prev);
        free(cur);
        return 1;
    }
    for (size_t m = 0; m <= na; m++)
        prev[m * W] = 1; /* n = 0 */
    for (size_t n = 1; n <= nb; n++) {
        memset(cur, 0, (na + 1) * W * sizeof *cur);
        cur[0] = 1; /* m = 0 */
        for (size_t m = 1; m <= na; m++)
            for (size_t uu = 0; uu < W; uu++)
                cur[m * W + uu] = (uu >= n ? cur[(m - 1) * W + uu - n] : 0) + prev[m * W + uu];
        double *t = prev;
        prev = cur;
        cur = t;
    }
    double le = 0, all = 0;
    for (size_t uu = 0; uu < W; uu++) {
        all += prev[na * W + uu];
        if (uu <= k)
            le += prev[na * W + uu];
    }
    free(prev);
    free(cur);
    return all > 0 ? le / all : 1;
}
