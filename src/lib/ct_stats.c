#include "ct_stats.h"

#include <math.h>
#include <stdlib.h>

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
    qsort(samples, n, sizeof(double), ct_stats_cmp_double);
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
