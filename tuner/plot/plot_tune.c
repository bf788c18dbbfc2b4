/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * plot_tune.c - a tune's A/B verification (DIR/report.json, written by
 * tune_report.c) for the tuned-against-default plots.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_input.h"
#include "outdir.h"
#include "plot.h"

/* lo and hi from a [lo, hi] member. */
static int ct_plot_range(json_t *a, double *lo, double *hi)
{
    if (!json_is_array(a) || json_array_size(a) != 2 || !json_is_number(json_array_get(a, 0)) ||
        !json_is_number(json_array_get(a, 1)))
        return -1;
    *lo = json_number_value(json_array_get(a, 0));
    *hi = json_number_value(json_array_get(a, 1));
    return 0;
}

ct_status_t ct_plot_tune_read(const char *dir, ct_plot_tune_t *t, char *err, size_t errlen)
{
    char path[4096];
    memset(t, 0, sizeof *t);
    if (ct_outdir_path(dir, "report.json", path, sizeof path) != CT_OK) {
        snprintf(err, errlen, "%s: path too long", dir);
        return CT_ERR_USAGE;
    }
    json_t *doc;
    ct_status_t st = ct_input_json(path, CT_INPUT_MAX_CONFIG, &doc, err, errlen);
    if (st != CT_OK)
        return st;
    const char *gen = json_string_value(json_object_get(doc, "generator"));
    json_t *ver = json_object_get(doc, "verification");
    json_t *cells = json_object_get(ver, "cells");
    const char *date = json_string_value(json_object_get(doc, "date"));
    if (gen == NULL || strncmp(gen, "colltune tune ", 14) != 0) {
        snprintf(err, errlen, "%s:1: not a colltune tune report (no generator \"colltune tune\")",
                 path);
        st = CT_ERR_PARSE;
    } else if (json_is_null(ver) || ver == NULL) {
        st = CT_OK; /* nothing verified: no tuned plot */
    } else if (!json_is_array(cells)) {
        snprintf(err, errlen, "%s:1: verification.cells is not an array", path);
        st = CT_ERR_PARSE;
    } else if ((t->v = calloc(json_array_size(cells) + 1, sizeof *t->v)) == NULL) {
        st = CT_ERR_NOMEM;
    }
    t->nranks = json_integer_value(json_object_get(doc, "nranks"));
    t->nnodes = json_integer_value(json_object_get(doc, "nnodes"));
    snprintf(t->date, sizeof t->date, "%s", date ? date : "");
    for (size_t i = 0; st == CT_OK && i < json_array_size(cells); i++) {
        json_t *c = json_array_get(cells, i);
        ct_plot_tcell_t *tc = &t->v[t->n];
        const char *coll = json_string_value(json_object_get(c, "collective"));
        json_t *bytes = json_object_get(c, "bytes"), *d = json_object_get(c, "default_us"),
               *u = json_object_get(c, "tuned_us");
        if (coll == NULL || strlen(coll) >= sizeof tc->collective || !json_is_integer(bytes) ||
            !json_is_number(d) || !json_is_number(u) ||
            ct_plot_range(json_object_get(c, "default_us_range"), &tc->def_lo, &tc->def_hi) ||
            ct_plot_range(json_object_get(c, "tuned_us_range"), &tc->tun_lo, &tc->tun_hi)) {
            snprintf(err, errlen,
                     "%s: verification.cells[%zu]: needs collective, bytes, default_us, "
                     "default_us_range, tuned_us, tuned_us_range",
                     path, i);
            st = CT_ERR_PARSE;
            break;
        }
        snprintf(tc->collective, sizeof tc->collective, "%s", coll);
        tc->bytes = json_integer_value(bytes);
        tc->def_us = json_number_value(d);
        tc->tun_us = json_number_value(u);
        json_t *p = json_object_get(c, "p_faster"), *h = json_object_get(c, "holds");
        tc->p_faster = json_is_number(p) ? json_number_value(p) : NAN;
        tc->holds = json_is_boolean(h) ? json_is_true(h) : -1;
        t->n++;
    }
    json_decref(doc);
    if (st != CT_OK)
        ct_plot_tune_free(t);
    return st;
}

void ct_plot_tune_free(ct_plot_tune_t *t)
{
    free(t->v);
    t->v = NULL;
    t->n = 0;
}
