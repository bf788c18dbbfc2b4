/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * plot.h - `colltune plot`: what its files share.
 *
 * Results files are read by src/lib's ct_results_read, plot_tune.c reads a
 * tune's verification, plot_html.c writes the index page, and plot.c groups rows
 * into series, writes the data files and runs the gnuplot scripts of
 * plots/.  C never writes gnuplot code: only plain data files and argv.
 */
#ifndef CT_PLOT_H
#define CT_PLOT_H

#include <stddef.h>
#include <stdio.h>
#include "ct_result.h"
#include "ct_results_read.h"
#include "ct_status.h"
#include "scaling.h"

/* One verified cell of a tune (report.json's verification.cells[]). */
typedef struct {
    char collective[24];
    long long bytes;
    double def_us, def_lo, def_hi;
    double tun_us, tun_lo, tun_hi;
    double p_faster; /* the A/B's one-sided p; NaN when the report lacks it */
    int holds;       /* the cell's gain held (1), not (0), unknown (-1) */
} ct_plot_tcell_t;

typedef struct {
    ct_plot_tcell_t *v;
    size_t n;
    long long nranks, nnodes;
    char date[32];
} ct_plot_tune_t;

/* Reads DIR/report.json.  A tune that verified nothing has n == 0.
 * CT_ERR_PARSE (err names the file) when it is not a tune report. */
ct_status_t ct_plot_tune_read(const char *dir, ct_plot_tune_t *t, char *err, size_t errlen);
void ct_plot_tune_free(ct_plot_tune_t *t);

/* One image of the index page and what it shows. */
typedef struct {
    char collective[24];
    char kind[16]; /* "busbw", "latency", "tuned", "scaling" */
    char png[96];  /* file names relative to the output directory; */
    char svg[96];  /* empty when that format was not asked for */
    char data[96];
} ct_plot_image_t;

/* A collective's line in the summary table. */
typedef struct {
    char collective[24];
    size_t nsizes;
    long long min_bytes, max_bytes;
    double best_busbw; /* GB/s, and where */
    long long best_bytes;
    char best_series[160];
    double small_us; /* median at the smallest size, the lowest series */
    long long small_bytes;
    char small_series[160];
    char scale[128];
} ct_plot_summary_t;

/* colltune plot --out DIR --scale-by nodes|ranks CSV, as a function:
 * sweep --scales draws its pictures with it, so they are the ones a user
 * gets from the same command.  by_nodes: 1 nodes, 0 ranks.  Returns the
 * exit code; messages on stderr. */
int ct_plot_scaling(const char *csv, const char *dir, int by_nodes);

/* Text into HTML (< > & " escaped): names and labels come from files we
 * did not write.  Every index page (plot, regress --plot) uses it. */
void ct_plot_html_text(FILE *f, const char *s);

/* One image's links, "PNG, SVG, data" (a format whose file name is empty
 * left out), and the figure that shows it: the image (the PNG, else the
 * SVG) linked to itself, alt text "ABOUT CAPTION" (CAPTION alone when about
 * is NULL), and the caption "CAPTION: " and the links.  Both index pages
 * (plot, regress --plot) show their images this way. */
void ct_plot_html_links(FILE *f, const char *png, const char *svg, const char *data);
void ct_plot_html_figure(FILE *f, const char *png, const char *svg, const char *data,
                         const char *about, const char *caption);

/* Everything the index page shows. */
typedef struct {
    const ct_plot_image_t *img;
    size_t nimg;
    const ct_plot_summary_t *sum;
    size_t nsum;
    const ct_scaling_coll_t *scaling;
    size_t nscaling;
    const ct_plot_tune_t *tune; /* NULL without --tune */
    const char *tune_dir;
    char *const *inputs;
    size_t ninputs;
} ct_plot_page_t;

/* Writes DIR/index.html (beside and renamed): the inputs, the summary
 * table, the tune's speedups, the scaling efficiency, every image. */
ct_status_t ct_plot_html(const char *dir, const ct_plot_page_t *page, char *err, size_t errlen);

/* text as a quoted gnuplot string in a data file: '"', '\\' and control
 * characters become '_', so that a label from a results file (a run id, a
 * placement) can neither end the string nor the line (E24). */
void ct_plot_dat_label(FILE *f, const char *text);

#endif
