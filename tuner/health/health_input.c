/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * health_input.c - per-host and per-pair timings out of results.json.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_results_read.h"
#include "ct_vec.h"
#include "health_input.h"

static ct_status_t ct_health_push(ct_health_rows_t *r, const ct_health_row_t *row)
{
    return CT_VEC_PUSH(r->v, r->n, r->cap, row);
}

/* The cell's fields, shared by a result and a pair entry. */
static int ct_health_cell(json_t *o, ct_health_row_t *row)
{
    const char *c = json_string_value(json_object_get(o, "collective"));
    const char *pl = json_string_value(json_object_get(o, "placement"));
    json_t *b = json_object_get(o, "bytes");
    if (c == NULL || pl == NULL || !json_is_integer(b) || strlen(c) >= sizeof row->collective ||
        strlen(pl) >= sizeof row->placement)
        return -1;
    memset(row, 0, sizeof *row);
    snprintf(row->collective, sizeof row->collective, "%s", c);
    snprintf(row->placement, sizeof row->placement, "%s", pl);
    row->bytes = json_integer_value(b);
    return 0;
}

static int ct_health_host(json_t *s, char *buf, size_t len)
{
    const char *h = json_string_value(s);
    if (h == NULL || *h == '\0' || strlen(h) >= len)
        return -1;
    snprintf(buf, len, "%s", h);
    return 0;
}

ct_status_t ct_health_read(const char *path, ct_health_rows_t *job, ct_health_rows_t *pairs,
                           char *err, size_t errlen)
{
    /* The schema check is every reader's (ct_results_json_load); the
     * per-host and pair members are health's own. */
    json_t *doc;
    ct_status_t st = ct_results_json_load(path, &doc, NULL, err, errlen);
    if (st != CT_OK)
        return st;
    json_t *results = json_object_get(doc, "results"), *pl = json_object_get(doc, "pairs");
    long nn = (long)json_integer_value(json_object_get(doc, "nnodes"));
    if (nn > job->nhosts)
        job->nhosts = pairs->nhosts = nn;
    for (size_t i = 0; st == CT_OK && i < json_array_size(results); i++) {
        json_t *r = json_array_get(results, i), *ph = json_object_get(r, "per_host");
        if (json_object_get(r, "pair") != NULL || ph == NULL)
            continue; /* a pair's row (its ranks are not the job's), or an old file */
        ct_health_row_t row;
        json_t *w = json_object_get(r, "wrong");
        if (ct_health_cell(r, &row) != 0 || !json_is_array(ph)) {
            snprintf(err, errlen, "%s: results[%zu]: needs collective, placement, bytes, per_host",
                     path, i);
            st = CT_ERR_PARSE;
            break;
        }
        if (row.bytes < 1) {
            snprintf(err, errlen, "%s: results[%zu].bytes: %lld is not a positive byte count", path,
                     i, row.bytes);
            st = CT_ERR_PARSE;
            break;
        }
        if (json_is_integer(w) && json_integer_value(w) > 0) {
            job->wrong++;
            continue;
        }
        for (size_t k = 0; st == CT_OK && k < json_array_size(ph); k++) {
            json_t *h = json_array_get(ph, k), *us = json_object_get(h, "median_us");
            if (ct_health_host(json_object_get(h, "hostname"), row.host, sizeof row.host) != 0 ||
                !json_is_number(us)) {
                snprintf(err, errlen, "%s: results[%zu].per_host[%zu]: needs hostname, median_us",
                         path, i, k);
                st = CT_ERR_PARSE;
                break;
            }
            row.us = json_number_value(us);
            if (!(row.us > 0) || !isfinite(row.us)) {
                /* it was dropped: "no timings" and exit 0 (issue 15, E24) */
                snprintf(err, errlen,
                         "%s: results[%zu].per_host[%zu].median_us: %g is not a positive time",
                         path, i, k, row.us);
                st = CT_ERR_PARSE;
                break;
            }
            st = ct_health_push(job, &row);
        }
    }
    for (size_t i = 0; st == CT_OK && i < json_array_size(pl); i++) {
        json_t *p = json_array_get(pl, i), *hs = json_object_get(p, "hosts"),
               *us = json_object_get(p, "median_us"), *w = json_object_get(p, "wrong");
        ct_health_row_t row;
        if (ct_health_cell(p, &row) != 0 || json_array_size(hs) != 2 || !json_is_number(us) ||
            ct_health_host(json_array_get(hs, 0), row.host, sizeof row.host) != 0 ||
            ct_health_host(json_array_get(hs, 1), row.host_b, sizeof row.host_b) != 0) {
            snprintf(err, errlen,
                     "%s: pairs[%zu]: needs collective, placement, bytes, hosts (two), median_us",
                     path, i);
            st = CT_ERR_PARSE;
            break;
        }
        row.us = json_number_value(us);
        if (row.bytes < 1 || !(row.us > 0) || !isfinite(row.us)) {
            if (row.bytes < 1)
                snprintf(err, errlen, "%s: pairs[%zu].bytes: %lld is not a positive byte count",
                         path, i, row.bytes);
            else
                snprintf(err, errlen, "%s: pairs[%zu].median_us: %g is not a positive time", path,
                         i, row.us);
            st = CT_ERR_PARSE;
            break;
        }
        if (json_is_integer(w) && json_integer_value(w) > 0) {
            pairs->wrong++;
            continue;
        }
        st = ct_health_push(pairs, &row);
    }
    if (st == CT_ERR_NOMEM)
        snprintf(err, errlen, "out of memory");
    json_decref(doc);
    return st;
}

void ct_health_rows_free(ct_health_rows_t *r)
{
    free(r->v);
    memset(r, 0, sizeof *r);
}
