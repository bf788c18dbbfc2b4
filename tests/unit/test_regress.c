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
    return CT_DONE(&t);
}
