/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_results_read.c - ct_results_read: CSV of both schema versions and
 * JSON read to the same rows, the document handed over, and every refusal
 * (an unknown version, a foreign file, a missing column, a bad value)
 * naming file:line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_results_read.h"
#include "ct_test.h"

static ct_test_tally_t tally;
static char dir[256];

/* dir/name with text in it; the path in a static buffer per slot. */
static const char *put(const char *name, const char *text)
{
    static char paths[16][512];
    static int next;
    char *p = paths[next++ % 16];
    snprintf(p, 512, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0)
        fprintf(stderr, "cannot write %s\n", p);
    return p;
}

static ct_result_t sample_row(long long bytes)
{
    ct_result_t r = {0};
    snprintf(r.run_id, sizeof r.run_id, "run-1");
    snprintf(r.time, sizeof r.time, "2026-01-02T03:04:05Z");
    snprintf(r.backend, sizeof r.backend, "mpi");
    snprintf(r.collective, sizeof r.collective, "allreduce");
    snprintf(r.placement, sizeof r.placement, "in-place");
    snprintf(r.dtype, sizeof r.dtype, "float");
    snprintf(r.op, sizeof r.op, "sum");
    snprintf(r.config_id, sizeof r.config_id, "0123456789abcdef");
    snprintf(r.sync, sizeof r.sync, "window");
    r.root = -1;
    r.nranks = 4;
    r.nnodes = 2;
    r.bytes = bytes;
    r.count = bytes / 4;
    r.iterations = 100;
    r.median_us = 12.5;
    r.p10_us = 11;
    r.p90_us = 14;
    r.min_us = 10;
    r.max_us = 20;
    r.algbw_gbps = 0.5;
    r.busbw_gbps = 0.75;
    r.wrong = 0;
    r.samples = 50;
    r.converged = 1;
    r.ci_low_us = 12;
    r.ci_high_us = 13;
    r.late = 2;
    r.slowest_rank_median_us = 13.5;
    return r;
}

/* The CSV text of a header and rows with bytes 8 and 1024, in memory. */
static char *csv_text(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ct_result_csv_header(f);
    ct_result_t a = sample_row(8), b = sample_row(1024);
    ct_result_csv_write(f, &a);
    ct_result_csv_write(f, &b);
    fclose(f);
    return text;
}

/* Reads path and expects failure st with err holding needle. */
static void expect_bad(const char *path, ct_status_t want, const char *needle)
{
    ct_results_t rows = {0};
    char err[1024] = "";
    json_t *doc = NULL;
    ct_status_t st = ct_results_read(path, &rows, &doc, err, sizeof err);
    CT_CHECK(&tally, st == want && strstr(err, needle) != NULL && doc == NULL);
    if (st != want || strstr(err, needle) == NULL)
        fprintf(stderr, "  %s: status %d, err \"%s\", want \"%s\"\n", path, (int)st, err, needle);
    ct_results_free(&rows);
}

static void test_csv(void)
{
    char *text = csv_text();
    const char *v2 = put("v2.csv", text);
    ct_results_t rows = {0};
    char err[1024] = "";
    json_t *doc = json_object(); /* set to NULL for a CSV */
    CT_CHECK(&tally, ct_results_read(v2, &rows, &doc, err, sizeof err) == CT_OK);
    CT_CHECK(&tally, doc == NULL && rows.n == 2);
    if (rows.n == 2) {
        CT_CHECK(&tally, rows.v[0].bytes == 8 && rows.v[1].bytes == 1024);
        CT_CHECK_STR(&tally, rows.v[1].collective, "allreduce");
        CT_CHECK_STR(&tally, rows.v[1].sync, "window");
        CT_CHECK(&tally, rows.v[1].samples == 50 && rows.v[1].late == 2);
        CT_CHECK(&tally, rows.v[1].median_us == 12.5 && rows.v[1].ci_high_us == 13);
    }
    /* A second file appends. */
    CT_CHECK(&tally, ct_results_read(v2, &rows, NULL, err, sizeof err) == CT_OK && rows.n == 4);
    ct_results_free(&rows);
    CT_CHECK(&tally, rows.v == NULL && rows.n == 0 && rows.cap == 0);

    /* Version 1: the columns up to config_id (22 of them); what it lacks
     * is filled as ct_result.h documents. */
    char v1[4096] = "";
    char *line = strtok(text, "\n");
    for (; line != NULL; line = strtok(NULL, "\n")) {
        char *p = line;
        for (int commas = 0; *p != '\0'; p++)
            if (*p == ',' && ++commas == 22)
                break;
        *p = '\0';
        strcat(v1, line);
        strcat(v1, "\n\n"); /* blank lines are skipped */
    }
    CT_CHECK(&tally, ct_results_read(put("v1.csv", v1), &rows, NULL, err, sizeof err) == CT_OK);
    CT_CHECK(&tally, rows.n == 2);
    if (rows.n == 2) {
        CT_CHECK_STR(&tally, rows.v[0].sync, "batch");
        CT_CHECK(&tally, rows.v[0].samples == -1 && rows.v[0].converged == -1);
        CT_CHECK(&tally, isnan(rows.v[0].ci_low_us) && rows.v[0].late == 0);
        CT_CHECK_STR(&tally, rows.v[0].config_id, "0123456789abcdef");
    }
    ct_results_free(&rows);
    free(text);

    /* Refusals, each naming file:line. */
    text = csv_text();
    char *nl = strchr(text, '\n');
    char bad[4096];
    *nl = '\0';
    snprintf(bad, sizeof bad, "%s,future_col\n%s", text, nl + 1);
    expect_bad(put("future.csv", bad), CT_ERR_PARSE, "future.csv:1: unknown schema: ");
    char *bw = strstr(text, ",busbw_gbps");
    snprintf(bad, sizeof bad, "%.*s%s\n", (int)(bw - text), text, bw + strlen(",busbw_gbps"));
    expect_bad(put("missing.csv", bad), CT_ERR_PARSE, "missing.csv:1: missing column busbw_gbps");
    expect_bad(put("other.csv", "size,time_us\n8,1.0\n"), CT_ERR_PARSE,
               "other.csv:1: not a collbench results header");
    snprintf(bad, sizeof bad, "%s\n%s", text, nl + 1);
    char *last = strrchr(bad, '\n');
    *last = '\0';
    last = strrchr(bad, '\n');
    snprintf(last + 1, 64, "x,y,z\n");
    expect_bad(put("badval.csv", bad), CT_ERR_PARSE, "badval.csv:3: ");
    expect_bad(put("empty.csv", "\n\n"), CT_ERR_PARSE, "empty.csv:1: empty");
    char none[600];
    snprintf(none, sizeof none, "%s/no-such.csv", dir);
    expect_bad(none, CT_ERR_USAGE, "no-such.csv: ");
    free(text);
}

static void test_json(void)
{
    /* Versions: ours, an unknown one of ours, and anything else. */
    CT_CHECK(&tally, ct_results_json_version("colltune-results/1") == 1);
    CT_CHECK(&tally, ct_results_json_version("colltune-results/2") == CT_RESULT_SCHEMA);
    CT_CHECK(&tally, ct_results_json_version("colltune-results/9") == 0);
    CT_CHECK(&tally, ct_results_json_version("colltune-results/0") == 0);
    CT_CHECK(&tally, ct_results_json_version("colltune-results/02") == 0);
    CT_CHECK(&tally, ct_results_json_version("colltune-results/2x") == 0);
    CT_CHECK(&tally, ct_results_json_version("colltune-results/") == 0);
    CT_CHECK(&tally, ct_results_json_version("other") == -1);
    CT_CHECK(&tally, ct_results_json_version(NULL) == -1);

    /* A document as collbench writes it: rows from ct_result_json. */
    json_t *doc = json_pack("{s:s, s:s, s:[]}", "schema", "colltune-results/2", "start_time",
                            "2026-01-02T03:04:05Z", "results");
    ct_result_t a = sample_row(8), b = sample_row(64);
    b.ci_low_us = NAN; /* written as null */
    json_array_append_new(json_object_get(doc, "results"), ct_result_json(&a));
    json_array_append_new(json_object_get(doc, "results"), ct_result_json(&b));
    char *text = json_dumps(doc, JSON_INDENT(2));
    json_decref(doc);
    const char *path = put("r.json", text);
    ct_results_t rows = {0};
    char err[1024] = "";
    json_t *got = NULL;
    CT_CHECK(&tally, ct_results_read(path, &rows, &got, err, sizeof err) == CT_OK);
    CT_CHECK(&tally, got != NULL && rows.n == 2);
    CT_CHECK_STR(&tally, json_string_value(json_object_get(got, "start_time")),
                 "2026-01-02T03:04:05Z");
    json_decref(got);
    if (rows.n == 2) {
        CT_CHECK(&tally, rows.v[0].bytes == 8 && rows.v[1].bytes == 64);
        CT_CHECK(&tally, rows.v[0].nranks == 4 && rows.v[0].nnodes == 2);
        CT_CHECK(&tally, rows.v[0].median_us == 12.5 && rows.v[0].busbw_gbps == 0.75);
        CT_CHECK(&tally, rows.v[0].ci_low_us == 12 && isnan(rows.v[1].ci_low_us));
        CT_CHECK_STR(&tally, rows.v[0].config_id, "0123456789abcdef");
    }
    ct_results_free(&rows);

    /* The schema check alone (health's way in). */
    int version = 0;
    CT_CHECK(&tally, ct_results_json_load(path, &got, &version, err, sizeof err) == CT_OK);
    CT_CHECK(&tally, version == 2 && json_is_array(json_object_get(got, "results")));
    json_decref(got);

    /* Version 1 reads too: the CI members absent are NaN. */
    char *v1 = strstr(text, "colltune-results/2");
    v1[strlen("colltune-results/")] = '1';
    CT_CHECK(&tally, ct_results_read(put("v1.json", text), &rows, NULL, err, sizeof err) == CT_OK);
    CT_CHECK(&tally, rows.n == 2);
    ct_results_free(&rows);
    free(text);

    expect_bad(put("future.json", "{\"schema\": \"colltune-results/9\", \"results\": []}"),
               CT_ERR_PARSE, "future.json:1: unknown schema 'colltune-results/9'");
    expect_bad(put("other.json", "{\"schema\": \"other\"}"), CT_ERR_PARSE,
               "other.json:1: not collbench results");
    expect_bad(put("noschema.json", "{\"results\": []}"), CT_ERR_PARSE,
               "noschema.json:1: not collbench results");
    expect_bad(put("norows.json", "{\"schema\": \"colltune-results/2\"}"), CT_ERR_PARSE,
               "norows.json:1: no results array");
    expect_bad(put("broken.json", "{\"schema\":\n"), CT_ERR_PARSE, "broken.json:2: ");
    expect_bad(put("row.json", "{\"schema\": \"colltune-results/2\", \"results\": [{}]}"),
               CT_ERR_PARSE, "row.json: results[0]: member run_id");
    CT_CHECK(&tally, ct_results_json_load(put("f2.json", "{\"schema\": \"colltune-results/9\"}"),
                                          &got, &version, err, sizeof err) == CT_ERR_PARSE);
    CT_CHECK(&tally, strstr(err, "f2.json:1: unknown schema") != NULL);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/ct_results_read.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 99;
    }
    test_csv();
    test_json();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return CT_DONE(&tally);
}
