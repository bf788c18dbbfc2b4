/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * evidence.h - the evidence of one tune scope, indexed once from the
 * trials: per collective x size (the cells the baseline measured) and per
 * configuration, the launch medians and busbw of its ok launches.
 *
 * Search (halving's rounds), decide, verify and the report all read the
 * trials through this index, so they agree on what a sample is: the
 * out-of-place row of one ok trial, with a median above 0, in journal
 * order, at most CT_TUNE_MAX_LAUNCHES per configuration and cell.
 */
#ifndef CT_TUNE_EVIDENCE_H
#define CT_TUNE_EVIDENCE_H

#include <stddef.h>

#include "tune_state.h"

/* Sizes per collective the index keeps (more than collbench sweeps). */
#define CT_TUNE_EV_MAX_SIZES 4096

/* One configuration's launches in one cell (or its weighted times). */
typedef struct {
    size_t n;
    double us[CT_TUNE_MAX_LAUNCHES];
    double bw[CT_TUNE_MAX_LAUNCHES];
    double lo[CT_TUNE_MAX_LAUNCHES], hi[CT_TUNE_MAX_LAUNCHES]; /* its 95% CI; NaN: unknown */
    const char *group[CT_TUNE_MAX_LAUNCHES]; /* the shared launch ("": its own); borrowed */
} ct_tune_launches_t;

/* One collective x datatype x size (x shape, with --shapes) the baseline
 * measured. */
typedef struct {
    const char *coll;  /* borrowed from the trials */
    const char *dtype; /* borrowed; "" from journals that did not record it */
    long long bytes;
    ct_tune_launches_t *cfg;  /* per configuration */
    long long nranks, nnodes; /* its shape with --shapes; 0 without */
} ct_tune_ev_cell_t;

typedef struct ct_tune_evidence_s {
    int scope;                /* CT_SCOPE_GLOBAL or a ct_coll_id_t */
    int weighted;             /* --weights: weighted[] holds the weighted time per launch */
    size_t nconfigs;          /* [0] the baseline */
    ct_tune_ev_cell_t *cells; /* collective x dtype in the baseline's first-seen order, sizes
                                 sorted */
    size_t ncells;
    ct_tune_launches_t *weighted_us; /* per configuration, with weighted (us only) */
    size_t *nchanged;                /* per configuration: settings the baseline sets otherwise */
    int *excluded;                   /* per configuration: failed or invalid, never a winner */
} ct_tune_evidence_t;

/* Whether row was measured at sc's shape (any, when sc has none). */
int ct_tune_row_at(const ct_tune_scope_t *sc, const ct_trial_row_t *row);

/* Indexes the trials of s that belong to sc into *ev_p
 * (ct_tune_evidence_free): only the rows of sc's shape when it has one;
 * with --shapes and none (the A/B's scopes) every shape's, each a cell
 * of its own. */
ct_status_t ct_tune_evidence_build(const ct_tune_state_t *s, const ct_tune_scope_t *sc,
                                   ct_tune_evidence_t *ev_p);
void ct_tune_evidence_free(ct_tune_evidence_t *ev);

/* Whether the baseline base sets set's variable to the same value. */
int ct_tune_in_base(const ct_space_config_t *base, const ct_space_setting_t *set);

/* Settings of sc's configuration ci that the baseline does not set so. */
size_t ct_tune_nchanged(const ct_tune_scope_t *sc, size_t ci);

/* The baseline's launch medians of sc at (coll, bytes), straight from the
 * trials (the progress line's hint, between two index builds). */
size_t ct_tune_base_samples(const ct_tune_state_t *s, const ct_tune_scope_t *sc, const char *coll,
                            long long bytes, double *us, size_t max);

#endif
