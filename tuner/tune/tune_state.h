/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_state.h - the state of one `colltune tune` run, shared by its
 * steps: search (tune.c, tune_search.c) -> evidence (evidence.h) ->
 * decision (tune_decision.h, tune_choices.h) -> verify (tune_verify.h) ->
 * report (tune_report.h) -> emit.  Types and constants only, no command-level part
 * (the options are tune_cli.h's): every step includes it, and tune.c,
 * which drives the steps, is included by none of them.
 *
 * Every finished trial, from the journal (--resume) or run now, is in
 * trials; the decisions are always recomputed from them, so a resumed tune
 * decides exactly as an uninterrupted one would have.
 */
#ifndef CT_TUNE_STATE_H
#define CT_TUNE_STATE_H

#include <stddef.h>
#include "ct_shapes.h"
#include "journal.h"
#include "site.h"
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
    const char *const *args;    /* collbench arguments after the user's (NULL-ended), or NULL */
    int inproc;                 /* it has run-time variables: shared launches (tune_inproc.h) */
    /* --shapes: the job shape it decides for ({0, 0}: the launch's own).
     * A tune of several shapes has a scope per collective x shape, all
     * of one collective under the same name: every launch measures every
     * shape (collbench --shapes), so they share its trials, and each
     * reads the rows of its own shape (ct_tune_row_at). */
    ct_shape_t shape;
    char label[64]; /* the name, with the shape when there is one: "allreduce at 2x4" */
} ct_tune_scope_t;

typedef struct {
    const ct_space_t *space;
    ct_tune_scope_t *scopes;
    size_t nscopes;
    ct_trial_t *trials; /* every finished trial, journaled */
    size_t ntrials, cap;
    const char *colls; /* -C of the global scope: a list or "all" */
    long nranks;
    /* --shapes, as given (collbench's argument for every launch), or NULL;
     * the shapes, ascending. */
    const char *shapes_arg;
    ct_shape_t shapes[CT_SHAPES_MAX];
    int nshapes;
    const char *out;
    const char *strategy;
    const char *objective;            /* --objective: "max" or "avg", every launch's collbench -a */
    const ct_tune_weights_t *weights; /* --weights, or NULL */
    int extend_ranges;                /* --extend-ranges (tune_decision.h, ct_tune_reach_t) */
    /* tallies for the report */
    size_t ran, resumed, skipped, failed;
    size_t launches_shared; /* launches that measured several configurations */
    long plan_budget;       /* --budget: 0 none */
    double plan_budget_s;   /* --budget-s: 0 none */
    int budget_hit;
    double wall_s;
    double start;
    /* What a trial's collbench ran on (its JSON): the libmpich, where
     * mpich-coll-selection.json takes MPICH's own selection tree from, and
     * the MPI library's version text, which says whose files a result of
     * shared names is (mvapich.env: MVAPICH's). */
    ct_trial_libs_t libs;
    /* What the site already set before the tune (site.h): every launch
     * inherits it, and the emitters write what outranks it. */
    ct_site_t site;
} ct_tune_state_t;

#define CT_TUNE_MAX_LAUNCHES 64

/* collbench -a for an --objective: the slowest rank (3) or the average (1). */
#define CT_TUNE_OBJECTIVE_A(objective) (strcmp((objective), "avg") == 0 ? "1" : "3")

/* The objective in words, for report.md and report.json. */
#define CT_TUNE_OBJECTIVE_TEXT(objective)                                                          \
    (strcmp((objective), "avg") == 0                                                               \
         ? "the average rank: each sample's mean over ranks, median over samples (collbench -a 1)" \
         : "the slowest rank: each sample's max over ranks, median over samples (collbench -a 3)")

#endif
