/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_regress.c - the decision rule of `colltune regress` (regress.h) on
 * synthetic histories with fixed seeds: the A/A false-alarm rate, the
 * detection rates the issue asks for, the change point found, the pinned
 * baseline and the "unknown" verdict.  The measured rates are printed.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "ct_test.h"
#include "regress.h"

/* xorshift64*: fixed seeds, the same numbers on every machine. */
static double ct_uniform(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return ((*s * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0) + 1e-300;
}

static double ct_normal(uint64_t *s)
{
    double u = ct_uniform(s), v = ct_uniform(s);
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* n runs of a 100 us collective with multiplicative (log-normal) noise of
 * relative spread noise; runs from slow_from on are factor slower. */
static void ct_history(uint64_t *seed, ct_regress_point_t *p, size_t n, double noise,
                       size_t slow_from, double factor)
{
    for (size_t i = 0; i < n; i++) {
        p[i].us = 100 * exp(noise * ct_normal(seed)) * (i >= slow_from ? factor : 1);
        p[i].hw = 0.005 * p[i].us; /* a converged run's CI: 0.5% */
    }
}

/* The share of trials given verdict `want`. */
static double ct_rate_of(ct_regress_verdict_t want, uint64_t seed, int trials, size_t n,
                         double noise, size_t slow_from, double factor)
{
    ct_regress_rule_t rule;
    ct_regress_rule_default(&rule);
    ct_regress_point_t p[64];
    int flagged = 0;
    for (int t = 0; t < trials; t++) {
        ct_history(&seed, p, n, noise, slow_from, factor);
        ct_regress_result_t r;
        ct_regress_judge(p, n, &rule, &r);
        flagged += r.verdict == want;
    }
    return (double)flagged / trials;
}

/* The share of trials flagged SLOWER. */
static double ct_rate(uint64_t seed, int trials, size_t n, double noise, size_t slow_from,
                      double factor)
{
    return ct_rate_of(CT_REGRESS_SLOWER, seed, trials, n, noise, slow_from, factor);
}

/* The run-level judgement of ns series of n runs each (p[i * n ..]), the
 * first half of them one group (a collective) and the rest another: how
 * many took each verdict, into count (CT_REGRESS_RECOVERED + 1); the
 * groups' events into groups[2] when not NULL. */
static void ct_judge_groups(const ct_regress_point_t *p, size_t ns, size_t n, size_t *count,
                            ct_regress_event_t *ev, ct_regress_result_t *res,
                            ct_regress_event_t *groups)
{
    ct_regress_series_in_t in[64];
    ct_regress_event_t g[2];
    ct_regress_rule_t rule;
    ct_regress_rule_default(&rule);
    for (size_t i = 0; i < ns; i++)
        in[i] = (ct_regress_series_in_t){p + i * n, n, -1, 2 * i >= ns};
    ct_regress_judge_runs(in, ns, &rule, res, ev, 2, groups ? groups : g);
    for (size_t v = 0; v <= CT_REGRESS_RECOVERED; v++)
        count[v] = 0;
    for (size_t i = 0; i < ns; i++)
        count[res[i].verdict]++;
}

static void ct_judge_runs(const ct_regress_point_t *p, size_t ns, size_t n, size_t *count,
                          ct_regress_event_t *ev, ct_regress_result_t *res)
{
    ct_judge_groups(p, ns, n, count, ev, res, NULL);
}

/* A real history, recorded on this project's 2-core VM by
 * bench/nightly-history (contrib/nightly.sh, np=2, allreduce and broadcast
 * at 8 B to 128 KiB, both placements) while other builds ran: 6 plain
 * nights, 2 with the delay shim (20 us before every call: a stand-in for a
 * slow driver), 1 plain.  Median us per night. */
static const double ct_recorded[32][9] = {
    {1.18, 0.80, 0.77, 0.95, 0.78, 0.80, 22.89, 21.67, 0.74},  /* allreduce 8 in-place */
    {0.89, 0.77, 0.73, 0.85, 0.77, 0.79, 23.05, 21.60, 0.76},  /* allreduce 8 out-of-place */
    {0.79, 0.78, 0.79, 0.85, 1.74, 0.81, 22.87, 21.71, 0.77},  /* allreduce 32 in-place */
    {1.79, 0.78, 0.77, 0.84, 0.82, 0.80, 23.07, 21.76, 0.77},  /* allreduce 32 out-of-place */
    {0.91, 0.95, 0.95, 0.97, 0.92, 0.91, 22.96, 21.96, 0.92},  /* allreduce 128 in-place */
    {0.90, 0.93, 0.92, 0.95, 0.92, 0.93, 22.51, 21.95, 0.91},  /* allreduce 128 out-of-place */
    {1.63, 1.39, 1.41, 1.55, 1.43, 1.57, 23.45, 22.47, 1.45},  /* allreduce 512 in-place */
    {1.34, 1.38, 1.39, 1.50, 1.82, 2.28, 24.38, 21.99, 1.47},  /* allreduce 512 out-of-place */
    {2.27, 2.08, 2.20, 2.28, 6.15, 2.22, 25.01, 24.07, 2.11},  /* allreduce 2048 in-place */
    {2.24, 2.04, 2.15, 2.25, 2.73, 2.16, 24.52, 23.77, 4.21},  /* allreduce 2048 out-of-place */
    {8.84, 6.01, 5.92, 5.97, 5.76, 6.24, 35.75, 29.63, 6.34},  /* allreduce 8192 in-place */
    {31.64, 6.03, 6.04, 5.99, 5.99, 5.97, 31.72, 29.68, 5.95}, /* allreduce 8192 out-of-place */
    {894.92, 12.19, 15.44, 14.35, 63.38, 13.65, 40.47, 33.82, 12.46}, /* allreduce 32768 in-place */
    {52.22, 14.81, 14.82, 15.22, 14.85, 14.55, 40.87, 40.02,
     14.73}, /* allreduce 32768 out-of-place */
    {32.33, 30.08, 29.11, 32.39, 59.35, 47.12, 63.24, 60.60, 30.69}, /* allreduce 131072 in-place */
    {755.62, 36.47, 40.83, 48.52, 36.50, 36.38, 73.62, 67.62,
     38.10},                                                   /* allreduce 131072 out-of-place */
    {0.61, 0.55, 0.53, 0.32, 0.59, 0.61, 21.41, 21.09, 0.56},  /* broadcast 8 in-place */
    {0.62, 0.53, 0.44, 0.41, 0.60, 0.60, 21.42, 21.20, 0.56},  /* broadcast 8 out-of-place */
    {0.61, 0.58, 6.02, 0.56, 0.64, 0.62, 21.50, 21.21, 0.57},  /* broadcast 32 in-place */
    {0.62, 0.57, 0.61, 0.32, 0.62, 0.64, 21.50, 21.06, 0.57},  /* broadcast 32 out-of-place */
    {12.56, 0.62, 0.65, 1.84, 0.69, 0.63, 21.77, 21.52, 0.60}, /* broadcast 128 in-place */
    {0.68, 0.60, 0.64, 0.65, 0.69, 0.75, 21.53, 21.46, 0.56},  /* broadcast 128 out-of-place */
    {1.21, 1.09, 1.17, 1.18, 1.17, 1.16, 22.66, 21.68, 1.21},  /* broadcast 512 in-place */
    {1.20, 1.15, 1.19, 1.19, 3.02, 1.16, 22.44, 21.64, 1.25},  /* broadcast 512 out-of-place */
    {1.31, 1.37, 1.35, 1.29, 1.29, 1.30, 23.00, 21.93, 1.37},  /* broadcast 2048 in-place */
    {1.33, 1.28, 1.32, 17.39, 1.26, 1.38, 22.83, 22.11, 1.34}, /* broadcast 2048 out-of-place */
    {2.54, 2.35, 2.52, 2.56, 2.46, 2.58, 25.84, 24.11, 2.35},  /* broadcast 8192 in-place */
    {2.52, 2.55, 2.52, 2.60, 2.57, 2.43, 25.38, 23.33, 2.36},  /* broadcast 8192 out-of-place */
    {4.33, 4.22, 5.61, 4.22, 4.16, 4.08, 28.06, 26.63, 5.49},  /* broadcast 32768 in-place */
    {47.97, 4.07, 4.10, 4.21, 4.26, 4.17, 28.52, 28.55, 5.36}, /* broadcast 32768 out-of-place */
    {55.24, 9.60, 10.82, 9.82, 9.75, 10.78, 38.43, 30.37, 13.71}, /* broadcast 131072 in-place */
    {11.46, 10.29, 10.80, 10.11, 9.81, 10.22, 39.58, 30.71,
     13.58}, /* broadcast 131072 out-of-place */
};

/* Nights 1..k of the recorded history, judged as a run. */
static void ct_recorded_night(size_t k, size_t *count, ct_regress_event_t *ev,
                              ct_regress_result_t *res)
{
    ct_regress_point_t p[32 * 9];
    for (size_t i = 0; i < 32; i++)
        for (size_t r = 0; r < k; r++)
            p[i * k + r] = (ct_regress_point_t){ct_recorded[i][r], 0};
    ct_judge_runs(p, 32, k, count, ev, res);
}

/* Fixed-number edges of the rule (regress.h), each pinning one boundary
 * the rate tests above are too coarse to see. */
static void ct_edges(ct_test_tally_t *t)
{
    ct_regress_rule_t rule;
    ct_regress_result_t r;

    /* The verdict names as the report prints them; anything else is
     * "unknown". */
    CT_CHECK_STR(t, ct_regress_verdict_name(CT_REGRESS_UNKNOWN), "unknown");
    CT_CHECK_STR(t, ct_regress_verdict_name(CT_REGRESS_SAME), "same");
    CT_CHECK_STR(t, ct_regress_verdict_name(CT_REGRESS_SLOWER), "SLOWER");
    CT_CHECK_STR(t, ct_regress_verdict_name(CT_REGRESS_FASTER), "FASTER");
    CT_CHECK_STR(t, ct_regress_verdict_name(CT_REGRESS_RECOVERED), "recovered");
    CT_CHECK_STR(t, ct_regress_verdict_name((ct_regress_verdict_t)99), "unknown");

    /* Nothing to judge (one run; pinned at the newest run, even on a quiet
     * series): UNKNOWN, and no change point: change_at n, its p 1. */
    {
        ct_regress_point_t p[8] = {{100, 0}, {101, 0}, {99, 0},  {100, 0},
                                   {102, 0}, {98, 0},  {100, 0}, {101, 0}};
        ct_regress_rule_default(&rule);
        ct_regress_judge(p, 1, &rule, &r);
        CT_CHECK(t, r.verdict == CT_REGRESS_UNKNOWN && r.change_at == 1 && r.change_p == 1);
        rule.pinned = 7;
        ct_regress_judge(p, 8, &rule, &r);
        CT_CHECK(t, r.verdict == CT_REGRESS_UNKNOWN && r.change_at == 8 && r.change_p == 1);
        /* pinned one before the newest: judged, against runs 0..6 */
        rule.pinned = 6;
        ct_regress_judge(p, 8, &rule, &r);
        CT_CHECK(t, r.verdict == CT_REGRESS_SAME && r.base_lo == 0 && r.base_hi == 7);
    }

    /* Pinned at run 0: a baseline of one run is under CT_REGRESS_MIN_BASE
     * (3), so even two runs 30% slower are UNKNOWN, judged against run 0
     * only, not against the window before the newest. */
    {
        ct_regress_point_t p[8] = {{100, 0}, {101, 0}, {99, 0},  {100, 0},
                                   {102, 0}, {98, 0},  {130, 0}, {131, 0}};
        ct_regress_rule_default(&rule);
        rule.pinned = 0;
        ct_regress_judge(p, 8, &rule, &r);
        CT_CHECK(t, r.verdict == CT_REGRESS_UNKNOWN && r.base_lo == 0 && r.base_hi == 1);
        /* pinned at run 2: the minimum baseline, judged */
        rule.pinned = 2;
        ct_regress_judge(p, 8, &rule, &r);
        CT_CHECK(t, r.verdict == CT_REGRESS_SLOWER && r.base_hi == 3 && r.first_bad == 6);
    }

    /* Pinned at a run that was already slow (run 3 at 2x): the first bad
     * run named is the first after the pinned baseline, never one inside
     * it. */
    {
        ct_regress_point_t p[8] = {{100, 0}, {99, 0},  {101, 0}, {200, 0},
                                   {200, 0}, {201, 0}, {199, 0}, {200, 0}};
        ct_regress_rule_default(&rule);
        rule.pinned = 3;
        ct_regress_judge(p, 8, &rule, &r);
        CT_CHECK(t, r.verdict == CT_REGRESS_SLOWER && r.by_newest && r.first_bad == 4);
    }

    /* A window shorter than CT_REGRESS_MIN_BASE never judges: UNKNOWN, and
     * no split is searched either (change_at n, p 1), however clear the
     * step. */
    {
        ct_regress_point_t p[12];
        for (size_t i = 0; i < 12; i++)
            p[i] = (ct_regress_point_t){(i < 6 ? 100 : 200) + (double)(i % 3), 0};
        ct_regress_rule_default(&rule);
        rule.window = 2;
        ct_regress_judge(p, 12, &rule, &r);
        CT_CHECK(t, r.verdict == CT_REGRESS_UNKNOWN && r.change_at == 12 && r.change_p == 1 &&
                        !r.by_change);
        /* the minimum window, 3: judged, SLOWER */
        rule.window = 3;
        ct_regress_judge(p, 12, &rule, &r);
        CT_CHECK(t, r.verdict != CT_REGRESS_UNKNOWN);
    }

    /* The newest run's own CI below 1 us (times of about 1 us): 1.30 with
     * a half-width of 0.4 is within its CI of the window's 1.00, so SAME,
     * not a spike.  Without the CI it is a spike (UNKNOWN). */
    {
        ct_regress_point_t p[8] = {{1.00, 0}, {1.01, 0}, {0.99, 0}, {1.00, 0},
                                   {1.02, 0}, {0.98, 0}, {1.00, 0}, {1.30, 0.4}};
        ct_regress_rule_default(&rule);
        ct_regress_judge(p, 8, &rule, &r);
        CT_CHECK(t, r.verdict == CT_REGRESS_SAME && r.beyond == 0);
        p[7].hw = 0;
        ct_regress_judge(p, 8, &rule, &r);
        CT_CHECK(t, r.verdict == CT_REGRESS_UNKNOWN && r.beyond == 1);
    }

    /* A 25% step at run 11 of 16 (5 slow runs, 3% noise): R2 finds it at
     * run 11, SLOWER by the change point with run 11 the first bad. */
    {
        static const double us[16] = {99,  104, 95,  98,  99,  104, 101, 105,
                                      100, 99,  102, 118, 118, 128, 128, 125};
        ct_regress_point_t p[16];
        for (size_t i = 0; i < 16; i++)
            p[i] = (ct_regress_point_t){us[i], 0};
        ct_regress_rule_default(&rule);
        ct_regress_judge(p, 16, &rule, &r);
        CT_CHECK(t, r.verdict == CT_REGRESS_SLOWER && r.by_change && r.change_at == 11 &&
                        r.first_bad == 11 && r.change_p <= rule.alpha);
    }

    /* A degenerate series of 0 us (rows the caller drops): no band, and
     * never an inverted one (low 0, high 0). */
    {
        ct_regress_point_t p[6] = {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}};
        ct_regress_rule_default(&rule);
        ct_regress_judge(p, 6, &rule, &r);
        CT_CHECK(t, r.verdict == CT_REGRESS_SAME && r.band_high == 0 && r.band_low == 0);
    }
}

int main(void)
{
    ct_test_tally_t t = {0, 0};
    const int trials = 2000;

    /* A/A: 20 runs from the same noise; the newest judged against its
     * window and the whole history searched for a change point. */
    const double noises[] = {0.01, 0.05, 0.10, 0.30};
    const size_t lengths[] = {20, 40};
    for (size_t i = 0; i < sizeof noises / sizeof noises[0]; i++)
        for (size_t j = 0; j < 2; j++) {
            double fa = ct_rate(1000 + 10 * i + j, trials, lengths[j], noises[i], 64, 1);
            printf("A/A false alarms, %.0f%% noise, %zu runs: %.2f%% of %d\n", 100 * noises[i],
                   lengths[j], 100 * fa, trials);
            CT_CHECK(&t, fa <= 0.01);
            /* the mirrored rule on the same histories: an improvement */
            double ff = ct_rate_of(CT_REGRESS_FASTER, 1000 + 10 * i + j, trials, lengths[j],
                                   noises[i], 64, 1);
            printf("A/A false FASTER, %.0f%% noise, %zu runs: %.2f%% of %d\n", 100 * noises[i],
                   lengths[j], 100 * ff, trials);
            CT_CHECK(&t, ff <= 0.01);
        }

    /* A 10% slowdown in the newest 2 runs, 1% noise, 12 runs before. */
    double d10 = ct_rate(2000, trials, 14, 0.01, 12, 1.10);
    printf("10%% slowdown, 1%% noise, newest 2 runs: flagged %.2f%%\n", 100 * d10);
    CT_CHECK(&t, d10 >= 0.95);
    /* The mirror: a 10% speed-up (times x 0.9) in the newest 2 runs. */
    double f10 = ct_rate_of(CT_REGRESS_FASTER, 2100, trials, 14, 0.01, 12, 0.90);
    printf("10%% speed-up, 1%% noise, newest 2 runs: FASTER %.2f%%\n", 100 * f10);
    CT_CHECK(&t, f10 >= 0.95);
    CT_CHECK(&t, ct_rate(2100, trials, 14, 0.01, 12, 0.90) == 0);
    double f10s = ct_rate_of(CT_REGRESS_FASTER, 2150, trials, 20, 0.01, 14, 0.90);
    printf("10%% speed-up at run 14 of 20, 1%% noise: FASTER %.2f%%\n", 100 * f10s);
    CT_CHECK(&t, f10s >= 0.95);
    /* One 2x spike, then back to normal or not yet confirmed: never SLOWER
     * (a spike in the newest run alone is UNKNOWN). */
    double spike = ct_rate(2050, trials, 13, 0.01, 12, 2.0);
    printf("2x spike in the newest run only, 1%% noise: flagged %.2f%%\n", 100 * spike);
    CT_CHECK(&t, spike == 0);

    /* 2x at 30% noise (log-normal sigma 0.3: about this machine's
     * launch-to-launch spread): one slow run is within the noise (2x is
     * 2.3 sigma), so the change point needs several slow runs. */
    const size_t nslow[] = {1, 4, 8, 12};
    double d2[4];
    for (size_t i = 0; i < 4; i++) {
        d2[i] = ct_rate(3000 + i, trials, 12 + nslow[i], 0.30, 12, 2.0);
        printf("2x slowdown, 30%% noise, %zu slow runs after 12: flagged %.2f%%\n", nslow[i],
               100 * d2[i]);
    }
    CT_CHECK(&t, d2[3] >= 0.85);
    double d2_10 = ct_rate(3100, trials, 14, 0.10, 12, 2.0);
    printf("2x slowdown, 10%% noise, newest 2 runs: flagged %.2f%%\n", 100 * d2_10);
    CT_CHECK(&t, d2_10 >= 0.80);

    /* A 10% step at run 14 of 20 at 1% noise: the change point is run 14. */
    {
        uint64_t seed = 4000;
        ct_regress_rule_t rule;
        ct_regress_rule_default(&rule);
        ct_regress_point_t p[20];
        int right = 0, near = 0;
        for (int k = 0; k < 200; k++) {
            ct_history(&seed, p, 20, 0.01, 14, 1.10);
            ct_regress_result_t r;
            ct_regress_judge(p, 20, &rule, &r);
            right += r.verdict == CT_REGRESS_SLOWER && r.by_change && r.first_bad == 14;
            near += r.verdict == CT_REGRESS_SLOWER && r.first_bad >= 13 && r.first_bad <= 15;
        }
        printf("10%% step at run 14 of 20, 1%% noise: flagged with first bad run 14 in %d of 200, "
               "13 to 15 in %d\n",
               right, near);
        CT_CHECK(&t, right >= 150 && near >= 185);
    }

    /* Fixed numbers: the verdicts, the window, the pinned baseline. */
    {
        ct_regress_rule_t rule;
        ct_regress_rule_default(&rule);
        ct_regress_point_t p[8] = {{100, 0}, {101, 0}, {99, 0},  {100, 0},
                                   {102, 0}, {98, 0},  {100, 0}, {130, 0}};
        ct_regress_result_t r;
        /* one slow run: a spike, unknown until the next run confirms it */
        ct_regress_judge(p, 8, &rule, &r);
        CT_CHECK(&t, r.verdict == CT_REGRESS_UNKNOWN && !r.by_newest);
        CT_CHECK(&t, r.base_lo == 0 && r.base_hi == 7 && r.base_median == 100);
        p[6].us = 131;
        ct_regress_judge(p, 8, &rule, &r);
        CT_CHECK(&t, r.verdict == CT_REGRESS_SLOWER && r.by_newest && r.first_bad == 6);
        p[6].us = 100;
        /* a slower run inside its own CI is not a regression */
        p[7].hw = 40;
        ct_regress_judge(p, 8, &rule, &r);
        CT_CHECK(&t, r.verdict == CT_REGRESS_SAME);
        p[7].hw = 0;
        /* under the threshold: 4% is not flagged however quiet the noise */
        p[7].us = 104;
        ct_regress_judge(p, 8, &rule, &r);
        CT_CHECK(&t, r.verdict == CT_REGRESS_SAME);
        /* too few baseline runs: unknown, not a verdict */
        p[2].us = 300;
        ct_regress_judge(p + 1, 2, &rule, &r);
        CT_CHECK(&t, r.verdict == CT_REGRESS_UNKNOWN);
        /* pinned: the newest against runs 0..2 only */
        p[2].us = 99;
        p[5].us = p[6].us = 200;
        p[7].us = 200;
        rule.pinned = 2;
        ct_regress_judge(p, 8, &rule, &r);
        CT_CHECK(&t, r.verdict == CT_REGRESS_SLOWER && r.base_hi == 3 && r.first_bad == 5);
        rule.pinned = 7; /* the newest itself: nothing to compare */
        ct_regress_judge(p, 8, &rule, &r);
        CT_CHECK(&t, r.verdict == CT_REGRESS_UNKNOWN);
    }

    /* FASTER on fixed numbers: two runs 30% faster; the band is the
     * window's median with R1's bounds either side of it. */
    {
        ct_regress_rule_t rule;
        ct_regress_rule_default(&rule);
        ct_regress_point_t p[8] = {{100, 0}, {101, 0}, {99, 0}, {100, 0},
                                   {102, 0}, {98, 0},  {70, 0}, {71, 0}};
        ct_regress_result_t r;
        ct_regress_judge(p, 8, &rule, &r);
        CT_CHECK(&t, r.verdict == CT_REGRESS_FASTER && r.by_newest && r.first_bad == 6);
        CT_CHECK(&t, r.change < -0.25 && r.band_median == 100);
        CT_CHECK(&t, r.band_low < 100 / 1.05 + 1e-9 && r.band_high >= 105 - 1e-9);
        CT_CHECK(&t, fabs(r.band_low * r.band_high - 100 * 100) < 1e-6);
        /* R2's split at the first fast run, its change in us again: the
         * after median over the window's, 70.5 / 100 - 1 (as the
         * harmonic mirror reads it: 1 / (1 + its +41%) - 1). */
        CT_CHECK(&t, r.change_at == 6 && r.change_rel > -0.30 && r.change_rel < -0.28);
        /* one fast run alone: not FASTER (as a slow one is not SLOWER) */
        p[6].us = 100;
        ct_regress_judge(p, 8, &rule, &r);
        CT_CHECK(&t, r.verdict == CT_REGRESS_SAME);
        /* 4% faster: under the threshold */
        p[6].us = p[7].us = 96;
        ct_regress_judge(p, 8, &rule, &r);
        CT_CHECK(&t, r.verdict == CT_REGRESS_SAME);
        /* slower wins over nothing: 2 slow runs stay SLOWER */
        p[6].us = p[7].us = 140;
        ct_regress_judge(p, 8, &rule, &r);
        CT_CHECK(&t, r.verdict == CT_REGRESS_SLOWER && r.band_high < 140);
    }
    /* A step 20 runs back, with the default window of 12: history, not a
     * regression of the newest run (E10: it read SLOWER at +0.0%); the
     * same step 3 runs back is SLOWER, against the window before it. */
    {
        ct_regress_rule_t rule;
        ct_regress_rule_default(&rule);
        ct_regress_point_t p[40];
        for (size_t i = 0; i < 40; i++)
            p[i] = (ct_regress_point_t){(i < 20 ? 100 : 200) * (1 + 0.002 * (double)(i % 3)), 0};
        ct_regress_result_t r;
        ct_regress_judge(p, 40, &rule, &r);
        CT_CHECK(&t, r.verdict == CT_REGRESS_SAME && fabs(r.change) < 0.01);
        if (r.verdict != CT_REGRESS_SAME)
            fprintf(stderr, "  old step: verdict %d, change %+.3f\n", (int)r.verdict, r.change);
        ct_regress_judge(p, 23, &rule, &r);
        CT_CHECK(&t, r.verdict == CT_REGRESS_SLOWER && r.change > 0.9);
    }
    /* The window's edge: a step at run 21 is in the newest's window of 12
     * up to 32 runs, gone from it at 33.  From then on no split after the
     * step (at run 22, 23, ...) makes it SLOWER again: it read SLOWER at
     * +0.0% with 33 to 35 runs before. */
    {
        ct_regress_rule_t rule;
        ct_regress_rule_default(&rule);
        ct_regress_point_t p[40];
        for (size_t i = 0; i < 40; i++)
            p[i] =
                (ct_regress_point_t){(i < 20 ? 100 : 200) * (1 + 0.005 * (double)((i * 7) % 5)), 0};
        ct_regress_result_t r;
        ct_regress_judge(p, 32, &rule, &r);
        CT_CHECK(&t, r.verdict == CT_REGRESS_SLOWER && r.first_bad == 20);
        for (size_t n = 33; n <= 40; n++) {
            ct_regress_judge(p, n, &rule, &r);
            CT_CHECK(&t, r.verdict != CT_REGRESS_SLOWER && fabs(r.change) < 0.05);
            if (r.verdict == CT_REGRESS_SLOWER)
                fprintf(stderr, "  %zu runs, step at 21: SLOWER at %+.3f from run %zu\n", n,
                        r.change, r.first_bad + 1);
        }
    }
    /* The run-level view: a 10x step in all 32 series of the newest run
     * (5% noise, 6 runs before) is one severe event, SLOWER at once, the
     * newest named as the first slow run; a whole-run 1.5x slowdown (launch
     * noise on a shared machine) in a short history (3 runs before, 30%
     * noise) is an event but not severe: never SLOWER from one run. */
    {
        uint64_t seed = 5000;
        ct_regress_point_t p[32 * 7];
        ct_regress_result_t res[32];
        ct_regress_event_t ev;
        size_t count[CT_REGRESS_RECOVERED + 1], all = 0, named = 0, noisy = 0, most = 0;
        size_t events = 0;
        for (int k = 0; k < 200; k++) {
            for (size_t i = 0; i < 32; i++)
                ct_history(&seed, p + i * 7, 7, 0.05, 6, 10.0);
            ct_judge_runs(p, 32, 7, count, &ev, res);
            all += count[CT_REGRESS_SLOWER] == 32 && ev.direction == 1 && ev.severe;
            for (size_t i = 0; i < 32; i++)
                named += res[i].verdict == CT_REGRESS_SLOWER && res[i].first_bad == 6;
            for (size_t i = 0; i < 32; i++)
                ct_history(&seed, p + i * 4, 4, 0.30, 3, 1.5);
            ct_judge_runs(p, 32, 4, count, &ev, res);
            noisy += count[CT_REGRESS_SLOWER];
            most += 2 * count[CT_REGRESS_SLOWER] >= 32;
            events += ev.direction != 0;
        }
        printf("10x step in all 32 series at once: all SLOWER from one run in %zu of 200, the "
               "newest named first in %zu of 6400 series\n",
               all, named);
        printf("1.5x whole-run slowdown, 30%% noise, 3 runs before: %zu of 6400 series SLOWER, "
               "most of a run in %zu of 200 (an event seen in %zu)\n",
               noisy, most, events);
        CT_CHECK(&t, all == 200 && named == 6400);
        /* the event never escalates launch noise; the per-series rule's own
         * short-history rate stays under its A/A bound */
        CT_CHECK(&t, most == 0 && noisy <= 6400 / 100);
        /* A/A at the run level: 32 independent series, 30% noise, short and
         * long histories: the event must not turn noise into alarms. */
        size_t fa = 0, runs = 0;
        for (int k = 0; k < 1000; k++) {
            size_t n = k % 2 ? 7 : 4;
            for (size_t i = 0; i < 32; i++)
                ct_history(&seed, p + i * n, n, 0.30, 64, 1);
            ct_judge_runs(p, 32, n, count, &ev, res);
            fa += count[CT_REGRESS_SLOWER];
            runs += count[CT_REGRESS_SLOWER] > 0;
        }
        printf("A/A, 32 series judged as a run, 30%% noise, 4 or 7 runs: %zu of 32000 series "
               "SLOWER (%zu of 1000 runs)\n",
               fa, runs);
        CT_CHECK(&t, fa <= 32000 / 100); /* the per-series A/A bound, 1% */
    }

    /* One collective's step (a forced algorithm): the first 16 of 32 series
     * 5x slower in the newest run, 20% noise, 6 runs before: not an event
     * of the run (16 is half, but not all of them clear their bounds), an
     * event of that collective: its series SLOWER from one run, the other
     * collective's no more often than the per-series A/A bound (1%): the
     * event lowers the bar for its own collective only. */
    {
        uint64_t seed = 5200;
        ct_regress_point_t p[32 * 7];
        ct_regress_result_t res[32];
        ct_regress_event_t ev, groups[2];
        size_t count[CT_REGRESS_RECOVERED + 1], moved = 0, other = 0, events = 0;
        for (int k = 0; k < 200; k++) {
            for (size_t i = 0; i < 32; i++)
                ct_history(&seed, p + i * 7, 7, 0.20, 6, i < 16 ? 5.0 : 1.0);
            ct_judge_groups(p, 32, 7, count, &ev, res, groups);
            for (size_t i = 0; i < 32; i++) {
                moved += i < 16 && res[i].verdict == CT_REGRESS_SLOWER && res[i].first_bad == 6;
                other += i >= 16 && res[i].verdict == CT_REGRESS_SLOWER;
            }
            events += groups[0].direction == 1 && groups[0].severe && groups[1].direction == 0;
        }
        printf("5x step in one collective's 16 series of 32, 20%% noise: its event in %d of 200, "
               "%zu of 3200 of its series SLOWER from that run, %zu of the other's\n",
               (int)events, moved, other);
        CT_CHECK(&t, events == 200 && moved >= 3150 && other <= 3200 / 100);
    }

    /* A step followed by recovery: 6 runs, 2 at 20x, 1 back: nothing
     * SLOWER, the series RECOVERED with the step's first run named. */
    {
        uint64_t seed = 5100;
        ct_regress_point_t p[32 * 9];
        ct_regress_result_t res[32];
        ct_regress_event_t ev;
        size_t count[CT_REGRESS_RECOVERED + 1], slower = 0, back = 0, named = 0;
        for (int k = 0; k < 200; k++) {
            for (size_t i = 0; i < 32; i++) {
                ct_history(&seed, p + i * 9, 9, 0.05, 6, 20.0);
                p[i * 9 + 8].us /= 20;
            }
            ct_judge_runs(p, 32, 9, count, &ev, res);
            slower += count[CT_REGRESS_SLOWER];
            back += count[CT_REGRESS_RECOVERED];
            for (size_t i = 0; i < 32; i++)
                named += res[i].verdict == CT_REGRESS_RECOVERED && res[i].first_bad == 6;
        }
        printf("20x step for 2 runs, then back (5%% noise): SLOWER %zu, recovered %zu (first "
               "run of the step named in %zu) of 6400 series\n",
               slower, back, named);
        CT_CHECK(&t, slower == 0 && back >= 6300 && named == back);
    }

    /* The recorded history, night by night: night 7 (the first with the
     * shim) is one severe event and names itself; night 8 keeps night 7 as
     * the first slow run; night 9 (plain again) exits 0, its series
     * recovered or unconfirmed spikes, never SLOWER. */
    {
        size_t count[CT_REGRESS_RECOVERED + 1];
        ct_regress_event_t ev;
        ct_regress_result_t res[32];
        ct_recorded_night(7, count, &ev, res);
        size_t first7 = 0;
        for (size_t i = 0; i < 32; i++)
            first7 += res[i].verdict == CT_REGRESS_SLOWER && res[i].first_bad == 6;
        printf("recorded night 7: %zu of 32 SLOWER (%zu naming night 7), event %zu of %zu, "
               "median %+.0f%%\n",
               count[CT_REGRESS_SLOWER], first7, ev.moved, ev.judged, 100 * ev.median_change);
        CT_CHECK(&t, ev.severe && count[CT_REGRESS_SLOWER] >= 30 && first7 >= 30);
        ct_recorded_night(8, count, &ev, res);
        size_t first8 = 0;
        for (size_t i = 0; i < 32; i++)
            first8 += res[i].verdict == CT_REGRESS_SLOWER && res[i].first_bad == 6;
        printf("recorded night 8: %zu of 32 SLOWER (%zu naming night 7)\n",
               count[CT_REGRESS_SLOWER], first8);
        CT_CHECK(&t, count[CT_REGRESS_SLOWER] >= 30 && first8 >= 30);
        ct_recorded_night(9, count, &ev, res);
        printf("recorded night 9: %zu SLOWER, %zu recovered, %zu unknown\n",
               count[CT_REGRESS_SLOWER], count[CT_REGRESS_RECOVERED], count[CT_REGRESS_UNKNOWN]);
        CT_CHECK(&t, count[CT_REGRESS_SLOWER] == 0 && count[CT_REGRESS_RECOVERED] >= 26);
    }
    ct_edges(&t);
    return CT_DONE(&t);
}
