/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * regress_index.c - `colltune regress --index FILE`: one page for the
 * whole history, so that the nights can be found from one place.
 *
 * Every run, newest first: its date, its name, its configuration, links to
 * what that night left (RUN/plots/index.html, RUN/plots/regress/index.html,
 * RUN/regress.json) and the verdict its regress.json records; the newest
 * recorded verdict in words at the top.  Links are relative to the page's
 * directory and only to files that exist, so the page opens from disk and
 * survives a copy of the history.  A missing or bad regress.json is shown
 * as "-": an old night or a hand-made run must not stop the page.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "ct_input.h"
#include "outdir.h"
#include "plot.h"
#include "regress_cmd.h"

#define CT_RI_SCHEMA "colltune-regress/1"
#define CT_RI_CONFIGS 3 /* configurations named per run, then "+N" */

/* One night's regress.json, what the page shows of it. */
typedef struct {
    int ok; /* read and of our schema */
    char verdict[16];
    char newest[256], first_slow[256];
    long long series, slower, faster, unknown, recovered;
    int has_event;
    double event_change;
    long long event_series, event_of;
} ct_ri_verdict_t;

static long long ct_ri_int(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? json_integer_value(v) : -1;
}

static void ct_ri_str(json_t *o, const char *key, char *buf, size_t len)
{
    const char *v = json_string_value(json_object_get(o, key));
    snprintf(buf, len, "%s", v ? v : "");
}

/* Reads path into *v; v->ok is 0 when it is absent or not one.  Through
 * the bounded reader: a FIFO would block the page forever and a huge file
 * be read whole (issue 38, H15).  One that is there but cannot be read is
 * named on stderr (its verdict shown as "-"); an absent one is an old
 * night, not worth a word. */
static void ct_ri_read(const char *path, ct_ri_verdict_t *v)
{
    memset(v, 0, sizeof *v);
    struct stat st;
    json_t *doc = NULL;
    char err[PATH_MAX + 256], safe[CT_REG_SAFE_LEN];
    if ((stat(path, &st) == 0 || errno != ENOENT) &&
        ct_input_json(path, CT_INPUT_MAX_CONFIG, &doc, err, sizeof err) != CT_OK)
        fprintf(stderr, "colltune regress: --index: %s; its verdict shown as -\n",
                ct_reg_safe(err, 0, safe, sizeof safe));
    const char *schema = json_string_value(json_object_get(doc, "schema"));
    if (schema != NULL && strcmp(schema, CT_RI_SCHEMA) == 0) {
        json_t *counts = json_object_get(doc, "counts"), *ev = json_object_get(doc, "event");
        ct_ri_str(doc, "verdict", v->verdict, sizeof v->verdict);
        ct_ri_str(json_object_get(doc, "newest"), "run", v->newest, sizeof v->newest);
        ct_ri_str(doc, "first_slow_run", v->first_slow, sizeof v->first_slow);
        v->series = ct_ri_int(counts, "series");
        v->slower = ct_ri_int(counts, "slower");
        v->faster = ct_ri_int(counts, "faster");
        v->unknown = ct_ri_int(counts, "unknown");
        v->recovered = ct_ri_int(counts, "recovered");
        if (json_is_object(ev)) {
            v->has_event = json_is_number(json_object_get(ev, "median_change"));
            v->event_change = json_number_value(json_object_get(ev, "median_change"));
            v->event_series = ct_ri_int(ev, "series");
            v->event_of = ct_ri_int(ev, "of");
        }
        v->ok = v->verdict[0] != '\0';
    }
    json_decref(doc);
}

/* "K of N series " (or "N series " when K < -1), empty when a count is
 * missing: a sentinel never reaches the page. */
static void ct_ri_count(long long k, long long n, char *buf, size_t len)
{
    buf[0] = '\0';
    if (k >= 0 && n >= 0)
        snprintf(buf, len, "%lld of %lld series ", k, n);
    else if (k < -1 && n >= 0)
        snprintf(buf, len, "%lld series", n);
}

/* The verdict in words: long for the top of the page, else the table's. */
static void ct_ri_words(const ct_ri_verdict_t *v, int lng, char *buf, size_t len)
{
    char c[64];
    if (!v->ok) {
        snprintf(buf, len, "-");
    } else if (strcmp(v->verdict, "slower") == 0) {
        ct_ri_count(v->slower, v->series, c, sizeof c);
        int w = snprintf(buf, len, "REGRESSION: %sslower", c);
        if (w > 0 && (size_t)w < len && lng && v->has_event)
            w += snprintf(buf + w, len - (size_t)w, " (median change %+.0f%%)",
                          100 * v->event_change);
        if (w > 0 && (size_t)w < len && lng && v->first_slow[0])
            snprintf(buf + w, len - (size_t)w, ", first slow run %s", v->first_slow);
    } else if (strcmp(v->verdict, "faster") == 0) {
        ct_ri_count(v->faster, v->series, c, sizeof c);
        snprintf(buf, len, "no regression; %sfaster", c);
    } else if (strcmp(v->verdict, "recovered") == 0) {
        ct_ri_count(v->recovered, v->series, c, sizeof c);
        snprintf(buf, len, "no regression; %srecovered", c);
    } else if (strcmp(v->verdict, "same") == 0) {
        ct_ri_count(-2, v->series, c, sizeof c);
        snprintf(buf, len, c[0] ? "no regression (%s)" : "no regression%s", c);
    } else if (strcmp(v->verdict, "baseline") == 0) {
        ct_ri_count(-2, v->series, c, sizeof c);
        snprintf(buf, len, c[0] ? "baseline begins: %s" : "baseline begins%s", c);
    } else if (strcmp(v->verdict, "unknown") == 0) {
        ct_ri_count(v->unknown, v->series, c, sizeof c);
        snprintf(buf, len, "unknown: %scannot be judged yet", c[0] ? c : "the series ");
    } else {
        snprintf(buf, len, "-");
    }
}

static int ct_ri_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* to (an existing file) relative to the directory from (absolute, real),
 * into buf: "../" for each of from's components past the ones both share,
 * then the rest of to.  0, or -1 when it cannot be resolved or does not
 * fit. */
static int ct_ri_relative(const char *from, const char *to, char *buf, size_t len)
{
    char real[PATH_MAX];
    if (realpath(to, real) == NULL)
        return -1;
    /* common: the end of the shared whole components, at a '/' of real */
    size_t i = 0, common = 0;
    for (; from[i] != '\0' && from[i] == real[i]; i++)
        if (from[i] == '/')
            common = i;
    if (from[i] == '\0' && real[i] == '/')
        common = i;
    size_t used = 0;
    for (const char *p = from + common; *p; p++)
        if (*p == '/' && p[1] != '\0') {
            if (used + 4 > len)
                return -1;
            memcpy(buf + used, "../", 4);
            used += 3;
        }
    int w = snprintf(buf + used, len - used, "%s", real + common + 1);
    return w >= 0 && (size_t)w < len - used ? 0 : -1;
}

/* A relative link into an href: every byte but the unreserved ones and
 * '/' percent-encoded, so that a run named "a#b" or "50%" stays one
 * link. */
static void ct_ri_href(FILE *f, const char *rel)
{
    for (const unsigned char *p = (const unsigned char *)rel; *p; p++)
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("-._~/", *p) != NULL)
            fputc(*p, f);
        else
            fprintf(f, "%%%02X", *p);
}

/* ", <a href=REL>TEXT</a>" (sep: with the comma) when path exists, else
 * nothing; 1 when written. */
static int ct_ri_link(FILE *f, const char *pagedir, const char *path, const char *text, int sep)
{
    char rel[PATH_MAX * 2];
    if (!ct_ri_exists(path) || ct_ri_relative(pagedir, path, rel, sizeof rel) != 0)
        return 0;
    fputs(sep ? ", <a href=\"" : "<a href=\"", f);
    ct_ri_href(f, rel);
    fputs("\">", f);
    ct_plot_html_text(f, text);
    fputs("</a>", f);
    return 1;
}

/* A link to the file name in run r's directory (see ct_ri_link). */
static int ct_ri_run_link(FILE *f, const char *pagedir, const ct_reg_run_t *r, const char *name,
                          const char *text, int sep)
{
    char path[PATH_MAX + 64];
    if (snprintf(path, sizeof path, "%s/%s", r->dir, name) >= (int)sizeof path)
        return 0;
    return ct_ri_link(f, pagedir, path, text, sep);
}

/* The run's configurations: its metadata's, else its rows' distinct ones
 * (an import), named as ct_reg_config_name does. */
static void ct_ri_configs(FILE *f, const ct_reg_run_t *r)
{
    const char *meta = json_string_value(json_object_get(r->meta, "config_id"));
    if (meta != NULL) {
        ct_plot_html_text(f, ct_reg_config_name(meta));
        return;
    }
    size_t shown = 0, more = 0;
    for (size_t i = 0; i < r->rows.n; i++) {
        const char *id = r->rows.v[i].config_id;
        size_t j = 0;
        while (j < i && strcmp(r->rows.v[j].config_id, id) != 0)
            j++;
        if (j < i)
            continue;
        if (shown == CT_RI_CONFIGS) {
            more++;
            continue;
        }
        fputs(shown++ ? ", " : "", f);
        ct_plot_html_text(f, ct_reg_config_name(id));
    }
    if (more)
        fprintf(f, " +%zu", more);
    if (shown == 0)
        fputc('-', f);
}

static void ct_ri_head(FILE *f, const char *history, size_t nruns)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<title>colltune regress: history</title>\n<style>\n"
          "body { font-family: sans-serif; margin: 1em 2em; }\n"
          "table { border-collapse: collapse; }\n"
          "td, th { border: 1px solid #aaa; padding: 0.2em 0.6em; text-align: left; }\n"
          "tr.slower { background: #fdd; } tr.faster { background: #dfd; }\n"
          "p.verdict { font-size: 1.2em; }\n"
          "</style>\n</head>\n<body>\n<h1>colltune regress: history</h1>\n<p>History <code>",
          f);
    ct_plot_html_text(f, history);
    fprintf(f,
            "</code>: %zu runs, newest first.  Generated by colltune regress " PACKAGE_VERSION
            ".</p>\n",
            nruns);
}

/* The newest verdict recorded, in words, and the latest report. */
static void ct_ri_top(FILE *f, const ct_reg_runs_t *runs, const ct_ri_verdict_t *v,
                      const char *pagedir, const char *latest_md)
{
    char words[1024];
    size_t at = runs->n; /* the newest run with a verdict; n: none */
    for (size_t i = runs->n; at == runs->n && i-- > 0;)
        if (v[i].ok)
            at = i;
    fputs("<p class=\"verdict\">", f);
    if (at == runs->n) {
        fputs("No verdict recorded: no run holds a regress.json "
              "(<code>colltune regress --json RUN/regress.json</code>).",
              f);
    } else {
        if (at != runs->n - 1) {
            fputs("The newest run, ", f);
            ct_plot_html_text(f, runs->v[runs->n - 1].name);
            fputs(", has no verdict recorded; the latest, of ", f);
        } else {
            fputs("Newest verdict, of ", f);
        }
        ct_plot_html_text(f, runs->v[at].name);
        fputs(": <strong>", f);
        ct_ri_words(&v[at], 1, words, sizeof words);
        ct_plot_html_text(f, words);
        fputs("</strong>.", f);
    }
    if (latest_md != NULL) {
        fputc(' ', f);
        ct_ri_link(f, pagedir, latest_md, "The latest report (markdown)", 0);
    }
    fputs("</p>\n", f);
}

static void ct_ri_table(FILE *f, const ct_reg_runs_t *runs, const ct_ri_verdict_t *v,
                        const char *pagedir)
{
    char words[512];
    fputs("<table>\n<tr><th>date (UTC)</th><th>run</th><th>configuration</th><th>verdict</th>"
          "<th>links</th></tr>\n",
          f);
    for (size_t i = runs->n; i-- > 0;) {
        const ct_reg_run_t *r = &runs->v[i];
        ct_ri_words(&v[i], 0, words, sizeof words);
        fprintf(f, "<tr class=\"%s\"><td>", v[i].ok ? v[i].verdict : "none");
        if (ct_result_time_ok(r->date))
            fprintf(f, "%.10s %.8s", r->date, r->date + 11);
        else
            fputc('-', f);
        fputs("</td><td>", f);
        ct_plot_html_text(f, r->name);
        fputs("</td><td>", f);
        ct_ri_configs(f, r);
        fputs("</td><td>", f);
        ct_plot_html_text(f, words);
        fputs("</td><td>", f);
        int n = ct_ri_run_link(f, pagedir, r, "plots/index.html", "the night's plots", 0);
        n += ct_ri_run_link(f, pagedir, r, "plots/regress/index.html", "the history then", n);
        n += ct_ri_run_link(f, pagedir, r, "regress.json", "regress.json", n);
        if (n == 0)
            fputc('-', f);
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
}

int ct_reg_index(const char *path, const ct_reg_runs_t *runs, const char *history,
                 const char *latest_md)
{
    char dir[PATH_MAX], pagedir[PATH_MAX];
    ct_outfile_t out;
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash != NULL)
        *(slash == dir ? slash + 1 : slash) = '\0';
    if (realpath(slash ? dir : ".", pagedir) == NULL) {
        fprintf(stderr, "colltune regress: --index %s: directory %s: %s\n", path, slash ? dir : ".",
                strerror(errno));
        return -1;
    }
    ct_ri_verdict_t *v = calloc(runs->n + 1, sizeof *v);
    if (v == NULL) {
        fprintf(stderr, "colltune regress: --index %s: out of memory\n", path);
        return -1;
    }
    for (size_t i = 0; i < runs->n; i++) {
        char json[PATH_MAX + 16];
        if (snprintf(json, sizeof json, "%s/regress.json", runs->v[i].dir) < (int)sizeof json)
            ct_ri_read(json, &v[i]);
    }
    FILE *f = ct_outdir_open(&out, path, "regress");
    if (f == NULL) {
        free(v);
        return -1;
    }
    ct_ri_head(f, history, runs->n);
    ct_ri_top(f, runs, v, pagedir, latest_md);
    ct_ri_table(f, runs, v, pagedir);
    fputs("</body>\n</html>\n", f);
    free(v);
    return ct_outdir_commit(&out, "regress");
}
