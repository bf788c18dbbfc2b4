/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit_shape.c - the job shapes of a result's choices (see emit.h and
 * emit_format.h): a format keyed by shape writes one block per shape
 * through a view of the result at that shape, or at one rank count.
 */
#include "emit_format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_vec.h"

ct_emit_shape_t ct_emit_choice_shape(const ct_tune_result_t *r, const ct_tune_choice_t *c)
{
    ct_emit_shape_t s = {c->nnodes, c->nranks};
    if (s.nranks <= 0) {
        s.nranks = r->nranks;
        s.nnodes = r->nnodes;
    }
    if (s.nnodes < 1)
        s.nnodes = 1;
    return s;
}

static int ct_emit_shape_cmp(const void *a, const void *b)
{
    const ct_emit_shape_t *x = a, *y = b;
    if (x->nranks != y->nranks)
        return x->nranks < y->nranks ? -1 : 1;
    return x->nnodes < y->nnodes ? -1 : x->nnodes > y->nnodes;
}

size_t ct_emit_shapes(const ct_tune_result_t *r, ct_emit_shape_t *shapes, size_t max)
{
    ct_emit_shape_t *all = malloc((r->nchoices + 1) * sizeof *all);
    size_t n = 0;
    if (all == NULL)
        return 0;
    for (size_t i = 0; i < r->nchoices; i++) {
        if (!ct_emit_usable(&r->choices[i]))
            continue;
        ct_emit_shape_t s = ct_emit_choice_shape(r, &r->choices[i]);
        int seen = 0;
        for (size_t k = 0; k < n && !seen; k++)
            seen = ct_emit_shape_cmp(&all[k], &s) == 0;
        if (!seen)
            all[n++] = s;
    }
    if (n == 0) {
        ct_tune_choice_t none = {0};
        all[n++] = ct_emit_choice_shape(r, &none);
    }
    ct_vec_sort(all, n, sizeof *all, ct_emit_shape_cmp);
    for (size_t k = 0; shapes != NULL && k < n && k < max; k++)
        shapes[k] = all[k];
    free(all);
    return n;
}

ct_status_t ct_emit_shape_view(const ct_tune_result_t *r, ct_emit_shape_t s, ct_tune_result_t *view)
{
    *view = *r;
    view->nnodes = s.nnodes;
    view->nranks = s.nranks;
    view->nchoices = 0;
    view->choices = malloc((r->nchoices + 1) * sizeof *view->choices);
    if (view->choices == NULL)
        return CT_ERR_NOMEM;
    for (size_t i = 0; i < r->nchoices; i++) {
        ct_emit_shape_t cs = ct_emit_choice_shape(r, &r->choices[i]);
        if (cs.nranks != s.nranks || cs.nnodes != s.nnodes)
            continue;
        ct_tune_choice_t *c = &view->choices[view->nchoices++];
        *c = r->choices[i];
        c->nnodes = cs.nnodes;
        c->nranks = cs.nranks;
    }
    return CT_OK;
}

void ct_emit_shape_view_free(ct_tune_result_t *view)
{
    free(view->choices);
    view->choices = NULL;
    view->nchoices = 0;
}

/* Whether a and b set the same variable to the same value over the same
 * sizes for the same scope: one entry in a file keyed by rank count. */
static int ct_emit_same_setting(const ct_tune_choice_t *a, const ct_tune_choice_t *b)
{
    return a->via == b->via && a->scope == b->scope && a->min_bytes == b->min_bytes &&
           a->max_bytes == b->max_bytes && strcmp(a->name, b->name) == 0 &&
           strcmp(a->value, b->value) == 0;
}

ct_status_t ct_emit_ranks_view(const ct_tune_result_t *r, long nranks, ct_tune_result_t *view)
{
    *view = *r;
    view->nranks = nranks;
    view->nchoices = 0;
    view->choices = malloc((r->nchoices + 1) * sizeof *view->choices);
    if (view->choices == NULL)
        return CT_ERR_NOMEM;
    int first = 1;
    for (size_t i = 0; i < r->nchoices; i++) {
        ct_emit_shape_t cs = ct_emit_choice_shape(r, &r->choices[i]);
        if (cs.nranks != nranks)
            continue;
        if (first)
            view->nnodes = cs.nnodes;
        first = 0;
        /* The same setting from two shapes of nranks ranks: once, the
         * usable one kept (a writer skips what is not usable). */
        size_t k = 0;
        while (k < view->nchoices && !ct_emit_same_setting(&view->choices[k], &r->choices[i]))
            k++;
        if (k < view->nchoices &&
            (ct_emit_usable(&view->choices[k]) || !ct_emit_usable(&r->choices[i])))
            continue;
        ct_tune_choice_t *c = &view->choices[k < view->nchoices ? k : view->nchoices++];
        *c = r->choices[i];
        c->nnodes = cs.nnodes;
        c->nranks = cs.nranks;
    }
    return CT_OK;
}

ct_status_t ct_emit_rank_counts(const ct_tune_result_t *r, long **counts_p, size_t *n_p)
{
    size_t ns = ct_emit_shapes(r, NULL, 0), n = 0;
    ct_emit_shape_t *shapes = malloc((ns ? ns : 1) * sizeof *shapes);
    long *counts = malloc((ns ? ns : 1) * sizeof *counts);
    if (ns == 0 || shapes == NULL || counts == NULL) { /* ct_emit_shapes: at least one */
        free(shapes);
        free(counts);
        return CT_ERR_NOMEM;
    }
    ns = ct_emit_shapes(r, shapes, ns);
    for (size_t i = 0; i < ns; i++)
        if (n == 0 || counts[n - 1] != shapes[i].nranks) /* sorted by ranks */
            counts[n++] = shapes[i].nranks;
    free(shapes);
    *counts_p = counts;
    *n_p = n;
    return CT_OK;
}

void ct_emit_shape_name(ct_emit_shape_t s, char *buf, size_t len)
{
    if (s.nnodes >= 1 && s.nranks % s.nnodes == 0)
        snprintf(buf, len, "%ldx%ld", s.nnodes, s.nranks / s.nnodes);
    else
        snprintf(buf, len, "%ld ranks on %ld nodes", s.nranks, s.nnodes);
}

int ct_emit_shape_repeat(const ct_tune_result_t *r, const ct_tune_choice_t *c)
{
    ct_emit_shape_t cs = ct_emit_choice_shape(r, c);
    for (const ct_tune_choice_t *o = r->choices; o < c; o++) {
        ct_emit_shape_t os = ct_emit_choice_shape(r, o);
        if (ct_emit_usable(o) && (os.nranks != cs.nranks || os.nnodes != cs.nnodes) &&
            ct_emit_same_setting(o, c))
            return 1;
    }
    return 0;
}

int ct_emit_multi_shape(const ct_tune_result_t *r) { return ct_emit_shapes(r, NULL, 0) > 1; }
