/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * health_input.h - the per-host and per-pair timings of collbench's
 * results.json ("per_host" of every result, "pairs" of a --pairs run),
 * as rows for health_rule.h.
 */
#ifndef CT_HEALTH_INPUT_H
#define CT_HEALTH_INPUT_H

#include <stddef.h>
#include "ct_status.h"
#include "health_rule.h"

typedef struct {
    ct_health_row_t *v;
    size_t n, cap;
    size_t wrong; /* rows left out: their results were wrong */
    long nhosts;  /* the job's hosts (results.json "nnodes"), the largest read */
} ct_health_rows_t;

/* Appends path's whole-job rows to job and its pair rows to pairs.
 * CT_ERR_PARSE with err naming the file and what is wrong: not JSON, not
 * collbench's results or a schema version this colltune does not read
 * (ct_results_json_load), a per_host or pairs entry without its fields. */
ct_status_t ct_health_read(const char *path, ct_health_rows_t *job, ct_health_rows_t *pairs,
                           char *err, size_t errlen);
void ct_health_rows_free(ct_health_rows_t *r);

#endif
