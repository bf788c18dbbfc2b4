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

ct_status_t ct_health_judge(const ct_health_row_t *rows, size_t n, const ct_health_params_t *p,
                            ct_health_report_t *out)
{
    memset(out, 0, sizeof *out);
    int pairs = n > 0 && rows[0].host_b[0] != '\0';
    size_t ncells = 0;
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        while (j < i && !ct_health_same_cell(&rows[j], &rows[i]))
            j++;
        ncells += j == i;
    }
    /* Hosts and pairs are at most the rows; per cell, ratios at most n. */
    size_t stride = ncells ? ncells : 1;
    out->hosts = calloc(n + 1, sizeof *out->hosts);
    out->links = calloc(n + 1, sizeof *out->links);
    ct_health_tally_t *th = calloc(n + 1, sizeof *th), *tl = calloc(n + 1, sizeof *tl);
    double *rh = calloc((n + 1) * stride, sizeof *rh), *rl = calloc((n + 1) * stride, sizeof *rl);
    size_t *nrh = calloc(n + 1, sizeof *nrh), *nrl = calloc(n + 1, sizeof *nrl);
    double *x = calloc(n + 1, sizeof *x), *z = calloc(n + 1, sizeof *z),
           *tmp = calloc(n + 1, sizeof *tmp), *rat = calloc(n + 1, sizeof *rat);
    size_t *subj = calloc(n + 1, sizeof *subj), *idx = calloc(n + 1, sizeof *idx);
    char *done = calloc(n + 1, 1);
    ct_status_t st = CT_ERR_NOMEM;
    if (out->hosts == NULL || out->links == NULL || th == NULL || tl == NULL || rh == NULL ||
        rl == NULL || nrh == NULL || nrl == NULL || x == NULL || z == NULL || tmp == NULL ||
        rat == NULL || subj == NULL || idx == NULL || done == NULL)
        goto fail;
    size_t nth = 0, ntl = 0, nlinks = 0;
    for (size_t c = 0; c < n; c++) {
        if (done[c])
            continue;
        /* The rows of c's cell. */
        size_t m = 0;
        for (size_t i = c; i < n; i++)
            if (!done[i] && ct_health_same_cell(&rows[i], &rows[c]) && rows[i].us > 0) {
                idx[m++] = i;
                done[i] = 1;
            }
        if (m < 2)
            continue;
        for (size_t k = 0; k < m; k++)
            tmp[k] = rows[idx[k]].us;
        double med = ct_stats_median_inplace(tmp, m);
        /* The subjects' ratios in this cell: per host (its own time, or
         * the median of its pairs' ratios), then per pair. */
        size_t ns = 0;
        for (size_t k = 0; k < m; k++) {
            const ct_health_row_t *r = &rows[idx[k]];
            for (int side = 0; side < 1 + pairs; side++) {
                size_t s = ct_health_slot(out->hosts, &out->nhosts, side ? r->host_b : r->host, "");
                size_t q = 0;
                while (q < ns && subj[q] != s)
                    q++;
                if (q == ns)
                    subj[ns++] = s;
            }
        }
        for (size_t q = 0; q < ns; q++) {
            size_t cnt = 0;
            for (size_t k = 0; k < m; k++) {
                const ct_health_row_t *r = &rows[idx[k]];
                const char *h = out->hosts[subj[q]].host;
                if (strcmp(r->host, h) == 0 || (pairs && strcmp(r->host_b, h) == 0))
                    tmp[cnt++] = r->us / med;
            }
            /* pairs: the host's fastest pair; noise only adds time, so a
             * host is slow when even its best pair is */
            x[q] = tmp[0];
            for (size_t k = 1; k < cnt; k++)
                x[q] = tmp[k] < x[q] ? tmp[k] : x[q];
        }
        ct_health_zscores(x, ns, p->mad_floor, z, rat);
        for (size_t q = 0; q < ns; q++)
            x[q] = rat[q];
        for (size_t q = 0; q < ns; q++) {
            ct_health_verdict_t *v = &out->hosts[subj[q]];
            int slow = z[q] > p->z_max && x[q] >= p->min_ratio;
            v->cells++;
            v->slow += slow;
            rh[subj[q] * stride + nrh[subj[q]]++] = x[q];
            if (x[q] > v->worst) {
                v->worst = x[q];
                snprintf(v->worst_collective, sizeof v->worst_collective, "%s", rows[c].collective);
                v->worst_bytes = rows[c].bytes;
            }
            ct_health_count(th, &nth, subj[q], rows[c].collective, slow);
        }
        if (!pairs)
            continue;
        for (size_t k = 0; k < m; k++)
            x[k] = rows[idx[k]].us / med;
        ct_health_zscores(x, m, p->mad_floor, z, rat);
        for (size_t k = 0; k < m; k++)
            x[k] = rat[k];
        for (size_t k = 0; k < m; k++) {
            const ct_health_row_t *r = &rows[idx[k]];
            /* a pair is the same pair whichever host the log names first */
            int ab = strcmp(r->host, r->host_b) <= 0;
            size_t s = ct_health_slot(out->links, &nlinks, ab ? r->host : r->host_b,
                                      ab ? r->host_b : r->host);
            ct_health_verdict_t *v = &out->links[s];
            int slow = z[k] > p->z_max && x[k] >= p->min_ratio;
            v->cells++;
            v->slow += slow;
            rl[s * stride + nrl[s]++] = x[k];
            if (x[k] > v->worst) {
                v->worst = x[k];
                snprintf(v->worst_collective, sizeof v->worst_collective, "%s", r->collective);
                v->worst_bytes = r->bytes;
            }
            ct_health_count(tl, &ntl, s, r->collective, slow);
        }
    }
    ct_health_finish(out->hosts, out->nhosts, th, nth, rh, nrh, stride);
    ct_health_finish(out->links, nlinks, tl, ntl, rl, nrl, stride);
    /* A slow host makes each of its pairs slow: only a slow pair of two
     * hosts that are not named points at the link. */
    for (size_t i = 0; i < nlinks; i++) {
        int by_host = 0;
        for (size_t h = 0; h < out->nhosts; h++)
            if (out->hosts[h].named && (strcmp(out->hosts[h].host, out->links[i].host) == 0 ||
                                        strcmp(out->hosts[h].host, out->links[i].host_b) == 0))
                by_host = 1;
        if (out->links[i].named && !by_host)
            out->links[out->nlinks++] = out->links[i];
    }
    ct_vec_sort(out->hosts, out->nhosts, sizeof *out->hosts, ct_health_rank_cmp);
    ct_vec_sort(out->links, out->nlinks, sizeof *out->links, ct_health_rank_cmp);
    st = CT_OK;
fail:
    free(th);
    free(tl);
    free(rh);
    free(rl);
    free(nrh);
    free(nrl);
    free(x);
    free(z);
    free(tmp);
    free(rat);
    free(subj);
    free(idx);
    free(done);
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
