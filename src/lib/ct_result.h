/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_result.h - one measured row: the results schema shared by collbench
 * (which writes it) and colltune (which reads it back).
 *
 * The CSV columns, their order and their types come from one table in
 * ct_result.c; doc/formats.md documents them.  A row is one collective
 * x dtype x op x size x placement.
 *
 * Schema versions: 1 had the columns up to config_id; 2 appends the noise
 * data (sync ... slowest_rank_median_us).  collbench writes the newest;
 * the reader takes both, filling what version 1 lacks as documented.
 */
#ifndef CT_RESULT_H
#define CT_RESULT_H

#define CT_RESULT_SCHEMA 2

#include <stdint.h>
#include <stdio.h>
#include "ct_json.h"
#include "ct_status.h"

typedef struct {
    char run_id[64];
    char time[32]; /* ISO 8601 UTC, when the row was measured */
    char backend[16];
    char collective[24];
    char placement[16]; /* "out-of-place" or "in-place" */
    char dtype[16];
    char op[8];     /* "none" for collectives without a reduction */
    long long root; /* -1 when not rooted */
    long long nranks;
    long long nnodes;
    long long bytes;
    long long count;
    long long iterations;
    double median_us;
    double p10_us;
    double p90_us;
    double min_us;
    double max_us;
    double algbw_gbps;
    double busbw_gbps;
    long long wrong; /* -1 when not checked (empty in CSV) */
    char config_id[24];
    /* Since version 2: what regression detection and the tuner need. */
    char sync[16];       /* timing mode: "window", "barrier" or "batch" */
    long long samples;   /* timed samples behind the statistics (v1: -1) */
    long long converged; /* 1: the CI target was met, 0: not (v1: -1) */
    double ci_low_us;    /* 95% confidence interval of the median (v1: NaN) */
    double ci_high_us;
    long long late;                /* window: calls discarded, a rank started late */
    double slowest_rank_median_us; /* the slowest rank's own median (v1: NaN) */
} ct_result_t;

/* The header line, with its newline. */
void ct_result_csv_header(FILE *fp);
/* One row, with its newline. */
void ct_result_csv_write(FILE *fp, const ct_result_t *row);

/* The schema version of a header line (without newline, modified in
 * place): 1 .. CT_RESULT_SCHEMA, or 0 when it is not our header. */
int ct_result_csv_is_header(char *line);

/* Parses one data line (modified in place) of a file whose header said
 * version (ct_result_csv_is_header).  On error, err names the column and
 * the bad value; the caller adds file and line. */
ct_status_t ct_result_csv_parse_version(char *line, int version, ct_result_t *row_p, char *err,
                                        size_t errlen);
/* The same for the current version. */
ct_status_t ct_result_csv_parse(char *line, ct_result_t *row_p, char *err, size_t errlen);

/* A new JSON object with the row's members, keyed and ordered like the
 * CSV columns (wrong: null when unchecked); callers may add members of
 * their own.  NULL when memory runs out. */
json_t *ct_result_json(const ct_result_t *row);

/* A run id travels in CSV fields, plot legends, regress labels and file
 * names, so it is 1 to CT_RUN_ID_MAX of CT_RUN_ID_CHARS: nothing a CSV
 * would have to quote, nothing a reader could split on. */
#define CT_RUN_ID_MAX 63
#define CT_RUN_ID_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-"
int ct_result_run_id_ok(const char *id);

/* in as a valid run id into out (room for CT_RUN_ID_MAX + 1): every other
 * byte becomes '_', cut at CT_RUN_ID_MAX; "run" when in is empty.  For ids
 * made from names colltune did not choose (a log's file name). */
void ct_result_run_id_clean(const char *in, char *out, size_t outlen);

/* A row's time: YYYY-MM-DDTHH:MM:SSZ (ISO 8601 UTC, what collbench
 * writes), a real calendar date from 1970.  regress orders runs by it, so
 * a reader refuses anything else rather than sort a run to the wrong end.
 * 1 when s is one. */
int ct_result_time_ok(const char *s);

/* in as YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ into buf in the row's form
 * (midnight for a date alone); 0, or -1 when in is neither. */
int ct_result_time_parse(const char *in, char *buf, size_t len);

#endif
