/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * scaling.c - busbw against scale at fixed sizes, and the efficiency.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_size.h"
#include "ct_stats.h"
#include "outdir.h"
#include "scaling.h"
#include "ct_vec.h"

/* What tells series apart besides scale and run: runs at different
 * scales are different runs, so neither may split a line. */
enum { CT_SC_BACKEND, CT_SC_CONFIG, CT_SC_PLACE, CT_SC_TYPE, CT_SC_NDIM };

static void ct_scaling_dim(const ct_result_t *r, int d, char *buf, size_t len)
{
    switch (d) {
    case CT_SC_BACKEND: snprintf(buf, len, "%s", r->backend); break;
    case CT_SC_CONFIG: snprintf(buf, len, "config %s", r->config_id); break;
    case CT_SC_PLACE: snprintf(buf, len, "%s", r->placement); break;
    default: snprintf(buf, len, "%s/%s", r->dtype, r->op); break;
    }
}

static long long ct_scaling_of(const ct_result_t *r, int by_nodes)
{
    return by_nodes ? r->nnodes : r->nranks;
}

/* Sorted distinct values of v[0..n) in place; the new count. */
static size_t ct_scaling_uniq(long long *v, size_t n)
{
    ct_vec_sort(v, n, sizeof *v, ct_vec_cmp_ll);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (k == 0 || v[k - 1] != v[i])
            v[k++] = v[i];
    return k;
}

/* The median busbw of the rows of series LABEL at (bytes, scale); NaN
 * when there is none. */
static double ct_scaling_median(const ct_result_t *const *sel, char (*label)[160], size_t n,
                                const char *want, long long bytes, long long scale, int by_nodes,
                                double *tmp)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (sel[i]->bytes == bytes && ct_scaling_of(sel[i], by_nodes) == scale &&
            strcmp(label[i], want) == 0 && isfinite(sel[i]->busbw_gbps))
            tmp[k++] = sel[i]->busbw_gbps;
    return ct_stats_median_inplace(tmp, k); /* NaN when k is 0 */
}

/* One collective's rows (sel[0..m)), each with its series label and
 * scale, and the scratch of the build. */
typedef struct {
    const ct_result_t **sel;
    char (*label)[160];
    long long *scales; /* per row; then the distinct ones, nscales */
    long long *sizes, *have;
    double *tmp;
    size_t m, nscales;
    int by_nodes;
} ct_scaling_work_t;

static ct_status_t ct_scaling_work_alloc(ct_scaling_work_t *w, size_t m)
{
    w->m = m;
    w->sel = calloc(m, sizeof *w->sel);
    w->label = calloc(m, sizeof *w->label);
    w->scales = calloc(m, sizeof *w->scales);
    w->sizes = calloc(m, sizeof *w->sizes);
    w->have = calloc(m, sizeof *w->have);
    w->tmp = calloc(m, sizeof *w->tmp);
    if (w->sel == NULL || w->label == NULL || w->scales == NULL || w->sizes == NULL ||
        w->have == NULL || w->tmp == NULL)
        return CT_ERR_NOMEM;
    return CT_OK;
}

static void ct_scaling_work_free(ct_scaling_work_t *w)
{
    free(w->sel);
    free(w->label);
    free(w->scales);
    free(w->sizes);
    free(w->have);
    free(w->tmp);
}

/* Each row's series label (the backend, and whatever else varies among
 * the rows) and scale; by < 0: by nodes when the node count varies. */
static void ct_scaling_labels(ct_scaling_work_t *w, int by)
{
    int varies[CT_SC_NDIM] = {0}, nodes_vary = 0;
    char first[CT_SC_NDIM][96], cur[96];
    for (size_t i = 0; i < w->m; i++) {
        nodes_vary |= w->sel[i]->nnodes != w->sel[0]->nnodes;
        for (int d = 0; d < CT_SC_NDIM; d++) {
            ct_scaling_dim(w->sel[i], d, cur, sizeof cur);
            if (i == 0)
                snprintf(first[d], sizeof first[d], "%s", cur);
            else if (strcmp(first[d], cur) != 0)
                varies[d] = 1;
        }
    }
    varies[CT_SC_BACKEND] = 1; /* a line always says what ran */
    w->by_nodes = by < 0 ? nodes_vary : by;
    for (size_t i = 0; i < w->m; i++) {
        size_t used = 0;
        for (int d = 0; d < CT_SC_NDIM && used < sizeof w->label[i] - 1; d++) {
            if (!varies[d])
                continue;
            ct_scaling_dim(w->sel[i], d, cur, sizeof cur);
            int n = snprintf(w->label[i] + used, sizeof w->label[i] - used, "%s%s",
                             used ? ", " : "", cur);
            used += n > 0 ? (size_t)n : 0;
        }
        w->scales[i] = ct_scaling_of(w->sel[i], w->by_nodes);
    }
}

/* Series want's line at bytes: its median busbw at each scale that has
 * one, and the efficiency against the reference. */
static void ct_scaling_line(const ct_scaling_work_t *w, const char *want, long long bytes,
                            ct_scaling_line_t *l)
{
    memset(l, 0, sizeof *l);
    snprintf(l->series, sizeof l->series, "%s", want);
    l->bytes = bytes;
    for (size_t s = 0; s < w->nscales; s++) {
        double b = ct_scaling_median(w->sel, w->label, w->m, want, bytes, w->scales[s], w->by_nodes,
                                     w->tmp);
        if (isnan(b))
            continue;
        l->scale[l->n] = w->scales[s];
        l->busbw[l->n] = b;
        l->n++;
    }
    /* The reference is the smallest scale with a busbw: one rank moves
     * nothing over a link, and allreduce's busbw there is 0. */
    l->ref = NAN;
    for (size_t k = 0; k < l->n && isnan(l->ref); k++)
        if (l->busbw[k] > 0)
            l->ref = l->busbw[k];
    for (size_t k = 0; k < l->n; k++)
        l->eff[k] = l->busbw[k] / l->ref;
}

/* The lines of row i's series: at most max_sizes of its sizes measured at
 * two scales or more, appended to out. */
static ct_status_t ct_scaling_series(ct_scaling_work_t *w, size_t i, size_t max_sizes,
                                     ct_scaling_t *out)
{
    size_t nsz = 0;
    for (size_t r = 0; r < w->m; r++)
        if (strcmp(w->label[r], w->label[i]) == 0)
            w->sizes[nsz++] = w->sel[r]->bytes;
    nsz = ct_scaling_uniq(w->sizes, nsz);
    size_t ok = 0;
    for (size_t z = 0; z < nsz; z++) {
        size_t at = 0;
        for (size_t s = 0; s < w->nscales; s++)
            at += !isnan(ct_scaling_median(w->sel, w->label, w->m, w->label[i], w->sizes[z],
                                           w->scales[s], w->by_nodes, w->tmp));
        if (at >= 2)
            w->have[ok++] = w->sizes[z];
    }
    size_t take = ok < max_sizes ? ok : max_sizes;
    ct_scaling_line_t *v = realloc(out->v, (out->n + take + 1) * sizeof *v);
    if (v == NULL)
        return CT_ERR_NOMEM;
    out->v = v;
    for (size_t t = 0; t < take; t++) {
        /* evenly spread in log size (the sizes are a geometric sweep),
         * the last one always the largest */
        size_t z = take == 1 ? ok - 1 : (size_t)llround((double)t * (ok - 1) / (take - 1));
        ct_scaling_line(w, w->label[i], w->have[z], &out->v[out->n++]);
    }
    return CT_OK;
}

ct_status_t ct_scaling_build(const ct_result_t *rows, size_t n, const char *coll, int by,
                             size_t max_sizes, ct_scaling_t *out)
{
    memset(out, 0, sizeof *out);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        m += strcmp(rows[i].collective, coll) == 0 && rows[i].wrong <= 0;
    if (m == 0 || max_sizes == 0)
        return CT_OK;
    ct_scaling_work_t w;
    memset(&w, 0, sizeof w);
    ct_status_t st = ct_scaling_work_alloc(&w, m);
    if (st == CT_OK) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (strcmp(rows[i].collective, coll) == 0 && rows[i].wrong <= 0)
                w.sel[k++] = &rows[i];
        ct_scaling_labels(&w, by);
        out->by_nodes = w.by_nodes;
        w.nscales = ct_scaling_uniq(w.scales, m);
        if (w.nscales > CT_SCALING_MAX_SCALES)
            w.nscales = CT_SCALING_MAX_SCALES; /* the smallest ones */
    }
    /* Series in order of first appearance, when there are two scales. */
    for (size_t i = 0; st == CT_OK && w.nscales >= 2 && i < m; i++) {
        size_t j = 0;
        while (j < i && strcmp(w.label[j], w.label[i]) != 0)
            j++;
        if (j == i)
            st = ct_scaling_series(&w, i, max_sizes, out);
    }
    ct_scaling_work_free(&w);
    if (st != CT_OK)
        ct_scaling_free(out);
    return st;
}

void ct_scaling_free(ct_scaling_t *s)
{
    free(s->v);
    memset(s, 0, sizeof *s);
}

void ct_scaling_write_table(FILE *f, const ct_scaling_t *s, int md)
{
    long long all[CT_SCALING_MAX_SCALES];
    size_t nall = 0;
    for (size_t i = 0; i < s->n; i++)
        for (size_t k = 0; k < s->v[i].n; k++) {
            size_t j = 0;
            while (j < nall && all[j] != s->v[i].scale[k])
                j++;
            if (j == nall && nall < CT_SCALING_MAX_SCALES)
                all[nall++] = s->v[i].scale[k];
        }
    nall = ct_scaling_uniq(all, nall);
    const char *unit = s->by_nodes ? "node" : "rank";
    fprintf(f, md ? "| series | size |" : "%-28s %8s", "series", "size");
    for (size_t j = 0; j < nall; j++) {
        char h[48];
        snprintf(h, sizeof h, "%lld %s%s", all[j], unit, all[j] == 1 ? "" : "s");
        fprintf(f, md ? " %s |" : " %18s", h);
    }
    fputc('\n', f);
    if (md) {
        fputs("|---|---:|", f);
        for (size_t j = 0; j < nall; j++)
            fputs("---:|", f);
        fputc('\n', f);
    }
    for (size_t i = 0; i < s->n; i++) {
        const ct_scaling_line_t *l = &s->v[i];
        char sz[32];
        ct_size_format((size_t)l->bytes, sz, sizeof sz);
        fprintf(f, md ? "| %s | %s |" : "%-28s %8s", l->series, sz);
        for (size_t j = 0; j < nall; j++) {
            char cell[48] = "-";
            for (size_t k = 0; k < l->n; k++)
                if (l->scale[k] == all[j] && isfinite(l->eff[k]))
                    snprintf(cell, sizeof cell, "%.3g GB/s (%.0f%%)", l->busbw[k], 100 * l->eff[k]);
                else if (l->scale[k] == all[j])
                    snprintf(cell, sizeof cell, "%.3g GB/s (-)", l->busbw[k]);
            fprintf(f, md ? " %s |" : " %18s", cell);
        }
        fputc('\n', f);
    }
}

int ct_scaling_write_md(const char *path, const ct_scaling_coll_t *c, size_t n, const char *who)
{
    ct_outfile_t out;
    FILE *f = ct_outdir_open(&out, path, who);
    if (f == NULL)
        return -1;
    fputs("# Scaling efficiency\n\nbusbw (GB/s) at each scale, and in brackets the efficiency: "
          "busbw against the busbw at the smallest scale (perfect scaling keeps busbw flat).\n",
          f);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "\n## %s\n\n", c[i].collective);
        ct_scaling_write_table(f, &c[i].sc, 1);
    }
    return ct_outdir_commit(&out, who);
}
