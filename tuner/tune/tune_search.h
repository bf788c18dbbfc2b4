/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_search.h - the search strategies of `colltune tune`: which trials
 * to run, in which order.  A trial is (scope, configuration, launch);
 * running one (and journaling it, and skipping it when the journal has it)
 * is the caller's callback, so the strategies are only the order.
 *
 *   exhaustive  every runnable configuration, --launches times, interleaved
 *               across configurations (A B C A B C): on this machine the
 *               spread between launches dominates, and interleaving spreads
 *               slow spells over every configuration alike;
 *   random      the baseline and a seeded random subset of the others that
 *               fits --budget, interleaved the same way;
 *   halving     successive halving: every candidate one short launch
 *               (collbench --size-budget 0.05; in-process, shared launches
 *               at 0.02, and the first cut keeps a quarter), then per
 *               round keep half
 *               (each size bucket's fastest first, then by the geometric
 *               mean of time over the baseline's; the baseline always
 *               kept) and give the survivors one more full launch, until at most 2 candidates are left per scope and
 *               the finalists have max(2, --launches) full launches each.
 */
#ifndef CT_TUNE_SEARCH_H
#define CT_TUNE_SEARCH_H

#include "tune_state.h"

typedef enum { CT_TUNE_EXHAUSTIVE, CT_TUNE_RANDOM, CT_TUNE_HALVING } ct_tune_strategy_t;

typedef struct {
    ct_tune_strategy_t strategy;
    long budget;     /* trials, 0: none */
    double budget_s; /* seconds, 0: none */
    long launches;
    unsigned long seed;
} ct_tune_plan_t;

/* Runs (or skips, when journaled or excluded) one trial; done and total
 * are for the progress line.  *stop: 0 go on, 1 the budget is spent, 130
 * interrupted. */
typedef ct_status_t (*ct_tune_trial_fn)(void *user, size_t scope, size_t config, long launch,
                                        int short_run, size_t done, size_t total, int *stop);

/* Runs what the callback queued (the in-process search, tune_inproc.h):
 * called after every round of trials. */
typedef ct_status_t (*ct_tune_flush_fn)(void *user, int *stop);

const char *ct_tune_strategy_name(ct_tune_strategy_t strategy);

/* The configurations of one scope that plan searches, into *out_p: every
 * one (ct_space_enumerate), except that the random strategy samples a
 * scope whose combinations are too many to list: the baseline, the limit
 * skips and as many drawn configurations as --budget could run
 * (ct_space_sample, from --seed and the scope, so --resume draws them
 * again). */
ct_status_t ct_tune_scope_configs(const ct_tune_plan_t *plan, const ct_space_t *space, int scope,
                                  long nranks, ct_space_configs_t *out_p, char *err, size_t errlen);

/* Runs plan over s's scopes; *stop as the callback last set it. */
ct_status_t ct_tune_search(const ct_tune_plan_t *plan, ct_tune_state_t *s, ct_tune_trial_fn fn,
                           ct_tune_flush_fn flush, void *user, int *stop);

#endif
