/*
 * regress.h - `colltune regress`: is the newest run of a history slower?
 *
 * regress_stats.c holds the decision rule, pure arithmetic on one series
 * (one collective x size x backend x configuration x placement x dtype/op x
 * nranks, one median per run, oldest first), so it is unit-tested on
 * synthetic histories; regress.c reads a history directory into runs and
 * series and writes the tables, regress_diag.c the diagnosis,
 * regress_plot.c the plots (regress_cmd.h holds what they share).
 *
 * The rule (README "colltune regress" states it with its parameters).  The
 * unit of evidence is one run's median: on this machine the spread between
 * launches dwarfs the spread within one (DESIGN.md).  The baseline is the
 * `window` runs before the newest (or the window ending at a pinned run).
 * A series is SLOWER when the newest run is at least `threshold` slower
 * than the baseline median and either
 *   R1 (the newest runs): the newest lies above baseline median + max(k *
 *      sigma, the newest run's own CI half-width), sigma = 1.4826 * MAD of
 *      the baseline (a robust standard deviation), and so do the
 *      CT_REGRESS_CONFIRM - 1 runs before it against the window before
 *      them: one slow launch alone is a spike on a shared machine, and
 *      is reported UNKNOWN (run again to confirm), never SLOWER; or
 *   R2 (change point): the history splits at s (the split whose runs after
 *      it sit highest above the window before it by Welch's t on log
 *      times, the latest among equals; at least CT_REGRESS_MIN_AFTER runs
 *      after), the runs
 *      from s on are slower than that window by a one-sided exact
 *      Mann-Whitney test at p <= alpha, and their median is `threshold`
 *      above the window's.
 * With fewer than CT_REGRESS_MIN_BASE baseline runs the verdict is
 * UNKNOWN (Pinpoint's "unknown": make more runs), never SLOWER.
 *
 * FASTER is the same rule mirrored: the series judged on 1/us (the rule
 * works on log times, so this is exact: at least `threshold` faster, R1's
 * bound below the median, R2's test the other way).  An improvement is
 * reported, never a regression.
 */
#ifndef CT_REGRESS_H
#define CT_REGRESS_H

#include <stddef.h>

#define CT_REGRESS_WINDOW 12
#define CT_REGRESS_THRESHOLD 0.05
#define CT_REGRESS_ALPHA 0.0003
#define CT_REGRESS_K 4.0
#define CT_REGRESS_CONFIRM 2
#define CT_REGRESS_MIN_BASE 3
#define CT_REGRESS_MIN_AFTER 2

/* One run's value in a series: its median and its CI half-width (0 when
 * unknown: schema 1 and imported runs). */
typedef struct {
    double us;
    double hw;
} ct_regress_point_t;

typedef struct {
    size_t window;    /* baseline runs (K) */
    double threshold; /* relative change that matters */
    double alpha;     /* the change-point test's level */
    double k;         /* robust sigmas a single run must clear */
    size_t confirm;   /* R1: the newest runs that must all clear the bound */
    long pinned;      /* index of the pinned baseline run, or -1 */
} ct_regress_rule_t;

typedef enum {
    CT_REGRESS_UNKNOWN = 0, /* too few baseline runs, or one slow run unconfirmed */
    CT_REGRESS_SAME,
    CT_REGRESS_SLOWER,
    CT_REGRESS_FASTER, /* the rule mirrored held: an improvement */
} ct_regress_verdict_t;

typedef struct {
    ct_regress_verdict_t verdict;
    size_t base_lo, base_hi; /* the baseline window [lo, hi) */
    double base_median, base_sigma;
    double change;     /* newest / baseline median - 1 */
    int by_newest;     /* R1 held */
    int by_change;     /* R2 held */
    size_t change_at;  /* R2's best split (first run after it); n when none */
    double change_p;   /* its exact p (1 when none) */
    double change_rel; /* median after it / median of the window before - 1 */
    size_t first_bad;  /* when SLOWER: the first slow run; FASTER: the first faster */
    /* The band a plot draws: the window the verdict was judged against
     * (R2: the one before the change point; else the newest's), its median
     * and R1's bounds (the mirrored one below), in us. */
    size_t band_lo, band_hi;
    double band_median, band_low, band_high;
} ct_regress_result_t;

void ct_regress_rule_default(ct_regress_rule_t *rule);

/* Judges p[0..n) (oldest first, n >= 2) by the rule above: SLOWER, else
 * FASTER when the mirrored rule holds, else SAME or UNKNOWN. */
void ct_regress_judge(const ct_regress_point_t *p, size_t n, const ct_regress_rule_t *rule,
                      ct_regress_result_t *out);

const char *ct_regress_verdict_name(ct_regress_verdict_t v);

#endif
