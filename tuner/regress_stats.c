/*
 * regress_stats.c - the decision rule of `colltune regress` on one series
 * (regress.h states it).  The exact Mann-Whitney test and the median are
 * tune_decide.c's: one implementation for tune and regress.
 */
#include "regress.h"

#include <math.h>
#include <stdlib.h>

#include "tune_decide.h"

void ct_regress_rule_default(ct_regress_rule_t *rule)
{
    rule->window = CT_REGRESS_WINDOW;
    rule->threshold = CT_REGRESS_THRESHOLD;
    rule->alpha = CT_REGRESS_ALPHA;
    rule->k = CT_REGRESS_K;
    rule->pinned = -1;
}

const char *ct_regress_verdict_name(ct_regress_verdict_t v)
{
    return v == CT_REGRESS_SLOWER ? "SLOWER" : v == CT_REGRESS_SAME ? "same" : "unknown";
}

/* The values of p[lo, hi), into v (room for hi - lo). */
static void ct_regress_values(const ct_regress_point_t *p, size_t lo, size_t hi, double *v)
{
    for (size_t i = lo; i < hi; i++)
        v[i - lo] = p[i].us;
}

/* 1.4826 * the median absolute deviation: sigma for normal noise, and one
 * wild run in the window moves it little. */
static double ct_regress_sigma(const double *v, size_t n, double med)
{
    double *d = malloc((n ? n : 1) * sizeof *d);
    if (d == NULL)
        return INFINITY; /* no memory: claim nothing */
    for (size_t i = 0; i < n; i++)
        d[i] = fabs(v[i] - med);
    double mad = ct_tune_median(d, n);
    free(d);
    return 1.4826 * mad;
}

/* Mann-Whitney U of after over before (pairs with after > before, ties
 * 1/2), normalised to a z-score: cheap enough for every split; only the
 * best split pays for the exact test. */
static double ct_regress_z(const double *b, size_t nb, const double *a, size_t na)
{
    double u = 0;
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            u += a[i] > b[j] ? 1.0 : a[i] == b[j] ? 0.5 : 0.0;
    double mean = (double)na * (double)nb / 2;
    double sd = sqrt((double)na * (double)nb * (double)(na + nb + 1) / 12);
    return sd > 0 ? (u - mean) / sd : 0;
}

/* The baseline window before run s (or the pinned one). */
static void ct_regress_window(const ct_regress_rule_t *rule, size_t s, size_t *lo, size_t *hi)
{
    *hi = rule->pinned >= 0 ? (size_t)rule->pinned + 1 : s;
    *lo = *hi > rule->window ? *hi - rule->window : 0;
}

/* The exact p of the runs from s on against the window before s. */
static double ct_regress_split_p(const ct_regress_point_t *p, size_t n,
                                 const ct_regress_rule_t *rule, size_t s, double *v, double *rel)
{
    size_t lo, hi;
    ct_regress_window(rule, s, &lo, &hi);
    ct_regress_values(p, lo, hi, v);
    ct_regress_values(p, s, n, v + (hi - lo));
    double bmed = ct_tune_median(v, hi - lo), amed = ct_tune_median(v + (hi - lo), n - s);
    *rel = bmed > 0 ? amed / bmed - 1 : 0;
    return ct_tune_mw_p_less(v, hi - lo, v + (hi - lo), n - s);
}

/* R2: the best split and its exact test.  The z-score ranks the splits
 * cheaply but favours longer segments, so the exact p decides among those
 * within CT_REGRESS_Z_NEAR of the best: the split lands on the step. */
#define CT_REGRESS_Z_NEAR 1.0
static void ct_regress_change(const ct_regress_point_t *p, size_t n, const ct_regress_rule_t *rule,
                              double *v, ct_regress_result_t *out)
{
    size_t first = rule->pinned >= 0 ? (size_t)rule->pinned + 1 : 1;
    double *z = malloc(n * sizeof *z), best_z = -INFINITY;
    out->change_at = n;
    out->change_p = 1;
    out->change_rel = 0;
    if (z == NULL)
        return;
    for (size_t s = 0; s < n; s++) {
        size_t lo, hi;
        z[s] = -INFINITY;
        ct_regress_window(rule, s, &lo, &hi);
        if (s < first || s + CT_REGRESS_MIN_AFTER > n || hi - lo < CT_REGRESS_MIN_BASE ||
            n - s > CT_TUNE_MW_MAX || hi - lo > CT_TUNE_MW_MAX)
            continue;
        ct_regress_values(p, lo, hi, v);
        ct_regress_values(p, s, n, v + (hi - lo));
        z[s] = ct_regress_z(v, hi - lo, v + (hi - lo), n - s);
        best_z = fmax(best_z, z[s]);
    }
    for (size_t s = 0; best_z > -INFINITY && s < n; s++) {
        if (!(z[s] >= best_z - CT_REGRESS_Z_NEAR))
            continue;
        double rel, pv = ct_regress_split_p(p, n, rule, s, v, &rel);
        if (out->change_at == n || pv < out->change_p) {
            out->change_at = s;
            out->change_p = pv;
            out->change_rel = rel;
        }
    }
    free(z);
    if (out->change_at == n)
        return;
    size_t lo, hi;
    ct_regress_window(rule, out->change_at, &lo, &hi);
    ct_regress_values(p, lo, hi, v);
    double bmed = ct_tune_median(v, hi - lo);
    /* still slow now: a change that went away is history, not a regression */
    out->by_change = out->change_p <= rule->alpha && out->change_rel > rule->threshold &&
                     p[n - 1].us > bmed * (1 + rule->threshold);
}

void ct_regress_judge(const ct_regress_point_t *p, size_t n, const ct_regress_rule_t *rule,
                      ct_regress_result_t *out)
{
    double *v = malloc((n + 1) * sizeof *v);
    *out = (ct_regress_result_t){.verdict = CT_REGRESS_UNKNOWN, .change_at = n, .change_p = 1};
    if (v == NULL || n < 2 || (rule->pinned >= 0 && (size_t)rule->pinned + 1 >= n)) {
        free(v);
        return;
    }
    ct_regress_window(rule, n - 1, &out->base_lo, &out->base_hi);
    size_t nb = out->base_hi - out->base_lo;
    ct_regress_values(p, out->base_lo, out->base_hi, v);
    out->base_median = ct_tune_median(v, nb);
    out->base_sigma = ct_regress_sigma(v, nb, out->base_median);
    const ct_regress_point_t *last = &p[n - 1];
    out->change = out->base_median > 0 ? last->us / out->base_median - 1 : 0;
    /* Noise is a factor, not an offset (a slow launch is slow by a ratio):
     * the spread is measured on log times, the bound is a ratio. */
    for (size_t i = 0; i < nb; i++)
        v[i] = log(v[i] > 0 ? v[i] : 1e-300);
    double lmed = ct_tune_median(v, nb), lsigma = ct_regress_sigma(v, nb, lmed);
    double lhw = last->us > last->hw && last->hw > 0 ? log(last->us / (last->us - last->hw)) : 0;
    double bound =
        out->base_median * exp(fmax(log1p(rule->threshold), fmax(rule->k * lsigma, lhw)));
    out->by_newest = last->us > bound;
    ct_regress_change(p, n, rule, v, out);
    free(v);
    if (nb < CT_REGRESS_MIN_BASE)
        return;
    out->verdict = out->by_newest || out->by_change ? CT_REGRESS_SLOWER : CT_REGRESS_SAME;
    if (out->verdict != CT_REGRESS_SLOWER)
        return;
    if (out->by_change) {
        out->first_bad = out->change_at;
    } else {
        /* the trailing stretch of runs that each clear the bound */
        out->first_bad = n - 1;
        while (out->first_bad > out->base_lo && p[out->first_bad - 1].us > bound)
            out->first_bad--;
    }
}
