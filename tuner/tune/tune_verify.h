/*
 * tune_verify.h - the last step of a tune: an interleaved A/B on fresh
 * launches in which the tuned side runs with the emitted files themselves
 * (each loaded as its emitter's entry says, ct_emit_load_t in emit.h:
 * --mca mca_base_param_files, UCX_CONFIG_DIR, NCCL_CONF_FILE,
 * NCCL_TUNER_CONFIG_FILE), not with the variables the search forced: Open
 * MPI ignores a rules file it cannot use without a word, so only a
 * measurement shows that a file does what the search found.
 *
 * The two sides are two configurations of a scope named "verify", run by
 * the tune's own trial code (journaled, resumable): [0] the defaults (the
 * space's fixed settings), [1] the same plus the settings that point at
 * the candidate files in DIR/verify/.  Pairs alternate their order
 * (A B, B A, ...) so a slow spell hits both sides alike.
 *
 * The test, per collective x size: one-sided exact Mann-Whitney over the
 * launch medians (CT_TUNE_VERIFY_ALPHA), and a median gain of at least
 * CT_TUNE_MARGIN.  A choice is verified when
 *   - per collective: the gain holds at more than half of the sizes of
 *     its range, and at none of them is the default significantly faster;
 *   - global, with --weights: the weighted time per launch passes the
 *     same test; without: the gain holds somewhere, and the default is
 *     significantly faster nowhere.
 * A failed tuned launch (crash, wrong results, timeout) verifies nothing.
 */
#ifndef CT_TUNE_VERIFY_H
#define CT_TUNE_VERIFY_H

#include <stddef.h>

#include "launch_opts.h"
#include "tune.h"
#include "tune_result.h"
#include "tune_weights.h"

#define CT_TUNE_VERIFY_NAME "verify"

/* One collective x size of the A/B. */
typedef struct {
    const char *coll;
    long long bytes;
    double def_us, def_lo, def_hi, def_bw;
    double tun_us, tun_lo, tun_hi, tun_bw;
    size_t ndef, ntun;
    double p_faster; /* tuned faster than default */
    double p_slower; /* default faster than tuned */
    int holds;       /* p_faster <= alpha and a median gain >= the margin */
    int contradicts; /* p_slower <= alpha */
} ct_tune_vcell_t;

typedef struct ct_tune_verify_s {
    size_t pairs;           /* asked for */
    char dir[4096];         /* DIR/verify: the candidate files */
    char how[2048];         /* the tuned side's settings, as text */
    char note[512];         /* what the A/B could not keep or use */
    ct_tune_vcell_t *cells; /* after ct_tune_verify_judge */
    size_t ncells;
    int *verified;    /* per choice of the result */
    char (*why)[192]; /* per choice: the verdict, in words */
    size_t nchoices;
    double w_def, w_tun, w_p; /* --weights: medians of the weighted time, p */
    size_t w_n;               /* launches with a weighted time, per side (min) */
} ct_tune_verify_t;

/* Writes r's choices (all significant) as candidate files into
 * DIR/verify/ and fills sc (scope "verify", its two configurations) and
 * v->dir, v->how, v->note.  base: the settings every trial has (the
 * baseline's).  An error with err. */
ct_status_t ct_tune_verify_setup(const ct_tune_result_t *r, const char *out,
                                 const ct_launch_opts_t *lo, const ct_space_config_t *base,
                                 size_t pairs, ct_tune_scope_t *sc, ct_tune_verify_t *v, char *err,
                                 size_t errlen);

/* The collectives the A/B measures: every one a choice names, or "all"
 * for a global choice (the tune's own list then), comma-separated. */
void ct_tune_verify_colls(const ct_tune_result_t *r, const char *tune_colls, char *buf, size_t len);

/* Judges every choice of r from the evidence of the A/B's scope (its
 * configurations [0] default, [1] tuned; ct_tune_evidence_build). */
struct ct_tune_evidence_s;
ct_status_t ct_tune_verify_judge(const struct ct_tune_evidence_s *ev, const ct_tune_result_t *r,
                                 ct_tune_verify_t *v);

void ct_tune_verify_free(ct_tune_verify_t *v);

#endif
