/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_inproc.h - the in-process search of `colltune tune`: the
 * configurations of a scope that differ only in run-time variables
 * (space.h: apply = runtime, e.g. coll/tuned's forced algorithms) share
 * one launch.  collbench measures them side by side (--config, one per
 * configuration, MPI_T written before each communicator is created), so a
 * launch's start-up is paid once for all of them and they are compared
 * in the same process, on the same nodes, in the same minute.
 *
 * A configuration's settings split in two: its run-time part (the
 * run-time variables it sets) goes to --config; the rest, with the
 * requires= of the scope's run-time variables (coll_tuned_use_dynamic_rules=1:
 * a launch setting in Open MPI 4.1.4), are the launch's settings.
 * Configurations with the same launch settings share a launch, whatever
 * their scope: the one whose run-time part is empty (the baseline, for a
 * scope of run-time variables only) is the launch's configuration 0, and
 * with several scopes in it -C names every scope's collective and each
 * collective's configurations go to collbench --config-for COLL:..., so
 * that each is measured on its own collective alone and the search of five
 * collectives costs the launches of one.  Settings read at launch
 * (transport: pml, btl, UCX_*) differ in the launch settings, so they stay
 * a launch each.  Each configuration's rows (a scope's share of a launch
 * of several: its own collective's rows and refusals) are journaled as its
 * own trial with the launch's name as its group (journal.h), so the
 * decision can pair it with the baseline measured in the same process.
 *
 * The search strategies queue trials (ct_tune_inproc_queue) and flush
 * them at the end of each round (ct_tune_inproc_flush).  A shared launch
 * of several scopes that fails is retried a launch per scope; one of a
 * single scope that fails (a crash, a timeout, a variable collbench
 * cannot set at run time) one configuration per launch, so one bad
 * configuration excludes only itself.
 */
#ifndef CT_TUNE_INPROC_H
#define CT_TUNE_INPROC_H

#include <stddef.h>

#include "tune_trial.h"

/* Configurations one launch measures besides its configuration 0
 * (collbench's CT_CONFIGS_MAX). */
#define CT_TUNE_INPROC_MAX 64
/* collbench --size-budget of an in-process launch, and of halving's
 * first short look: paired in one process, the comparison needs fewer
 * samples than one across launches. */
#define CT_TUNE_INPROC_BUDGET "0.05"
#define CT_TUNE_INPROC_SHORT_BUDGET "0.02"

/* Whether the space has a run-time variable in sc's scope. */
int ct_tune_inproc_scope(const ct_space_t *space, const ct_tune_scope_t *sc);

/* Queues the trial of scope scope_i's configuration ci at launch (the
 * caller checked it is runnable, not excluded and not journaled); done
 * and total as ct_tune_trial's. */
ct_status_t ct_tune_inproc_queue(ct_tune_runner_t *x, size_t scope_i, size_t ci, long launch,
                                 int short_run, size_t done, size_t total);

/* Runs every queued trial, a launch per launch settings and length: the
 * scopes packed whole into launches of at most CT_TUNE_INPROC_MAX
 * configurations (a scope with more in chunks of its own), and empties
 * the queue.  *stop as ct_tune_trial sets it. */
ct_status_t ct_tune_inproc_flush(ct_tune_runner_t *x, int *stop);

#endif
