/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * plot.c - `colltune plot`: results files into pictures and an index page.
 *
 * Rows are grouped per collective, then into series by what tells the
 * inputs apart (backend, run, configuration, placement, dtype/op, scale);
 * each plot is a plain data file (one block per series) handed to a
 * script of plots/ as `gnuplot -c SCRIPT DATA OUT TITLE FORMAT WxH ...`,
 * an argv vector, never a shell.  Every output is written beside and
 * renamed.  Exit 0, 2 on bad input (naming file:line), 3 without gnuplot
 * or when it fails.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "command.h"
#include "ct_path.h"
#include "config.h"
#include "ct_size.h"
#include "gnuplot.h"
#include "outdir.h"
#include "plot.h"
#include "scaling.h"
#include "ct_vec.h"

enum {
    CT_PLOT_OUT = 1,
    CT_PLOT_TUNE,
    CT_PLOT_FORMAT,
    CT_PLOT_SIZE,
    CT_PLOT_BARS,
    CT_PLOT_SMALL,
    CT_PLOT_GNUPLOT,
    CT_PLOT_DIR,
    CT_PLOT_SCALE_BY,
    CT_PLOT_SCALE_SIZES,
};

static const ct_cli_opt_t ct_plot_opts[] = {
    {CT_PLOT_OUT, "out", "DIR", "plots, data files and index.html (created if missing; required)"},
    {CT_PLOT_TUNE, "tune", "TUNEDIR", "also plot tuned against default from TUNEDIR/report.json"},
    {CT_PLOT_FORMAT, "format", "png|svg|both", "image format (default png)"},
    {CT_PLOT_SIZE, "size", "WxH", "image size in pixels (default 1280x720)"},
    {CT_PLOT_BARS, "bars", "pct|ci",
     "latency error bars: p10 to p90 (pct, default) or the median's 95% CI"},
    {CT_PLOT_SMALL, "small-max", "SIZE", "largest size on the latency plot (default 64K)"},
    CT_GNUPLOT_OPTS(CT_PLOT_GNUPLOT, CT_PLOT_DIR),
    {CT_PLOT_SCALE_BY, "scale-by", "nodes|ranks",
     "scaling plot's x axis (default: nodes when the node count varies, else ranks)"},
    {CT_PLOT_SCALE_SIZES, "scaling-sizes", "N", "sizes per series on the scaling plot (default 4)"},
};
#define CT_PLOT_NOPTS (sizeof ct_plot_opts / sizeof ct_plot_opts[0])

/* The plots of one collective, as data: a kind is a script and the rows
 * it takes. */
typedef enum { CT_KIND_BUSBW, CT_KIND_LATENCY, CT_KIND_TUNED, CT_KIND_SCALING } ct_plot_kind_t;
static const struct {
    const char *name, *script, *what;
} ct_plot_kinds[] = {
    [CT_KIND_BUSBW] = {"busbw", "busbw.gp", "bus bandwidth"},
    [CT_KIND_LATENCY] = {"latency", "latency.gp", "small-message latency"},
    [CT_KIND_TUNED] = {"tuned", "tuned.gp", "tuned against default"},
    [CT_KIND_SCALING] = {"scaling", "scaling.gp", "bus bandwidth against scale"},
};

typedef struct {
    const char *out, *tune, *gnuplot_opt, *plots_opt, *bars;
    int png, svg;
    int scale_by; /* -1 auto, 1 nodes, 0 ranks */
    size_t scaling_sizes;
    long width, height;
    size_t small_max;
    char *const *inputs;
    size_t ninputs;
    /* resolved */
    char gnuplot[PATH_MAX], plots[PATH_MAX], size[32];
} ct_plot_args_t;

static void ct_plot_usage(FILE *f)
{
    fprintf(f, "usage: colltune plot --out DIR [--tune TUNEDIR] [--format png|svg|both]\n"
               "                     [--size WxH] [OPTIONS] RESULTS...\n\n"
               "Draws collbench results (CSV or JSON, any mix of runs) with gnuplot, per\n"
               "collective: busbw against size, and the small-size latency with error bars;\n"
               "with --tune, a tune's tuned against default times; given runs at several\n"
               "scales, busbw against nodes (or ranks) at fixed sizes with the ideal line,\n"
               "and the efficiency table in index.html and scaling.md.  One line per\n"
               "backend, run, configuration, placement or scale: whatever tells the inputs\n"
               "apart.\n"
               "DIR gets COLL_KIND.png/.svg, the data files COLL_KIND.dat (gnuplot -c\n"
               "plots/KIND.gp DATA OUT TITLE redraws one) and index.html.\n\n"
               "options:\n");
    ct_cli_print_options(f, ct_plot_opts, CT_PLOT_NOPTS);
    fprintf(f, "\nexit codes: 0 ok, 2 bad input (file:line named), 3 gnuplot missing (Debian:\n"
               "apt-get install gnuplot-nox) or failed.\n");
}

/* What an option not given means; ct_plot_scaling starts from the same. */
static void ct_plot_defaults(ct_plot_args_t *a)
{
    a->png = 1;
    a->width = 1280;
    a->height = 720;
    a->bars = "pct";
    a->small_max = 64 * 1024;
    a->scale_by = -1;
    a->scaling_sizes = 4;
}

static int ct_plot_parse(int argc, char **argv, ct_plot_args_t *a)
{
    ct_cli_iter_t it = CT_CLI_ITER("plot", argc, argv);
    const char *value;
    int id;
    ct_plot_defaults(a);
    /* Options and file names mix: ct_cli_next stops at a non-option. */
    char **files = calloc((size_t)argc + 1, sizeof *files);
    size_t nfiles = 0;
    if (files == NULL)
        return CT_EXIT_FAILURE;
    for (;;) {
        while (it.next < argc && argv[it.next][0] != '-')
            files[nfiles++] = argv[it.next++];
        if ((id = ct_cli_next(&it, ct_plot_opts, CT_PLOT_NOPTS, &value)) <= 0)
            break;
        switch (id) {
        case CT_PLOT_OUT: a->out = value; break;
        case CT_PLOT_TUNE: a->tune = value; break;
        case CT_PLOT_GNUPLOT: a->gnuplot_opt = value; break;
        case CT_PLOT_DIR: a->plots_opt = value; break;
        case CT_PLOT_FORMAT:
            if (ct_gnuplot_parse_format("plot", value, &a->png, &a->svg) != 0)
                id = CT_CLI_ERROR;
            break;
        case CT_PLOT_SIZE:
            if (ct_gnuplot_parse_size("plot", value, &a->width, &a->height) != 0)
                id = CT_CLI_ERROR;
            break;
        case CT_PLOT_BARS:
            a->bars = value;
            if (strcmp(value, "pct") != 0 && strcmp(value, "ci") != 0) {
                fprintf(stderr, "colltune plot: --bars %s: pct or ci\n", value);
                id = CT_CLI_ERROR;
            }
            break;
        case CT_PLOT_SCALE_BY:
            a->scale_by = strcmp(value, "nodes") == 0 ? 1 : strcmp(value, "ranks") == 0 ? 0 : -2;
            if (a->scale_by == -2) {
                fprintf(stderr, "colltune plot: --scale-by %s: nodes or ranks\n", value);
                id = CT_CLI_ERROR;
            }
            break;
        case CT_PLOT_SCALE_SIZES: {
            char *end;
            long v = strtol(value, &end, 10);
            if (*value == '\0' || *end != '\0' || v < 1 || v > 16) {
                fprintf(stderr, "colltune plot: --scaling-sizes %s: a count, 1 to 16\n", value);
                id = CT_CLI_ERROR;
            }
            a->scaling_sizes = (size_t)v;
            break;
        }
        case CT_PLOT_SMALL:
            /* 0 drew no latency plot, without a word (issue 15, E24) */
            if (ct_size_parse(value, &a->small_max) != CT_OK || a->small_max == 0) {
                fprintf(stderr,
                        "colltune plot: --small-max %s: not a size of at least 1 byte (64K, 1M, "
                        "...)\n",
                        value);
                id = CT_CLI_ERROR;
            }
            break;
        }
        if (id == CT_CLI_ERROR)
            break;
    }
    /* after "--", everything is a file */
    if (id == CT_CLI_END)
        while (it.next < argc)
            files[nfiles++] = argv[it.next++];
    a->inputs = files;
    a->ninputs = nfiles;
    int rc = ct_cli_finish(id, ct_plot_usage);
    if (rc != CT_EXIT_OK)
        return rc;
    if (a->out == NULL) {
        fprintf(stderr, "colltune plot: --out DIR is required\n");
        return CT_EXIT_USAGE;
    }
    if (a->ninputs == 0 && a->tune == NULL) {
        fprintf(stderr, "colltune plot: give results files (CSV or JSON), or --tune DIR\n");
        return CT_EXIT_USAGE;
    }
    snprintf(a->size, sizeof a->size, "%ldx%ld", a->width, a->height);
    return CT_EXIT_OK;
}

/* ---- series ---- */

void ct_plot_dat_label(FILE *f, const char *text)
{
    fputc('"', f);
    for (const unsigned char *c = (const unsigned char *)text; *c; c++)
        fputc(*c == '"' || *c == '\\' || *c < 0x20 || *c == 0x7f ? '_' : *c, f);
    fputc('"', f);
}

/* The dimensions that can tell series apart, and how a label shows them. */
enum {
    CT_DIM_BACKEND,
    CT_DIM_RUN,
    CT_DIM_CONFIG,
    CT_DIM_PLACE,
    CT_DIM_TYPE,
    CT_DIM_SCALE,
    CT_NDIM
};

static void ct_plot_dim(const ct_result_t *r, int dim, char *buf, size_t len)
{
    switch (dim) {
    case CT_DIM_BACKEND: snprintf(buf, len, "%s", r->backend); break;
    case CT_DIM_RUN: snprintf(buf, len, "run %s", r->run_id); break;
    case CT_DIM_CONFIG: snprintf(buf, len, "config %s", r->config_id); break;
    case CT_DIM_PLACE: snprintf(buf, len, "%s", r->placement); break;
    case CT_DIM_TYPE: snprintf(buf, len, "%s/%s", r->dtype, r->op); break;
    default: snprintf(buf, len, "%lld ranks/%lld nodes", r->nranks, r->nnodes); break;
    }
}

/* A row of one collective, with its series label (the varying
 * dimensions), sortable by label then size. */
typedef struct {
    const ct_result_t *r;
    char label[160];
} ct_plot_item_t;

static int ct_plot_item_cmp(const void *x, const void *y)
{
    const ct_plot_item_t *a = x, *b = y;
    int c = strcmp(a->label, b->label);
    if (c != 0)
        return c;
    return (a->r->bytes > b->r->bytes) - (a->r->bytes < b->r->bytes);
}

/* The rows of collective coll, labelled; *n_p of them (caller frees). */
static ct_plot_item_t *ct_plot_items(const ct_results_t *rows, const char *coll, size_t *n_p)
{
    size_t n = 0;
    for (size_t i = 0; i < rows->n; i++)
        n += strcmp(rows->v[i].collective, coll) == 0;
    ct_plot_item_t *it = calloc(n ? n : 1, sizeof *it);
    if (it == NULL)
        return NULL;
    int varies[CT_NDIM] = {0};
    char first[CT_NDIM][96], cur[96];
    size_t k = 0;
    for (size_t i = 0; i < rows->n; i++) {
        if (strcmp(rows->v[i].collective, coll) != 0)
            continue;
        for (int d = 0; d < CT_NDIM; d++) {
            ct_plot_dim(&rows->v[i], d, cur, sizeof cur);
            if (k == 0)
                snprintf(first[d], sizeof first[d], "%s", cur);
            else if (strcmp(first[d], cur) != 0)
                varies[d] = 1;
        }
        it[k++].r = &rows->v[i];
    }
    varies[CT_DIM_BACKEND] = 1; /* a line always says what ran */
    for (size_t i = 0; i < n; i++) {
        size_t used = 0;
        for (int d = 0; d < CT_NDIM; d++) {
            if (!varies[d])
                continue;
            ct_plot_dim(it[i].r, d, cur, sizeof cur);
            int w = snprintf(it[i].label + used, sizeof it[i].label - used, "%s%s",
                             used ? ", " : "", cur);
            if (w > 0)
                used += (size_t)w < sizeof it[i].label - used ? (size_t)w
                                                              : sizeof it[i].label - used - 1;
        }
    }
    ct_vec_sort(it, n, sizeof *it, ct_plot_item_cmp);
    *n_p = n;
    return it;
}

/* "2 ranks, 1 node" (or ranges), and the date or date range. */
static void ct_plot_scale(const ct_plot_item_t *it, size_t n, char *scale, size_t slen, char *date,
                          size_t dlen)
{
    long long r0 = LLONG_MAX, r1 = 0, n0 = LLONG_MAX, n1 = 0;
    char d0[11] = "", d1[11] = "";
    for (size_t i = 0; i < n; i++) {
        const ct_result_t *r = it[i].r;
        r0 = r->nranks < r0 ? r->nranks : r0;
        r1 = r->nranks > r1 ? r->nranks : r1;
        n0 = r->nnodes < n0 ? r->nnodes : n0;
        n1 = r->nnodes > n1 ? r->nnodes : n1;
        char d[11];
        snprintf(d, sizeof d, "%.10s", r->time);
        if (!d0[0] || strcmp(d, d0) < 0)
            memcpy(d0, d, sizeof d);
        if (strcmp(d, d1) > 0)
            memcpy(d1, d, sizeof d);
    }
    char rr[48], nn[48];
    /* scale holds both: see the callers' sizes */
    snprintf(rr, sizeof rr, r0 == r1 ? "%lld" : "%lld to %lld", r0, r1);
    snprintf(nn, sizeof nn, n0 == n1 ? "%lld" : "%lld to %lld", n0, n1);
    snprintf(scale, slen, "%s rank%s, %s node%s", rr, r1 == 1 ? "" : "s", nn, n1 == 1 ? "" : "s");
    snprintf(date, dlen, strcmp(d0, d1) == 0 ? "%s" : "%s to %s", d0, d1);
}

/* ---- files ---- */

/* A collective's name in file names: [A-Za-z0-9_-] only. */
static void ct_plot_stem(const char *coll, const char *kind, char *buf, size_t len)
{
    snprintf(buf, len, "%s_%s", coll, kind);
    for (char *p = buf; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_' || *p == '-'))
            *p = '_';
}

/* What one plot draws: the rows of a collective (busbw, latency), a
 * tune's cells (tuned) or the scaling lines (scaling). */
typedef struct {
    const ct_plot_item_t *it;
    size_t n;
    const ct_plot_tcell_t *tc;
    size_t ntc;
    const ct_scaling_t *sc;
} ct_plot_src_t;

/* The scaling blocks: per series and size, "scale busbw ideal eff". */
static size_t ct_plot_write_scaling(FILE *f, const ct_scaling_t *sc)
{
    fputs("# columns: scale busbw_gbps ideal_gbps efficiency (ideal: the busbw at the "
          "smallest scale, held flat)\n",
          f);
    for (size_t i = 0; i < sc->n; i++) {
        const ct_scaling_line_t *l = &sc->v[i];
        char sz[32];
        ct_size_format((size_t)l->bytes, sz, sizeof sz);
        char label[512];
        snprintf(label, sizeof label, "%s, %s", l->series, sz);
        fprintf(f, "%s# series %zu\n", i ? "\n\n" : "", i);
        ct_plot_dat_label(f, label);
        fputc('\n', f);
        for (size_t k = 0; k < l->n; k++)
            if (isfinite(l->eff[k]))
                fprintf(f, "%lld %.6g %.6g %.4f\n", l->scale[k], l->busbw[k], l->ref, l->eff[k]);
            else /* no reference busbw: NaN, the scripts' missing marker */
                fprintf(f, "%lld %.6g NaN NaN\n", l->scale[k], l->busbw[k]);
    }
    return sc->n;
}

/* Writes the data file of one plot (beside, renamed). */
static int ct_plot_write_dat(const char *path, ct_plot_kind_t kind, const ct_plot_src_t *src,
                             size_t small_max)
{
    const ct_plot_item_t *it = src->it;
    const ct_plot_tcell_t *tc = src->tc;
    size_t n = src->n, ntc = src->ntc;
    ct_outfile_t out;
    FILE *f = ct_outdir_open(&out, path, "plot");
    if (f == NULL)
        return -1;
    fprintf(f, "# colltune plot %s: %s data for plots/%s\n", PACKAGE_VERSION,
            ct_plot_kinds[kind].name, ct_plot_kinds[kind].script);
    size_t block = 0;
    if (kind == CT_KIND_SCALING) {
        block = ct_plot_write_scaling(f, src->sc);
    } else if (kind == CT_KIND_TUNED) {
        fputs("# columns: bytes median_us low_us high_us (min and max of the launch medians)\n", f);
        for (int side = 0; side < 2; side++) {
            fprintf(f, "%s# series %zu\n\"%s\"\n", block ? "\n\n" : "", block,
                    side ? "tuned" : "default");
            block++;
            for (size_t i = 0; i < ntc; i++)
                fprintf(f, "%lld %.6g %.6g %.6g\n", tc[i].bytes, side ? tc[i].tun_us : tc[i].def_us,
                        side ? tc[i].tun_lo : tc[i].def_lo, side ? tc[i].tun_hi : tc[i].def_hi);
        }
    } else {
        fputs(kind == CT_KIND_BUSBW
                  ? "# columns: bytes busbw_gbps algbw_gbps median_us\n"
                  : "# columns: bytes median_us p10_us p90_us ci_low_us ci_high_us\n",
              f);
        const char *open = NULL;
        for (size_t i = 0; i < n; i++) {
            const ct_result_t *r = it[i].r;
            if (kind == CT_KIND_LATENCY && (size_t)r->bytes > small_max)
                continue;
            if (open == NULL || strcmp(open, it[i].label) != 0) {
                fprintf(f, "%s# series %zu\n", block ? "\n\n" : "", block);
                ct_plot_dat_label(f, it[i].label);
                fputc('\n', f);
                block++;
                open = it[i].label;
            }
            if (kind == CT_KIND_BUSBW)
                fprintf(f, "%lld %.6g %.6g %.6g\n", r->bytes, r->busbw_gbps, r->algbw_gbps,
                        r->median_us);
            else {
                /* schema 1 has no CI: NaN, the scripts' missing marker */
                const double v[] = {r->median_us, r->p10_us, r->p90_us, r->ci_low_us,
                                    r->ci_high_us};
                fprintf(f, "%lld", r->bytes);
                for (size_t k = 0; k < 5; k++)
                    if (isfinite(v[k]))
                        fprintf(f, " %.6g", v[k]);
                    else
                        fputs(" NaN", f);
                fputc('\n', f);
            }
        }
    }
    if (ct_outdir_commit(&out, "plot") != 0)
        return -1;
    return block > 0 ? 1 : 0;
}

/* gnuplot -c SCRIPT DATA OUT TITLE FORMAT WxH EXTRA: latency's bars, or
 * scaling's unit (nodes or ranks). */
static int ct_plot_gnuplot(const ct_plot_args_t *a, ct_plot_kind_t kind, const char *dat,
                           const char *out, const char *fmt, const char *title, const char *extra)
{
    const char *args[] = {title, fmt, a->size, extra};
    return ct_gnuplot_draw(a->gnuplot, a->plots, ct_plot_kinds[kind].script, dat, out, args, 4,
                           "plot");
}

/* One plot: its data file, then each format; recorded for the index. */
static int ct_plot_one(const ct_plot_args_t *a, ct_plot_kind_t kind, const char *coll,
                       const ct_plot_src_t *src, const char *scale, const char *date,
                       ct_plot_image_t *img)
{
    char stem[64], name[80], path[PATH_MAX], dat[PATH_MAX], title[512];
    memset(img, 0, sizeof *img);
    ct_plot_stem(coll, ct_plot_kinds[kind].name, stem, sizeof stem);
    snprintf(img->collective, sizeof img->collective, "%s", coll);
    snprintf(img->kind, sizeof img->kind, "%s", ct_plot_kinds[kind].name);
    snprintf(img->data, sizeof img->data, "%s.dat", stem);
    if (ct_outdir_path(a->out, img->data, dat, sizeof dat) != CT_OK)
        return -1;
    int rc = ct_plot_write_dat(dat, kind, src, a->small_max);
    if (rc <= 0) {
        unlink(dat);
        return rc; /* 0: nothing to draw (no small sizes) */
    }
    snprintf(title, sizeof title, "%s: %s (%s, %s)", coll, ct_plot_kinds[kind].what, scale, date);
    for (int svg = 0; svg < 2; svg++) {
        if (!(svg ? a->svg : a->png))
            continue;
        if (snprintf(name, sizeof name, "%s.%s", stem, svg ? "svg" : "png") >= (int)sizeof name ||
            ct_outdir_path(a->out, name, path, sizeof path) != CT_OK ||
            ct_plot_gnuplot(a, kind, dat, path, svg ? "svg" : "png", title,
                            kind == CT_KIND_SCALING ? (src->sc->by_nodes ? "nodes" : "ranks")
                                                    : a->bars) != 0)
            return -1;
        snprintf(svg ? img->svg : img->png, sizeof img->png, "%s", name);
    }
    return 1;
}

/* The summary line of one collective. */
static void ct_plot_summarise(const char *coll, const ct_plot_item_t *it, size_t n,
                              const char *scale, ct_plot_summary_t *s)
{
    memset(s, 0, sizeof *s);
    snprintf(s->collective, sizeof s->collective, "%s", coll);
    snprintf(s->scale, sizeof s->scale, "%s", scale);
    s->min_bytes = LLONG_MAX;
    s->best_busbw = -1;
    s->small_us = INFINITY;
    long long seen[256];
    size_t nseen = 0;
    for (size_t i = 0; i < n; i++) {
        const ct_result_t *r = it[i].r;
        size_t k = 0;
        while (k < nseen && seen[k] != r->bytes)
            k++;
        if (k == nseen && nseen < 256)
            seen[nseen++] = r->bytes;
        s->min_bytes = r->bytes < s->min_bytes ? r->bytes : s->min_bytes;
        s->max_bytes = r->bytes > s->max_bytes ? r->bytes : s->max_bytes;
        if (r->busbw_gbps > s->best_busbw) {
            s->best_busbw = r->busbw_gbps;
            s->best_bytes = r->bytes;
            snprintf(s->best_series, sizeof s->best_series, "%s", it[i].label);
        }
    }
    s->nsizes = nseen;
    for (size_t i = 0; i < n; i++)
        if (it[i].r->bytes == s->min_bytes && it[i].r->median_us < s->small_us) {
            s->small_us = it[i].r->median_us;
            s->small_bytes = it[i].r->bytes;
            snprintf(s->small_series, sizeof s->small_series, "%s", it[i].label);
        }
}

/* Whether input is a file in --out whose name is one plot writes
 * (COLL_KIND.png/.svg/.dat, index.html, scaling.md): plot would write over
 * its own input (E14).  Says so on stderr. */
static int ct_plot_overwrites(const ct_plot_args_t *a, const char *input)
{
    static const char *const ends[] = {".png", ".svg", ".dat", "/index.html", "/scaling.md"};
    char out[PATH_MAX];
    const char *base = strrchr(input, '/');
    if (ct_outdir_path(a->out, base ? base + 1 : input, out, sizeof out) != CT_OK ||
        !ct_path_same_file(out, input))
        return 0;
    size_t len = strlen(out);
    for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++) {
        size_t el = strlen(ends[k]);
        if (len >= el && strcmp(out + len - el, ends[k]) == 0) {
            fprintf(stderr,
                    "colltune plot: %s is an input and a name plot writes in --out %s: give "
                    "another --out\n",
                    input, a->out);
            return 1;
        }
    }
    return 0;
}

/* 0, or -1 when plot would write over one of its inputs. */
static int ct_plot_input_in_out(const ct_plot_args_t *a)
{
    for (size_t i = 0; i < a->ninputs; i++)
        if (ct_plot_overwrites(a, a->inputs[i]))
            return -1;
    return 0;
}

/* The results and --tune read into rows and tune; CT_EXIT_OK, or an exit
 * code after a message (also when there is nothing to plot). */
static int ct_plot_read(const ct_plot_args_t *a, ct_results_t *rows, ct_plot_tune_t *tune)
{
    char err[1024];
    for (size_t i = 0; i < a->ninputs; i++) {
        ct_status_t st = ct_results_read(a->inputs[i], rows, NULL, err, sizeof err);
        if (st != CT_OK) {
            fprintf(stderr, "colltune plot: %s\n", st == CT_ERR_NOMEM ? "out of memory" : err);
            return ct_status_exit_code(st);
        }
    }
    if (a->tune != NULL) {
        ct_status_t st = ct_plot_tune_read(a->tune, tune, err, sizeof err);
        if (st != CT_OK) {
            fprintf(stderr, "colltune plot: --tune %s: %s\n", a->tune, err);
            return ct_status_exit_code(st);
        }
        if (tune->n == 0)
            fprintf(stderr, "colltune plot: --tune %s: the tune verified nothing; no tuned plot\n",
                    a->tune);
    }
    if (rows->n == 0 && tune->n == 0) {
        /* which inputs (E23: "in the inputs") */
        if (a->ninputs == 0)
            fprintf(stderr, "colltune plot: --tune %s: holds no rows to plot\n", a->tune);
        else if (a->ninputs == 1)
            fprintf(stderr, "colltune plot: %s: holds no rows to plot\n", a->inputs[0]);
        else
            fprintf(stderr, "colltune plot: %s and the %zu other inputs: hold no rows to plot\n",
                    a->inputs[0], a->ninputs - 1);
        return CT_EXIT_USAGE;
    }
    return CT_EXIT_OK;
}

/* --out made and locked, and none of the inputs in the way. */
static int ct_plot_prepare_out(const ct_plot_args_t *a)
{
    char err[1024];
    ct_status_t st = ct_outdir_prepare(a->out, err, sizeof err);
    if (st != CT_OK) {
        fprintf(stderr, "colltune plot: --out %s: %s\n", a->out, err);
        return ct_status_exit_code(st);
    }
    if (ct_outdir_lock(a->out, "plot") != 0 || ct_plot_input_in_out(a) != 0)
        return CT_EXIT_USAGE;
    return CT_EXIT_OK;
}

/* What the plots made so far: the images, the summaries and the scaling
 * tables, for the index page. */
typedef struct {
    const char **colls; /* in order of first appearance (results, then tune) */
    size_t ncolls;
    ct_plot_image_t *img;
    size_t nimg;
    ct_plot_summary_t *sum;
    size_t nsum;
    ct_scaling_coll_t *scaling;
    size_t nscaling;
} ct_plot_made_t;

/* Room for everything rows and tune can make, and their collectives. */
static int ct_plot_made_init(const ct_results_t *rows, const ct_plot_tune_t *tune,
                             ct_plot_made_t *m)
{
    m->colls = calloc(rows->n + tune->n + 1, sizeof *m->colls);
    m->img = calloc(4 * (rows->n + tune->n) + 1, sizeof *m->img);
    m->sum = calloc(rows->n + 1, sizeof *m->sum);
    m->scaling = calloc(rows->n + 1, sizeof *m->scaling);
    if (m->colls == NULL || m->img == NULL || m->sum == NULL || m->scaling == NULL)
        return CT_EXIT_FAILURE;
    for (size_t i = 0; i < rows->n + tune->n; i++) {
        const char *c = i < rows->n ? rows->v[i].collective : tune->v[i - rows->n].collective;
        size_t k = 0;
        while (k < m->ncolls && strcmp(m->colls[k], c) != 0)
            k++;
        if (k == m->ncolls)
            m->colls[m->ncolls++] = c;
    }
    return CT_EXIT_OK;
}

static void ct_plot_made_free(ct_plot_made_t *m)
{
    free(m->colls);
    free(m->img);
    free(m->sum);
    for (size_t i = 0; m->scaling != NULL && i <= m->nscaling; i++)
        ct_scaling_free(&m->scaling[i].sc);
    free(m->scaling);
}

/* One plot into m's next image; CT_EXIT_FAILURE when it failed. */
static int ct_plot_add(const ct_plot_args_t *a, ct_plot_kind_t kind, const char *coll,
                       const ct_plot_src_t *src, const char *scale, const char *date,
                       ct_plot_made_t *m)
{
    int r = ct_plot_one(a, kind, coll, src, scale, date, &m->img[m->nimg]);
    m->nimg += r > 0;
    return r < 0 ? CT_EXIT_FAILURE : CT_EXIT_OK;
}

/* A collective's measured plots: busbw, latency, its summary and, for
 * runs at several scales, busbw against scale and its table. */
static int ct_plot_measured(const ct_plot_args_t *a, const ct_results_t *rows, const char *coll,
                            const ct_plot_item_t *it, size_t n, ct_plot_made_t *m)
{
    int rc = CT_EXIT_OK;
    char scale[128], date[32];
    ct_plot_scale(it, n, scale, sizeof scale, date, sizeof date);
    ct_plot_summarise(coll, it, n, scale, &m->sum[m->nsum++]);
    for (int k = CT_KIND_BUSBW; k <= CT_KIND_LATENCY && rc == CT_EXIT_OK; k++) {
        ct_plot_src_t src = {.it = it, .n = n};
        rc = ct_plot_add(a, (ct_plot_kind_t)k, coll, &src, scale, date, m);
    }
    ct_scaling_coll_t *ps = &m->scaling[m->nscaling];
    snprintf(ps->collective, sizeof ps->collective, "%s", coll);
    if (rc == CT_EXIT_OK &&
        ct_scaling_build(rows->v, rows->n, coll, a->scale_by, a->scaling_sizes, &ps->sc) != CT_OK)
        rc = CT_EXIT_FAILURE;
    if (rc == CT_EXIT_OK && ps->sc.n > 0) {
        m->nscaling++;
        ct_plot_src_t src = {.sc = &ps->sc};
        rc = ct_plot_add(a, CT_KIND_SCALING, coll, &src, scale, date, m);
    }
    return rc;
}

/* A collective's tuned plot: the tune's cells of it, sorted by size. */
static int ct_plot_tuned(const ct_plot_args_t *a, const ct_plot_tune_t *tune, const char *coll,
                         ct_plot_made_t *m)
{
    ct_plot_tcell_t *tc = calloc(tune->n + 1, sizeof *tc);
    if (tc == NULL)
        return CT_EXIT_FAILURE;
    size_t ntc = 0;
    for (size_t i = 0; i < tune->n; i++)
        if (strcmp(tune->v[i].collective, coll) == 0) {
            size_t j = ntc++;
            while (j > 0 && tc[j - 1].bytes > tune->v[i].bytes) {
                tc[j] = tc[j - 1];
                j--;
            }
            tc[j] = tune->v[i];
        }
    int rc = CT_EXIT_OK;
    if (ntc > 0) {
        char scale[128], date[32];
        snprintf(scale, sizeof scale, "%lld rank%s, %lld node%s", tune->nranks,
                 tune->nranks == 1 ? "" : "s", tune->nnodes, tune->nnodes == 1 ? "" : "s");
        snprintf(date, sizeof date, "%.10s", tune->date);
        ct_plot_src_t src = {.tc = tc, .ntc = ntc};
        rc = ct_plot_add(a, CT_KIND_TUNED, coll, &src, scale, date, m);
    }
    free(tc);
    return rc;
}

/* Every plot of every collective. */
static int ct_plot_all(const ct_plot_args_t *a, const ct_results_t *rows,
                       const ct_plot_tune_t *tune, ct_plot_made_t *m)
{
    int rc = CT_EXIT_OK;
    for (size_t c = 0; rc == CT_EXIT_OK && c < m->ncolls; c++) {
        size_t n = 0;
        ct_plot_item_t *it = ct_plot_items(rows, m->colls[c], &n);
        if (it == NULL)
            return CT_EXIT_FAILURE;
        if (n > 0)
            rc = ct_plot_measured(a, rows, m->colls[c], it, n, m);
        if (rc == CT_EXIT_OK)
            rc = ct_plot_tuned(a, tune, m->colls[c], m);
        free(it);
    }
    return rc;
}

/* scaling.md and index.html over what was made. */
static int ct_plot_pages(const ct_plot_args_t *a, const ct_plot_tune_t *tune,
                         const ct_plot_made_t *m)
{
    char md[PATH_MAX], err[1024];
    if (m->nscaling > 0 && (ct_outdir_path(a->out, "scaling.md", md, sizeof md) != CT_OK ||
                            ct_scaling_write_md(md, m->scaling, m->nscaling, "plot") != 0))
        return CT_EXIT_FAILURE;
    const ct_plot_page_t page = {
        .img = m->img,
        .nimg = m->nimg,
        .sum = m->sum,
        .nsum = m->nsum,
        .scaling = m->scaling,
        .nscaling = m->nscaling,
        .tune = a->tune ? tune : NULL,
        .tune_dir = a->tune,
        .inputs = a->inputs,
        .ninputs = a->ninputs,
    };
    ct_status_t st = ct_plot_html(a->out, &page, err, sizeof err);
    if (st != CT_OK) {
        fprintf(stderr, "colltune plot: %s\n", err);
        return ct_status_exit_code(st);
    }
    printf("colltune plot: %zu plots of %zu collectives; open %s/index.html\n", m->nimg, m->ncolls,
           a->out);
    return CT_EXIT_OK;
}

static int ct_plot_run(ct_plot_args_t *a)
{
    /* Everything that can fail cheaply fails before any drawing. */
    if (ct_gnuplot_find(a->gnuplot_opt, "plot", a->gnuplot, sizeof a->gnuplot) != 0 ||
        ct_gnuplot_find_scripts(a->plots_opt, "plot", a->plots, sizeof a->plots) != 0)
        return CT_EXIT_FAILURE;
    ct_results_t rows = {0};
    ct_plot_tune_t tune = {0};
    ct_plot_made_t made = {0};
    int rc = ct_plot_read(a, &rows, &tune);
    if (rc == CT_EXIT_OK)
        rc = ct_plot_prepare_out(a);
    if (rc == CT_EXIT_OK)
        rc = ct_plot_made_init(&rows, &tune, &made);
    if (rc == CT_EXIT_OK)
        rc = ct_plot_all(a, &rows, &tune, &made);
    if (rc == CT_EXIT_OK)
        rc = ct_plot_pages(a, &tune, &made);
    ct_plot_made_free(&made);
    ct_plot_tune_free(&tune);
    ct_results_free(&rows);
    return rc;
}

int ct_plot_scaling(const char *csv, const char *dir, int by_nodes)
{
    ct_plot_args_t a = {0};
    char *inputs[] = {(char *)csv};
    ct_plot_defaults(&a);
    a.out = dir;
    a.scale_by = by_nodes ? 1 : 0;
    a.inputs = inputs;
    a.ninputs = 1;
    snprintf(a.size, sizeof a.size, "%ldx%ld", a.width, a.height);
    return ct_plot_run(&a);
}

static int ct_plot_main(int argc, char **argv)
{
    ct_plot_args_t a = {0};
    int rc = ct_plot_parse(argc, argv, &a);
    if (rc < 0)
        rc = CT_EXIT_OK; /* --help */
    else if (rc == CT_EXIT_OK)
        rc = ct_plot_run(&a);
    free((void *)a.inputs);
    return rc;
}

const ct_command_t ct_command_plot = {
    .name = "plot",
    .summary = "draw results (and a tune's verification) with gnuplot; an index page",
    .run = ct_plot_main,
    .usage = ct_plot_usage,
};
