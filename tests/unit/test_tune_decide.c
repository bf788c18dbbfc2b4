/* SPDX-License-Identifier: BSD-3-Clause */
/* The tune decision rule and bucket merging, on synthetic launch medians. */
#include <math.h>

#include "ct_stats.h"
#include "ct_test.h"
#include "tune_decide.h"

static void test_rule(ct_test_tally_t *t)
{
    double base[] = {100, 104, 98};
    double fast[] = {80, 85, 82};    /* ranges apart, 18% faster */
    double overlap[] = {70, 99, 72}; /* worst launch inside the baseline's range */
    double small[] = {96, 97};       /* apart, but only ~3% */
    double one[] = {50};             /* one launch proves nothing */
    CT_CHECK(t, ct_tune_significant(fast, 3, base, 3));
    CT_CHECK(t, !ct_tune_significant(overlap, 3, base, 3));
    CT_CHECK(t, !ct_tune_significant(small, 2, base, 3));
    CT_CHECK(t, !ct_tune_significant(one, 1, base, 3));
    CT_CHECK(t, !ct_tune_significant(fast, 3, base, 1));
    CT_CHECK(t, !ct_tune_significant(base, 3, base, 3));
    CT_CHECK(t, ct_stats_median(base, 3) == 100);
    CT_CHECK(t, ct_stats_median(fast, 2) == 82.5);
    /* 2 against 2 cannot reach p 0.05: complete separation (p 1/6) does. */
    CT_CHECK(t, fabs(ct_tune_search_alpha(2, 2) - 1.0 / 6) < 1e-12);
    CT_CHECK(t, ct_tune_search_alpha(5, 5) == CT_TUNE_SEARCH_ALPHA);
    double b2[] = {100, 104}, f2[] = {80, 85}, o2[] = {80, 101};
    CT_CHECK(t, ct_tune_significant(f2, 2, b2, 2));
    CT_CHECK(t, !ct_tune_significant(o2, 2, b2, 2));
    /* More launches give power: one slow launch of the candidate and one
     * fast launch of the baseline overlap the ranges, yet 8 of 9 launches
     * each say the same (Mann-Whitney p ~ 0.001). */
    double b9[] = {100, 101, 102, 103, 104, 105, 106, 107, 60};
    double c9[] = {70, 71, 72, 73, 74, 75, 76, 77, 120};
    CT_CHECK(t, ct_tune_significant(c9, 9, b9, 9));
    CT_CHECK(t, !ct_tune_significant(b9, 9, c9, 9));
}

static void test_pick(ct_test_tally_t *t)
{
    double base[] = {100, 102};
    double a[] = {60, 62};  /* best, 2 variables changed */
    double b[] = {61, 63};  /* tied with a (overlapping), 1 variable */
    double c[] = {40, 41};  /* fastest, but failed elsewhere */
    double d[] = {99, 101}; /* no gain */
    ct_tune_cand_t cands[] = {
        {.us = base, .n = 2, .nchanged = 0, .excluded = 0},
        {.us = a, .n = 2, .nchanged = 2, .excluded = 0},
        {.us = b, .n = 2, .nchanged = 1, .excluded = 0},
        {.us = c, .n = 2, .nchanged = 1, .excluded = 1},
        {.us = d, .n = 2, .nchanged = 1, .excluded = 0},
    };
    CT_CHECK(t, ct_tune_pick(cands, 5) == 2); /* b: tied with a, simpler */
    CT_CHECK(t, ct_tune_pick(cands, 2) == 1);
    ct_tune_cand_t none[] = {{.us = base, .n = 2, .nchanged = 0, .excluded = 0},
                             {.us = d, .n = 2, .nchanged = 1, .excluded = 0}};
    CT_CHECK(t, ct_tune_pick(none, 2) == 0); /* the default stays */
    ct_tune_cand_t only_bad[] = {{.us = base, .n = 2, .nchanged = 0, .excluded = 0},
                                 {.us = c, .n = 2, .nchanged = 1, .excluded = 1}};
    CT_CHECK(t, ct_tune_pick(only_bad, 2) == 0);
    /* Clearly faster than the tied pair: wins despite more changes. */
    double e[] = {30, 31};
    ct_tune_cand_t far[] = {{.us = base, .n = 2, .nchanged = 0, .excluded = 0},
                            {.us = b, .n = 2, .nchanged = 1, .excluded = 0},
                            {.us = e, .n = 2, .nchanged = 3, .excluded = 0}};
    CT_CHECK(t, ct_tune_pick(far, 3) == 2);
}

/* The paired rule (in-process search): shared launches decide. */
static void test_paired(ct_test_tally_t *t)
{
    const char *g3[] = {"L0", "L1", "L2"};
    double base[] = {100, 100, 100}, blo[] = {98, 98, 98}, bhi[] = {102, 102, 102};
    double win[] = {80, 85, 120}, wlo[] = {79, 84, 118}, whi[] = {81, 86, 122};
    ct_tune_cand_t b = {base, blo, bhi, g3, 3, 0, 0};
    ct_tune_cand_t c = {win, wlo, whi, g3, 3, 1, 0};
    size_t np = 0;
    /* Wins 2 of 3 shared launches, median ratio 0.85: a gain. */
    CT_CHECK(t, ct_tune_beats(&c, &b, &np) == 1 && np == 3);
    /* Across launches the same numbers are no significant gain (120 > 100). */
    CT_CHECK(t, !ct_tune_significant(win, 3, base, 3));
    /* Overlapping intervals: not a win in that launch, so 1 of 3. */
    double whi2[] = {81, 99, 122};
    ct_tune_cand_t c2 = {win, wlo, whi2, g3, 3, 1, 0};
    CT_CHECK(t, ct_tune_beats(&c2, &b, NULL) == 0);
    /* Only 4% faster in every launch: below the margin. */
    double near[] = {96, 96, 96}, nlo[] = {95, 95, 95}, nhi[] = {97, 97, 97};
    ct_tune_cand_t c3 = {near, nlo, nhi, g3, 3, 1, 0};
    CT_CHECK(t, ct_tune_beats(&c3, &b, NULL) == 0);
    /* Unknown intervals (NaN): the medians decide. */
    double nan3[] = {NAN, NAN, NAN};
    ct_tune_cand_t c4 = {win, nan3, nan3, g3, 3, 1, 0};
    CT_CHECK(t, ct_tune_beats(&c4, &b, NULL) == 1);
    /* Two shared launches only: the across-launch rule decides. */
    const char *g2[] = {"L0", "L1", ""};
    ct_tune_cand_t c5 = {win, wlo, whi, g2, 3, 1, 0};
    CT_CHECK(t, ct_tune_beats(&c5, &b, &np) == 0 && np == 2);
    /* The baseline beats a candidate by the same rule. */
    double slow[] = {130, 140, 150}, slo[] = {128, 138, 148}, shi[] = {132, 142, 152};
    ct_tune_cand_t c6 = {slow, slo, shi, g3, 3, 1, 0};
    CT_CHECK(t, ct_tune_beats(&b, &c6, NULL) == 1 && ct_tune_beats(&c6, &b, NULL) == 0);
    /* ct_tune_pick uses it. */
    ct_tune_cand_t all[] = {b, c3, c};
    CT_CHECK(t, ct_tune_pick(all, 3) == 2);
}

/* min and max read exactly n values (what lies past them is not theirs),
 * and 0 for none, as tune_decision.c's report shows an empty side. */
static void test_min_max(ct_test_tally_t *t)
{
    double low_after[] = {5, 6, 1}, high_after[] = {5, 4, 9};
    CT_CHECK(t, ct_tune_min(low_after, 2) == 5);
    CT_CHECK(t, ct_tune_max(high_after, 2) == 5);
    CT_CHECK(t, ct_tune_min(low_after, 3) == 1 && ct_tune_max(high_after, 3) == 9);
    CT_CHECK(t, ct_tune_min(low_after, 0) == 0 && ct_tune_max(high_after, 0) == 0);
    CT_CHECK(t, ct_tune_min(high_after, 1) == 5 && ct_tune_max(low_after, 1) == 5);
}

/* The paired rule at its boundaries: which launch pairs with which (by
 * group, never by position), a strict majority of wins, the margin, and
 * intervals that touch. */
static void test_paired_bounds(ct_test_tally_t *t)
{
    const char *g3[] = {"L0", "L1", "L2"};
    double nan3[] = {NAN, NAN, NAN};
    size_t np = 0;
    /* Pairs by group: the baseline ran its launches in another order.  By
     * position the candidate would lose two of three. */
    const char *rev[] = {"L2", "L1", "L0"};
    double bus[] = {100, 200, 300}, cus[] = {270, 180, 90}; /* 0.9 each */
    ct_tune_cand_t b = {bus, nan3, nan3, rev, 3, 0, 0};
    ct_tune_cand_t c = {cus, nan3, nan3, g3, 3, 1, 0};
    CT_CHECK(t, ct_tune_beats(&c, &b, &np) == 1 && np == 3);
    /* A group the baseline never ran in pairs with nothing: two shared
     * launches, so the across-launch rule decides (and 270 > 100 fails). */
    const char *gx[] = {"L0", "L1", "X"};
    ct_tune_cand_t cx = {cus, nan3, nan3, gx, 3, 1, 0};
    CT_CHECK(t, ct_tune_beats(&cx, &b, &np) == 0 && np == 2);
    /* A baseline launch with no group (NULL) pairs with nothing either. */
    const char *gnull[] = {NULL, "L1", "L0"};
    ct_tune_cand_t bn = {bus, nan3, nan3, gnull, 3, 0, 0};
    CT_CHECK(t, ct_tune_beats(&c, &bn, &np) == 0 && np == 2);

    /* A baseline launch that measured nothing (0 us) pairs with nothing;
     * one under a microsecond pairs as any other. */
    const char *g4z[] = {"L0", "L1", "L2", "L3"};
    double nan4z[] = {NAN, NAN, NAN, NAN};
    double bz[] = {0, 100, 100, 100}, cz[] = {80, 80, 80, 80};
    ct_tune_cand_t basez = {bz, nan4z, nan4z, g4z, 4, 0, 0};
    ct_tune_cand_t candz = {cz, nan4z, nan4z, g4z, 4, 1, 0};
    CT_CHECK(t, ct_tune_beats(&candz, &basez, &np) == 1 && np == 3);
    double bsub[] = {0.5, 0.5, 0.5}, csub[] = {0.4, 0.4, 0.4};
    ct_tune_cand_t basesub = {bsub, nan3, nan3, g3, 3, 0, 0};
    ct_tune_cand_t candsub = {csub, nan3, nan3, g3, 3, 1, 0};
    CT_CHECK(t, ct_tune_beats(&candsub, &basesub, &np) == 1 && np == 3);

    /* A strict majority: 2 wins of 4 shared launches is not one, even with
     * the median ratio (0.9) below the margin; 3 of 4 is. */
    const char *g4[] = {"L0", "L1", "L2", "L3"};
    double nan4[] = {NAN, NAN, NAN, NAN};
    double b4[] = {100, 100, 100, 100};
    double half[] = {80, 80, 100, 100}, more[] = {80, 80, 80, 100};
    ct_tune_cand_t base4 = {b4, nan4, nan4, g4, 4, 0, 0};
    ct_tune_cand_t c_half = {half, nan4, nan4, g4, 4, 1, 0};
    ct_tune_cand_t c_more = {more, nan4, nan4, g4, 4, 1, 0};
    CT_CHECK(t, ct_tune_beats(&c_half, &base4, &np) == 0 && np == 4);
    CT_CHECK(t, ct_tune_beats(&c_more, &base4, &np) == 1 && np == 4);

    /* The margin is inclusive: exactly 5% faster in every launch wins;
     * 4.5% does not. */
    double b3[] = {100, 100, 100}, at[] = {95, 95, 95}, above[] = {95.5, 95.5, 95.5};
    ct_tune_cand_t base3 = {b3, nan3, nan3, g3, 3, 0, 0};
    ct_tune_cand_t c_at = {at, nan3, nan3, g3, 3, 1, 0};
    ct_tune_cand_t c_above = {above, nan3, nan3, g3, 3, 1, 0};
    CT_CHECK(t, ct_tune_beats(&c_at, &base3, NULL) == 1);
    CT_CHECK(t, ct_tune_beats(&c_above, &base3, NULL) == 0);
    /* Exactly the margin where the ratio's rounding is above it (36.1 / 38
     * reads 0.95000000000000007): the wins decide, as they do at 95 / 100. */
    double b38[] = {38, 38, 38}, c361[] = {36.1, 36.1, 36.1};
    ct_tune_cand_t base38 = {b38, nan3, nan3, g3, 3, 0, 0};
    ct_tune_cand_t c_361 = {c361, nan3, nan3, g3, 3, 1, 0};
    CT_CHECK(t, ct_tune_beats(&c_361, &base38, NULL) == 1);

    /* Intervals apart only when the candidate's high end is strictly below
     * the baseline's low end: touching (98 = 98) is no win, one below is. */
    double blo[] = {98, 98, 98}, bhi[] = {102, 102, 102};
    double fast[] = {80, 80, 80}, flo[] = {60, 60, 60};
    double touch[] = {98, 98, 98}, below[] = {97.9, 97.9, 97.9};
    ct_tune_cand_t bci = {b3, blo, bhi, g3, 3, 0, 0};
    ct_tune_cand_t c_touch = {fast, flo, touch, g3, 3, 1, 0};
    ct_tune_cand_t c_below = {fast, flo, below, g3, 3, 1, 0};
    CT_CHECK(t, ct_tune_beats(&c_touch, &bci, NULL) == 0);
    CT_CHECK(t, ct_tune_beats(&c_below, &bci, NULL) == 1);
}

/* ct_tune_pick at its boundaries: an excluded candidate is never the
 * pick, not even as the simpler one of a tie; ranges that only touch are
 * tied; ranges apart are not. */
static void test_pick_bounds(ct_test_tally_t *t)
{
    double base[] = {100, 102, 101, 103};
    /* Tied with the best and simpler, but failed elsewhere. */
    double a[] = {60, 62}, x[] = {61, 63};
    ct_tune_cand_t excl[] = {{.us = base, .n = 2, .nchanged = 0, .excluded = 0},
                             {.us = a, .n = 2, .nchanged = 2, .excluded = 0},
                             {.us = x, .n = 2, .nchanged = 1, .excluded = 1}};
    CT_CHECK(t, ct_tune_pick(excl, 3) == 1);
    /* Equal medians (10): the best is the first, [10, 12]; the second's
     * range [8, 10] touches it at 10, so they are tied and the simpler
     * one wins. */
    double best[] = {10, 10, 10, 12}, lower[] = {8, 10, 10, 10};
    ct_tune_cand_t touch_below[] = {{.us = base, .n = 4, .nchanged = 0, .excluded = 0},
                                    {.us = best, .n = 4, .nchanged = 2, .excluded = 0},
                                    {.us = lower, .n = 4, .nchanged = 1, .excluded = 0}};
    CT_CHECK(t, ct_tune_pick(touch_below, 3) == 2);
    /* A slower one whose range starts where the best's ends (62): tied. */
    double b62[] = {62, 64};
    ct_tune_cand_t touch_above[] = {{.us = base, .n = 2, .nchanged = 0, .excluded = 0},
                                    {.us = a, .n = 2, .nchanged = 2, .excluded = 0},
                                    {.us = b62, .n = 2, .nchanged = 1, .excluded = 0}};
    CT_CHECK(t, ct_tune_pick(touch_above, 3) == 2);
    /* Starting just above it (62.5): apart, the faster one stays. */
    double b625[] = {62.5, 64};
    ct_tune_cand_t apart[] = {{.us = base, .n = 2, .nchanged = 0, .excluded = 0},
                              {.us = a, .n = 2, .nchanged = 2, .excluded = 0},
                              {.us = b625, .n = 2, .nchanged = 1, .excluded = 0}};
    CT_CHECK(t, ct_tune_pick(apart, 3) == 1);
    /* Tied and as simple: the lower median. */
    ct_tune_cand_t same[] = {{.us = base, .n = 2, .nchanged = 0, .excluded = 0},
                             {.us = x, .n = 2, .nchanged = 1, .excluded = 0},
                             {.us = a, .n = 2, .nchanged = 1, .excluded = 0}};
    CT_CHECK(t, ct_tune_pick(same, 3) == 2);
    /* The simpler one first (3 changes -> 1), then, as simple, the lower
     * median of the two: 61.5 beats 62.25 though it comes later. */
    double b60[] = {60, 62}, x615[] = {61.5, 63}, y605[] = {60.5, 62.5};
    ct_tune_cand_t then_lower[] = {{.us = base, .n = 2, .nchanged = 0, .excluded = 0},
                                   {.us = b60, .n = 2, .nchanged = 3, .excluded = 0},
                                   {.us = x615, .n = 2, .nchanged = 1, .excluded = 0},
                                   {.us = y605, .n = 2, .nchanged = 1, .excluded = 0}};
    CT_CHECK(t, ct_tune_pick(then_lower, 4) == 3);
    /* As simple and as fast (equal medians): the first stays. */
    double e1[] = {60, 62}, e2[] = {59, 63};
    ct_tune_cand_t equal[] = {{.us = base, .n = 2, .nchanged = 0, .excluded = 0},
                              {.us = e1, .n = 2, .nchanged = 1, .excluded = 0},
                              {.us = e2, .n = 2, .nchanged = 1, .excluded = 0}};
    CT_CHECK(t, ct_tune_pick(equal, 3) == 1);
}

static void test_merge(ct_test_tally_t *t)
{
    ct_tune_bucket_t b[] = {{1024, 0}, {2048, 3}, {4096, 3}, {8192, 0}, {16384, 0}, {32768, 2}};
    ct_tune_range_t r[6];
    /* Extended both ways (--extend-ranges): the ranges tile all sizes. */
    size_t n = ct_tune_merge(b, 6, 1, 1, r);
    CT_CHECK(t, n == 4);
    CT_CHECK(t, r[0].min_bytes == 0 && r[0].max_bytes == 2047 && r[0].winner == 0);
    CT_CHECK(t, r[1].min_bytes == 2048 && r[1].max_bytes == 8191 && r[1].winner == 3);
    CT_CHECK(t, r[1].first == 1 && r[1].count == 2);
    CT_CHECK(t, r[2].min_bytes == 8192 && r[2].max_bytes == 32767 && r[2].winner == 0);
    CT_CHECK(t, r[3].min_bytes == 32768 && r[3].max_bytes == -1 && r[3].winner == 2);
    /* The default: only the measured span, 1 KiB to 32 KiB. */
    n = ct_tune_merge(b, 6, 0, 0, r);
    CT_CHECK(t, n == 4);
    CT_CHECK(t, r[0].min_bytes == 1024 && r[0].max_bytes == 2047);
    CT_CHECK(t, r[1].min_bytes == 2048 && r[1].max_bytes == 8191 && r[1].winner == 3);
    CT_CHECK(t, r[3].min_bytes == 32768 && r[3].max_bytes == 32768 && r[3].winner == 2);
    /* One winner at every measured size: still only the span (issue 16:
     * a 256 KiB-1 MiB tune wrote a forced algorithm for every size). */
    ct_tune_bucket_t one[] = {{64, 5}, {128, 5}};
    n = ct_tune_merge(one, 2, 0, 0, r);
    CT_CHECK(t, n == 1 && r[0].min_bytes == 64 && r[0].max_bytes == 128 && r[0].count == 2);
    n = ct_tune_merge(one, 2, 1, 0, r);
    CT_CHECK(t, n == 1 && r[0].min_bytes == 0 && r[0].max_bytes == 128);
    n = ct_tune_merge(one, 2, 1, 1, r);
    CT_CHECK(t, n == 1 && r[0].min_bytes == 0 && r[0].max_bytes == -1 && r[0].count == 2);
    CT_CHECK(t, ct_tune_merge(one, 0, 0, 0, r) == 0);
}

/* Exact values: with 5 and 5 there are C(10, 5) = 252 orderings; U <= 4
 * has 12 of them (1, 1, 2, 3, 5 for U = 0..4), the 0.05 boundary. */
static void test_mann_whitney(ct_test_tally_t *t)
{
    double fast[] = {10, 11, 12, 13, 14}, slow[] = {20, 21, 22, 23, 24};
    CT_CHECK(t, fabs(ct_stats_mw_p_less(fast, 5, slow, 5) - 1.0 / 252) < 1e-12);
    CT_CHECK(t, ct_stats_mw_p_less(slow, 5, fast, 5) == 1);
    double one_over[] = {10, 11, 12, 13, 20.5}; /* U = 1 */
    CT_CHECK(t, fabs(ct_stats_mw_p_less(one_over, 5, slow, 5) - 2.0 / 252) < 1e-12);
    double four[] = {10, 11, 12, 22.5, 23.5}; /* U = 3 + 4 = 7 */
    CT_CHECK(t, fabs(ct_stats_mw_p_less(four, 5, slow, 5) - 39.0 / 252) < 1e-12);
    CT_CHECK(t, ct_stats_mw_p_less(four, 5, slow, 5) > CT_TUNE_VERIFY_ALPHA);
    double u4[] = {10, 11, 12, 13, 23.5}; /* U = 4: 12/252 = 0.0476 */
    CT_CHECK(t, fabs(ct_stats_mw_p_less(u4, 5, slow, 5) - 12.0 / 252) < 1e-12);
    CT_CHECK(t, ct_stats_mw_p_less(u4, 5, slow, 5) <= CT_TUNE_VERIFY_ALPHA);
    /* A tie counts 1/2 and U rounds up: {20} against {20}: U = 0.5 -> 1. */
    double a[] = {20}, b[] = {20};
    CT_CHECK(t, ct_stats_mw_p_less(a, 1, b, 1) == 1);
    /* Identical samples are never "faster". */
    CT_CHECK(t, ct_stats_mw_p_less(slow, 5, slow, 5) > 0.5);
    CT_CHECK(t, ct_stats_mw_p_less(fast, 0, slow, 5) == 1);
}

int main(void)
{
    ct_test_tally_t t = {0, 0};
    test_rule(&t);
    test_pick(&t);
    test_paired(&t);
    test_min_max(&t);
    test_paired_bounds(&t);
    test_pick_bounds(&t);
    test_merge(&t);
    test_mann_whitney(&t);
    return CT_DONE(&t);
}
