/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * health_rule.h - naming slow hosts and links from per-host and per-pair
 * timings, by a robust rule (no MPI, no I/O: unit-tested alone).
 *
 * A cell is one collective x placement x size.  In a cell every host has
 * a time: its own median (whole job, collbench's per_host) or, on pairs,
 * its fastest pair's time over the median pair's (noise only adds time,
 * so a host is slow when even its best pair is).  Each host is compared
 * with the OTHERS (leave-one-out, up to CT_HEALTH_LOO_MAX hosts: with a
 * handful of hosts a slow one inside its own median and MAD masks
 * itself): it is an outlier in the cell when its time is at least
 * min_ratio x the others' median and its modified z-score, 0.6745 (x -
 * median) / MAD on log times (Iglewicz and Hoaglin) against the others,
 * exceeds z_max, the MAD floored at a noise level so that hosts that agree
 * to the microsecond do not make every trifle significant.  A host is
 * NAMED when it is an outlier in more than half of all its cells: a noisy
 * size or a busy moment never names a host.  Only slowness counts: a fast
 * host is not a problem (and in a whole job, a rooted collective's root
 * often returns first).
 *
 * Pairs also point at links: a pair that is an outlier among the pairs,
 * by the same test, in more than half of its cells, neither of whose
 * hosts is named, is a suspect link.
 */
#ifndef CT_HEALTH_RULE_H
#define CT_HEALTH_RULE_H

#include <stddef.h>
#include "ct_status.h"

#define CT_HEALTH_Z_MAX 3.5      /* Iglewicz and Hoaglin's outlier bound */
#define CT_HEALTH_MIN_RATIO 1.2  /* at least 20% slower than the median host */
#define CT_HEALTH_MAD_FLOOR 0.02 /* log-ratio noise floor: about 2% */
#define CT_HEALTH_LOO_MAX 64     /* leave-one-out up to this many subjects */

typedef struct {
    double z_max, min_ratio, mad_floor;
} ct_health_params_t;

/* One timing: a host's (whole job) or a pair's (hosts a and b). */
typedef struct {
    char collective[24];
    char placement[16];
    long long bytes;
    char host[64];
    char host_b[64]; /* pairs: the other host; "" for a whole job's row */
    double us;
} ct_health_row_t;

/* What the rule says about one host (or, in links, one pair). */
typedef struct {
    char host[64];
    char host_b[64]; /* links only */
    size_t cells;    /* cells it appears in */
    size_t slow;     /* cells where it is an outlier */
    double ratio;    /* median over its cells of its time over the others' */
    double worst;    /* its largest ratio */
    char worst_collective[24];
    long long worst_bytes;
    int named;         /* an outlier in more than half of its cells */
    char named_in[96]; /* named: the collectives with an outlier cell */
} ct_health_verdict_t;

typedef struct {
    ct_health_verdict_t *hosts; /* ranked: named first, then by ratio */
    size_t nhosts;
    ct_health_verdict_t *links; /* pairs only: suspect links, ranked */
    size_t nlinks;
} ct_health_report_t;

/* The defaults above. */
ct_health_params_t ct_health_default_params(void);

/* Judges rows (all whole-job rows, or all pair rows: host_b says which).
 * CT_ERR_NOMEM, or CT_OK with out filled (free with ct_health_free). */
ct_status_t ct_health_judge(const ct_health_row_t *rows, size_t n, const ct_health_params_t *p,
                            ct_health_report_t *out);
void ct_health_free(ct_health_report_t *r);

/* For each x[i]: its modified z-score on logs against the others (all of
 * x past CT_HEALTH_LOO_MAX), the MAD floored at mad_floor, into z[i], and
 * x[i] over the others' median into ratio[i]. */
void ct_health_zscores(const double *x, size_t n, double mad_floor, double *z, double *ratio);

#endif
