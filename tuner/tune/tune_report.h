/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_report.h - DIR/report.md and DIR/report.json: a writer that only
 * formats what was decided and verified, and writes both.
 */
#ifndef CT_TUNE_REPORT_H
#define CT_TUNE_REPORT_H

#include <stddef.h>

#include "tune_state.h"
#include "tune_choices.h"
#include "tune_result.h"
#include "tune_verify.h"

/* Most A/Bs one tune runs: the first, and the files as they would be
 * written after a cut or drop changed them, twice more (tune.c). */
#define CT_TUNE_MAX_ROUNDS 3
/* A choice's verdict over every round, in words. */
#define CT_TUNE_WHY_LEN 1024

/* One A/B: its directory, the files it ran with their digests, how many
 * choices it tested and how many held. */
typedef struct {
    size_t round;
    char dir[4096];
    ct_tune_file_hash_t files[CT_TUNE_VERIFY_MAX_FILES];
    size_t nfiles;
    size_t candidates, held;
    /* Its verdicts and cells, for every round but the last (the report's
     * "verification" is the last); NULL for the files written. */
    const ct_tune_verify_t *v;
} ct_tune_round_t;

typedef struct {
    ct_tune_round_t round[CT_TUNE_MAX_ROUNDS];
    size_t n;
    /* The files written (after ct_emit_all: their digests as on disk). */
    ct_tune_round_t written;
    int as_written; /* the last round ran the files written, byte for byte */
} ct_tune_rounds_t;

typedef struct {
    const ct_tune_state_t *s;
    const ct_tune_scope_decision_t *decs; /* per scope of s */
    const ct_tune_result_t *result;       /* the choices, with the A/B's verdicts */
    const ct_tune_verify_t *v;            /* the A/B, or NULL before it ran */
    int ab_started;                       /* v NULL: an A/B began but did not finish */
    char (*why)[CT_TUNE_WHY_LEN];         /* per choice: the verdict over every round, or NULL */
    const ct_tune_rounds_t *rounds;       /* the A/Bs and the files written, or NULL */
} ct_tune_report_in_t;

/* Writes DIR/report.json and DIR/report.md (each beside, then renamed).
 * CT_ERR_IO with err on a write failure, CT_ERR_NOMEM. */
ct_status_t ct_tune_report(const ct_tune_report_in_t *in, char *err, size_t errlen);

#endif
