/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * plot_html.c - DIR/index.html for `colltune plot`: a static page, every
 * link relative, so it opens from disk and survives a copy of DIR.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "ct_outfile.h"
#include "ct_size.h"
#include "outdir.h"
#include "plot.h"

/* Text into HTML: names and labels come from files we did not write. */
void ct_plot_html_text(FILE *f, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f); break;
        }
}

static void ct_html_size(FILE *f, long long bytes)
{
    char buf[32];
    ct_size_format(bytes < 0 ? 0 : (size_t)bytes, buf, sizeof buf);
    ct_plot_html_text(f, buf);
}

static void ct_html_summary(FILE *f, const ct_plot_summary_t *sum, size_t nsum)
{
    fputs("<h2>Summary</h2>\n<table>\n<tr><th>collective</th><th>scale</th><th>sizes</th>"
          "<th>best busbw (GB/s)</th><th>at size</th><th>series</th>"
          "<th>smallest-size latency (&micro;s)</th><th>at size</th><th>series</th></tr>\n",
          f);
    for (size_t i = 0; i < nsum; i++) {
        const ct_plot_summary_t *s = &sum[i];
        fputs("<tr><td><a href=\"#", f);
        ct_plot_html_text(f, s->collective);
        fputs("\">", f);
        ct_plot_html_text(f, s->collective);
        fputs("</a></td><td>", f);
        ct_plot_html_text(f, s->scale);
        fprintf(f, "</td><td>%zu: ", s->nsizes);
        ct_html_size(f, s->min_bytes);
        fputs(" to ", f);
        ct_html_size(f, s->max_bytes);
        fprintf(f, "</td><td class=\"n\">%.3f</td><td>", s->best_busbw);
        ct_html_size(f, s->best_bytes);
        fputs("</td><td>", f);
        ct_plot_html_text(f, s->best_series);
        fprintf(f, "</td><td class=\"n\">%.2f</td><td>", s->small_us);
        ct_html_size(f, s->small_bytes);
        fputs("</td><td>", f);
        ct_plot_html_text(f, s->small_series);
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
}

/* The tune's verified cells: default against tuned, and the speedup. */
static void ct_html_tune(FILE *f, const ct_plot_tune_t *t)
{
    fputs("<h2>Tuned against default</h2>\n", f);
    if (t->n == 0) {
        fputs("<p>The tune verified nothing: no choice held in the A/B run.</p>\n", f);
        return;
    }
    fputs("<table>\n<tr><th>collective</th><th>size</th><th>default (&micro;s)</th>"
          "<th>tuned (&micro;s)</th><th>speedup</th><th>p (faster)</th><th>holds</th></tr>\n",
          f);
    for (size_t i = 0; i < t->n; i++) {
        const ct_plot_tcell_t *c = &t->v[i];
        fputs("<tr><td>", f);
        ct_plot_html_text(f, c->collective);
        fputs("</td><td>", f);
        ct_html_size(f, c->bytes);
        fprintf(f, "</td><td class=\"n\">%.2f</td><td class=\"n\">%.2f</td>", c->def_us, c->tun_us);
        if (c->tun_us > 0)
            fprintf(f, "<td class=\"n\">%.2f&times;</td>", c->def_us / c->tun_us);
        else
            fputs("<td>-</td>", f);
        if (isfinite(c->p_faster))
            fprintf(f, "<td class=\"n\">%.3g</td>", c->p_faster);
        else
            fputs("<td>-</td>", f);
        fprintf(f, "<td>%s</td></tr>\n", c->holds < 0 ? "-" : c->holds ? "yes" : "no");
    }
    fputs("</table>\n<p>Medians of the launch medians of the verification's A/B run "
          "(report.json); a speedup above 1 means the tuned settings are faster, and "
          "<em>holds</em> that the gain passed the tune's test (one-sided Mann&ndash;Whitney "
          "p &le; 0.05 and at least 5%).</p>\n",
          f);
}

/* Per collective: busbw at each scale and the efficiency against the
 * smallest scale (scaling.h). */
static void ct_html_scaling(FILE *f, const ct_scaling_coll_t *sc, size_t n)
{
    fputs("<h2>Scaling efficiency</h2>\n<p>busbw (GB/s) at each scale, and the efficiency: "
          "busbw against the busbw at the smallest scale (perfect scaling keeps busbw "
          "flat).</p>\n",
          f);
    for (size_t i = 0; i < n; i++) {
        const ct_scaling_t *s = &sc[i].sc;
        fputs("<h3>", f);
        ct_plot_html_text(f, sc[i].collective);
        fputs("</h3>\n<table>\n<tr><th>series</th><th>size</th><th>", f);
        fputs(s->by_nodes ? "nodes" : "ranks", f);
        fputs("</th><th>busbw (GB/s)</th><th>efficiency</th></tr>\n", f);
        for (size_t l = 0; l < s->n; l++)
            for (size_t k = 0; k < s->v[l].n; k++) {
                fputs("<tr><td>", f);
                ct_plot_html_text(f, s->v[l].series);
                fputs("</td><td>", f);
                ct_html_size(f, s->v[l].bytes);
                fprintf(f, "</td><td class=\"n\">%lld</td><td class=\"n\">%.3f</td>",
                        s->v[l].scale[k], s->v[l].busbw[k]);
                if (isfinite(s->v[l].eff[k]))
                    fprintf(f, "<td class=\"n\">%.0f%%</td></tr>\n", 100 * s->v[l].eff[k]);
                else
                    fputs("<td>-</td></tr>\n", f);
            }
        fputs("</table>\n", f);
    }
}

static void ct_html_images(FILE *f, const ct_plot_image_t *img, size_t nimg)
{
    const char *last = "";
    for (size_t i = 0; i < nimg; i++) {
        const ct_plot_image_t *m = &img[i];
        if (strcmp(m->collective, last) != 0) {
            fputs("<h2 id=\"", f);
            ct_plot_html_text(f, m->collective);
            fputs("\">", f);
            ct_plot_html_text(f, m->collective);
            fputs("</h2>\n", f);
            last = m->collective;
        }
        ct_plot_html_figure(f, m->png, m->svg, m->data, m->collective, m->kind);
    }
}

void ct_plot_html_links(FILE *f, const char *png, const char *svg, const char *data)
{
    if (png[0]) {
        fputs("<a href=\"", f);
        ct_plot_html_text(f, png);
        fputs("\">PNG</a>, ", f);
    }
    if (svg[0]) {
        fputs("<a href=\"", f);
        ct_plot_html_text(f, svg);
        fputs("\">SVG</a>, ", f);
    }
    fputs("<a href=\"", f);
    ct_plot_html_text(f, data);
    fputs("\">data</a>", f);
}

void ct_plot_html_figure(FILE *f, const char *png, const char *svg, const char *data,
                         const char *about, const char *caption)
{
    const char *shown = png[0] ? png : svg;
    fputs("<figure><a href=\"", f);
    ct_plot_html_text(f, shown);
    fputs("\"><img src=\"", f);
    ct_plot_html_text(f, shown);
    fputs("\" alt=\"", f);
    if (about != NULL) {
        ct_plot_html_text(f, about);
        fputc(' ', f);
    }
    ct_plot_html_text(f, caption);
    fputs("\"></a><figcaption>", f);
    ct_plot_html_text(f, caption);
    fputs(": ", f);
    ct_plot_html_links(f, png, svg, data);
    fputs("</figcaption></figure>\n", f);
}

ct_status_t ct_plot_html(const char *dir, const ct_plot_page_t *page, char *err, size_t errlen)
{
    char path[4096];
    ct_outfile_t out;
    if (ct_outdir_path(dir, "index.html", path, sizeof path) != CT_OK) {
        snprintf(err, errlen, "%s: path too long", dir);
        return CT_ERR_USAGE;
    }
    ct_status_t st = ct_outfile_open(&out, path, 0666, err, errlen);
    if (st != CT_OK)
        return st;
    FILE *f = out.fp;
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<title>colltune plots</title>\n<style>\n"
          "body { font-family: sans-serif; margin: 1em 2em; }\n"
          "table { border-collapse: collapse; }\n"
          "td, th { border: 1px solid #aaa; padding: 0.2em 0.6em; text-align: left; }\n"
          "td.n { text-align: right; }\n"
          "figure { display: inline-block; margin: 0.5em; }\n"
          "img { max-width: 100%; width: 960px; border: 1px solid #ddd; }\n"
          "</style>\n</head>\n<body>\n<h1>colltune plots</h1>\n<p>Generated by colltune "
          "plot " PACKAGE_VERSION " from:</p>\n<ul>\n",
          f);
    for (size_t i = 0; i < page->ninputs; i++) {
        fputs("<li><code>", f);
        ct_plot_html_text(f, page->inputs[i]);
        fputs("</code></li>\n", f);
    }
    if (page->tune_dir != NULL) {
        fputs("<li>tune <code>", f);
        ct_plot_html_text(f, page->tune_dir);
        fputs("/report.json</code></li>\n", f);
    }
    fputs("</ul>\n", f);
    if (page->nsum > 0)
        ct_html_summary(f, page->sum, page->nsum);
    if (page->tune != NULL)
        ct_html_tune(f, page->tune);
    if (page->nscaling > 0) {
        ct_html_scaling(f, page->scaling, page->nscaling);
        fputs("<p>The same tables as markdown: <a href=\"scaling.md\">scaling.md</a>.</p>\n", f);
    }
    ct_html_images(f, page->img, page->nimg);
    fputs("</body>\n</html>\n", f);
    return ct_outfile_commit(&out, err, errlen);
}
