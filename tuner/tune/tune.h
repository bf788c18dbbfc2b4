/*
 * tune.h - the state of one `colltune tune` run, shared by the search
 * (tune.c, tune_search.c) and the report (tune_report.c).
 *
 * Every finished trial, from the journal (--resume) or run now, is in
 * trials; the decisions are always recomputed from them, so a resumed tune
 * decides exactly as an uninterrupted one would have.
 */
#ifndef CT_TUNE_H
#define CT_TUNE_H

#include <stddef.h>
#include "journal.h"
#include "space.h"
#include "tune_result.h"
#include "tune_weights.h"

typedef struct {
    int scope;                  /* CT_SCOPE_GLOBAL or a ct_coll_id_t */
    const char *name;           /* "global" or the collective */
    ct_space_configs_t configs; /* configs[0] is the baseline */
    int *excluded;              /* per configuration: a trial of it failed */
    int *alive;                 /* per configuration: still a candidate (halving) */
    long next_launch;           /* halving: the launch index its next round runs */
    const char *colls;          /* collbench -C for its trials; NULL: its own or the tune's */
} ct_tune_scope_t;

typedef struct {
    const ct_space_t *space;
    ct_tune_scope_t *scopes;
    size_t nscopes;
    ct_trial_t *trials; /* every finished trial, journaled */
    size_t ntrials, cap;
    const char *colls; /* -C of the global scope: a list or "all" */
    long nranks;
    const char *out;
    const char *strategy;
    const ct_tune_weights_t *weights; /* --weights, or NULL */
    ct_tune_scope_t *verify;          /* the A/B's two sides, once it runs */
    /* tallies for the report */
    size_t ran, resumed, skipped, failed;
    long plan_budget;     /* --budget: 0 none */
    double plan_budget_s; /* --budget-s: 0 none */
    int budget_hit;
    double wall_s;
    double start;
} ct_tune_state_t;

/* The launch medians (us) and busbw of configuration ci of sc at coll and
 * bytes: the out-of-place row of each of its ok trials.  Returns how many
 * (at most max). */
size_t ct_tune_samples(const ct_tune_state_t *s, const ct_tune_scope_t *sc, size_t ci,
                       const char *coll, long long bytes, double *us, double *busbw, size_t max);

/* The distinct collectives and sizes the baseline of sc measured, sorted:
 * fills colls (room for 16 names) and sizes; returns counts through *nc,
 * *ns (sizes is malloc'ed, *sizes_p, per collective: call per coll). */
size_t ct_tune_colls(const ct_tune_state_t *s, const ct_tune_scope_t *sc, const char **colls,
                     size_t max);
size_t ct_tune_sizes(const ct_tune_state_t *s, const ct_tune_scope_t *sc, const char *coll,
                     long long *sizes, size_t max);

/* The weighted times (--weights) of the ok launches of sc's configuration
 * ci, one per launch; returns how many (at most max). */
size_t ct_tune_weighted_samples(const ct_tune_state_t *s, const ct_tune_scope_t *sc, size_t ci,
                                double *us, size_t max);

/* Settings of sc's configuration ci that the baseline does not set so. */
size_t ct_tune_nchanged(const ct_tune_scope_t *sc, size_t ci);

/* The winner of sc at (coll, bytes) by the rule in tune_decide.h. */
size_t ct_tune_winner(const ct_tune_state_t *s, const ct_tune_scope_t *sc, const char *coll,
                      long long bytes);

/* Decides, writes DIR/report.json and DIR/report.md (each beside, then
 * renamed) and fills result (choices owned by it; ct_tune_result_free).
 * v: the verification's verdicts, copied onto the choices (the decisions
 * are recomputed from the trials, so they line up), or NULL before it
 * ran.  CT_ERR_IO with err on a write failure. */
struct ct_tune_verify_s;
ct_status_t ct_tune_report(ct_tune_state_t *s, ct_tune_result_t *result,
                           const struct ct_tune_verify_s *v, char *err, size_t errlen);
void ct_tune_result_free(ct_tune_result_t *result);

#define CT_TUNE_MAX_LAUNCHES 64

#endif
