/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * regress_plot.c - `colltune regress --plot DIR`: the history drawn.
 *
 * Per collective one overview image (its flagged series first, then a few
 * sizes spread over its range, CT_RP_OVERVIEW lines at most: more lines
 * than that are not read), and one image per flagged series (at most
 * CT_RP_FLAGGED; the table lists the rest).  Each is a plain data file for
 * plots/timeseries.gp (one block per series; the baseline band and the
 * flagged runs as columns), drawn through gnuplot.h.  DIR/index.html
 * shows the images and the verdict table, every link relative.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "ct_size.h"
#include "gnuplot.h"
#include "outdir.h"
#include "plot.h"
#include "regress_cmd.h"

#define CT_RP_OVERVIEW 6
#define CT_RP_FLAGGED 24
#define CT_RP_SCRIPT "timeseries.gp"

/* One image of the index page. */
typedef struct {
    char coll[24];
    size_t series; /* a flagged series' index; (size_t)-1: an overview */
    char png[128], svg[128], data[128];
    char title[1024];
} ct_rp_image_t;

static int ct_rp_flagged(const ct_reg_series_t *s)
{
    return s->res.verdict == CT_REGRESS_SLOWER || s->res.verdict == CT_REGRESS_FASTER;
}

/* What tells a collective's series apart besides the size and the
 * scale: dimension d of CT_RP_NDIM into buf.  Not the configuration: a
 * series is the workload, whatever configuration ran it. */
#define CT_RP_NDIM 3
static void ct_rp_dim(const ct_result_t *k, int d, char *buf, size_t len)
{
    switch (d) {
    case 0: snprintf(buf, len, "%s", k->backend); break;
    case 1: snprintf(buf, len, "%s", k->placement); break;
    default: snprintf(buf, len, "%s/%s", k->dtype, k->op); break;
    }
}

/* The dimensions of k whose mask bit is set, ", "-separated. */
static void ct_rp_rest_of(const ct_result_t *k, unsigned mask, char *buf, size_t len)
{
    char d[96];
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < CT_RP_NDIM; i++) {
        if (!(mask & (1u << i)))
            continue;
        ct_rp_dim(k, i, d, sizeof d);
        int w = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", d);
        if (w < 0 || (size_t)w >= len - used)
            return;
        used += (size_t)w;
    }
}

static void ct_rp_rest(const ct_result_t *k, char *buf, size_t len)
{
    ct_rp_rest_of(k, (1u << CT_RP_NDIM) - 1, buf, len);
}

/* A file name from text: [A-Za-z0-9_-] only. */
static void ct_rp_clean(char *p)
{
    for (; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_' || *p == '-'))
            *p = '_';
}

/* The flag of point i: 0, 1 the first slow run, 2 a later slow one (past
 * the threshold above the band's median), 3 and 4 the same for faster. */
static int ct_rp_flag(const ct_reg_series_t *s, size_t i, double threshold)
{
    const ct_regress_result_t *r = &s->res;
    if (!ct_rp_flagged(s) || i < r->first_bad)
        return 0;
    int slow = r->verdict == CT_REGRESS_SLOWER;
    if (i == r->first_bad)
        return slow ? 1 : 3;
    if (slow)
        return s->p[i].us > r->band_median * (1 + threshold) ? 2 : 0;
    return s->p[i].us < r->band_median / (1 + threshold) ? 4 : 0;
}

/* The data file of one image: sel[0..nsel) are series indices. */
static int ct_rp_write_dat(const char *path, const ct_reg_runs_t *runs, const ct_reg_series_t *s,
                           const size_t *sel, char (*labels)[384], size_t nsel, double threshold)
{
    static const char *const words[] = {"-", "first_slow", "slow", "first_fast", "fast"};
    ct_outfile_t out;
    FILE *f = ct_outdir_open(&out, path, "regress");
    if (f == NULL)
        return -1;
    fprintf(f,
            "# colltune regress %s: time-series data for plots/" CT_RP_SCRIPT "\n"
            "# columns: index run time median_us band_low_us band_median_us band_high_us "
            "flag mark\n"
            "# time: the run's start, YYYY-MM-DDTHH:MM:SSZ (UTC); - when unknown\n"
            "# flag: 0 -, 1 first_slow, 2 slow, 3 first_fast, 4 fast\n",
            PACKAGE_VERSION);
    for (size_t b = 0; b < nsel; b++) {
        const ct_reg_series_t *x = &s[sel[b]];
        fprintf(f, "%s# series %zu: %s\n", b ? "\n\n" : "", b,
                ct_regress_verdict_name(x->res.verdict));
        ct_plot_dat_label(f, labels[b]);
        fputc('\n', f);
        for (size_t i = 0; i < x->n; i++) {
            const ct_reg_run_t *run = &runs->v[x->at[i]];
            int fl = ct_rp_flag(x, i, threshold);
            fprintf(f, "%zu ", x->at[i]);
            ct_plot_dat_label(f, run->name);
            fprintf(f, " %s %.6g", ct_result_time_ok(run->date) ? run->date : "-", x->p[i].us);
            /* the band over the judged window and every run after it */
            if (i >= x->res.band_lo && x->res.band_median > 0)
                fprintf(f, " %.6g %.6g %.6g", x->res.band_low, x->res.band_median,
                        x->res.band_high);
            else
                fputs(" NaN NaN NaN", f);
            fprintf(f, " %d %s\n", fl, words[fl]);
        }
    }
    return ct_outdir_commit(&out, "regress");
}

/* "2 ranks, 1 node; 2026-01-01 to 2026-01-16" of the history.  What is
 * unknown is left out, never shown as its sentinel: an import's nodes
 * (-1), a run without a date (then "runs A to B", by name). */
static void ct_rp_scale(const ct_reg_runs_t *runs, const ct_result_t *k, char *buf, size_t len)
{
    const ct_reg_run_t *a = &runs->v[0], *b = &runs->v[runs->n - 1];
    size_t used = 0;
    buf[0] = '\0';
    if (k->nranks > 0)
        used += (size_t)snprintf(buf, len, "%lld rank%s", k->nranks, k->nranks == 1 ? "" : "s");
    if (k->nnodes > 0 && used < len)
        used += (size_t)snprintf(buf + used, len - used, "%s%lld node%s", used ? ", " : "",
                                 k->nnodes, k->nnodes == 1 ? "" : "s");
    if (used >= len)
        return;
    if (ct_result_time_ok(a->date) && ct_result_time_ok(b->date))
        snprintf(buf + used, len - used, "%s%.10s to %.10s", used ? "; " : "", a->date, b->date);
    else
        snprintf(buf + used, len - used, "%sruns %.80s to %.80s", used ? "; " : "", a->name,
                 b->name);
}

/* One image: its data file, then each format. */
static int ct_rp_draw(const ct_reg_plot_t *pl, const ct_reg_runs_t *runs, const ct_reg_series_t *s,
                      const size_t *sel, char (*labels)[384], size_t nsel, const char *stem,
                      ct_rp_image_t *img)
{
    char path[PATH_MAX], dat[PATH_MAX];
    snprintf(img->data, sizeof img->data, "%s.dat", stem);
    if (ct_outdir_path(pl->dir, img->data, dat, sizeof dat) != CT_OK ||
        ct_rp_write_dat(dat, runs, s, sel, labels, nsel, pl->threshold) != 0)
        return -1;
    for (int svg = 0; svg < 2; svg++) {
        if (!(svg ? pl->svg : pl->png))
            continue;
        char *name = svg ? img->svg : img->png;
        const char *fmt = svg ? "svg" : "png";
        snprintf(name, sizeof img->png, "%s.%s", stem, fmt);
        const char *args[] = {img->title, fmt, pl->size};
        if (ct_outdir_path(pl->dir, name, path, sizeof path) != CT_OK ||
            ct_gnuplot_draw(pl->gnuplot, pl->scripts, CT_RP_SCRIPT, dat, path, args, 3,
                            "regress") != 0)
            return -1;
    }
    return 0;
}

/* The overview of collective coll: its flagged series, then sizes spread
 * over the rest, CT_RP_OVERVIEW at most, in table order. */
/* k of the n indices in from[], spread evenly (first and last kept),
 * appended to sel. */
static size_t ct_rp_spread(const size_t *from, size_t n, size_t k, size_t *sel, size_t nsel)
{
    k = k < n ? k : n;
    for (size_t i = 0; i < k; i++)
        sel[nsel++] = from[k > 1 ? i * (n - 1) / (k - 1) : 0];
    return nsel;
}

static size_t ct_rp_pick(const ct_reg_series_t *s, size_t ns, const char *coll, size_t *sel)
{
    size_t nsel = 0, ncand = 0, nflag = 0;
    size_t *cand = malloc((ns + 1) * sizeof *cand), *flag = malloc((ns + 1) * sizeof *flag);
    if (cand == NULL || flag == NULL) {
        free(cand);
        free(flag);
        return 0;
    }
    for (size_t i = 0; i < ns; i++) {
        if (strcmp(s[i].key->collective, coll) != 0)
            continue;
        if (ct_rp_flagged(&s[i]))
            flag[nflag++] = i;
        else
            cand[ncand++] = i;
    }
    /* the flagged series first, spread over their sizes when there are
     * more than fit (a step in every series), then the others */
    nsel = ct_rp_spread(flag, nflag, CT_RP_OVERVIEW, sel, nsel);
    nsel = ct_rp_spread(cand, ncand, CT_RP_OVERVIEW - nsel, sel, nsel);
    free(cand);
    free(flag);
    /* table order: the legend reads like the table */
    for (size_t i = 1; i < nsel; i++)
        for (size_t j = i; j > 0 && sel[j - 1] > sel[j]; j--) {
            size_t t = sel[j];
            sel[j] = sel[j - 1];
            sel[j - 1] = t;
        }
    return nsel;
}

static void ct_rp_html_table(FILE *f, const ct_reg_runs_t *runs, const ct_reg_series_t *s,
                             size_t ns, const ct_rp_image_t *img, size_t nimg)
{
    fputs("<h2>Verdicts</h2>\n<table>\n<tr><th>collective</th><th>size</th><th>series</th>"
          "<th>runs</th><th>baseline (&micro;s)</th><th>newest (&micro;s)</th><th>change</th>"
          "<th>verdict</th><th>first slow/faster run</th><th>plot</th></tr>\n",
          f);
    for (size_t i = 0; i < ns; i++) {
        const ct_reg_series_t *x = &s[i];
        char sz[32], rest[256];
        ct_size_format(x->key->bytes < 0 ? 0 : (size_t)x->key->bytes, sz, sizeof sz);
        ct_rp_rest(x->key, rest, sizeof rest);
        fprintf(f, "<tr class=\"%s\"><td>", ct_regress_verdict_name(x->res.verdict));
        ct_plot_html_text(f, x->key->collective);
        fputs("</td><td>", f);
        ct_plot_html_text(f, sz);
        fputs("</td><td>", f);
        ct_plot_html_text(f, rest);
        fprintf(f,
                "</td><td class=\"n\">%zu</td><td class=\"n\">%.3f</td><td class=\"n\">%.3f"
                "</td><td class=\"n\">%+.1f%%</td><td>%s</td><td>",
                x->n, x->res.base_median, x->res.base_median * (1 + x->res.change),
                100 * x->res.change, ct_regress_verdict_name(x->res.verdict));
        ct_plot_html_text(f, ct_rp_flagged(x) ? runs->v[x->at[x->res.first_bad]].name : "-");
        fputs("</td><td>", f);
        for (size_t k = 0; k < nimg; k++)
            if (img[k].series == i)
                ct_plot_html_links(f, img[k].png, img[k].svg, img[k].data);
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
}

static int ct_rp_html(const ct_reg_plot_t *pl, const ct_reg_runs_t *runs, const ct_reg_series_t *s,
                      size_t ns, const ct_rp_image_t *img, size_t nimg, size_t unplotted,
                      const char *history)
{
    char path[PATH_MAX];
    ct_outfile_t out;
    if (ct_outdir_path(pl->dir, "index.html", path, sizeof path) != CT_OK)
        return -1;
    FILE *f = ct_outdir_open(&out, path, "regress");
    if (f == NULL)
        return -1;
    size_t slower = 0, faster = 0;
    for (size_t i = 0; i < ns; i++) {
        slower += s[i].res.verdict == CT_REGRESS_SLOWER;
        faster += s[i].res.verdict == CT_REGRESS_FASTER;
    }
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<title>colltune regress</title>\n<style>\n"
          "body { font-family: sans-serif; margin: 1em 2em; }\n"
          "table { border-collapse: collapse; }\n"
          "td, th { border: 1px solid #aaa; padding: 0.2em 0.6em; text-align: left; }\n"
          "td.n { text-align: right; }\n"
          "tr.SLOWER { background: #fdd; } tr.FASTER { background: #dfd; }\n"
          "figure { display: inline-block; margin: 0.5em; }\n"
          "img { max-width: 100%; width: 960px; border: 1px solid #ddd; }\n"
          "</style>\n</head>\n<body>\n<h1>colltune regress</h1>\n<p>History <code>",
          f);
    ct_plot_html_text(f, history);
    fprintf(f, "</code>: %zu runs, ", runs->n);
    ct_plot_html_text(f, runs->v[0].name);
    fputs(" to ", f);
    ct_plot_html_text(f, runs->v[runs->n - 1].name);
    if (ct_result_time_ok(runs->v[runs->n - 1].date)) {
        fputs(" (", f);
        ct_plot_html_text(f, runs->v[runs->n - 1].date);
        fputc(')', f);
    }
    fprintf(f,
            "; %zu series, <strong>%zu slower</strong>, %zu faster.  Generated by colltune "
            "regress " PACKAGE_VERSION ".  The shaded band is the baseline the verdict was "
            "judged against: its median (dashed) and the range a single run may reach; an "
            "overview shades one series' band, its first flagged series' (else its first "
            "series'), in that series' colour.  Triangles mark the first slow (red) or faster "
            "(green) run, open ones the later runs past the threshold.</p>\n",
            ns, slower, faster);
    if (slower + faster > 0) {
        fputs("<h2>Flagged series</h2>\n", f);
        for (size_t i = 0; i < nimg; i++)
            if (img[i].series != (size_t)-1)
                ct_plot_html_figure(f, img[i].png, img[i].svg, img[i].data, NULL, img[i].title);
        if (unplotted)
            fprintf(f, "<p>%zu more flagged series are not drawn; the table lists them.</p>\n",
                    unplotted);
    }
    fputs("<h2>Collectives</h2>\n", f);
    for (size_t i = 0; i < nimg; i++)
        if (img[i].series == (size_t)-1)
            ct_plot_html_figure(f, img[i].png, img[i].svg, img[i].data, NULL, img[i].title);
    ct_rp_html_table(f, runs, s, ns, img, nimg);
    fputs("</body>\n</html>\n", f);
    return ct_outdir_commit(&out, "regress");
}

int ct_reg_plot(const ct_reg_plot_t *pl, const ct_reg_runs_t *runs, const ct_reg_series_t *s,
                size_t ns, const char *history)
{
    ct_rp_image_t *img = calloc(2 * ns + 1, sizeof *img);
    size_t *sel = calloc(ns + 1, sizeof *sel);
    char(*labels)[384] = calloc(CT_RP_OVERVIEW + 1, sizeof *labels);
    size_t nimg = 0, nflagged = 0, unplotted = 0;
    int rc = img && sel && labels ? 0 : -1;
    /* the overviews, one per collective in table order */
    for (size_t i = 0; rc == 0 && i < ns; i++) {
        const char *coll = s[i].key->collective;
        size_t j = 0;
        while (j < i && strcmp(s[j].key->collective, coll) != 0)
            j++;
        if (j < i)
            continue;
        size_t nsel = ct_rp_pick(s, ns, coll, sel);
        char first[256], rest[256], sizes[160] = "", sz[32], stem[64], scale[256], d0[96], d1[96];
        unsigned varies = 0; /* the dimensions that differ among the lines */
        for (size_t k = 1; k < nsel; k++)
            for (int d = 0; d < CT_RP_NDIM; d++) {
                ct_rp_dim(s[sel[0]].key, d, d0, sizeof d0);
                ct_rp_dim(s[sel[k]].key, d, d1, sizeof d1);
                varies |= strcmp(d0, d1) != 0 ? 1u << d : 0;
            }
        /* the title names what the lines share, each label what is its own */
        ct_rp_rest_of(s[sel[0]].key, ~varies & ((1u << CT_RP_NDIM) - 1), first, sizeof first);
        for (size_t k = 0; k < nsel; k++) {
            ct_size_format((size_t)s[sel[k]].key->bytes, sz, sizeof sz);
            ct_rp_rest_of(s[sel[k]].key, varies, rest, sizeof rest);
            snprintf(labels[k], sizeof labels[k], "%s%s%s (%s)", sz, varies ? ", " : "", rest,
                     ct_regress_verdict_name(s[sel[k]].res.verdict));
            if (k == 0 || s[sel[k]].key->bytes != s[sel[k - 1]].key->bytes)
                snprintf(sizes + strlen(sizes), sizeof sizes - strlen(sizes), "%s%s", k ? ", " : "",
                         sz);
        }
        ct_rp_scale(runs, s[sel[0]].key, scale, sizeof scale);
        ct_rp_image_t *m = &img[nimg++];
        m->series = (size_t)-1;
        snprintf(m->coll, sizeof m->coll, "%s", coll);
        /* two lines: what, then where and when */
        snprintf(m->title, sizeof m->title, "%s at %s: median time per run\n%s%s%s", coll, sizes,
                 first, first[0] ? "; " : "", scale);
        snprintf(stem, sizeof stem, "%s_timeseries", coll);
        ct_rp_clean(stem);
        rc = ct_rp_draw(pl, runs, s, sel, labels, nsel, stem, m);
    }
    /* each flagged series alone */
    for (size_t i = 0; rc == 0 && i < ns; i++) {
        if (!ct_rp_flagged(&s[i]))
            continue;
        if (nflagged++ >= CT_RP_FLAGGED) {
            unplotted++;
            continue;
        }
        const ct_result_t *k = s[i].key;
        const ct_regress_result_t *r = &s[i].res;
        char sz[32], rest[256], stem[96], scale[256];
        ct_size_format((size_t)k->bytes, sz, sizeof sz);
        ct_rp_rest(k, rest, sizeof rest);
        ct_rp_scale(runs, k, scale, sizeof scale);
        ct_rp_image_t *m = &img[nimg++];
        m->series = i;
        snprintf(m->coll, sizeof m->coll, "%s", k->collective);
        snprintf(m->title, sizeof m->title, "%s at %s: %s %+.1f%% from run %s\n%s; %s",
                 k->collective, sz, ct_regress_verdict_name(r->verdict), 100 * r->change,
                 runs->v[s[i].at[r->first_bad]].name, rest, scale);
        snprintf(labels[0], sizeof labels[0], "%s, median per run", sz);
        snprintf(stem, sizeof stem, "%s_%lld_%zu_timeseries", k->collective, k->bytes, i);
        ct_rp_clean(stem);
        rc = ct_rp_draw(pl, runs, s, &i, labels, 1, stem, m);
    }
    if (rc == 0)
        rc = ct_rp_html(pl, runs, s, ns, img, nimg, unplotted, history);
    free(img);
    free(sel);
    free(labels);
    return rc;
}
