/* SPDX-License-Identifier: BSD-3-Clause */
#include "ct_results_read.h"
#include "ct_input.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_csv.h"
#include "ct_vec.h"

#define CT_RESULTS_PREFIX "colltune-results/"

void ct_results_free(ct_results_t *rows)
{
    free(rows->v);
    rows->v = NULL;
    rows->n = rows->cap = 0;
}

/* "colltune-results/1 and /2" (or "/1 to /N"): the versions read, for
 * messages that tell a user which files this colltune takes. */
static void ct_results_versions(char *buf, size_t len)
{
    if (CT_RESULT_SCHEMA == 1)
        snprintf(buf, len, CT_RESULTS_PREFIX "1");
    else
        snprintf(buf, len, CT_RESULTS_PREFIX "1 %s /%d", CT_RESULT_SCHEMA == 2 ? "and" : "to",
                 CT_RESULT_SCHEMA);
}

int ct_results_json_version(const char *schema)
{
    size_t plen = strlen(CT_RESULTS_PREFIX);
    if (schema == NULL || strncmp(schema, CT_RESULTS_PREFIX, plen) != 0)
        return -1;
    const char *num = schema + plen;
    char *end;
    errno = 0;
    long v = strtol(num, &end, 10);
    /* "colltune-results/02" or "/2x" are not names collbench writes */
    if (errno != 0 || end == num || *end != '\0' || *num == '0' || *num == '+' || *num == '-' ||
        v < 1 || v > CT_RESULT_SCHEMA)
        return 0;
    return (int)v;
}

ct_status_t ct_results_json_load(const char *path, json_t **doc_p, int *version_p, char *err,
                                 size_t errlen)
{
    json_t *doc;
    ct_status_t lst = ct_input_json(path, CT_INPUT_MAX_DATA, &doc, err, errlen);
    if (lst != CT_OK)
        return lst;
    const char *schema = json_string_value(json_object_get(doc, "schema"));
    int version = ct_results_json_version(schema);
    char versions[64];
    ct_results_versions(versions, sizeof versions);
    if (version < 0) {
        snprintf(err, errlen,
                 "%s:1: not collbench results (schema colltune-results/N; this one %s%s%s)", path,
                 schema ? "'" : "", schema ? schema : "has none", schema ? "'" : "");
    } else if (version == 0) {
        snprintf(err, errlen, "%s:1: unknown schema '%s' (this colltune reads %s)", path, schema,
                 versions);
    } else if (!json_is_array(json_object_get(doc, "results"))) {
        snprintf(err, errlen, "%s:1: no results array", path);
        version = 0;
    }
    if (version <= 0) {
        json_decref(doc);
        return CT_ERR_PARSE;
    }
    *doc_p = doc;
    if (version_p != NULL)
        *version_p = version;
    return CT_OK;
}

/* Says why line is not a header we read: the first column of ours it
 * lacks, or columns past the newest schema (a newer collbench). */
static void ct_results_header_why(const char *line, char *why, size_t len)
{
    char *want = NULL, *have = strdup(line);
    size_t wlen = 0;
    FILE *f = open_memstream(&want, &wlen);
    if (f == NULL || have == NULL) {
        if (f)
            fclose(f);
        free(have);
        free(want);
        snprintf(why, len, "not a collbench results header");
        return;
    }
    ct_result_csv_header(f);
    fclose(f);
    want[strcspn(want, "\n")] = '\0';
    char *wf[64], *hf[128];
    int nw = 0, nh = 0;
    ct_csv_split(want, wf, 64, &nw);
    if (ct_csv_split(have, hf, 128, &nh) != CT_OK || nh == 0 || strcmp(hf[0], "run_id") != 0) {
        snprintf(why, len, "not a collbench results header (it starts with run_id,time,...)");
    } else {
        int i = 0;
        while (i < nh && i < nw && strcmp(hf[i], wf[i]) == 0)
            i++;
        if (i == nw && nh > nw)
            snprintf(why, len,
                     "unknown schema: %d columns, a newer collbench (this colltune reads "
                     "versions 1 to %d, up to %d columns)",
                     nh, CT_RESULT_SCHEMA, nw);
        else if (i < nw && (i >= nh || strcmp(hf[i], wf[i]) != 0))
            snprintf(why, len, "missing column %s (column %d is %s)", wf[i], i + 1,
                     i < nh ? hf[i] : "the end of the line");
        else
            snprintf(why, len, "not a collbench results header");
    }
    free(have);
    free(want);
}

/* Values no collbench row can hold: a size below one byte, a negative
 * bus bandwidth, a time that is not above zero, a row time that is not
 * ISO 8601 UTC (regress orders runs by it; empty, from an import without
 * --date, is no time at all).  Found here, named by
 * file:line, rather than inside gnuplot or a statistic (E19).  0, or -1
 * with why. */
static int ct_results_check_row(const ct_result_t *r, char *why, size_t len)
{
    if (r->bytes < 1)
        return snprintf(why, len, "column bytes: %lld is not a positive byte count", r->bytes), -1;
    if (r->busbw_gbps < 0)
        return snprintf(why, len, "column busbw_gbps: %g is negative", r->busbw_gbps), -1;
    if (!(r->median_us > 0))
        return snprintf(why, len, "column median_us: %g is not a positive time", r->median_us), -1;
    if (r->time[0] != '\0' && !ct_result_time_ok(r->time))
        return snprintf(why, len, "column time: '%.40s' is not YYYY-MM-DDTHH:MM:SSZ (UTC)",
                        r->time),
               -1;
    return 0;
}

static ct_status_t ct_results_read_csv(const char *path, FILE *f, ct_results_t *rows, char *err,
                                       size_t errlen)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0;
    int version = 0;
    ct_status_t st = CT_OK;
    while (st == CT_OK && (len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len == 0)
            continue;
        if (version == 0) {
            /* ct_result_csv_is_header splits its line in place; the
             * message below needs the line as it was. */
            char *copy = strdup(line);
            if (copy == NULL) {
                snprintf(err, errlen, "%s: out of memory", path);
                st = CT_ERR_NOMEM;
                break;
            }
            version = ct_result_csv_is_header(copy);
            free(copy);
            if (version == 0) {
                char why[256];
                ct_results_header_why(line, why, sizeof why);
                snprintf(err, errlen, "%s:%ld: %s", path, lineno, why);
                st = CT_ERR_PARSE;
            }
            continue;
        }
        ct_result_t r;
        char why[256];
        if (ct_result_csv_parse_version(line, version, &r, why, sizeof why) != CT_OK ||
            ct_results_check_row(&r, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s:%ld: %s", path, lineno, why);
            st = CT_ERR_PARSE;
        } else if ((st = CT_VEC_PUSH(rows->v, rows->n, rows->cap, &r)) != CT_OK) {
            snprintf(err, errlen, "%s: out of memory", path);
        }
    }
    free(line);
    if (st == CT_OK && version == 0) {
        snprintf(err, errlen, "%s:1: empty: no collbench results header", path);
        st = CT_ERR_PARSE;
    }
    return st;
}

/* The members of a JSON result row that name its cell and timing; the
 * rest stay 0 (ct_results_read says which). */
static int ct_results_json_row(json_t *j, ct_result_t *r, char *why, size_t len)
{
    static const struct {
        const char *name;
        size_t off, size;
    } strs[] = {
        {"run_id", offsetof(ct_result_t, run_id), sizeof r->run_id},
        {"time", offsetof(ct_result_t, time), sizeof r->time},
        {"backend", offsetof(ct_result_t, backend), sizeof r->backend},
        {"collective", offsetof(ct_result_t, collective), sizeof r->collective},
        {"placement", offsetof(ct_result_t, placement), sizeof r->placement},
        {"dtype", offsetof(ct_result_t, dtype), sizeof r->dtype},
        {"op", offsetof(ct_result_t, op), sizeof r->op},
        {"config_id", offsetof(ct_result_t, config_id), sizeof r->config_id},
    };
    static const struct {
        const char *name;
        size_t off;
    } ints[] =
        {
            {"nranks", offsetof(ct_result_t, nranks)},
            {"nnodes", offsetof(ct_result_t, nnodes)},
            {"bytes", offsetof(ct_result_t, bytes)},
        },
      dbls[] = {
          {"median_us", offsetof(ct_result_t, median_us)},
          {"p10_us", offsetof(ct_result_t, p10_us)},
          {"p90_us", offsetof(ct_result_t, p90_us)},
          {"algbw_gbps", offsetof(ct_result_t, algbw_gbps)},
          {"busbw_gbps", offsetof(ct_result_t, busbw_gbps)},
          {"ci_low_us", offsetof(ct_result_t, ci_low_us)},
          {"ci_high_us", offsetof(ct_result_t, ci_high_us)},
      };
    char *base = (char *)r;
    memset(r, 0, sizeof *r);
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++) {
        const char *s = json_string_value(json_object_get(j, strs[i].name));
        if (s == NULL || strlen(s) >= strs[i].size)
            return snprintf(why, len, "member %s: missing, not a string or too long", strs[i].name),
                   -1;
        memcpy(base + strs[i].off, s, strlen(s) + 1);
    }
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        json_t *v = json_object_get(j, ints[i].name);
        if (!json_is_integer(v))
            return snprintf(why, len, "member %s: missing or not an integer", ints[i].name), -1;
        *(long long *)(base + ints[i].off) = json_integer_value(v);
    }
    for (size_t i = 0; i < sizeof dbls / sizeof dbls[0]; i++) {
        json_t *v = json_object_get(j, dbls[i].name);
        /* null is NaN in our JSON; CI members are absent in schema 1 */
        if (v != NULL && !json_is_number(v) && !json_is_null(v))
            return snprintf(why, len, "member %s: not a number", dbls[i].name), -1;
        *(double *)(base + dbls[i].off) = json_is_number(v) ? json_number_value(v) : NAN;
    }
    return 0;
}

static ct_status_t ct_results_read_json(const char *path, ct_results_t *rows, json_t **doc_p,
                                        char *err, size_t errlen)
{
    json_t *doc;
    ct_status_t st = ct_results_json_load(path, &doc, NULL, err, errlen);
    if (st != CT_OK)
        return st;
    json_t *results = json_object_get(doc, "results");
    for (size_t i = 0; st == CT_OK && i < json_array_size(results); i++) {
        ct_result_t r;
        char why[200];
        if (ct_results_json_row(json_array_get(results, i), &r, why, sizeof why) != 0 ||
            ct_results_check_row(&r, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s: results[%zu]: %s", path, i, why);
            st = CT_ERR_PARSE;
        } else if ((st = CT_VEC_PUSH(rows->v, rows->n, rows->cap, &r)) != CT_OK) {
            snprintf(err, errlen, "%s: out of memory", path);
        }
    }
    if (st == CT_OK && doc_p != NULL)
        *doc_p = doc;
    else
        json_decref(doc);
    return st;
}

ct_status_t ct_results_read(const char *path, ct_results_t *rows, json_t **doc_p, char *err,
                            size_t errlen)
{
    FILE *f;
    ct_status_t ost = ct_input_open(path, CT_INPUT_MAX_DATA, &f, err, errlen);
    if (ost != CT_OK)
        return ost;
    /* A JSON document starts with '{'; a CSV with its header. */
    int c;
    while ((c = getc(f)) == ' ' || c == '\t' || c == '\n' || c == '\r')
        ;
    if (c == '{') {
        fclose(f);
        return ct_results_read_json(path, rows, doc_p, err, errlen);
    }
    rewind(f);
    ct_status_t st = ct_results_read_csv(path, f, rows, err, errlen);
    fclose(f);
    if (st == CT_OK && doc_p != NULL)
        *doc_p = NULL;
    return st;
}
