#include "ct_result.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ct_csv.h"

typedef enum { CT_FIELD_STR, CT_FIELD_INT, CT_FIELD_DBL, CT_FIELD_WRONG } ct_field_kind_t;

typedef struct {
    const char *name;
    ct_field_kind_t kind;
    size_t offset;
    size_t size; /* of a string field */
} ct_field_t;

#define CT_STR(f) {#f, CT_FIELD_STR, offsetof(ct_result_t, f), sizeof(((ct_result_t *)0)->f)}
#define CT_INT(f) {#f, CT_FIELD_INT, offsetof(ct_result_t, f), 0}
#define CT_DBL(f) {#f, CT_FIELD_DBL, offsetof(ct_result_t, f), 0}

/* The schema: column order of the CSV and key order of the JSON. */
static const ct_field_t ct_result_fields[] = {
    CT_STR(run_id),     CT_STR(time),      CT_STR(backend),     CT_STR(collective),
    CT_STR(placement),  CT_STR(dtype),     CT_STR(op),          CT_INT(root),
    CT_INT(nranks),     CT_INT(nnodes),    CT_INT(bytes),       CT_INT(count),
    CT_INT(iterations), CT_DBL(median_us), CT_DBL(p10_us),      CT_DBL(p90_us),
    CT_DBL(min_us),     CT_DBL(max_us),    CT_DBL(algbw_gbps),  CT_DBL(busbw_gbps),
    {"wrong", CT_FIELD_WRONG, offsetof(ct_result_t, wrong), 0},
    CT_STR(config_id),
};

#define CT_NFIELDS (sizeof ct_result_fields / sizeof ct_result_fields[0])

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
    if (ct_csv_split(line, fields, (int)CT_NFIELDS + 1, &n) != CT_OK || n != (int)CT_NFIELDS)
        return 0;
    for (size_t i = 0; i < CT_NFIELDS; i++)
        if (strcmp(fields[i], ct_result_fields[i].name) != 0)
            return 0;
    return 1;
}

static ct_status_t ct_result_parse_field(const ct_field_t *f, const char *text, char *base,
                                         char *err, size_t errlen)
{
    char *end = NULL;
    errno = 0;
    switch (f->kind) {
    case CT_FIELD_STR:
        if (strlen(text) >= f->size) {
            snprintf(err, errlen, "column %s: '%s' is longer than %zu characters", f->name,
                     text, f->size - 1);
            return CT_ERR_PARSE;
        }
        strcpy(base + f->offset, text);
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
        double v = strtod(text, &end);
        if (errno || end == text || *end != '\0' || !isfinite(v)) {
            snprintf(err, errlen, "column %s: '%s' is not a number", f->name, text);
            return CT_ERR_PARSE;
        }
        *(double *)(base + f->offset) = v;
        return CT_OK;
    }
    }
    return CT_ERR_PARSE;
}

ct_status_t ct_result_csv_parse(char *line, ct_result_t *row_p, char *err, size_t errlen)
{
    char *fields[CT_NFIELDS + 1];
    int n = 0;
    ct_result_t row;

    memset(&row, 0, sizeof row);
    if (ct_csv_split(line, fields, (int)CT_NFIELDS + 1, &n) != CT_OK) {
        snprintf(err, errlen, "malformed CSV record (quotes, or more than %zu columns)",
                 CT_NFIELDS);
        return CT_ERR_PARSE;
    }
    if (n != (int)CT_NFIELDS) {
        snprintf(err, errlen, "%d columns, expected %zu", n, CT_NFIELDS);
        return CT_ERR_PARSE;
    }
    for (size_t i = 0; i < CT_NFIELDS; i++)
        if (ct_result_parse_field(&ct_result_fields[i], fields[i], (char *)&row, err, errlen) !=
            CT_OK)
            return CT_ERR_PARSE;
    *row_p = row;
    return CT_OK;
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
