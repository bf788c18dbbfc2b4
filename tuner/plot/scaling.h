/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * scaling.h - busbw against scale (nodes, or ranks) at fixed sizes, and
 * the efficiency against perfect scaling, from results at several scales.
 *
 * busbw already folds in the collective's traffic factor (2(n-1)/n for
 * allreduce, ...), so perfect scaling keeps it flat: the ideal at every
 * scale is the busbw at the smallest one, and the efficiency at scale s is
 * busbw(s) / busbw(smallest) (the smallest with a busbw above 0: at one
 * rank allreduce's is 0).  Both `colltune plot` (the scaling plot and
 * its table) and a sweep over scales use this one computation.
 */
#ifndef CT_SCALING_H
#define CT_SCALING_H

#include <stdio.h>
#include "ct_result.h"
#include "ct_status.h"

#define CT_SCALING_MAX_SCALES 32

/* One series at one size, across scales (ascending). */
typedef struct {
    char series[160]; /* backend, then whatever else tells lines apart */
    long long bytes;
    size_t n;
    long long scale[CT_SCALING_MAX_SCALES];
    double busbw[CT_SCALING_MAX_SCALES]; /* GB/s, median over the rows there */
    double eff[CT_SCALING_MAX_SCALES];   /* busbw / ref (NaN without one) */
    double ref;                          /* the busbw at the smallest scale that has one above 0 */
} ct_scaling_line_t;

typedef struct {
    int by_nodes; /* 1: the scale is nnodes, 0: nranks */
    ct_scaling_line_t *v;
    size_t n;
} ct_scaling_t;

/* The scaling lines of collective COLL in rows[0..n): the scale is nodes
 * when the node count varies, else ranks (by < 0), or as BY says (1
 * nodes, 0 ranks).  For each series, at most MAX_SIZES sizes measured at
 * two scales or more, spread evenly in log size and always including the
 * largest.  out->n == 0 when fewer than two scales exist.  Rows with
 * wrong > 0 are left out: a wrong result has no bandwidth. */
ct_status_t ct_scaling_build(const ct_result_t *rows, size_t n, const char *coll, int by,
                             size_t max_sizes, ct_scaling_t *out);
void ct_scaling_free(ct_scaling_t *s);

/* The efficiency table, one row per line: series, size, then at each
 * scale "busbw (eff%)"; markdown when md, else aligned text. */
void ct_scaling_write_table(FILE *f, const ct_scaling_t *s, int md);

/* A collective's scaling lines. */
typedef struct {
    char collective[24];
    ct_scaling_t sc;
} ct_scaling_coll_t;

/* PATH (written beside and renamed): every collective's efficiency table
 * as markdown, ready to publish.  -1 after telling stderr (as WHO). */
int ct_scaling_write_md(const char *path, const ct_scaling_coll_t *c, size_t n, const char *who);

#endif
