/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * import_nccl_json.c - nccl-tests' -J JSON output into result rows.
 *
 * The document (nccl-tests' src/util.cu, JSON file version 2) holds one
 * test: "args" (args[0] is the binary, which names the collective),
 * "start_time" (local time, "YYYY-mm-dd HH:MM:SS"), "config" (iterations,
 * aggregated_iterations, nthreads, ngpus, and "devices": one entry per
 * process, its first GPU's line) and "results": one object per size with
 * "size", "count", "type", "redop", "root" (a padded string) and
 * "out_of_place" / "in_place" objects ("time" or "cpu_time", "alg_bw",
 * "bus_bw", "nwrong": null when unchecked), plus "*_per_iter" (min_us,
 * max_us, ...) under -I.  Messages name results[i] instead of a line.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "ct_dtype.h"
#include "import.h"

static long long ct_json_ll(json_t *obj, const char *key, long long dflt)
{
    json_t *v = json_object_get(obj, key);
    return json_is_integer(v) ? (long long)json_integer_value(v) : dflt;
}

/* A member's value as a message shows it: 12, -1.5, 'text', null, or
 * "missing". */
static const char *ct_njson_text(json_t *v, char *buf, size_t len)
{
    if (v == NULL)
        snprintf(buf, len, "missing");
    else if (json_is_integer(v))
        snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    else if (json_is_real(v))
        snprintf(buf, len, "%g", json_real_value(v));
    else if (json_is_string(v))
        snprintf(buf, len, "'%.40s'", json_string_value(v));
    else
        snprintf(buf, len, "%s", json_is_null(v) ? "null" : "not a number");
    return buf;
}

/* config.key, a positive count (1 when absent); -1 with a message when it
 * is something else: an "ngpus" of 0 gave 0 ranks, and one "cannot
 * compute busbw" per row (issue 15, E23). */
static int ct_njson_count(ct_import_t *im, json_t *config, const char *key, long long *out)
{
    json_t *v = json_object_get(config, key);
    *out = 1;
    if (v == NULL)
        return 0;
    if (json_is_integer(v) && json_integer_value(v) >= 1 && json_integer_value(v) <= (1 << 20)) {
        *out = (long long)json_integer_value(v);
        return 0;
    }
    char text[64];
    fprintf(stderr, "colltune import: %s: config.%s: %s is not a positive count\n", im->path, key,
            ct_njson_text(v, text, sizeof text));
    return -1;
}

/* results[i].key, a byte or element count, into *out; else a message
 * naming the member (these said "no size, count or known type"). */
static ct_status_t ct_njson_bytes(ct_import_t *im, size_t i, json_t *r, const char *key,
                                  const char *what, long long *out)
{
    json_t *v = json_object_get(r, key);
    if (json_is_integer(v) && json_integer_value(v) >= 0 &&
        (double)json_integer_value(v) <= CT_IMPORT_MAX_COUNT) {
        *out = (long long)json_integer_value(v);
        return CT_OK;
    }
    char text[64];
    *out = -1;
    return ct_import_bad(im, 0, "results[%zu].%s: %s is not %s", i, key,
                         ct_njson_text(v, text, sizeof text), what);
}

/* One half of results[i]; *emitted counts rows written. */
static ct_status_t ct_njson_half(ct_import_t *im, long idx, json_t *res, const char *key,
                                 const ct_result_t *base)
{
    json_t *h = json_object_get(res, key);
    if (json_is_null(h) || h == NULL)
        return CT_OK; /* not measured (in-place-only tests) */
    const char *tkey = json_object_get(h, "time") != NULL ? "time" : "cpu_time";
    json_t *tm = json_object_get(h, tkey);
    json_t *bus = json_object_get(h, "bus_bw"), *wrong = json_object_get(h, "nwrong");
    char text[64];
    if (!json_is_number(tm) || !(json_number_value(tm) > 0.0))
        return ct_import_bad(im, 0, "results[%ld].%s.%s: %s is not a positive time", idx, key, tkey,
                             ct_njson_text(tm, text, sizeof text));
    if (!json_is_number(bus))
        return ct_import_bad(im, 0, "results[%ld].%s.bus_bw: %s is not a number", idx, key,
                             ct_njson_text(bus, text, sizeof text));
    ct_result_t row = *base;
    snprintf(row.placement, sizeof row.placement, "%s",
             strcmp(key, "out_of_place") == 0 ? "out-of-place" : "in-place");
    ct_import_row_time(&row, json_number_value(tm));
    if (json_is_number(wrong)) {
        double v = json_number_value(wrong);
        if (!(v >= 0 && v <= CT_IMPORT_MAX_COUNT)) /* cast, it would wrap (E24) */
            return ct_import_bad(im, 0, "results[%ld].%s: #wrong %g is not a count", idx, key, v);
        row.wrong = (long long)v;
    }
    char per_iter[32];
    snprintf(per_iter, sizeof per_iter, "%s_per_iter", key);
    json_t *pi = json_object_get(res, per_iter);
    json_t *lo = json_object_get(pi, "min_us"), *hi = json_object_get(pi, "max_us");
    if (json_is_number(lo) && json_is_number(hi)) {
        row.min_us = json_number_value(lo);
        row.max_us = json_number_value(hi);
    }
    /* JSON numbers carry %lf's six decimals: that is their rounding. */
    char ttext[64], btext[64];
    snprintf(ttext, sizeof ttext, "%.6f", json_number_value(tm));
    snprintf(btext, sizeof btext, "%.6f", json_number_value(bus));
    return ct_import_emit(im, 0, &row, ttext, btext);
}

/* im's text as a version 2 nccl-tests document (*doc, the caller's to
 * free), with its "results" list and "config" object; CT_ERR_PARSE after
 * a message otherwise. */
static ct_status_t ct_njson_open(ct_import_t *im, json_t **doc, json_t **results, json_t **config)
{
    json_error_t jerr;
    *doc = json_loadb(im->text, im->len, JSON_REJECT_DUPLICATES, &jerr); /* E24 */
    if (*doc == NULL) {
        /* A cut document (a killed run) is not JSON at all: nothing to save. */
        /* jansson says line -1 when it cannot tell (E23: "FILE:-1:") */
        fprintf(stderr, "colltune import: %s:%d: not valid JSON: %s\n", im->path,
                jerr.line > 0 ? jerr.line : 1, jerr.text);
        return CT_ERR_PARSE;
    }
    /* The file version this reader was written from: a newer one may
     * mean other things by the same names, so it is refused (E24). */
    json_t *version = json_object_get(*doc, "version");
    if (!json_is_integer(version) || json_integer_value(version) != 2) {
        fprintf(stderr,
                "colltune import: %s:1: nccl-tests JSON version %s: this colltune reads "
                "version 2\n",
                im->path, json_is_integer(version) ? "other than 2" : "missing");
        return CT_ERR_PARSE;
    }
    *results = json_object_get(*doc, "results");
    *config = json_object_get(*doc, "config");
    if (!json_is_array(*results) || !json_is_object(*config)) {
        fprintf(stderr,
                "colltune import: %s:1: not nccl-tests JSON: no \"results\" list or "
                "\"config\" object\n",
                im->path);
        return CT_ERR_PARSE;
    }
    return CT_OK;
}

/* The collective args[0] names (all_reduce_perf), else --collective's;
 * NULL after ct_import_bad (*st its answer) when neither names one. */
static const char *ct_njson_coll(ct_import_t *im, json_t *args, ct_status_t *st)
{
    const char *bin = json_string_value(json_array_get(args, 0));
    char stem[64] = "";
    if (bin != NULL) {
        const char *slash = strrchr(bin, '/');
        snprintf(stem, sizeof stem, "%s", slash != NULL ? slash + 1 : bin);
        char *perf = strstr(stem, "_perf");
        if (perf != NULL)
            *perf = '\0';
    }
    const char *coll = stem[0] != '\0' ? ct_import_coll(stem) : NULL;
    if (coll == NULL && im->coll_flag != NULL)
        coll = ct_import_coll(im->coll_flag);
    if (coll == NULL)
        *st = ct_import_bad(im, 0,
                            "args[0] '%s' names no collective of the schema: give "
                            "--collective",
                            bin != NULL ? bin : "");
    return coll;
}

/* The distinct hostnames of config.devices; -1 when none is named. */
static long long ct_njson_nnodes(json_t *devices)
{
    long long nnodes = 0;
    for (size_t i = 0; json_is_array(devices) && i < json_array_size(devices); i++) {
        const char *h = json_string_value(json_object_get(json_array_get(devices, i), "hostname"));
        size_t k = 0;
        for (; h != NULL && k < i; k++) {
            const char *o =
                json_string_value(json_object_get(json_array_get(devices, k), "hostname"));
            if (o != NULL && strcmp(o, h) == 0)
                break;
        }
        nnodes += h != NULL && k == i;
    }
    return nnodes == 0 ? -1 : nnodes;
}

/* What every row of the document shares besides the collective: ranks,
 * nodes, iterations and the start time; CT_ERR_PARSE after a message. */
static ct_status_t ct_njson_scale(ct_import_t *im, json_t *doc, json_t *config, ct_result_t *base)
{
    json_t *devices = json_object_get(config, "devices");
    long long nthreads, ngpus;
    if (ct_njson_count(im, config, "nthreads", &nthreads) != 0 ||
        ct_njson_count(im, config, "ngpus", &ngpus) != 0)
        return CT_ERR_PARSE;
    long long per_proc = nthreads * ngpus;
    base->nranks = json_is_array(devices) ? (long long)json_array_size(devices) * per_proc : 0;
    if (base->nranks == 0)
        base->nranks = im->np;
    base->nnodes = ct_njson_nnodes(devices);
    long long iters = ct_json_ll(config, "iterations", -1);
    if (iters > 0)
        base->iterations = iters * ct_json_ll(config, "aggregated_iterations", 1);
    const char *start = json_string_value(json_object_get(doc, "start_time"));
    if (start != NULL) {
        snprintf(base->time, sizeof base->time, "%s", start);
        char *sp = strchr(base->time, ' ');
        if (sp != NULL)
            *sp = 'T';
    }
    return CT_OK;
}

/* results[i]'s datatype into row; else ct_import_bad's answer, the
 * message listing the datatypes. */
static ct_status_t ct_njson_dtype(ct_import_t *im, size_t i, json_t *r, ct_result_t *row, int *ok)
{
    const char *type = json_string_value(json_object_get(r, "type"));
    ct_dtype_t dt;
    *ok = type != NULL && ct_dtype_parse(type, &dt) == CT_OK;
    if (*ok) {
        snprintf(row->dtype, sizeof row->dtype, "%s", ct_dtype_name(dt));
        return CT_OK;
    }
    char text[64], names[160] = "";
    for (int k = 0; k < CT_DTYPE_COUNT; k++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? ", " : "",
                 ct_dtype_name((ct_dtype_t)k));
    return ct_import_bad(im, 0, "results[%zu].type: %s is not a datatype (%s)", i,
                         ct_njson_text(json_object_get(r, "type"), text, sizeof text), names);
}

/* results[i]: its out-of-place and in-place rows; a bad member skips it
 * (with ct_import_bad's answer). */
static ct_status_t ct_njson_result(ct_import_t *im, size_t i, json_t *r, const ct_result_t *base)
{
    ct_result_t row = *base;
    const char *redop = json_string_value(json_object_get(r, "redop"));
    const char *root = json_string_value(json_object_get(r, "root"));
    ct_op_t op;
    ct_status_t st;
    int ok;
    if ((st = ct_njson_bytes(im, i, r, "size", "a byte count", &row.bytes)) != CT_OK ||
        row.bytes < 0)
        return st;
    if ((st = ct_njson_bytes(im, i, r, "count", "an element count", &row.count)) != CT_OK ||
        row.count < 0)
        return st;
    if ((st = ct_njson_dtype(im, i, r, &row, &ok)) != CT_OK || !ok)
        return st;
    if (redop != NULL && strcmp(redop, "none") != 0) {
        if (ct_op_parse(redop, &op) != CT_OK)
            return ct_import_bad(im, 0, "results[%zu]: redop '%s' unknown", i, redop);
        snprintf(row.op, sizeof row.op, "%s", ct_op_name(op));
    }
    if (root != NULL)
        row.root = strtoll(root, NULL, 10);
    st = ct_njson_half(im, (long)i, r, "out_of_place", &row);
    if (st == CT_OK)
        st = ct_njson_half(im, (long)i, r, "in_place", &row);
    return st;
}

ct_status_t ct_import_nccl_json(ct_import_t *im)
{
    json_t *doc = NULL, *results = NULL, *config = NULL;
    ct_status_t st = ct_njson_open(im, &doc, &results, &config);
    ct_result_t base;
    const char *coll = NULL;
    if (st == CT_OK) {
        ct_import_row_init(im, &base);
        snprintf(base.backend, sizeof base.backend, "nccl");
        coll = ct_njson_coll(im, json_object_get(doc, "args"), &st);
    }
    if (st == CT_OK && coll != NULL) {
        snprintf(base.collective, sizeof base.collective, "%s", coll);
        st = ct_njson_scale(im, doc, config, &base);
        for (size_t i = 0; i < json_array_size(results) && st == CT_OK; i++)
            st = ct_njson_result(im, i, json_array_get(results, i), &base);
    }
    json_decref(doc);
    return st;
}
