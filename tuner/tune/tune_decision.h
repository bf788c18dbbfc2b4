/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_decision.h - what a tune decides in one scope, from its evidence
 * index alone: per cell the winner (tune_decide.h's rule) and the best
 * contender to show; per collective the merged size ranges; for the
 * global scope the one configuration set everywhere.  Pure: no trial,
 * file or space is read, so it is unit-tested on synthetic evidence.
 */
#ifndef CT_TUNE_DECISION_H
#define CT_TUNE_DECISION_H

#include <stddef.h>

#include "ct_status.h"
#include "evidence.h"

/* One cell (parallel to the evidence's cells). */
typedef struct {
    size_t winner; /* 0: the default stays */
    size_t best;   /* the winner, else the fastest runnable contender (for the report) */
    int significant;
    double base_us, base_lo, base_hi, base_bw; /* medians, min, max over launches */
    double best_us, best_lo, best_hi, best_bw;
    size_t nbase, nbest;
} ct_tune_dcell_t;

/* One configuration to set: over a size range of one collective (coll),
 * or (global scope decided globally) everywhere, min and max -1 and coll
 * CT_SCOPE_GLOBAL. */
typedef struct {
    size_t config;
    int coll; /* a ct_coll_id_t, or CT_SCOPE_GLOBAL */
    long long min_bytes, max_bytes;
    double default_us, tuned_us; /* the report's search figures for it */
} ct_tune_dpick_t;

typedef struct {
    ct_tune_dcell_t *cells;
    size_t ncells;
    ct_tune_dpick_t *picks;
    size_t npicks;
} ct_tune_decision_t;

/* How far a per-collective choice reaches beyond the sizes it was
 * measured at.  By default a choice covers only the measured span; below
 * it the first range starts at 0 only where the smallest measured size is
 * the smallest a collective takes (8 B, times the ranks for one that
 * splits its buffer by rank), and above it the library decides. */
typedef struct {
    long nranks;       /* the tune's rank count */
    int extend_ranges; /* --extend-ranges: the first range from 0, the last to any size */
    /* A global scope whose settings the files can set for one collective
     * and size range (NCCL_ALGO, NCCL_PROTO: NCCL's per-collective list,
     * the tuner plugin's rules) is decided per collective like a
     * collective's scope: a value NCCL refuses for broadcast can still
     * win allreduce, and is written for allreduce's measured span only. */
    int per_coll;
} ct_tune_reach_t;

/* The smallest size (bytes) of coll at nranks that counts as "from 0". */
long long ct_tune_smallest_bytes(const char *coll, long nranks);

/*
 * Decides ev's scope into *d_p (ct_tune_decision_free):
 *   - per collective (a collective's scope, or a global one with
 *     reach->per_coll): each collective's cells merged into ranges
 *     (ct_tune_merge), one pick per range a candidate wins;
 *   - global: with weighted evidence the ct_tune_pick over the weighted
 *     time per launch; without, the configuration that wins the most cells
 *     and against which the default is significantly faster in none.
 */
ct_status_t ct_tune_decide(const ct_tune_evidence_t *ev, const ct_tune_reach_t *reach,
                           ct_tune_decision_t *d_p);
void ct_tune_decision_free(ct_tune_decision_t *d);

#endif
