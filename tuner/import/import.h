/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * import.h - what `colltune import`'s readers share: one log in memory,
 * the place rows go, and how a bad line is reported.
 *
 * A reader (import_nccl.c, import_osu.c) turns one log into result rows
 * (ct_result_t, the schema collbench writes) and hands each to
 * ct_import_emit(), which recomputes the bandwidths with the bus factors
 * collbench uses (ct_busbw.h), checks them against the log's own figure
 * and writes the row with collbench's own CSV writer.
 */
#ifndef CT_IMPORT_H
#define CT_IMPORT_H

#include <stdio.h>
#include "ct_result.h"
#include "ct_status.h"

/* The largest count or byte size a log may give (2^50): above it a
 * number is refused, never clamped or wrapped. */
#define CT_IMPORT_MAX_COUNT 1125899906842624.0

typedef struct {
    const char *path; /* the log, for messages */
    char *text;       /* its whole contents, NUL-terminated (owned) */
    size_t len;
    char run_id[64];       /* --run-id, else the log's base name */
    char date[32];         /* --date: the time of rows whose log gives none */
    const char *coll_flag; /* --collective, or NULL */
    long np;               /* --np, or 0 */
    int strict;
    FILE *out;
    long long rows;           /* written, all logs */
    long long skipped;        /* lines reported and skipped */
    long long warnings;       /* busbw mismatches and notes that are warnings */
    long long tables_missing; /* tables of a collective the schema holds, not imported */
} ct_import_t;

/* Reports "colltune import: PATH:LINE: why" on stderr (line 0: no line).
 * Returns CT_ERR_PARSE under --strict (the caller stops), else CT_OK
 * (the caller skips the line). */
ct_status_t ct_import_bad(ct_import_t *im, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A warning that never fails the import: "PATH:LINE: warning: ...". */
void ct_import_warn(ct_import_t *im, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A row with the fields no log records set to their import conventions
 * (doc/colltune.md, "import"): one sample, percentiles, CI and the
 * slowest rank's median equal to the time, not converged, sync "batch". */
void ct_import_row_init(ct_import_t *im, ct_result_t *row);

/* Sets median_us and the fields that default to it, to us. */
void ct_import_row_time(ct_result_t *row, double us);

/* Recomputes algbw and busbw from bytes, median_us and nranks, warns when
 * log_busbw (NULL: the log has none) differs beyond the rounding of its
 * text and of the time's text, and writes the row. */
ct_status_t ct_import_emit(ct_import_t *im, long line, ct_result_t *row, const char *time_text,
                           const char *log_busbw);

/* The next line of text at *pos (NUL-terminated in place, line ending
 * removed), or NULL at the end. */
char *ct_import_next_line(char *text, size_t len, size_t *pos);

/* Splits line in place at blanks into at most max words. */
int ct_import_words(char *line, char **words, int max);

/* The collective a name from a log stands for, as the schema spells it;
 * NULL when colltune has none (sendrecv, reduce, ...). */
const char *ct_import_coll(const char *name);

/* The readers: each returns CT_OK, or CT_ERR_PARSE when the log is not of
 * its kind or --strict met a bad line (after the message). */
ct_status_t ct_import_nccl_text(ct_import_t *im);
ct_status_t ct_import_nccl_json(ct_import_t *im);
ct_status_t ct_import_osu(ct_import_t *im);

#endif
