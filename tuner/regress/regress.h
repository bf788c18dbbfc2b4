/* SPDX-License-Identifier: BSD-3-Clause */
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
 * The rule (doc/colltune.md "regress" states it with its parameters).  The
 * unit of evidence is one run's median: on this machine the spread between
 * launches dwarfs the spread within one (DESIGN.md).  The baseline is the
 * `window` runs before the newest (or the window ending at a pinned run).
 * A run is beyond its bound when it lies above the median of the window
 * before it times exp(max(log(1 + threshold), k * sigma, its own CI
 * half-width)), sigma = 1.4826 * MAD of the window's log times (a robust
 * standard deviation).  A series is SLOWER when the newest run is at least
 * `threshold` slower than the baseline median and either
 *   R1 (the newest runs): the newest is beyond its bound, and so are the
 *      runs of its step before it, CT_REGRESS_CONFIRM runs in all: the
 *      step is the trailing stretch of runs each beyond the bound of the
 *      window before it and at the newest's level (above the log midpoint
 *      between the baseline median and the newest, and at most a step's
 *      height above the newest).  One slow launch
 *      alone is a spike on a shared machine, reported UNKNOWN (run again to
 *      confirm), unless the caller says one run suffices (rule.single: the
 *      run-level view below found a severe event); or
 *   R2 (change point): the history splits at s (the split whose runs after
 *      it sit highest above the window before it by Welch's t on log
 *      times, the latest among equals; at least CT_REGRESS_MIN_AFTER runs
 *      after), the runs from s on are slower than that window by a
 *      one-sided exact Mann-Whitney test at p <= alpha, their median is
 *      `threshold` above the window's, and the newest is still nearer
 *      their level than the window's (in log): a step that went away is
 *      history, not a regression.
 * The first slow run is the first run of that step: R1's stretch, or R2's
 * split moved past runs that read like the old level; never a run the rule
 * judged within its bounds.
 * With fewer than CT_REGRESS_MIN_BASE baseline runs the verdict is
 * UNKNOWN (Pinpoint's "unknown": make more runs), never SLOWER.
 *
 * FASTER is the same rule mirrored: the series judged on 1/us (the rule
 * works on log times, so this is exact: at least `threshold` faster, R1's
 * bound below the median, R2's test the other way).  An improvement is
 * reported, never a regression.
 *
 * The run-level view (ct_regress_judge_runs): the newest run of many
 * series moving beyond their bounds in one direction at once is one
 * event, not N coincidences.  When at least half of the series that have
 * a baseline (and at least CT_REGRESS_EVENT_MIN) moved beyond their bounds
 * the same way, in the whole run or in one group (a collective), the event
 * is reported with its size (the median change of those series), and
 * when that is a factor CT_REGRESS_EVENT_SEVERE or more
 * (a 2x step across most series is not launch noise: this machine's
 * spikes hit a few series of a run, measured in bench/nightly-history),
 * one run suffices: those series are judged again with rule.single.  A
 * series the previous run's judgement called SLOWER whose newest run is
 * back nearer the old level than the step's is RECOVERED: the step is
 * history, not a regression.
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
#define CT_REGRESS_SHORT 9.0

#define CT_REGRESS_EVENT_MIN 4
#define CT_REGRESS_EVENT_SEVERE 2.0

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
    int single;       /* R1: the newest run beyond its bound suffices (a severe event) */
} ct_regress_rule_t;

typedef enum {
    CT_REGRESS_UNKNOWN = 0, /* too few baseline runs, or one slow run unconfirmed */
    CT_REGRESS_SAME,
    CT_REGRESS_SLOWER,
    CT_REGRESS_FASTER,    /* the rule mirrored held: an improvement */
    CT_REGRESS_RECOVERED, /* the previous run's step went away: history */
} ct_regress_verdict_t;

typedef struct {
    ct_regress_verdict_t verdict;
    size_t base_lo, base_hi; /* the baseline window [lo, hi) */
    double base_median, base_sigma;
    double change;     /* newest / baseline median - 1 */
    int beyond;        /* the newest beyond its bound: +1 above, -1 below, 0 within */
    int by_newest;     /* R1 held */
    int by_change;     /* R2 held */
    size_t change_at;  /* R2's best split (first run after it); n when none */
    double change_p;   /* its exact p (1 when none) */
    double change_rel; /* median after it / median of the window before - 1 */
    size_t first_bad;  /* SLOWER: the first slow run; FASTER: the first faster;
                          RECOVERED: the first slow run of the step that ended */
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

/* One series of a run-level judgement: its points, oldest first (the last
 * one is the newest run's), and the index of the pinned baseline run among
 * them (-1: none; as rule.pinned). */
typedef struct {
    const ct_regress_point_t *p;
    size_t n;
    long pinned;
    size_t group; /* the series that move together (one collective): 0 .. ngroups - 1 */
} ct_regress_series_in_t;

/* The run-level view of the newest run (regress.h's rule). */
typedef struct {
    int direction;        /* +1 slower, -1 faster, 0 no event */
    size_t moved, judged; /* series beyond their bounds that way; series with a baseline */
    double median_change; /* of the moved series: newest / baseline median - 1 */
    int severe;           /* one run sufficed */
} ct_regress_event_t;

/* Judges ns series of one history at once: each by ct_regress_judge, the
 * event of the newest run as a whole (*ev) and of each of its ngroups
 * groups (groups[g]; NULL when ngroups is 0: a forced allreduce algorithm
 * moves the allreduce series alone), the series of a severe event again
 * with rule.single and half the sigmas, and RECOVERED where the judgement
 * of the run before the newest (the same, on the history less the newest
 * run) was SLOWER and the newest is back.  out[i] is series i's result.
 * -1 when memory runs out. */
int ct_regress_judge_runs(const ct_regress_series_in_t *in, size_t ns,
                          const ct_regress_rule_t *rule, ct_regress_result_t *out,
                          ct_regress_event_t *ev, size_t ngroups, ct_regress_event_t *groups);

#endif
