/* SPDX-License-Identifier: BSD-3-Clause */
#include "tune_decide.h"

#include <math.h>
#include <string.h>

#include "ct_stats.h"

double ct_tune_min(const double *v, size_t n)
{
    double m = n ? v[0] : 0;
    for (size_t i = 1; i < n; i++)
        if (v[i] < m)
            m = v[i];
    return m;
}

double ct_tune_max(const double *v, size_t n)
{
    double m = n ? v[0] : 0;
    for (size_t i = 1; i < n; i++)
        if (v[i] > m)
            m = v[i];
    return m;
}

int ct_tune_significant(const double *cand, size_t ncand, const double *base, size_t nbase)
{
    if (ncand < CT_TUNE_MIN_LAUNCHES || nbase < CT_TUNE_MIN_LAUNCHES)
        return 0;
    /* Faster across independent launches by the stated test... */
    double p = ct_stats_mw_p_less(cand, ncand, base, nbase);
    if (!(p <= ct_tune_search_alpha(ncand, nbase)))
        return 0;
    /* ...and by a gain worth a change of configuration. */
    return ct_stats_median(cand, ncand) <= (1.0 - CT_TUNE_MARGIN) * ct_stats_median(base, nbase);
}

double ct_tune_search_alpha(size_t ncand, size_t nbase)
{
    /* The smallest p the counts allow: complete separation, 1/C(n+m, n). */
    double pmin = 1;
    for (size_t i = 1; i <= ncand; i++)
        pmin = pmin * (double)i / (double)(nbase + i);
    return pmin > CT_TUNE_SEARCH_ALPHA ? pmin : CT_TUNE_SEARCH_ALPHA;
}

/* The launch of base in the same group as cand's launch i, or -1. */
static long ct_tune_partner(const ct_tune_cand_t *cand, size_t i, const ct_tune_cand_t *base)
{
    const char *g = cand->group ? cand->group[i] : NULL;
    if (g == NULL || g[0] == '\0' || base->group == NULL)
        return -1;
    for (size_t j = 0; j < base->n; j++)
        if (base->group[j] != NULL && strcmp(base->group[j], g) == 0)
            return (long)j;
    return -1;
}

int ct_tune_beats(const ct_tune_cand_t *cand, const ct_tune_cand_t *base, size_t *paired_p)
{
    size_t np = 0, wins = 0;
    for (size_t i = 0; i < cand->n; i++) {
        long j = ct_tune_partner(cand, i, base);
        if (j < 0 || !(base->us[j] > 0))
            continue;
        double c = cand->us[i], b = base->us[j];
        double chi = cand->hi ? cand->hi[i] : NAN, blo = base->lo ? base->lo[j] : NAN;
        int apart = isnan(chi) || isnan(blo) || chi < blo;
        wins += c <= (1.0 - CT_TUNE_MARGIN) * b && apart;
        np++;
    }
    if (paired_p != NULL)
        *paired_p = np;
    /* A strict majority of wins puts the median of cand/base at least the
     * margin below 1 as well; that ratio is not tested again, since its
     * rounding would refuse a gain of exactly the margin that the wins
     * accept (36.1 / 38 reads 0.95000000000000007). */
    if (np >= CT_TUNE_MIN_PAIRED)
        return 2 * wins > np;
    return ct_tune_significant(cand->us, cand->n, base->us, base->n);
}

size_t ct_tune_pick(const ct_tune_cand_t *c, size_t n)
{
    size_t best = 0;
    double best_med = 0;
    for (size_t i = 1; i < n; i++) {
        if (c[i].excluded || !ct_tune_beats(&c[i], &c[0], NULL))
            continue;
        double m = ct_stats_median(c[i].us, c[i].n);
        if (best == 0 || m < best_med) {
            best = i;
            best_med = m;
        }
    }
    if (best == 0)
        return 0;
    /* Tied with the best (ranges overlap): prefer fewer changes. */
    double lo = ct_tune_min(c[best].us, c[best].n), hi = ct_tune_max(c[best].us, c[best].n);
    size_t pick = best;
    for (size_t i = 1; i < n; i++) {
        if (i == best || c[i].excluded || !ct_tune_beats(&c[i], &c[0], NULL))
            continue;
        double ilo = ct_tune_min(c[i].us, c[i].n), ihi = ct_tune_max(c[i].us, c[i].n);
        if (ilo > hi || ihi < lo)
            continue;
        if (c[i].nchanged < c[pick].nchanged ||
            (c[i].nchanged == c[pick].nchanged &&
             ct_stats_median(c[i].us, c[i].n) < ct_stats_median(c[pick].us, c[pick].n)))
            pick = i;
    }
    return pick;
}

size_t ct_tune_merge(const ct_tune_bucket_t *b, size_t n, int from_zero, int to_any,
                     ct_tune_range_t *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k > 0 && out[k - 1].winner == b[i].winner) {
            out[k - 1].count++;
            continue;
        }
        if (k > 0)
            out[k - 1].max_bytes = b[i].bytes - 1;
        out[k].min_bytes = k == 0 && from_zero ? 0 : b[i].bytes;
        out[k].max_bytes = to_any ? -1 : b[n - 1].bytes;
        out[k].winner = b[i].winner;
        out[k].first = i;
        out[k].count = 1;
        k++;
    }
    return k;
}
