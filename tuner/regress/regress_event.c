/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * regress_event.c - the run-level view of `colltune regress` (regress.h):
 * the newest run judged across all its series at once.  Many series
 * moving beyond their bounds the same way in one run are one event; a
 * severe one needs no second run; a step the run before was judged SLOWER
 * at, gone in the newest run, is RECOVERED.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "ct_stats.h"
#include "regress.h"

/* The event in results r[0..ns) of group g (SIZE_MAX: all of them). */
static void ct_regress_event_of(const ct_regress_series_in_t *in, const ct_regress_result_t *r,
                                size_t ns, size_t g, ct_regress_event_t *ev)
{
    size_t up = 0, down = 0;
    *ev = (ct_regress_event_t){0};
    for (size_t i = 0; i < ns; i++) {
        if (g != SIZE_MAX && in[i].group != g)
            continue;
        ev->judged += r[i].base_hi - r[i].base_lo >= CT_REGRESS_MIN_BASE;
        up += r[i].beyond > 0;
        down += r[i].beyond < 0;
    }
    int dir = up >= down ? 1 : -1;
    size_t moved = dir > 0 ? up : down;
    if (moved < CT_REGRESS_EVENT_MIN || 2 * moved < ev->judged)
        return;
    double *ch = malloc(moved * sizeof *ch);
    if (ch == NULL)
        return; /* no memory: claim no event */
    size_t k = 0;
    for (size_t i = 0; i < ns; i++)
        if (r[i].beyond == dir && (g == SIZE_MAX || in[i].group == g))
            ch[k++] = r[i].change;
    ev->direction = dir;
    ev->moved = moved;
    ev->median_change = ct_stats_median(ch, k);
    free(ch);
    double factor = dir > 0 ? 1 + ev->median_change : 1 / (1 + ev->median_change);
    ev->severe = factor >= CT_REGRESS_EVENT_SEVERE;
}

/* Does series result r move along severe event ev? */
static int ct_regress_along(const ct_regress_event_t *ev, const ct_regress_result_t *r,
                            double threshold)
{
    if (!ev->severe)
        return 0;
    double lo = 1 / (1 + threshold) - 1;
    int along = ev->direction > 0 ? r->change >= threshold : r->change <= lo;
    return r->beyond == ev->direction || along;
}

/* Every series judged on its first n - drop points, the events found (the
 * run's and each group's), and a severe event's series judged again with
 * one run sufficing. */
static void ct_regress_judge_each(const ct_regress_series_in_t *in, size_t ns,
                                  const ct_regress_rule_t *rule, size_t drop,
                                  ct_regress_result_t *out, ct_regress_event_t *ev, size_t ngroups,
                                  ct_regress_event_t *groups)
{
    for (size_t i = 0; i < ns; i++) {
        ct_regress_rule_t r = *rule;
        r.pinned = in[i].pinned;
        size_t n = in[i].n > drop ? in[i].n - drop : 0;
        if (n < 2) {
            out[i] = (ct_regress_result_t){.verdict = CT_REGRESS_UNKNOWN, .change_at = n};
            continue;
        }
        ct_regress_judge(in[i].p, n, &r, &out[i]);
    }
    ct_regress_event_of(in, out, ns, SIZE_MAX, ev);
    for (size_t g = 0; g < ngroups; g++)
        ct_regress_event_of(in, out, ns, g, &groups[g]);
    /* A severe event is the evidence that a common cause moved its series:
     * each that moved its way by the threshold is judged again with one
     * run sufficing and half the sigmas (a noisy series' own bound alone
     * called +119% "same" in a run where 29 of 32 series rose 16x).  The
     * evidence is the series' own collective's event; the whole run's only
     * for a collective too small to have one: a forced allreduce algorithm
     * moving half a run must not lower the bar for the broadcast series. */
    for (size_t i = 0; i < ns; i++) {
        const ct_regress_event_t *e = ev;
        if (in[i].group < ngroups && groups[in[i].group].judged >= CT_REGRESS_EVENT_MIN)
            e = &groups[in[i].group];
        if (!ct_regress_along(e, &out[i], rule->threshold))
            continue;
        ct_regress_rule_t r = *rule;
        r.pinned = in[i].pinned;
        r.single = 1;
        r.k = rule->k / 2;
        ct_regress_judge(in[i].p, in[i].n - drop, &r, &out[i]);
    }
}

int ct_regress_judge_runs(const ct_regress_series_in_t *in, size_t ns,
                          const ct_regress_rule_t *rule, ct_regress_result_t *out,
                          ct_regress_event_t *ev, size_t ngroups, ct_regress_event_t *groups)
{
    ct_regress_result_t *prev = malloc((ns ? ns : 1) * sizeof *prev);
    ct_regress_event_t *pgroups = malloc((ngroups ? ngroups : 1) * sizeof *pgroups), pev;
    if (prev == NULL || pgroups == NULL) {
        free(prev);
        free(pgroups);
        return -1;
    }
    ct_regress_judge_each(in, ns, rule, 1, prev, &pev, ngroups, pgroups);
    ct_regress_judge_each(in, ns, rule, 0, out, ev, ngroups, groups);
    free(pgroups);
    for (size_t i = 0; i < ns; i++) {
        const ct_regress_result_t *b = &prev[i];
        if (b->verdict != CT_REGRESS_SLOWER || out[i].verdict != CT_REGRESS_SAME || in[i].n < 3)
            continue;
        /* back: nearer the old level than the step's (in log) */
        double step = in[i].p[in[i].n - 2].us, now = in[i].p[in[i].n - 1].us;
        if (now <= sqrt(b->band_median * step)) {
            /* the band a plot draws: the baseline before the step, the
             * one the newest run is back within */
            out[i].verdict = CT_REGRESS_RECOVERED;
            out[i].first_bad = b->first_bad;
            out[i].band_lo = b->band_lo;
            out[i].band_hi = b->band_hi;
            out[i].band_median = b->band_median;
            out[i].band_low = b->band_low;
            out[i].band_high = b->band_high;
        }
    }
    free(prev);
    return 0;
}
