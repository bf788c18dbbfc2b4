/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * evidence.c - the evidence index of a tune scope (evidence.h).
 */
#include "evidence.h"

#include <stdlib.h>
#include <string.h>

#include "ct_vec.h"
#include "tune_weights.h"

/* The trials of sc's configuration ci are those journaled under its scope
 * and key (the baselines of two scopes share a key). */
static int ct_tune_is(const ct_trial_t *t, const ct_tune_scope_t *sc, size_t ci)
{
    return strcmp(t->scope, sc->name) == 0 && strcmp(t->key, sc->configs.configs[ci].key) == 0;
}

/* Whether row is of the shape (nranks, nnodes); 0: any. */
static int ct_tune_row_of(const ct_trial_row_t *row, long long nranks, long long nnodes)
{
    return nranks == 0 || (row->nranks == nranks && row->nnodes == nnodes);
}

int ct_tune_row_at(const ct_tune_scope_t *sc, const ct_trial_row_t *row)
{
    return ct_tune_row_of(row, (long long)sc->shape.nnodes * sc->shape.ranks_per_node,
                          sc->shape.nnodes);
}

/* The out-of-place row of t at (coll, dtype, bytes, shape) that counts as
 * a sample of sc; dtype NULL: any; nranks 0: any shape. */
static const ct_trial_row_t *ct_tune_sample_row(const ct_trial_t *t, const ct_tune_scope_t *sc,
                                                const char *coll, const char *dtype,
                                                long long bytes, long long nranks, long long nnodes)
{
    for (size_t r = 0; r < t->nrows; r++) {
        const ct_trial_row_t *row = &t->rows[r];
        if (row->bytes == bytes && ct_tune_row_at(sc, row) && ct_tune_row_of(row, nranks, nnodes) &&
            strcmp(row->collective, coll) == 0 &&
            (dtype == NULL || strcmp(row->dtype, dtype) == 0) &&
            strcmp(row->placement, "out-of-place") == 0 && row->median_us > 0)
            return row;
    }
    return NULL;
}

size_t ct_tune_base_samples(const ct_tune_state_t *s, const ct_tune_scope_t *sc, const char *coll,
                            long long bytes, double *us, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < s->ntrials && n < max; i++) {
        const ct_trial_t *t = &s->trials[i];
        if (t->status != CT_JOURNAL_OK || !ct_tune_is(t, sc, 0))
            continue;
        const ct_trial_row_t *row = ct_tune_sample_row(t, sc, coll, NULL, bytes, 0, 0);
        if (row != NULL)
            us[n++] = row->median_us;
    }
    return n;
}

/* Whether the baseline sets set's variable to the same value. */
int ct_tune_in_base(const ct_space_config_t *base, const ct_space_setting_t *set)
{
    for (size_t k = 0; k < base->n; k++)
        if (strcmp(base->settings[k].name, set->name) == 0 &&
            strcmp(base->settings[k].value, set->value) == 0)
            return 1;
    return 0;
}

size_t ct_tune_nchanged(const ct_tune_scope_t *sc, size_t ci)
{
    const ct_space_config_t *base = &sc->configs.configs[0], *c = &sc->configs.configs[ci];
    size_t n = 0;
    for (size_t i = 0; i < c->n; i++)
        n += !ct_tune_in_base(base, &c->settings[i]);
    return n;
}

static int ct_tune_cmp_cell(const void *a, const void *b)
{
    long long x = ((const ct_tune_ev_cell_t *)a)->bytes, y = ((const ct_tune_ev_cell_t *)b)->bytes;
    return (x > y) - (x < y);
}

/* Whether rows a and b are of one kind: collective, dtype and, with
 * shapes, shape. */
static int ct_tune_same_kind(const ct_tune_state_t *s, const ct_trial_row_t *a,
                             const ct_trial_row_t *b)
{
    return strcmp(a->collective, b->collective) == 0 && strcmp(a->dtype, b->dtype) == 0 &&
           (s->nshapes == 0 || (a->nranks == b->nranks && a->nnodes == b->nnodes));
}

/* The cells: the baseline's distinct collective x dtype (x shape) kinds
 * (first seen first, at most 32 x CT_SHAPES_MAX) and, per kind, its
 * distinct sizes in ascending order (every row counts, measured or not,
 * as the report always listed them). */
static ct_status_t ct_tune_ev_cells(const ct_tune_state_t *s, const ct_tune_scope_t *sc,
                                    ct_tune_evidence_t *ev)
{
    const ct_trial_row_t *kinds[32 * CT_SHAPES_MAX];
    size_t nc = 0, cap = 0;
    for (size_t i = 0; i < s->ntrials; i++) {
        const ct_trial_t *t = &s->trials[i];
        if (t->status != CT_JOURNAL_OK || !ct_tune_is(t, sc, 0))
            continue;
        for (size_t r = 0; r < t->nrows; r++) {
            if (!ct_tune_row_at(sc, &t->rows[r]))
                continue;
            size_t k = 0;
            while (k < nc && !ct_tune_same_kind(s, kinds[k], &t->rows[r]))
                k++;
            if (k == nc && nc < sizeof kinds / sizeof kinds[0])
                kinds[nc++] = &t->rows[r];
        }
    }
    for (size_t k = 0; k < nc; k++) {
        size_t first = ev->ncells;
        for (size_t i = 0; i < s->ntrials; i++) {
            const ct_trial_t *t = &s->trials[i];
            if (t->status != CT_JOURNAL_OK || !ct_tune_is(t, sc, 0))
                continue;
            for (size_t r = 0; r < t->nrows; r++) {
                const ct_trial_row_t *row = &t->rows[r];
                size_t j = first;
                if (!ct_tune_row_at(sc, row) || !ct_tune_same_kind(s, row, kinds[k]))
                    continue;
                while (j < ev->ncells && ev->cells[j].bytes != row->bytes)
                    j++;
                if (j < ev->ncells || ev->ncells - first >= CT_TUNE_EV_MAX_SIZES)
                    continue;
                ct_tune_ev_cell_t cell = {kinds[k]->collective,
                                          kinds[k]->dtype,
                                          row->bytes,
                                          NULL,
                                          s->nshapes > 0 ? kinds[k]->nranks : 0,
                                          s->nshapes > 0 ? kinds[k]->nnodes : 0};
                if (CT_VEC_PUSH(ev->cells, ev->ncells, cap, &cell) != CT_OK)
                    return CT_ERR_NOMEM;
            }
        }
        if (ev->ncells > first + 1)
            ct_vec_sort(ev->cells + first, ev->ncells - first, sizeof *ev->cells, ct_tune_cmp_cell);
    }
    return CT_OK;
}

/* Every ok trial of configuration ci, in journal order, into its cells. */
static void ct_tune_ev_fill(const ct_tune_state_t *s, const ct_tune_scope_t *sc, size_t ci,
                            ct_tune_evidence_t *ev)
{
    for (size_t i = 0; i < s->ntrials; i++) {
        const ct_trial_t *t = &s->trials[i];
        if (t->status != CT_JOURNAL_OK || !ct_tune_is(t, sc, ci))
            continue;
        for (size_t k = 0; k < ev->ncells; k++) {
            ct_tune_launches_t *l = &ev->cells[k].cfg[ci];
            const ct_trial_row_t *row =
                l->n < CT_TUNE_MAX_LAUNCHES
                    ? ct_tune_sample_row(t, sc, ev->cells[k].coll, ev->cells[k].dtype,
                                         ev->cells[k].bytes, ev->cells[k].nranks,
                                         ev->cells[k].nnodes)
                    : NULL;
            if (row != NULL) {
                l->us[l->n] = row->median_us;
                l->lo[l->n] = row->ci_low_us;
                l->hi[l->n] = row->ci_high_us;
                l->group[l->n] = t->group;
                l->bw[l->n++] = row->busbw_gbps;
            }
        }
        ct_tune_launches_t *w = ev->weighted ? &ev->weighted_us[ci] : NULL;
        double wt =
            w != NULL && w->n < CT_TUNE_MAX_LAUNCHES ? ct_tune_weighted_us(s->weights, t) : 0;
        if (wt > 0) {
            w->lo[w->n] = w->hi[w->n] = wt; /* no interval: the pairing compares medians */
            w->group[w->n] = t->group;
            w->us[w->n++] = wt;
        }
    }
}

ct_status_t ct_tune_evidence_build(const ct_tune_state_t *s, const ct_tune_scope_t *sc,
                                   ct_tune_evidence_t *ev_p)
{
    ct_tune_evidence_t ev;
    memset(&ev, 0, sizeof ev);
    ev.scope = sc->scope;
    ev.weighted = s->weights != NULL;
    ev.nconfigs = sc->configs.n;
    size_t n = ev.nconfigs ? ev.nconfigs : 1;
    ev.nchanged = calloc(n, sizeof *ev.nchanged);
    ev.excluded = calloc(n, sizeof *ev.excluded);
    ev.weighted_us = ev.weighted ? calloc(n, sizeof *ev.weighted_us) : NULL;
    ct_status_t st = ev.nchanged && ev.excluded && (ev.weighted_us || !ev.weighted)
                         ? ct_tune_ev_cells(s, sc, &ev)
                         : CT_ERR_NOMEM;
    for (size_t k = 0; k < ev.ncells && st == CT_OK; k++)
        if ((ev.cells[k].cfg = calloc(n, sizeof *ev.cells[k].cfg)) == NULL)
            st = CT_ERR_NOMEM;
    for (size_t ci = 0; ci < ev.nconfigs && st == CT_OK; ci++) {
        ev.nchanged[ci] = ct_tune_nchanged(sc, ci);
        ev.excluded[ci] = sc->excluded[ci] || sc->configs.configs[ci].skip != NULL;
        ct_tune_ev_fill(s, sc, ci, &ev);
    }
    if (st != CT_OK) {
        ct_tune_evidence_free(&ev);
        return st;
    }
    *ev_p = ev;
    return CT_OK;
}

void ct_tune_evidence_free(ct_tune_evidence_t *ev)
{
    for (size_t k = 0; k < ev->ncells; k++)
        free(ev->cells[k].cfg);
    free(ev->cells);
    free(ev->weighted_us);
    free(ev->nchanged);
    free(ev->excluded);
    memset(ev, 0, sizeof *ev);
}
