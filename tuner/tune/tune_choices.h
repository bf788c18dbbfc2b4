/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_choices.h - from the trials to the result the emitters write: each
 * scope's evidence indexed (evidence.h), decided (tune_decision.h), and
 * every pick turned into one choice per setting it changes.
 */
#ifndef CT_TUNE_CHOICES_H
#define CT_TUNE_CHOICES_H

#include "evidence.h"
#include "tune_state.h"
#include "tune_decision.h"
#include "tune_result.h"

/* One scope's evidence and decision. */
typedef struct {
    ct_tune_evidence_t ev;
    ct_tune_decision_t d;
} ct_tune_scope_decision_t;

/* Decides every scope of s into decs (room for s->nscopes) and appends
 * the choices to result (choices owned by it; ct_tune_result_free), in
 * scope order.  On an error decs holds what was built: free it anyway. */
ct_status_t ct_tune_decide_scopes(const ct_tune_state_t *s, ct_tune_scope_decision_t *decs,
                                  ct_tune_result_t *result);
void ct_tune_scope_decisions_free(ct_tune_scope_decision_t *decs, size_t n);

void ct_tune_result_free(ct_tune_result_t *result);

/* Whether sc is a global scope whose configurations change only
 * variables the files can set per collective and size range (NCCL_ALGO,
 * NCCL_PROTO): then it is decided per collective (ct_tune_reach_t). */
int ct_tune_scope_per_coll(const ct_tune_scope_t *sc);

/* The configuration of sc that is c with its i-th setting back at the
 * baseline's (its value there, or unset), or 0 when the space has none. */
size_t ct_tune_without(const ct_tune_scope_t *sc, const ct_space_config_t *c, size_t i);

/* Whether c's i-th setting may be judged without the others: one of the
 * space's searched variables, on which no other variable of c depends
 * (when=) and which no constraint holds (a requires= partner comes with
 * its variable).  space NULL: none may. */
int ct_tune_ablatable(const ct_space_t *space, const ct_space_config_t *c, size_t i);

#endif
