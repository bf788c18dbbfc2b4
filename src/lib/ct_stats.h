/*
 * ct_stats.h - order statistics of timing samples.
 *
 * The median is reported, not the mean: collective timings have long right
 * tails (a descheduled rank, a retransmit) that drag a mean around.  The
 * confidence interval of the median is distribution-free: the order
 * statistics whose ranks bracket n/2 by 1.96*sqrt(n)/2 (the binomial normal
 * approximation), so it needs no assumption about the shape of the noise.
 */
#ifndef CT_STATS_H
#define CT_STATS_H

#include <stddef.h>

typedef struct {
    size_t n;
    double median;
    double p10;
    double p90;
    double min;
    double max;
    double mean;
    double ci_low; /* 95% confidence interval of the median */
    double ci_high;
} ct_stats_t;

/* sorted must hold n >= 1 samples in ascending order. */
void ct_stats_from_sorted(const double *sorted, size_t n, ct_stats_t *stats_p);

/* Sorts n doubles ascending, in place. */
void ct_stats_sort(double *samples, size_t n);

/* Sorts samples in place, then fills *stats_p. */
void ct_stats_compute(double *samples, size_t n, ct_stats_t *stats_p);

/* Linear-interpolated quantile q in [0,1] of sorted data. */
double ct_stats_quantile(const double *sorted, size_t n, double q);

/* Half the CI width relative to the median; INFINITY if n is too small
 * for the interval to exist (n < 6). */
double ct_stats_ci_relative(const ct_stats_t *stats);

#endif
