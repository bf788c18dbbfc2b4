/* SPDX-License-Identifier: BSD-3-Clause */
#include "ct_result.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ct_csv.h"
#include "ct_num.h"

typedef enum {
    CT_FIELD_STR,
    CT_FIELD_INT,
    CT_FIELD_DBL,
    CT_FIELD_WRONG, /* integer, or empty (-1) when not checked */
    CT_FIELD_BOOL,  /* 0 or 1 in the CSV, false or true in the JSON */
} ct_field_kind_t;

typedef struct {
    const char *name;
    ct_field_kind_t kind;
    size_t offset;
    size_t size; /* of a string field */
    int since;   /* the schema version that added the column */
} ct_field_t;

#define CT_STR(f, v)                                                                               \
    {                                                                                              \
#f, CT_FIELD_STR, offsetof(ct_result_t, f), sizeof(((ct_result_t *)0)->f), v               \
    }
#define CT_INT(f, v)                                                                               \
    {                                                                                              \
#f, CT_FIELD_INT, offsetof(ct_result_t, f), 0, v                                           \
    }
#define CT_DBL(f, v)                                                                               \
    {                                                                                              \
#f, CT_FIELD_DBL, offsetof(ct_result_t, f), 0, v                                           \
    }
#define CT_BOOL(f, v)                                                                              \
    {                                                                                              \
#f, CT_FIELD_BOOL, offsetof(ct_result_t, f), 0, v                                          \
    }

/* The schema: column order of the CSV and key order of the JSON.  New
 * columns go at the end, so a version's columns are a prefix of the next
 * one's and scripts that count columns keep working. */
static const ct_field_t ct_result_fields[] = {
    CT_STR(run_id, 1),
    CT_STR(time, 1),
    CT_STR(backend, 1),
    CT_STR(collective, 1),
    CT_STR(placement, 1),
    CT_STR(dtype, 1),
    CT_STR(op, 1),
    CT_INT(root, 1),
    CT_INT(nranks, 1),
    CT_INT(nnodes, 1),
    CT_INT(bytes, 1),
    CT_INT(count, 1),
    CT_INT(iterations, 1),
    CT_DBL(median_us, 1),
    CT_DBL(p10_us, 1),
    CT_DBL(p90_us, 1),
    CT_DBL(min_us, 1),
    CT_DBL(max_us, 1),
    CT_DBL(algbw_gbps, 1),
    CT_DBL(busbw_gbps, 1),
    {"wrong", CT_FIELD_WRONG, offsetof(ct_result_t, wrong), 0, 1},
    CT_STR(config_id, 1),
    CT_STR(sync, 2),
    CT_INT(samples, 2),
    CT_BOOL(converged, 2),
    CT_DBL(ci_low_us, 2),
    CT_DBL(ci_high_us, 2),
    CT_INT(late, 2),
    CT_DBL(slowest_rank_median_us, 2),
};

#define CT_NFIELDS (sizeof ct_result_fields / sizeof ct_result_fields[0])

_Static_assert(CT_RESULT_SCHEMA == 2, "a new schema version needs its columns marked in the table");

/* How many columns a version has. */
static size_t ct_result_ncols(int version)
{
    size_t n = 0;
    while (n < CT_NFIELDS && ct_result_fields[n].since <= version)
        n++;
    return n;
}

void ct_result_csv_header(FILE *fp)
{
    for (size_t i = 0; i < CT_NFIELDS; i++)
        fprintf(fp, "%s%s", i ? "," : "", ct_result_fields[i].name);
    fputc('\n', fp);
}

void ct_result_csv_write(FILE *fp, const ct_result_t *row)
{
    const char *base = (const char *)row;
    for (size_t i = 0; i < CT_NFIELDS; i++) {
        const ct_field_t *f = &ct_result_fields[i];
        if (i)
            fputc(',', fp);
        switch (f->kind) {
        case CT_FIELD_STR: ct_csv_write_field(fp, base + f->offset); break;
        case CT_FIELD_INT: fprintf(fp, "%lld", *(const long long *)(base + f->offset)); break;
        case CT_FIELD_BOOL: fputc(*(const long long *)(base + f->offset) ? '1' : '0', fp); break;
        case CT_FIELD_DBL: fprintf(fp, "%.6g", *(const double *)(base + f->offset)); break;
        case CT_FIELD_WRONG: {
            long long w = *(const long long *)(base + f->offset);
            if (w >= 0)
                fprintf(fp, "%lld", w);
            break;
        }
        }
    }
    fputc('\n', fp);
}

int ct_result_csv_is_header(char *line)
{
    char *fields[CT_NFIELDS + 1];
    int n = 0;
    if (ct_csv_split(line, fields, (int)CT_NFIELDS + 1, &n) != CT_OK)
        return 0;
    for (int version = CT_RESULT_SCHEMA; version >= 1; version--) {
        if ((size_t)n != ct_result_ncols(version))
            continue;
        for (int i = 0; i < n; i++)
            if (strcmp(fields[i], ct_result_fields[i].name) != 0)
                return 0;
        return version;
    }
    return 0;
}

static ct_status_t ct_result_parse_field(const ct_field_t *f, const char *text, char *base,
                                         char *err, size_t errlen)
{
    char *end = NULL;
    errno = 0;
    switch (f->kind) {
    case CT_FIELD_STR:
        if (strlen(text) >= f->size) {
            snprintf(err, errlen, "column %s: '%s' is longer than %zu characters", f->name, text,
                     f->size - 1);
            return CT_ERR_PARSE;
        }
        strcpy(base + f->offset, text);
        return CT_OK;
    case CT_FIELD_BOOL:
        if (strcmp(text, "0") != 0 && strcmp(text, "1") != 0) {
            snprintf(err, errlen, "column %s: '%s' is not 0 or 1", f->name, text);
            return CT_ERR_PARSE;
        }
        *(long long *)(base + f->offset) = text[0] == '1';
        return CT_OK;
    case CT_FIELD_WRONG:
        if (*text == '\0') {
            *(long long *)(base + f->offset) = -1;
            return CT_OK;
        }
        /* fall through */
    case CT_FIELD_INT: {
        long long v = strtoll(text, &end, 10);
        if (errno || end == text || *end != '\0') {
            snprintf(err, errlen, "column %s: '%s' is not an integer", f->name, text);
            return CT_ERR_PARSE;
        }
        *(long long *)(base + f->offset) = v;
        return CT_OK;
    }
    case CT_FIELD_DBL: {
        double v = 0; /* decimal: strtod took "0x10" (issue 15, E24) */
        if (ct_num_parse(text, &v) != CT_OK) {
            snprintf(err, errlen, "column %s: '%s' is not a number", f->name, text);
            return CT_ERR_PARSE;
        }
        *(double *)(base + f->offset) = v;
        return CT_OK;
    }
    }
    return CT_ERR_PARSE;
}

ct_status_t ct_result_csv_parse_version(char *line, int version, ct_result_t *row_p, char *err,
                                        size_t errlen)
{
    char *fields[CT_NFIELDS + 1];
    int n = 0;
    ct_result_t row;
    size_t ncols = ct_result_ncols(version);

    if (version < 1 || version > CT_RESULT_SCHEMA) {
        snprintf(err, errlen, "schema version %d is not one this colltune reads (1 to %d)", version,
                 CT_RESULT_SCHEMA);
        return CT_ERR_PARSE;
    }
    memset(&row, 0, sizeof row);
    /* What version 1 did not record: it always timed batches, had no late
     * calls, and the rest is unknown. */
    snprintf(row.sync, sizeof row.sync, "batch");
    row.samples = -1;
    row.converged = -1;
    row.ci_low_us = row.ci_high_us = row.slowest_rank_median_us = NAN;
    if (ct_csv_split(line, fields, (int)CT_NFIELDS + 1, &n) != CT_OK) {
        snprintf(err, errlen, "malformed CSV record (quotes, or more than %zu columns)",
                 CT_NFIELDS);
        return CT_ERR_PARSE;
    }
    if (n != (int)ncols) {
        snprintf(err, errlen, "%d columns, expected %zu (schema version %d)", n, ncols, version);
        return CT_ERR_PARSE;
    }
    for (size_t i = 0; i < ncols; i++)
        if (ct_result_parse_field(&ct_result_fields[i], fields[i], (char *)&row, err, errlen) !=
            CT_OK)
            return CT_ERR_PARSE;
    *row_p = row;
    return CT_OK;
}

ct_status_t ct_result_csv_parse(char *line, ct_result_t *row_p, char *err, size_t errlen)
{
    return ct_result_csv_parse_version(line, CT_RESULT_SCHEMA, row_p, err, errlen);
}

json_t *ct_result_json(const ct_result_t *row)
{
    const char *base = (const char *)row;
    json_t *obj = json_object();
    int bad = obj == NULL;

    for (size_t i = 0; i < CT_NFIELDS && !bad; i++) {
        const ct_field_t *f = &ct_result_fields[i];
        json_t *v = NULL;
        switch (f->kind) {
        case CT_FIELD_STR: v = ct_json_str(base + f->offset); break;
        case CT_FIELD_INT: v = json_integer(*(const long long *)(base + f->offset)); break;
        case CT_FIELD_BOOL: v = json_boolean(*(const long long *)(base + f->offset)); break;
        case CT_FIELD_DBL: v = ct_json_real(*(const double *)(base + f->offset)); break;
        case CT_FIELD_WRONG: {
            long long w = *(const long long *)(base + f->offset);
            v = w >= 0 ? json_integer(w) : json_null();
            break;
        }
        }
        bad |= ct_json_set(obj, f->name, v);
    }
    if (bad) {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

int ct_result_run_id_ok(const char *id)
{
    size_t n = strlen(id);
    return n > 0 && n <= CT_RUN_ID_MAX && id[strspn(id, CT_RUN_ID_CHARS)] == '\0';
}

void ct_result_run_id_clean(const char *in, char *out, size_t outlen)
{
    size_t n = 0;
    for (; in[n] != '\0' && n < CT_RUN_ID_MAX && n + 1 < outlen; n++)
        out[n] = strchr(CT_RUN_ID_CHARS, in[n]) != NULL ? in[n] : '_';
    if (outlen > 0)
        out[n < outlen ? n : outlen - 1] = '\0';
    if (n == 0 && outlen > 3)
        snprintf(out, outlen, "run");
}

int ct_result_time_parse(const char *in, char *buf, size_t len)
{
    static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int y, mo, d, h = 0, mi = 0, se = 0, n = 0;
    size_t inlen = strlen(in);
    if (inlen == 10) {
        if (sscanf(in, "%4d-%2d-%2d%n", &y, &mo, &d, &n) != 3 || n != 10)
            return -1;
    } else if (inlen != 20 ||
               sscanf(in, "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &y, &mo, &d, &h, &mi, &se, &n) != 6 ||
               n != 20 || in[10] != 'T' || in[13] != ':' || in[16] != ':') {
        return -1;
    }
    /* sscanf's %2d takes a sign or a space: each field must be digits. */
    for (size_t i = 0; i < inlen; i++)
        if (i != 4 && i != 7 && i != 10 && i != 13 && i != 16 && i != 19 &&
            (in[i] < '0' || in[i] > '9'))
            return -1;
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] + (mo == 2 && leap) || h > 23 ||
        mi > 59 || se > 60 || in[4] != '-' || in[7] != '-')
        return -1;
    int w = snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02dZ", y, mo, d, h, mi, se);
    return w > 0 && (size_t)w < len ? 0 : -1;
}

int ct_result_time_ok(const char *s)
{
    char buf[32];
    return strlen(s) == 20 && ct_result_time_parse(s, buf, sizeof buf) == 0;
}
