/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_report.h - DIR/report.md and DIR/report.json: a writer that only
 * formats what was decided and verified, and writes both.
 */
#ifndef CT_TUNE_REPORT_H
#define CT_TUNE_REPORT_H

#include <stddef.h>

#include "tune.h"
#include "tune_choices.h"
#include "tune_result.h"
#include "tune_verify.h"

typedef struct {
    const ct_tune_state_t *s;
    const ct_tune_scope_decision_t *decs; /* per scope of s */
    const ct_tune_result_t *result;       /* the choices, with the A/B's verdicts */
    const ct_tune_verify_t *v;            /* the A/B, or NULL before it ran */
    int ab_started;                       /* v NULL: an A/B began but did not finish */
} ct_tune_report_in_t;

/* Writes DIR/report.json and DIR/report.md (each beside, then renamed).
 * CT_ERR_IO with err on a write failure, CT_ERR_NOMEM. */
ct_status_t ct_tune_report(const ct_tune_report_in_t *in, char *err, size_t errlen);

#endif
