/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_weights.h - `colltune tune --weights FILE`: a profile of message
 * sizes (a training job's histogram) that decides the global settings.
 *
 * A global variable (UCX_RNDV_THRESH, a pml) moves every collective and
 * size at once, often in opposite directions; without a profile the tune
 * takes the configuration that wins the most cells and loses none, with
 * one it takes the configuration whose weighted time per launch is the
 * lowest by the same significance rule as a single cell.
 *
 * The file: one entry per line, "[COLLECTIVE] SIZE WEIGHT"; SIZE as
 * collbench reads it (64K, 1M); WEIGHT a non-negative number (a count or
 * a share); no collective means every collective the tune measures; '#'
 * starts a comment.  An entry's size counts at the measured size nearest
 * to it on a log scale.
 */
#ifndef CT_TUNE_WEIGHTS_H
#define CT_TUNE_WEIGHTS_H

#include <stddef.h>

#include "ct_status.h"
#include "journal.h"

typedef struct {
    const char *coll; /* a canonical collective name, or NULL: every one */
    long long bytes;
    double weight;
    int line;
} ct_tune_weight_t;

typedef struct {
    char *path;
    ct_tune_weight_t *w;
    size_t n;
} ct_tune_weights_t;

/* Loads path; a bad line is CT_ERR_USAGE with "path:line: field: why". */
ct_status_t ct_tune_weights_load(const char *path, ct_tune_weights_t *out, char *err,
                                 size_t errlen);
void ct_tune_weights_free(ct_tune_weights_t *w);

/* One launch's weighted time (us): the sum over entries of weight x the
 * out-of-place median at the measured size nearest the entry's, for the
 * entry's collective or every collective t measured.  -1 when t lacks a
 * collective an entry names or nothing matched. */
double ct_tune_weighted_us(const ct_tune_weights_t *w, const ct_trial_t *t);

#endif
