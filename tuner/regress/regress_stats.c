/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * regress_stats.c - the decision rule of `colltune regress` on one series
 * (regress.h states it).  The exact Mann-Whitney test and the median are
 * src/lib's (ct_stats.h): one implementation for tune and regress.
 */
#include "regress.h"

#include <math.h>
#include <stdlib.h>

#include "ct_stats.h"

void ct_regress_rule_default(ct_regress_rule_t *rule)
{
    rule->window = CT_REGRESS_WINDOW;
    rule->threshold = CT_REGRESS_THRESHOLD;
    rule->alpha = CT_REGRESS_ALPHA;
    rule->k = CT_REGRESS_K;
    rule->confirm = CT_REGRESS_CONFIRM;
    rule->pinned = -1;
    rule->single = 0;
}

const char *ct_regress_verdict_name(ct_regress_verdict_t v)
{
    return v == CT_REGRESS_SLOWER      ? "SLOWER"
           : v == CT_REGRESS_FASTER    ? "FASTER"
           : v == CT_REGRESS_SAME      ? "same"
           : v == CT_REGRESS_RECOVERED ? "recovered"
                                       : "unknown";
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
    double mad = ct_stats_median(d, n);
    free(d);
    return 1.4826 * mad;
}

/* Welch's t of log(after) over log(before): how far the runs from a
 * split on sit above the ones before it, in units of their own spread.
 * A split that mixes old and new runs on one side has a wide spread
 * there, so the split that lands on the step scores highest. */
static double ct_regress_t(const double *b, size_t nb, const double *a, size_t na)
{
    double mb = 0, ma = 0, vb = 0, va = 0;
    for (size_t i = 0; i < nb; i++)
        mb += log(b[i]) / (double)nb;
    for (size_t i = 0; i < na; i++)
        ma += log(a[i]) / (double)na;
    for (size_t i = 0; i < nb; i++)
        vb += (log(b[i]) - mb) * (log(b[i]) - mb) / (double)(nb > 1 ? nb - 1 : 1);
    for (size_t i = 0; i < na; i++)
        va += (log(a[i]) - ma) * (log(a[i]) - ma) / (double)(na > 1 ? na - 1 : 1);
    /* a floor on the spread: identical runs must not divide by zero */
    double se = sqrt(vb / (double)nb + va / (double)na + 1e-12);
    return (ma - mb) / se;
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
    double bmed = ct_stats_median(v, hi - lo), amed = ct_stats_median(v + (hi - lo), n - s);
    *rel = bmed > 0 ? amed / bmed - 1 : 0;
    return ct_stats_mw_p_less(v, hi - lo, v + (hi - lo), n - s);
}

/* R1's bound from runs [lo, hi): their median times exp(max(threshold,
 * k sigma, the newest run's own CI half-width lhw)), sigma measured on log
 * times: noise is a factor, not an offset (a slow launch is slow by a
 * ratio).  v is scratch (hi - lo values); *median and *sigma are the
 * window's, in microseconds. */
static double ct_regress_bound(const ct_regress_point_t *p, const ct_regress_rule_t *rule,
                               size_t lo, size_t hi, double lhw, double *v, double *median,
                               double *sigma)
{
    size_t nb = hi - lo;
    ct_regress_values(p, lo, hi, v);
    *median = ct_stats_median(v, nb);
    *sigma = ct_regress_sigma(v, nb, *median);
    for (size_t i = 0; i < nb; i++)
        v[i] = log(v[i] > 0 ? v[i] : 1e-300);
    double lsigma = ct_regress_sigma(v, nb, ct_stats_median(v, nb));
    /* A MAD of a few runs understates the spread (3 runs of 30% noise
     * often agree within 5%), so a short window's sigma is inflated:
     * without this, 0.3-0.6% of noise-only series were SLOWER on nights 5
     * to 8 of a history, one night in six of a 32-series sweep. */
    lsigma *= 1 + CT_REGRESS_SHORT / ((double)nb * (double)nb);
    return *median * exp(fmax(log1p(rule->threshold), fmax(rule->k * lsigma, lhw)));
}

/* R2: the best split by Welch's t (the latest among equals), then the
 * exact test there. */
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
        /* Unpinned, a change older than the window is history: it was
         * judged when it happened, and the window after it is the new
         * normal (E10: a step 20 runs back read SLOWER at +0.0%). */
        if (s < first || s + CT_REGRESS_MIN_AFTER > n || hi - lo < CT_REGRESS_MIN_BASE ||
            n - s > CT_STATS_MW_MAX || hi - lo > CT_STATS_MW_MAX ||
            (rule->pinned < 0 && n - s > rule->window))
            continue;
        ct_regress_values(p, lo, hi, v);
        ct_regress_values(p, s, n, v + (hi - lo));
        z[s] = ct_regress_t(v, hi - lo, v + (hi - lo), n - s);
        if (z[s] >= best_z) {
            best_z = z[s];
            out->change_at = s;
        }
    }
    if (out->change_at < n)
        out->change_p = ct_regress_split_p(p, n, rule, out->change_at, v, &out->change_rel);
    free(z);
    if (out->change_at == n)
        return;
    size_t lo, hi;
    double bmed, sd;
    ct_regress_window(rule, out->change_at, &lo, &hi);
    double spread = ct_regress_bound(p, rule, lo, hi, 0, v, &bmed, &sd) / bmed;
    /* Still slow now: a change that went away is history, not a
     * regression.  Back means nearer the old level than the new one (in
     * log) and as far below the new level as a run must be beyond a
     * baseline to count: one low run of a noisy series is not a recovery. */
    double amed = bmed * (1 + out->change_rel), mid = sqrt(bmed * amed), last = p[n - 1].us;
    int back = last <= mid && last < amed / spread;
    /* Searched among the recent splits only, one a run or two after an
     * old step still reads as a change: SLOWER at +0.0% once the step had
     * left the newest's window (E10's edge).  So the step starts back at
     * the runs before the split that are at the new level and beyond the
     * baseline's spread (not noise), and its age is judged from there. */
    size_t step = out->change_at;
    while (step > 0 && p[step - 1].us > mid && p[step - 1].us > bmed * spread)
        step--;
    int old = rule->pinned < 0 && n - step > rule->window;
    out->by_change = out->change_p <= rule->alpha && out->change_rel > rule->threshold &&
                     last > bmed * (1 + rule->threshold) && !back && !old;
    /* the first run of the step is not one that reads like the old level */
    while (out->by_change && out->change_at + 1 < n && p[out->change_at].us <= mid)
        out->change_at++;
}

/* R1's bound for run i: the window before it (or the pinned one) and
 * run i's own CI half-width.  v is scratch; *median the window's.  0 when
 * that window is too short to judge run i. */
static double ct_regress_bound_of(const ct_regress_point_t *p, const ct_regress_rule_t *rule,
                                  size_t i, double *v, double *median)
{
    size_t lo, hi;
    double sd;
    ct_regress_window(rule, i, &lo, &hi);
    if (hi < lo + CT_REGRESS_MIN_BASE || hi > i)
        return 0;
    const ct_regress_point_t *x = &p[i];
    double lhw = x->us > x->hw && x->hw > 0 ? log(x->us / (x->us - x->hw)) : 0;
    return ct_regress_bound(p, rule, lo, hi, lhw, v, median, &sd);
}

/* R1's step: the first run of the trailing stretch that ends at the newest
 * (last, beyond its bound over a window of median med), each run beyond
 * its own bound and at the newest's level: above the midpoint (in log)
 * between med and last, and not more than a step's height above last (a
 * 30x night before a newest run 1.35x slower is another step). */
static size_t ct_regress_stretch(const ct_regress_point_t *p, size_t n,
                                 const ct_regress_rule_t *rule, double med, double *v)
{
    double last = p[n - 1].us, lo = sqrt(med * last), hi = last * last / med, m;
    size_t first = n - 1;
    while (first > 0) {
        size_t i = first - 1;
        double b = ct_regress_bound_of(p, rule, i, v, &m);
        if (!(b > 0 && p[i].us > b && p[i].us > lo && p[i].us <= hi))
            break;
        first = i;
    }
    return first;
}

/* The slower-only rule (regress.h); ct_regress_judge adds its mirror. */
static void ct_regress_judge_slower(const ct_regress_point_t *p, size_t n,
                                    const ct_regress_rule_t *rule, ct_regress_result_t *out)
{
    double *v = malloc((n + 1) * sizeof *v);
    *out = (ct_regress_result_t){.verdict = CT_REGRESS_UNKNOWN, .change_at = n, .change_p = 1};
    if (v == NULL || n < 2 || (rule->pinned >= 0 && (size_t)rule->pinned + 1 >= n)) {
        free(v);
        return;
    }
    ct_regress_window(rule, n - 1, &out->base_lo, &out->base_hi);
    size_t nb = out->base_hi - out->base_lo;
    const ct_regress_point_t *last = &p[n - 1];
    double lhw = last->us > last->hw && last->hw > 0 ? log(last->us / (last->us - last->hw)) : 0;
    double bound = ct_regress_bound(p, rule, out->base_lo, out->base_hi, lhw, v, &out->base_median,
                                    &out->base_sigma);
    out->change = out->base_median > 0 ? last->us / out->base_median - 1 : 0;
    int beyond = nb >= CT_REGRESS_MIN_BASE && last->us > bound;
    out->beyond = beyond;
    /* One slow launch is a spike on a shared machine: R1 wants the step
     * `confirm` runs long, unless one run suffices (a severe event). */
    size_t first = beyond ? ct_regress_stretch(p, n, rule, out->base_median, v) : n - 1;
    size_t c = rule->confirm > 1 ? rule->confirm : 1;
    out->by_newest = beyond && (n - first >= c || rule->single);
    int spike = beyond && !out->by_newest;
    ct_regress_change(p, n, rule, v, out);
    out->band_lo = out->base_lo;
    out->band_hi = out->base_hi;
    out->band_median = out->base_median;
    out->band_high = bound;
    if (nb >= CT_REGRESS_MIN_BASE)
        out->verdict = out->by_newest || out->by_change ? CT_REGRESS_SLOWER
                       : spike                          ? CT_REGRESS_UNKNOWN
                                                        : CT_REGRESS_SAME;
    double m;
    if (out->verdict == CT_REGRESS_SLOWER && out->by_change) {
        out->first_bad = out->change_at;
        /* the band the change point was judged against */
        ct_regress_window(rule, out->change_at, &out->band_lo, &out->band_hi);
        out->band_high =
            ct_regress_bound(p, rule, out->band_lo, out->band_hi, 0, v, &out->band_median, &m);
    } else if (out->verdict == CT_REGRESS_SLOWER) {
        out->first_bad = first;
    }
    /* R1's bound mirrored: as far below the median as above it */
    out->band_low = out->band_high > 0 ? out->band_median * out->band_median / out->band_high : 0;
    free(v);
}

void ct_regress_judge(const ct_regress_point_t *p, size_t n, const ct_regress_rule_t *rule,
                      ct_regress_result_t *out)
{
    ct_regress_judge_slower(p, n, rule, out);
    if (out->verdict == CT_REGRESS_SLOWER || out->verdict == CT_REGRESS_UNKNOWN || n < 2)
        return;
    /* The mirror: 1/us, its CI half-width scaled so that the log ratio
     * R1 reads is the same. */
    ct_regress_point_t *q = malloc(n * sizeof *q);
    if (q == NULL)
        return;
    for (size_t i = 0; i < n; i++)
        q[i] = (ct_regress_point_t){p[i].us > 0 ? 1 / p[i].us : 0,
                                    p[i].us > 0 ? p[i].hw / (p[i].us * p[i].us) : 0};
    ct_regress_result_t m;
    ct_regress_judge_slower(q, n, rule, &m);
    free(q);
    if (m.beyond)
        out->beyond = -1;
    if (m.verdict != CT_REGRESS_SLOWER)
        return;
    /* the numbers in us again; the verdict, the rules and the first run
     * from the mirror */
    out->verdict = CT_REGRESS_FASTER;
    out->by_newest = m.by_newest;
    out->by_change = m.by_change;
    out->change_at = m.change_at;
    out->change_p = m.change_p;
    out->change_rel = 1 / (1 + m.change_rel) - 1;
    out->first_bad = m.first_bad;
    out->band_lo = m.band_lo;
    out->band_hi = m.band_hi;
    out->band_median = m.band_median > 0 ? 1 / m.band_median : 0;
    out->band_low = m.band_high > 0 ? 1 / m.band_high : 0;
    out->band_high = m.band_low > 0 ? 1 / m.band_low : 0;
}
