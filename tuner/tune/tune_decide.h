/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_decide.h - the decision rule of `colltune tune`: when a candidate
 * may replace the default in one collective x size bucket, which of the
 * candidates wins, and how buckets merge into size ranges.  Pure
 * arithmetic on launch medians, so it is unit-tested on synthetic numbers.
 *
 * The rule (doc/colltune.md, "tune", states it too).  On this machine most
 * of the spread comes from differences between launches (DESIGN.md:
 * 1.2-1.4x at np=2, 2-3x at np=4), so the unit of evidence is one launch's
 * median, never one sample.  A candidate is a significant gain over the
 * baseline (the libraries' defaults) in a bucket only when
 *   1. both have at least CT_TUNE_MIN_LAUNCHES independent launches there;
 *   2. it is faster by a one-sided exact Mann-Whitney test over the launch
 *      medians at p <= CT_TUNE_SEARCH_ALPHA (0.05), or, where the launch
 *      counts cannot reach that (2 against 2: the smallest p is 1/6), with
 *      every launch of it faster than every launch of the baseline; so
 *      more launches give the test more power, not less; and
 *   3. the candidate's median over launches is at least CT_TUNE_MARGIN
 *      (5%) below the baseline's.
 * Otherwise the default stays: "no significant gain".  Time is the
 * measure for both objectives: at one size busbw is a constant over time,
 * so "higher busbw" and "lower time" order candidates the same way; the
 * objective (latency below CT_TUNE_LATENCY_MAX_BYTES, busbw from there)
 * only decides what the report shows.  Among significant winners whose
 * ranges overlap the best one's (statistically tied), the one that
 * changes fewer variables wins, then the lower median.
 */
#ifndef CT_TUNE_DECIDE_H
#define CT_TUNE_DECIDE_H

#include <stddef.h>

#define CT_TUNE_MIN_LAUNCHES 2
#define CT_TUNE_MARGIN 0.05
#define CT_TUNE_LATENCY_MAX_BYTES 65536LL

/* The smallest and largest of n values (0 when n is 0).  The median is
 * ct_stats_median (src/lib/ct_stats.h). */
double ct_tune_min(const double *v, size_t n);
double ct_tune_max(const double *v, size_t n);

/* 1 when a candidate with launch medians cand (times, lower is better)
 * beats the baseline's base by the rule above, else 0. */
int ct_tune_significant(const double *cand, size_t ncand, const double *base, size_t nbase);

/* The verification's test (tune_verify.c) is ct_stats_mw_p_less
 * (src/lib/ct_stats.h) over an interleaved A/B of fresh launches, so the
 * two samples are independent launch medians. */
#define CT_TUNE_VERIFY_ALPHA 0.05
/* The A/B's false-discovery rate across the cells that can verify a
 * choice (Benjamini-Hochberg; tune_verify.h gives the arithmetic): with
 * no real difference, at most one A/B in 20 holds a cell. */
#define CT_TUNE_VERIFY_FDR 0.05
/* A loss the do-no-harm check calls harm (tune_verify.h): significant and
 * at least this large.  The A/B measures dozens of cells, and some pass
 * the one-sided test by chance: against the NCCL test double, 0 to 6 of
 * 57-64 cells no file reached read 5-8% slower at p <= 0.05, in one run 2
 * more than 10% (bench/nccl-check); the margin keeps the small ones out,
 * the confirmation (a second A/B of the suspects) the rest.  Every
 * planted or reported harm was larger (an OSU broadcast at 0.85x, 128 KiB
 * allreduce 1.6-1.7x here, the tests' 20 ms and 5 ms). */
#define CT_TUNE_HARM_MARGIN 0.10
#define CT_TUNE_SEARCH_ALPHA 0.05
#define CT_TUNE_VERIFY_MIN_PAIRS 5
/* The search's level for ncand against nbase launches: CT_TUNE_SEARCH_ALPHA,
 * or the smallest p those counts allow when that is larger. */
double ct_tune_search_alpha(size_t ncand, size_t nbase);

/* One contender in a bucket: its launch medians there, each launch's 95%
 * CI of its median (NULL or NaN: unknown) and the shared launch it ran in
 * (NULL, or "" for a launch of its own). */
typedef struct {
    const double *us;
    const double *lo, *hi;
    const char *const *group;
    size_t n;
    size_t nchanged; /* variables it sets beyond the baseline */
    int excluded;    /* failed somewhere: never a winner */
} ct_tune_cand_t;

/*
 * The paired rule, for the in-process search (tune_inproc.h): where a
 * candidate and the baseline ran in the same launches (the same group),
 * at least CT_TUNE_MIN_PAIRED of them, each shared launch is one paired
 * comparison: the candidate wins it when its median is at least
 * CT_TUNE_MARGIN below the baseline's and their 95% confidence intervals
 * do not overlap (where collbench gave them).  The candidate is a
 * significant gain when it wins a strict majority of the shared launches
 * (then the median over them of its time over the baseline's is at least
 * CT_TUNE_MARGIN below 1, too).  With fewer shared launches the rule above
 * (ct_tune_significant, across launches) decides.
 */
#define CT_TUNE_MIN_PAIRED 3

/* 1 when cand beats base: by the paired rule where they share at least
 * CT_TUNE_MIN_PAIRED launches, else by ct_tune_significant.  *paired_p
 * (when not NULL) gets how many launches they share. */
int ct_tune_beats(const ct_tune_cand_t *cand, const ct_tune_cand_t *base, size_t *paired_p);

/* The winner among c[0..n): c[0] is the baseline, returned when no other
 * is a significant gain. */
size_t ct_tune_pick(const ct_tune_cand_t *c, size_t n);

/* A bucket's winner (a configuration index; the caller's numbering). */
typedef struct {
    long long bytes;
    long winner;
} ct_tune_bucket_t;

/* A run of contiguous buckets with one winner.  Ranges cover only what was
 * measured: the first starts at the smallest measured size, each ends one
 * byte before the next begins, the last ends at the largest measured size.
 * Below and above, the library's own decision stays (a rules file hands
 * those sizes back to it), unless the caller extends the first range down
 * to 0 or the last up to -1 (any size). */
typedef struct {
    long long min_bytes;
    long long max_bytes;
    long winner;
    size_t first, count; /* the buckets it covers */
} ct_tune_range_t;

/* Merges b[0..n) (sorted by bytes) into out (room for n); returns how
 * many ranges.  from_zero: the first range starts at 0; to_any: the last
 * ends at -1. */
size_t ct_tune_merge(const ct_tune_bucket_t *b, size_t n, int from_zero, int to_any,
                     ct_tune_range_t *out);

#endif
