/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * report_table.h - the nccl-tests stdout table, column for column.
 *
 * Users' parsers read this table, so widths, units and the footer follow
 * nccl-tests' util.cu: size (B), count (elements), type, redop, root, then
 * time (us), algbw and busbw (GB/s, 1 GB = 1e9 B) and #wrong, once for
 * out-of-place and once for in-place.
 */
#ifndef CT_REPORT_TABLE_H
#define CT_REPORT_TABLE_H

#include <stdio.h>

typedef struct {
    double time_us;
    double algbw_gbps;
    double busbw_gbps;
    long long wrong; /* -1: not checked, printed as N/A */
} ct_table_half_t;

typedef struct {
    size_t bytes;
    size_t count;
    const char *dtype;
    const char *op;
    int root;
    ct_table_half_t out_of_place;
    ct_table_half_t in_place;
} ct_table_row_t;

void ct_table_header(FILE *fp);
void ct_table_row(FILE *fp, const ct_table_row_t *row);
void ct_table_footer(FILE *fp, long long out_of_bounds, double avg_busbw);

/* nccl-tests' fixed-width number: fewer decimals as the value grows. */
void ct_table_number(double value, int width, char *buf, size_t buflen);

#endif
