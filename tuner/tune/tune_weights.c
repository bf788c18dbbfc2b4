/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_weights.c - the --weights profile (tune_weights.h).
 */
#include "tune_weights.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_input.h"
#include "ct_names.h"
#include "ct_num.h"
#include "ct_size.h"

void ct_tune_weights_free(ct_tune_weights_t *w)
{
    free(w->path);
    free(w->w);
    memset(w, 0, sizeof *w);
}

static ct_status_t ct_tune_weights_line(ct_tune_weights_t *out, char *text, int line, char *err,
                                        size_t errlen)
{
    char *words[4], *save = NULL;
    size_t n = 0;
    for (char *w = strtok_r(text, " \t\r", &save); w != NULL; w = strtok_r(NULL, " \t\r", &save))
        if (n < 4)
            words[n++] = w;
        else
            n = 4;
    if (n == 0)
        return CT_OK;
    if (n < 2 || n > 3) {
        snprintf(err, errlen, "%s:%d: want \"[COLLECTIVE] SIZE WEIGHT\", got %zu fields", out->path,
                 line, n);
        return CT_ERR_USAGE;
    }
    ct_tune_weight_t e = {NULL, 0, 0, line};
    if (n == 3) {
        const ct_coll_name_t *c = ct_coll_name_find(words[0]);
        if (c == NULL || c->id == CT_COLL_NONE) {
            char names[128];
            ct_coll_name_list(", ", names, sizeof names);
            snprintf(err, errlen, "%s:%d: collective: unknown '%s' (%s)", out->path, line, words[0],
                     names);
            return CT_ERR_USAGE;
        }
        e.coll = c->name;
    }
    size_t bytes;
    if (ct_size_parse(words[n - 2], &bytes) != CT_OK) {
        snprintf(err, errlen, "%s:%d: size: '%s' is not a size (8, 64K, 1M)", out->path, line,
                 words[n - 2]);
        return CT_ERR_USAGE;
    }
    e.bytes = (long long)bytes;
    /* decimal only: strtod took "0x10" (issue 15, E24) */
    if (ct_num_parse(words[n - 1], &e.weight) != CT_OK || e.weight < 0) {
        snprintf(err, errlen, "%s:%d: weight: '%s' is not a non-negative number", out->path, line,
                 words[n - 1]);
        return CT_ERR_USAGE;
    }
    ct_tune_weight_t *w = realloc(out->w, (out->n + 1) * sizeof *w);
    if (w == NULL)
        return CT_ERR_NOMEM;
    out->w = w;
    out->w[out->n++] = e;
    return CT_OK;
}

ct_status_t ct_tune_weights_load(const char *path, ct_tune_weights_t *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    FILE *f;
    ct_status_t ost = ct_input_open(path, CT_INPUT_MAX_CONFIG, &f, err, errlen);
    if (ost != CT_OK)
        return ost; /* a FIFO, a directory, /dev/zero: refused at once (E2) */
    out->path = strdup(path);
    ct_status_t st = out->path ? CT_OK : CT_ERR_NOMEM;
    char buf[1024];
    int line = 0;
    double total = 0;
    while (st == CT_OK && fgets(buf, sizeof buf, f) != NULL) {
        line++;
        size_t len = strlen(buf);
        if (len == sizeof buf - 1 && buf[len - 1] != '\n') {
            snprintf(err, errlen, "%s:%d: line longer than %zu bytes", path, line, sizeof buf - 2);
            st = CT_ERR_USAGE;
            break;
        }
        buf[strcspn(buf, "#\n")] = '\0';
        st = ct_tune_weights_line(out, buf, line, err, errlen);
    }
    if (st == CT_OK && ferror(f)) {
        snprintf(err, errlen, "%s: read error", path);
        st = CT_ERR_IO;
    }
    fclose(f);
    for (size_t i = 0; st == CT_OK && i < out->n; i++)
        total += out->w[i].weight;
    if (st == CT_OK && !(total > 0)) {
        /* the whole file's fault: no line to name (an empty one was ":0:") */
        snprintf(err, errlen, "%s: weight: no entry has a positive weight%s", path,
                 out->n == 0 ? " (it has no [COLLECTIVE] SIZE WEIGHT line)" : "");
        st = CT_ERR_USAGE;
    }
    if (st == CT_ERR_NOMEM)
        snprintf(err, errlen, "out of memory");
    if (st != CT_OK)
        ct_tune_weights_free(out);
    return st;
}

/* The out-of-place median of coll at the measured size nearest bytes on
 * a log scale; -1 when t did not measure coll. */
static double ct_tune_weights_at(const ct_trial_t *t, const char *coll, long long bytes)
{
    double best = -1, dist = 0;
    double lb = log2((double)(bytes > 0 ? bytes : 1));
    for (size_t r = 0; r < t->nrows; r++) {
        const ct_trial_row_t *row = &t->rows[r];
        if (strcmp(row->collective, coll) != 0 || strcmp(row->placement, "out-of-place") != 0 ||
            !(row->median_us > 0))
            continue;
        double d = fabs(log2((double)(row->bytes > 0 ? row->bytes : 1)) - lb);
        if (best < 0 || d < dist) {
            best = row->median_us;
            dist = d;
        }
    }
    return best;
}

double ct_tune_weighted_us(const ct_tune_weights_t *w, const ct_trial_t *t)
{
    double sum = 0;
    int any = 0;
    for (size_t i = 0; i < w->n; i++) {
        const ct_tune_weight_t *e = &w->w[i];
        if (e->coll != NULL) {
            double us = ct_tune_weights_at(t, e->coll, e->bytes);
            if (us < 0)
                return -1;
            sum += e->weight * us;
            any = 1;
            continue;
        }
        /* Every collective the trial measured, each once. */
        for (size_t r = 0; r < t->nrows; r++) {
            int seen = 0;
            for (size_t q = 0; q < r && !seen; q++)
                seen = strcmp(t->rows[q].collective, t->rows[r].collective) == 0;
            if (seen)
                continue;
            double us = ct_tune_weights_at(t, t->rows[r].collective, e->bytes);
            if (us >= 0) {
                sum += e->weight * us;
                any = 1;
            }
        }
    }
    return any ? sum : -1;
}
