/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit_shape.c - the job shapes of a result's choices (see emit.h): a
 * format keyed by shape writes one block per shape through a view of the
 * result at that shape.
 */
#include "emit.h"

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
