/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_result.c - the results schema: CSV header and rows written and read
 * back, errors on malformed rows, and the JSON members of a row.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ct_json.h"
#include "ct_result.h"
#include "ct_test.h"

static ct_test_tally_t tally;

#define CT_HEADER_V1                                                                               \
    "run_id,time,backend,collective,placement,dtype,op,root,nranks,nnodes,bytes,count,"            \
    "iterations,median_us,p10_us,p90_us,min_us,max_us,algbw_gbps,busbw_gbps,wrong,config_id"
static const char *const header_v1_text = CT_HEADER_V1;
static const char *const header_text =
    CT_HEADER_V1 ",sync,samples,converged,ci_low_us,ci_high_us,late,slowest_rank_median_us";

static ct_result_t sample(int which)
{
    ct_result_t r;
    memset(&r, 0, sizeof r);
    switch (which) {
    case 0:
        strcpy(r.run_id, "run,\"one\""); /* comma and quotes: needs quoting */
        strcpy(r.time, "2024-01-02T03:04:05Z");
        strcpy(r.backend, "mpi");
        strcpy(r.collective, "allreduce");
        strcpy(r.placement, "out-of-place");
        strcpy(r.dtype, "float");
        strcpy(r.op, "sum");
        r.root = -1;
        r.nranks = 4;
        r.nnodes = 1;
        r.bytes = 1048576;
        r.count = 262144;
        r.iterations = 1000;
        r.median_us = 123.456789;
        r.p10_us = 120.0000049;
        r.p90_us = 130.25;
        r.min_us = 119.5;
        r.max_us = 250.123456789;
        r.algbw_gbps = 8.49347621;
        r.busbw_gbps = 12.7402143;
        r.wrong = 0;
        strcpy(r.config_id, "0123456789abcdef");
        strcpy(r.sync, "window");
        r.samples = 812;
        r.converged = 1;
        r.ci_low_us = 122.0000001;
        r.ci_high_us = 125.123456789;
        r.late = 17;
        r.slowest_rank_median_us = 124.987654321;
        break;
    case 1:
        strcpy(r.run_id, "plain");
        strcpy(r.time, "2024-01-02T03:04:06Z");
        strcpy(r.backend, "nccl");
        strcpy(r.collective, "broadcast");
        strcpy(r.placement, "in-place");
        strcpy(r.dtype, "bfloat16");
        strcpy(r.op, "none");
        r.root = 3;
        r.nranks = 64;
        r.nnodes = 8;
        r.bytes = 17179869184LL; /* 16 GiB: beyond 32 bits */
        r.count = 8589934592LL;
        r.iterations = 7;
        r.median_us = 1.5e6;
        r.p10_us = 0.001234567;
        r.p90_us = 1e-7;
        r.min_us = 0.0;
        r.max_us = 98765432.1;
        r.algbw_gbps = 11453.2456;
        r.busbw_gbps = 11453.2456;
        r.wrong = -1; /* not checked: empty field */
        strcpy(r.config_id, "");
        strcpy(r.sync, "batch");
        r.samples = 10;
        r.converged = 0;
        r.ci_low_us = 1e6;
        r.ci_high_us = 2.5e6;
        r.late = 0;
        r.slowest_rank_median_us = 1.75e6;
        break;
    default:
        strcpy(r.run_id, "x y");
        strcpy(r.time, "t");
        strcpy(r.backend, "mpi");
        strcpy(r.collective, "reduce_scatter");
        strcpy(r.placement, "in-place");
        strcpy(r.dtype, "int8");
        strcpy(r.op, "max");
        r.root = -1;
        r.nranks = 2;
        r.nnodes = 1;
        r.bytes = 8;
        r.count = 8;
        r.iterations = 1;
        r.median_us = 2.0;
        r.p10_us = 2.0;
        r.p90_us = 2.0;
        r.min_us = 2.0;
        r.max_us = 2.0;
        r.algbw_gbps = 0.004;
        r.busbw_gbps = 0.002;
        r.wrong = 123456789012LL;
        strcpy(r.config_id, "\"quoted\"");
        strcpy(r.sync, "barrier");
        r.samples = 4000000000LL;
        r.converged = 1;
        r.ci_low_us = 0.0;
        r.ci_high_us = 4.0;
        r.late = 3000000000LL;
        r.slowest_rank_median_us = 2.0;
        break;
    }
    return r;
}

/* The value a double reads back as after "%.6g". */
static double six(double v)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.6g", v);
    return strtod(buf, NULL);
}

static void compare_rows(const ct_result_t *got, const ct_result_t *want)
{
    CT_CHECK_STR(&tally, got->run_id, want->run_id);
    CT_CHECK_STR(&tally, got->time, want->time);
    CT_CHECK_STR(&tally, got->backend, want->backend);
    CT_CHECK_STR(&tally, got->collective, want->collective);
    CT_CHECK_STR(&tally, got->placement, want->placement);
    CT_CHECK_STR(&tally, got->dtype, want->dtype);
    CT_CHECK_STR(&tally, got->op, want->op);
    CT_CHECK(&tally, got->root == want->root);
    CT_CHECK(&tally, got->nranks == want->nranks);
    CT_CHECK(&tally, got->nnodes == want->nnodes);
    CT_CHECK(&tally, got->bytes == want->bytes);
    CT_CHECK(&tally, got->count == want->count);
    CT_CHECK(&tally, got->iterations == want->iterations);
    CT_CHECK(&tally, got->median_us == six(want->median_us));
    CT_CHECK(&tally, got->p10_us == six(want->p10_us));
    CT_CHECK(&tally, got->p90_us == six(want->p90_us));
    CT_CHECK(&tally, got->min_us == six(want->min_us));
    CT_CHECK(&tally, got->max_us == six(want->max_us));
    CT_CHECK(&tally, got->algbw_gbps == six(want->algbw_gbps));
    CT_CHECK(&tally, got->busbw_gbps == six(want->busbw_gbps));
    /* Within 6 significant digits of what was measured. */
    CT_CHECK(&tally, fabs(got->median_us - want->median_us) <= 5e-6 * fabs(want->median_us));
    CT_CHECK(&tally, got->wrong == want->wrong);
    CT_CHECK_STR(&tally, got->config_id, want->config_id);
    CT_CHECK_STR(&tally, got->sync, want->sync);
    CT_CHECK(&tally, got->samples == want->samples);
    CT_CHECK(&tally, got->converged == want->converged);
    CT_CHECK(&tally, got->ci_low_us == six(want->ci_low_us));
    CT_CHECK(&tally, got->ci_high_us == six(want->ci_high_us));
    CT_CHECK(&tally, got->late == want->late);
    CT_CHECK(&tally, got->slowest_rank_median_us == six(want->slowest_rank_median_us));
}

/* Parses a data line (a copy) and expects failure with err holding every
 * string in needles. */
static void expect_bad(const char *line, const char *needle1, const char *needle2)
{
    char buf[1024], err[256] = "";
    ct_result_t row;
    snprintf(buf, sizeof buf, "%s", line);
    ct_status_t st = ct_result_csv_parse(buf, &row, err, sizeof err);
    CT_CHECK(&tally, st == CT_ERR_PARSE);
    CT_CHECK(&tally, needle1 == NULL || strstr(err, needle1) != NULL);
    CT_CHECK(&tally, needle2 == NULL || strstr(err, needle2) != NULL);
    if (st != CT_ERR_PARSE || (needle1 && !strstr(err, needle1)) ||
        (needle2 && !strstr(err, needle2)))
        fprintf(stderr, "  line \"%s\": status %d, err \"%s\"\n", line, (int)st, err);
}

/* A good line with column col replaced by text. */
static void line_with(char *out, size_t outlen, int col, const char *text)
{
    static const char *const good[] = {
        "r",    "t",   "mpi",    "allreduce", "in-place", "float", "sum", "-1", "2",    "1",
        "1024", "256", "10",     "1.5",       "1",        "2",     "1",   "3",  "0.68", "0.68",
        "0",    "abc", "window", "100",       "1",        "1.4",   "1.6", "0",  "1.7"};
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < (int)(sizeof good / sizeof good[0]); i++)
        used += (size_t)snprintf(out + used, outlen - used, "%s%s", i ? "," : "",
                                 i == col ? text : good[i]);
}

int main(void)
{
    /* CSV: write a header and three rows, read them back. */
    FILE *fp = tmpfile();
    CT_CHECK(&tally, fp != NULL);
    if (fp == NULL)
        return CT_DONE(&tally);
    ct_result_t rows[3] = {sample(0), sample(1), sample(2)};
    ct_result_csv_header(fp);
    for (int i = 0; i < 3; i++)
        ct_result_csv_write(fp, &rows[i]);
    rewind(fp);

    char line[2048];
    int nline = 0;
    while (fgets(line, sizeof line, fp)) {
        size_t len = strlen(line);
        CT_CHECK(&tally, len > 0 && line[len - 1] == '\n');
        if (len && line[len - 1] == '\n')
            line[--len] = '\0';
        char copy[2048];
        strcpy(copy, line);
        if (nline == 0) {
            CT_CHECK_STR(&tally, line, header_text);
            CT_CHECK(&tally, ct_result_csv_is_header(copy));
        } else if (nline <= 3) {
            const ct_result_t *want = &rows[nline - 1];
            CT_CHECK(&tally, !ct_result_csv_is_header(copy));
            if (nline == 1) {
                /* Quoted run_id, root -1, 6 significant digits. */
                CT_CHECK(&tally, strncmp(line, "\"run,\"\"one\"\"\",", 14) == 0);
                CT_CHECK(&tally, strstr(line, ",123.457,120,130.25,119.5,250.123,8.49348,"
                                              "12.7402,0,0123456789abcdef") != NULL);
            }
            if (nline == 1)
                CT_CHECK(&tally, strstr(line, ",window,812,1,122,125.123,17,124.988") != NULL);
            if (nline == 2) /* wrong = -1 and config_id "": two empty fields */
                CT_CHECK(&tally, strstr(line, ",,,batch,10,0,1e+06,2.5e+06,0,1.75e+06") != NULL);
            if (nline == 3)
                CT_CHECK(&tally, strstr(line, ",123456789012,\"\"\"quoted\"\"\"") != NULL);
            ct_result_t got;
            char err[256] = "";
            memset(&got, 0x55, sizeof got);
            strcpy(copy, line);
            ct_status_t st = ct_result_csv_parse(copy, &got, err, sizeof err);
            CT_CHECK(&tally, st == CT_OK);
            if (st != CT_OK)
                fprintf(stderr, "  row %d: %s\n", nline, err);
            else
                compare_rows(&got, want);
        }
        nline++;
    }
    CT_CHECK(&tally, nline == 4);
    fclose(fp);

    /* Header detection. */
    {
        char h[1024];
        strcpy(h, header_text);
        CT_CHECK(&tally, ct_result_csv_is_header(h));
        strcpy(h, header_text);
        h[0] = 'R'; /* Run_id */
        CT_CHECK(&tally, !ct_result_csv_is_header(h));
        snprintf(h, sizeof h, "%s,extra", header_text);
        CT_CHECK(&tally, !ct_result_csv_is_header(h));
        strcpy(h, "run_id,time");
        CT_CHECK(&tally, !ct_result_csv_is_header(h));
        /* Versions: the current header says 2, the old one 1. */
        strcpy(h, header_text);
        CT_CHECK(&tally, ct_result_csv_is_header(h) == CT_RESULT_SCHEMA);
        strcpy(h, header_v1_text);
        CT_CHECK(&tally, ct_result_csv_is_header(h) == 1);
        snprintf(h, sizeof h, "%s,sync", header_v1_text); /* half a version 2 */
        CT_CHECK(&tally, !ct_result_csv_is_header(h));
        strcpy(h, "");
        CT_CHECK(&tally, !ct_result_csv_is_header(h));
    }

    /* The good line parses; each bad column fails naming the column. */
    {
        char l[1024], err[256] = "";
        ct_result_t row;
        line_with(l, sizeof l, -1, "");
        CT_CHECK(&tally, ct_result_csv_parse(l, &row, err, sizeof err) == CT_OK);
        CT_CHECK(&tally, row.bytes == 1024 && row.median_us == 1.5 && row.wrong == 0);
        line_with(l, sizeof l, 20, ""); /* empty wrong: not checked */
        CT_CHECK(&tally, ct_result_csv_parse(l, &row, err, sizeof err) == CT_OK);
        CT_CHECK(&tally, row.wrong == -1);

        line_with(l, sizeof l, 10, "12x");
        expect_bad(l, "bytes", "12x");
        line_with(l, sizeof l, 10, "");
        expect_bad(l, "bytes", NULL);
        line_with(l, sizeof l, 10, "1.5");
        expect_bad(l, "bytes", "1.5");
        line_with(l, sizeof l, 10, "99999999999999999999");
        expect_bad(l, "bytes", "99999999999999999999");
        line_with(l, sizeof l, 7, "zero");
        expect_bad(l, "root", "zero");
        line_with(l, sizeof l, 12, "10 ");
        expect_bad(l, "iterations", "10 ");
        line_with(l, sizeof l, 13, "abc");
        expect_bad(l, "median_us", "abc");
        line_with(l, sizeof l, 13, "");
        expect_bad(l, "median_us", NULL);
        line_with(l, sizeof l, 13, "nan");
        expect_bad(l, "median_us", "nan");
        line_with(l, sizeof l, 19, "inf");
        expect_bad(l, "busbw_gbps", "inf");
        line_with(l, sizeof l, 16, "1.5.2");
        expect_bad(l, "min_us", "1.5.2");
        line_with(l, sizeof l, 20, "x");
        expect_bad(l, "wrong", "x");
        line_with(l, sizeof l, 3, "a_collective_name_that_is_far_too_long");
        expect_bad(l, "collective", NULL);
        line_with(l, sizeof l, 21, "\"unterminated");
        expect_bad(l, NULL, NULL);
        line_with(l, sizeof l, 24, "2");
        expect_bad(l, "converged", "not 0 or 1");
        line_with(l, sizeof l, 24, "true");
        expect_bad(l, "converged", NULL);
        line_with(l, sizeof l, 25, "nan");
        expect_bad(l, "ci_low_us", "nan");
        line_with(l, sizeof l, 27, "1.5");
        expect_bad(l, "late", "1.5");
        line_with(l, sizeof l, 22, "a_sync_mode_name_too_long");
        expect_bad(l, "sync", NULL);

        /* Too few and too many columns. */
        expect_bad("r,t,mpi,allreduce", "columns", NULL);
        line_with(l, sizeof l, -1, "");
        char *last = strrchr(l, ',');
        *last = '\0'; /* 28 columns */
        expect_bad(l, "28 columns", "expected 29");
        line_with(l, sizeof l, -1, "");
        strcat(l, ",extra");
        expect_bad(l, NULL, NULL);
        expect_bad("", NULL, NULL);
    }

    /* A version 1 row: read with its own version, the new columns get their
     * documented defaults; read as version 2 it fails naming the count. */
    {
        char l[1024], err[256] = "";
        ct_result_t row;
        line_with(l, sizeof l, -1, "");
        for (int k = 0; k < 7; k++)
            *strrchr(l, ',') = '\0';
        char copy[1024];
        strcpy(copy, l);
        CT_CHECK(&tally, ct_result_csv_parse_version(copy, 1, &row, err, sizeof err) == CT_OK);
        CT_CHECK(&tally, row.bytes == 1024 && row.median_us == 1.5);
        CT_CHECK_STR(&tally, row.config_id, "abc");
        CT_CHECK_STR(&tally, row.sync, "batch");
        CT_CHECK(&tally, row.samples == -1 && row.converged == -1 && row.late == 0);
        CT_CHECK(&tally, isnan(row.ci_low_us) && isnan(row.ci_high_us) &&
                             isnan(row.slowest_rank_median_us));
        expect_bad(l, "22 columns", "expected 29");
        strcpy(copy, l);
        CT_CHECK(&tally,
                 ct_result_csv_parse_version(copy, 3, &row, err, sizeof err) == CT_ERR_PARSE);
    }

    /* JSON: the row's object, with a member of the caller's, dumped and
     * parsed back by jansson. */
    for (int i = 0; i < 3; i++) {
        json_t *obj = ct_result_json(&rows[i]);
        CT_CHECK(&tally, obj != NULL);
        if (obj == NULL)
            continue;
        CT_CHECK(&tally, ct_json_set(obj, "after", ct_json_str("end")) == 0);
        char *text = json_dumps(obj, i == 1 ? JSON_INDENT(2) : JSON_COMPACT);
        json_decref(obj);
        json_error_t jerr;
        json_t *root = text ? json_loads(text, 0, &jerr) : NULL;
        CT_CHECK(&tally, root && json_is_object(root));
        if (root == NULL || !json_is_object(root)) {
            fprintf(stderr, "  json: %s\n%s\n", text ? jerr.text : "dump failed", text ? text : "");
            free(text);
            json_decref(root);
            continue;
        }
        const ct_result_t *r = &rows[i];
        /* 29 columns plus ours, in schema order. */
        static const char *const keys[] = {"run_id",
                                           "time",
                                           "backend",
                                           "collective",
                                           "placement",
                                           "dtype",
                                           "op",
                                           "root",
                                           "nranks",
                                           "nnodes",
                                           "bytes",
                                           "count",
                                           "iterations",
                                           "median_us",
                                           "p10_us",
                                           "p90_us",
                                           "min_us",
                                           "max_us",
                                           "algbw_gbps",
                                           "busbw_gbps",
                                           "wrong",
                                           "config_id",
                                           "sync",
                                           "samples",
                                           "converged",
                                           "ci_low_us",
                                           "ci_high_us",
                                           "late",
                                           "slowest_rank_median_us",
                                           "after"};
        const size_t nkeys = sizeof keys / sizeof keys[0];
        CT_CHECK(&tally, json_object_size(root) == nkeys);
        size_t k = 0;
        for (void *it = json_object_iter(root); it && k < nkeys;
             it = json_object_iter_next(root, it), k++)
            CT_CHECK_STR(&tally, json_object_iter_key(it), keys[k]);

        const struct {
            const char *key, *want;
        } strs[] = {{"run_id", r->run_id},
                    {"time", r->time},
                    {"backend", r->backend},
                    {"collective", r->collective},
                    {"placement", r->placement},
                    {"dtype", r->dtype},
                    {"op", r->op},
                    {"config_id", r->config_id},
                    {"sync", r->sync},
                    {"after", "end"}};
        for (size_t s = 0; s < sizeof strs / sizeof strs[0]; s++)
            CT_CHECK_STR(&tally, json_string_value(json_object_get(root, strs[s].key)),
                         strs[s].want);
        const struct {
            const char *key;
            long long want;
        } ints[] = {{"root", r->root},       {"nranks", r->nranks}, {"nnodes", r->nnodes},
                    {"bytes", r->bytes},     {"count", r->count},   {"iterations", r->iterations},
                    {"samples", r->samples}, {"late", r->late}};
        for (size_t n = 0; n < sizeof ints / sizeof ints[0]; n++) {
            json_t *v = json_object_get(root, ints[n].key);
            CT_CHECK(&tally, json_is_integer(v) && json_integer_value(v) == ints[n].want);
        }
        const struct {
            const char *key;
            double want;
        } nums[] = {
            {"median_us", r->median_us},   {"p10_us", r->p10_us},
            {"p90_us", r->p90_us},         {"min_us", r->min_us},
            {"max_us", r->max_us},         {"algbw_gbps", r->algbw_gbps},
            {"busbw_gbps", r->busbw_gbps}, {"ci_low_us", r->ci_low_us},
            {"ci_high_us", r->ci_high_us}, {"slowest_rank_median_us", r->slowest_rank_median_us}};
        for (size_t n = 0; n < sizeof nums / sizeof nums[0]; n++) {
            json_t *v = json_object_get(root, nums[n].key);
            /* JSON keeps full precision: the double comes back exactly. */
            CT_CHECK(&tally, v && json_number_value(v) == nums[n].want);
            if (!v || json_number_value(v) != nums[n].want)
                fprintf(stderr, "  json %s: want %.17g\n", nums[n].key, nums[n].want);
        }
        CT_CHECK(&tally,
                 json_is_boolean(json_object_get(root, "converged")) &&
                     json_is_true(json_object_get(root, "converged")) == (r->converged != 0));
        json_t *wv = json_object_get(root, "wrong");
        if (r->wrong < 0)
            CT_CHECK(&tally, json_is_null(wv));
        else
            CT_CHECK(&tally, json_is_integer(wv) && json_integer_value(wv) == r->wrong);
        json_decref(root);
        free(text);
    }
    return CT_DONE(&tally);
}
