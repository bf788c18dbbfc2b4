/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_ab.h - the A/B of a tune (tune_verify.h has its rule), run in
 * rounds until the files it ran are the files to be written.
 *
 * A verdict can change the files after the A/B that gave it: a range cut,
 * one choice of several dropped, a change of form (a full-range coll/tuned
 * algorithm is a forced parameter in mca-params.conf, cut to a range it is
 * rules; an MPICH choice over every size sits in mpich.env, over a range
 * in the selection file).  So the final files are emitted and compared
 * with the ones the A/B ran (SHA-256, the directory's own path as @DIR@);
 * where they differ, another A/B runs them (DIR/verify-2/, scopes
 * "verify-2", ...), at the collectives where they changed (every cell a
 * changed choice reaches, as the confirmation of suspects does; a changed
 * global choice reaches all), at most CT_TUNE_MAX_ROUNDS A/Bs in all.
 * Files that still differ after the last are not written.
 */
#ifndef CT_TUNE_AB_H
#define CT_TUNE_AB_H

#include <stddef.h>

#include "launch_opts.h"
#include "tune_state.h"
#include "tune_choices.h"
#include "tune_report.h"
#include "tune_trial.h"
#include "tune_verify.h"

/* What the A/B runs with besides the result. */
typedef struct {
    ct_tune_runner_t *run;      /* the trial runner */
    const ct_tune_state_t *s;   /* its state (run's) */
    const char *out;            /* --out */
    const ct_launch_opts_t *lo; /* the user's launch options */
    size_t pairs;               /* --verify-pairs */
    int nccl;                   /* collbench runs NCCL: also the datatype launches */
    size_t turns;               /* --verify-turns: pairs per launch as app contexts; 0: fresh */
} ct_tune_ab_t;

/*
 * The A/B rounds over result's significant, writable choices (decs: the
 * search's decisions, for the sizes it measured).  Each round's verdicts
 * go into result (verified, ranges) and why (per choice, over every
 * round); rounds gets each round's files, digests and an earlier round's
 * cells, and the digests of the final files.  v holds the last round.
 * *stop 130: interrupted (nothing judged in that round).
 */
ct_status_t ct_tune_ab_rounds(const ct_tune_ab_t *x, ct_tune_result_t *result,
                              const ct_tune_scope_decision_t *decs, ct_tune_verify_t *v,
                              ct_tune_rounds_t *rounds, char (*why)[CT_TUNE_WHY_LEN], int *stop,
                              char *err, size_t errlen);

/* Marks each choice the site's settings would outrank in every form a
 * file can carry it in (ct_emit_outranked): its reason in outranked,
 * unwritable pointing at it; such a choice is reported, never verified
 * or written.  Run again after a range is cut: the form can change. */
ct_status_t ct_tune_mark_outranked(ct_tune_result_t *result);

#endif
