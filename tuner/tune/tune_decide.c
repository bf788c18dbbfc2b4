#include "tune_decide.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int ct_tune_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double ct_tune_median(const double *v, size_t n)
{
    if (n == 0)
        return 0;
    double small[64];
    double *s = n <= 64 ? small : malloc(n * sizeof *s);
    if (s == NULL)
        return 0;
    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, ct_tune_cmp);
    double m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    if (s != small)
        free(s);
    return m;
}

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
    double p = ct_tune_mw_p_less(cand, ncand, base, nbase);
    if (!(p <= ct_tune_search_alpha(ncand, nbase)))
        return 0;
    /* ...and by a gain worth a change of configuration. */
    return ct_tune_median(cand, ncand) <= (1.0 - CT_TUNE_MARGIN) * ct_tune_median(base, nbase);
}

double ct_tune_search_alpha(size_t ncand, size_t nbase)
{
    /* The smallest p the counts allow: complete separation, 1/C(n+m, n). */
    double pmin = 1;
    for (size_t i = 1; i <= ncand; i++)
        pmin = pmin * (double)i / (double)(nbase + i);
    return pmin > CT_TUNE_SEARCH_ALPHA ? pmin : CT_TUNE_SEARCH_ALPHA;
}

size_t ct_tune_pick(const ct_tune_cand_t *c, size_t n)
{
    size_t best = 0;
    double best_med = 0;
    for (size_t i = 1; i < n; i++) {
        if (c[i].excluded || !ct_tune_significant(c[i].us, c[i].n, c[0].us, c[0].n))
            continue;
        double m = ct_tune_median(c[i].us, c[i].n);
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
        if (i == best || c[i].excluded || !ct_tune_significant(c[i].us, c[i].n, c[0].us, c[0].n))
            continue;
        double ilo = ct_tune_min(c[i].us, c[i].n), ihi = ct_tune_max(c[i].us, c[i].n);
        if (ilo > hi || ihi < lo)
            continue;
        if (c[i].nchanged < c[pick].nchanged ||
            (c[i].nchanged == c[pick].nchanged &&
             ct_tune_median(c[i].us, c[i].n) < ct_tune_median(c[pick].us, c[pick].n)))
            pick = i;
    }
    return pick;
}

size_t ct_tune_merge(const ct_tune_bucket_t *b, size_t n, ct_tune_range_t *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k > 0 && out[k - 1].winner == b[i].winner) {
            out[k - 1].count++;
            continue;
        }
        if (k > 0)
            out[k - 1].max_bytes = b[i].bytes - 1;
        out[k].min_bytes = k == 0 ? 0 : b[i].bytes;
        out[k].max_bytes = -1;
        out[k].winner = b[i].winner;
        out[k].first = i;
        out[k].count = 1;
        k++;
    }
    return k;
}

double ct_tune_mw_p_less(const double *a, size_t na, const double *b, size_t nb)
{
    if (na == 0 || nb == 0 || na > CT_TUNE_MW_MAX || nb > CT_TUNE_MW_MAX)
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
