/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * health_rule.c - naming slow hosts and links (health_rule.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_stats.h"
#include "health_rule.h"
#include "ct_vec.h"

ct_health_params_t ct_health_default_params(void)
{
    ct_health_params_t p = {CT_HEALTH_Z_MAX, CT_HEALTH_MIN_RATIO, CT_HEALTH_MAD_FLOOR};
    return p;
}

void ct_health_zscores(const double *x, size_t n, double mad_floor, double *z, double *ratio)
{
    double *lg = malloc((n ? n : 1) * sizeof *lg), *t = malloc((n ? n : 1) * sizeof *t);
    for (size_t i = 0; i < n; i++) {
        z[i] = 0;
        ratio[i] = 1;
    }
    if (lg == NULL || t == NULL || n < 2) {
        free(lg);
        free(t);
        return;
    }
    for (size_t i = 0; i < n; i++)
        lg[i] = log(x[i]);
    /* Each value against the others: with a handful of hosts, a slow one
     * inside its own median and MAD would mask itself.  Past
     * CT_HEALTH_LOO_MAX one value moves them too little to matter. */
    int loo = n <= CT_HEALTH_LOO_MAX;
    double med = 0, mad = 0;
    for (size_t i = 0; i < n; i++) {
        if (loo || i == 0) {
            size_t k = 0;
            for (size_t j = 0; j < n; j++)
                if (!loo || j != i)
                    t[k++] = lg[j];
            med = ct_stats_median_inplace(t, k);
            k = 0;
            for (size_t j = 0; j < n; j++)
                if (!loo || j != i)
                    t[k++] = fabs(lg[j] - med);
            mad = ct_stats_median_inplace(t, k);
            if (!(mad > mad_floor))
                mad = mad_floor;
        }
        z[i] = 0.6745 * (lg[i] - med) / mad;
        ratio[i] = exp(lg[i] - med);
    }
    free(lg);
    free(t);
}

static int ct_health_same_cell(const ct_health_row_t *a, const ct_health_row_t *b)
{
    return a->bytes == b->bytes && strcmp(a->collective, b->collective) == 0 &&
           strcmp(a->placement, b->placement) == 0;
}

/* The index of name among v[0..*n), appended when new. */
static size_t ct_health_slot(ct_health_verdict_t *v, size_t *n, const char *a, const char *b)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp(v[i].host, a) == 0 && strcmp(v[i].host_b, b) == 0)
            return i;
    memset(&v[*n], 0, sizeof v[*n]);
    snprintf(v[*n].host, sizeof v[*n].host, "%s", a);
    snprintf(v[*n].host_b, sizeof v[*n].host_b, "%s", b);
    return (*n)++;
}

/* Per-collective tallies of one subject: cells and outlier cells. */
typedef struct {
    size_t subject;
    char collective[24];
    size_t cells, slow;
} ct_health_tally_t;

static void ct_health_count(ct_health_tally_t *t, size_t *nt, size_t subject, const char *coll,
                            int slow)
{
    size_t i = 0;
    while (i < *nt && !(t[i].subject == subject && strcmp(t[i].collective, coll) == 0))
        i++;
    if (i == *nt) {
        memset(&t[i], 0, sizeof t[i]);
        t[i].subject = subject;
        snprintf(t[i].collective, sizeof t[i].collective, "%s", coll);
        (*nt)++;
    }
    t[i].cells++;
    t[i].slow += slow;
}

/* Ranks: named first, then by ratio, largest first. */
static int ct_health_rank_cmp(const void *x, const void *y)
{
    const ct_health_verdict_t *a = x, *b = y;
    if (a->named != b->named)
        return b->named - a->named;
    return (a->ratio < b->ratio) - (a->ratio > b->ratio);
}

/* Fills the verdicts' named flags and their ratio, the median of the
 * per-cell ratios collected in ratios[subject * stride + k].  Named: an
 * outlier in more than half of ALL its cells.  (Per collective, the few
 * sizes of one collective make a chance majority somewhere among many
 * hosts or pairs; and a busy machine slows a cell or two of anyone.)
 * named_in lists the collectives with an outlier cell. */
static void ct_health_finish(ct_health_verdict_t *v, size_t nv, const ct_health_tally_t *t,
                             size_t nt, double *ratios, const size_t *nratios, size_t stride)
{
    for (size_t i = 0; i < nv; i++) {
        v[i].ratio = ct_stats_median_inplace(ratios + i * stride, nratios[i]);
        v[i].named = 2 * v[i].slow > v[i].cells;
        for (size_t k = 0; v[i].named && k < nt; k++)
            if (t[k].subject == i && t[k].slow > 0) {
                size_t used = strlen(v[i].named_in);
                snprintf(v[i].named_in + used, sizeof v[i].named_in - used, "%s%s", used ? "," : "",
                         t[k].collective);
            }
    }
}

/* The judgement's scratch: per subject (host or link) its tallies and
 * per-cell ratios (ratios[subject * stride + k]), and per cell its rows
 * and subjects. */
typedef struct {
    const ct_health_params_t *p;
    int pairs;     /* the rows are pairs of hosts */
    size_t stride; /* the cells: room for each subject's ratios */
    ct_health_tally_t *th, *tl;
    size_t nth, ntl, nlinks;
    double *rh, *rl;
    size_t *nrh, *nrl;
    double *x, *z, *tmp, *rat;
    size_t *subj, *idx;
    char *done;
} ct_health_work_t;

/* The distinct cells (collective, placement, size) of rows[0..n). */
static size_t ct_health_ncells(const ct_health_row_t *rows, size_t n)
{
    size_t ncells = 0;
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        while (j < i && !ct_health_same_cell(&rows[j], &rows[i]))
            j++;
        ncells += j == i;
    }
    return ncells;
}

/* Hosts and pairs are at most the rows; per cell, ratios at most n. */
static ct_status_t ct_health_work_alloc(ct_health_work_t *w, size_t n, size_t ncells,
                                        ct_health_report_t *out)
{
    w->stride = ncells ? ncells : 1;
    out->hosts = calloc(n + 1, sizeof *out->hosts);
    out->links = calloc(n + 1, sizeof *out->links);
    w->th = calloc(n + 1, sizeof *w->th);
    w->tl = calloc(n + 1, sizeof *w->tl);
    w->rh = calloc((n + 1) * w->stride, sizeof *w->rh);
    w->rl = calloc((n + 1) * w->stride, sizeof *w->rl);
    w->nrh = calloc(n + 1, sizeof *w->nrh);
    w->nrl = calloc(n + 1, sizeof *w->nrl);
    w->x = calloc(n + 1, sizeof *w->x);
    w->z = calloc(n + 1, sizeof *w->z);
    w->tmp = calloc(n + 1, sizeof *w->tmp);
    w->rat = calloc(n + 1, sizeof *w->rat);
    w->subj = calloc(n + 1, sizeof *w->subj);
    w->idx = calloc(n + 1, sizeof *w->idx);
    w->done = calloc(n + 1, 1);
    if (out->hosts == NULL || out->links == NULL || w->th == NULL || w->tl == NULL ||
        w->rh == NULL || w->rl == NULL || w->nrh == NULL || w->nrl == NULL || w->x == NULL ||
        w->z == NULL || w->tmp == NULL || w->rat == NULL || w->subj == NULL || w->idx == NULL ||
        w->done == NULL)
        return CT_ERR_NOMEM;
    return CT_OK;
}

static void ct_health_work_free(ct_health_work_t *w)
{
    free(w->th);
    free(w->tl);
    free(w->rh);
    free(w->rl);
    free(w->nrh);
    free(w->nrl);
    free(w->x);
    free(w->z);
    free(w->tmp);
    free(w->rat);
    free(w->subj);
    free(w->idx);
    free(w->done);
}

/* One subject's ratio x in one cell: counted, slow or not, its ratio
 * kept (ratios, *nratios) and its worst cell. */
static int ct_health_record(ct_health_verdict_t *v, const ct_health_params_t *p, double z, double x,
                            double *ratios, size_t *nratios, const char *coll, long long bytes)
{
    int slow = z > p->z_max && x >= p->min_ratio;
    v->cells++;
    v->slow += slow;
    ratios[(*nratios)++] = x;
    if (x > v->worst) {
        v->worst = x;
        snprintf(v->worst_collective, sizeof v->worst_collective, "%s", coll);
        v->worst_bytes = bytes;
    }
    return slow;
}

/* The hosts of one cell, its m rows at w->idx with median time med
 * (row c the first): per host its own time, or the fastest of its
 * pairs' (noise only adds time, so a host is slow when even its best
 * pair is), against the others. */
static void ct_health_cell_hosts(ct_health_work_t *w, const ct_health_row_t *rows, size_t c,
                                 size_t m, double med, ct_health_report_t *out)
{
    size_t ns = 0;
    for (size_t k = 0; k < m; k++) {
        const ct_health_row_t *r = &rows[w->idx[k]];
        for (int side = 0; side < 1 + w->pairs; side++) {
            size_t s = ct_health_slot(out->hosts, &out->nhosts, side ? r->host_b : r->host, "");
            size_t q = 0;
            while (q < ns && w->subj[q] != s)
                q++;
            if (q == ns)
                w->subj[ns++] = s;
        }
    }
    for (size_t q = 0; q < ns; q++) {
        size_t cnt = 0;
        for (size_t k = 0; k < m; k++) {
            const ct_health_row_t *r = &rows[w->idx[k]];
            const char *h = out->hosts[w->subj[q]].host;
            if (strcmp(r->host, h) == 0 || (w->pairs && strcmp(r->host_b, h) == 0))
                w->tmp[cnt++] = r->us / med;
        }
        w->x[q] = w->tmp[0];
        for (size_t k = 1; k < cnt; k++)
            w->x[q] = w->tmp[k] < w->x[q] ? w->tmp[k] : w->x[q];
    }
    ct_health_zscores(w->x, ns, w->p->mad_floor, w->z, w->rat);
    for (size_t q = 0; q < ns; q++) {
        size_t s = w->subj[q];
        int slow = ct_health_record(&out->hosts[s], w->p, w->z[q], w->rat[q], w->rh + s * w->stride,
                                    &w->nrh[s], rows[c].collective, rows[c].bytes);
        ct_health_count(w->th, &w->nth, s, rows[c].collective, slow);
    }
}

/* The pairs of one cell (its m rows at w->idx, median time med), each
 * against the others; a pair is the same pair whichever host the log
 * names first. */
static void ct_health_cell_links(ct_health_work_t *w, const ct_health_row_t *rows, size_t m,
                                 double med, ct_health_report_t *out)
{
    for (size_t k = 0; k < m; k++)
        w->x[k] = rows[w->idx[k]].us / med;
    ct_health_zscores(w->x, m, w->p->mad_floor, w->z, w->rat);
    for (size_t k = 0; k < m; k++) {
        const ct_health_row_t *r = &rows[w->idx[k]];
        int ab = strcmp(r->host, r->host_b) <= 0;
        size_t s = ct_health_slot(out->links, &w->nlinks, ab ? r->host : r->host_b,
                                  ab ? r->host_b : r->host);
        int slow = ct_health_record(&out->links[s], w->p, w->z[k], w->rat[k], w->rl + s * w->stride,
                                    &w->nrl[s], r->collective, r->bytes);
        ct_health_count(w->tl, &w->ntl, s, r->collective, slow);
    }
}

/* Row c's cell, unless judged already: its rows with a time (at least
 * two), its hosts and, for pairs, its links. */
static void ct_health_cell(ct_health_work_t *w, const ct_health_row_t *rows, size_t n, size_t c,
                           ct_health_report_t *out)
{
    size_t m = 0;
    for (size_t i = c; i < n; i++)
        if (!w->done[i] && ct_health_same_cell(&rows[i], &rows[c]) && rows[i].us > 0) {
            w->idx[m++] = i;
            w->done[i] = 1;
        }
    if (m < 2)
        return;
    for (size_t k = 0; k < m; k++)
        w->tmp[k] = rows[w->idx[k]].us;
    double med = ct_stats_median_inplace(w->tmp, m);
    ct_health_cell_hosts(w, rows, c, m, med, out);
    if (w->pairs)
        ct_health_cell_links(w, rows, m, med, out);
}

/* A slow host makes each of its pairs slow: only a slow pair of two
 * hosts that are not named points at the link (out->links[0..nlinks)
 * kept in place). */
static void ct_health_keep_links(ct_health_report_t *out, size_t nlinks)
{
    for (size_t i = 0; i < nlinks; i++) {
        int by_host = 0;
        for (size_t h = 0; h < out->nhosts; h++)
            if (out->hosts[h].named && (strcmp(out->hosts[h].host, out->links[i].host) == 0 ||
                                        strcmp(out->hosts[h].host, out->links[i].host_b) == 0))
                by_host = 1;
        if (out->links[i].named && !by_host)
            out->links[out->nlinks++] = out->links[i];
    }
}

ct_status_t ct_health_judge(const ct_health_row_t *rows, size_t n, const ct_health_params_t *p,
                            ct_health_report_t *out)
{
    memset(out, 0, sizeof *out);
    ct_health_work_t w;
    memset(&w, 0, sizeof w);
    w.p = p;
    w.pairs = n > 0 && rows[0].host_b[0] != '\0';
    ct_status_t st = ct_health_work_alloc(&w, n, ct_health_ncells(rows, n), out);
    for (size_t c = 0; st == CT_OK && c < n; c++)
        if (!w.done[c])
            ct_health_cell(&w, rows, n, c, out);
    if (st == CT_OK) {
        ct_health_finish(out->hosts, out->nhosts, w.th, w.nth, w.rh, w.nrh, w.stride);
        ct_health_finish(out->links, w.nlinks, w.tl, w.ntl, w.rl, w.nrl, w.stride);
        ct_health_keep_links(out, w.nlinks);
        ct_vec_sort(out->hosts, out->nhosts, sizeof *out->hosts, ct_health_rank_cmp);
        ct_vec_sort(out->links, out->nlinks, sizeof *out->links, ct_health_rank_cmp);
    }
    ct_health_work_free(&w);
    if (st != CT_OK)
        ct_health_free(out);
    return st;
}

void ct_health_free(ct_health_report_t *r)
{
    free(r->hosts);
    free(r->links);
    memset(r, 0, sizeof *r);
}
