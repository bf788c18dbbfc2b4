/* SPDX-License-Identifier: BSD-3-Clause */
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

/*
 * The median of n values in any order: the middle one, or the mean of the
 * middle two.  The empty set has no median: NaN, which every comparison
 * (x > 0, x < bound) answers "no" to, so a caller that forgot the empty
 * case claims nothing rather than a time of 0 us.  ct_stats_median leaves
 * v as it was (it sorts a copy; NaN also when that copy cannot be
 * allocated); ct_stats_median_inplace sorts v itself and never allocates.
 * Equal to ct_stats_quantile(sorted, n, 0.5) up to the last bit of the
 * midpoint's rounding.
 */
double ct_stats_median(const double *v, size_t n);
double ct_stats_median_inplace(double *v, size_t n);
/* ct_stats_median, but none for the empty set: where a caller has a
 * meaning for "no launches" (a report's 0, a ranking's worst). */
double ct_stats_median_or(const double *v, size_t n, double none);

/*
 * The one-sided exact Mann-Whitney test, for two independent samples of
 * launch medians (tune's verification, regress's change point): the
 * probability, with no difference, of a U statistic this small or
 * smaller, where U counts the pairs (a_i, b_j) with a_i > b_j (a tie
 * counts 1/2, and U is rounded up, which errs toward "not shown").  Small
 * p: a's values are smaller (faster) than b's.  Exact, by counting the
 * orderings (no normal approximation: the samples are a handful of runs),
 * in O(na * nb * na * nb) time and O(na * na * nb) doubles.  1 when either
 * side is empty or larger than CT_STATS_MW_MAX, or memory runs out: a
 * test that cannot be made shows nothing.
 */
#define CT_STATS_MW_MAX 64
double ct_stats_mw_p_less(const double *a, size_t na, const double *b, size_t nb);

#endif
