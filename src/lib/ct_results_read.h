/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_results_read.h - the one reader of collbench's results files
 * (results.csv and results.json; results/README.md is the schema), for
 * every part of colltune that reads them back.
 *
 * The schema check and the version handling live here once, so that every
 * reader accepts and refuses the same files: CSV headers and JSON
 * "colltune-results/N" documents of versions 1 to CT_RESULT_SCHEMA (what
 * collbench has ever written, and what `colltune import` writes); a newer
 * or unknown version is refused naming file:line, because a newer
 * collbench may have changed what a column means.  Every problem names
 * the file and the line (CSV, and JSON syntax) or the element (JSON
 * rows): conclusions drawn from half-read data would mislead.
 */
#ifndef CT_RESULTS_READ_H
#define CT_RESULTS_READ_H

#include <stddef.h>
#include "ct_json.h"
#include "ct_result.h"
#include "ct_status.h"

/* Rows read so far; {0} is empty.  The caller owns v (ct_results_free). */
typedef struct {
    ct_result_t *v;
    size_t n, cap;
} ct_results_t;

/*
 * The version a JSON document's "schema" member names: 1 ..
 * CT_RESULT_SCHEMA for one this colltune reads, 0 for a
 * "colltune-results/N" it does not know, -1 for NULL or anything else
 * (not collbench results at all).
 */
int ct_results_json_version(const char *schema);

/*
 * Loads path as a results JSON document and checks it: its schema is one
 * ct_results_json_version accepts and it has a "results" array.  On
 * success *doc_p is the document (the caller owns it: json_decref) and
 * *version_p its version (may be NULL).  CT_ERR_PARSE with err
 * "path:line: why" otherwise (not JSON, not collbench results, an unknown
 * version, no results array); the outputs are then untouched.  For readers
 * of members beyond the rows (health's per_host and pairs).
 */
ct_status_t ct_results_json_load(const char *path, json_t **doc_p, int *version_p, char *err,
                                 size_t errlen);

/*
 * Appends the rows of path, a results CSV or JSON file (told apart by its
 * first non-blank byte: '{' is JSON), to rows.
 *   - CSV: the header says the version (ct_result_csv_is_header); a
 *     version 1 file's missing columns are filled as ct_result.h says;
 *     blank lines are skipped.
 *   - JSON: each element of "results" gives the members that name the
 *     cell and its timing (run_id, time, backend, collective, placement,
 *     dtype, op, config_id, nranks, nnodes, bytes required; median_us,
 *     p10_us, p90_us, algbw_gbps, busbw_gbps, ci_low_us, ci_high_us read
 *     as NaN when null or absent); the other members of the row are 0.
 * doc_p: when not NULL, a JSON file's document is handed over in *doc_p
 * (the caller owns it) and a CSV file sets it to NULL; it is set only on
 * success.
 * Errors, with err naming the file and where: CT_ERR_USAGE when path
 * cannot be opened ("path: reason"), CT_ERR_PARSE for content,
 * CT_ERR_NOMEM.  On error the rows appended before the problem stay in
 * rows (the caller frees them as on success).
 */
ct_status_t ct_results_read(const char *path, ct_results_t *rows, json_t **doc_p, char *err,
                            size_t errlen);

/* Frees rows' array and empties it; rows may be empty. */
void ct_results_free(ct_results_t *rows);

#endif
