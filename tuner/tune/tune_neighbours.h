/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_neighbours.h - before the decision is final, the search measures
 * each winning configuration with one of its variables back at the
 * default, where the space never had that configuration (a space listing
 * NCCL_PROTO's values without "default" has NCCL_ALGO=tree with a protocol
 * only).  Then the decision (tune_choices.c) can tell a variable that
 * earns its place from one that rides on its partners' gain, and a tie
 * goes to the configuration that changes fewer variables.
 *
 * The neighbours are appended to their scope's configurations and run
 * --launches times in fresh launches after the search's, each beside its
 * winner and the baseline (one process where the scope shares launches,
 * so the paired rule compares them), through the search's own trial
 * callback: journaled, so --resume finds them (resumed, the same decision
 * appends the same neighbours).
 */
#ifndef CT_TUNE_NEIGHBOURS_H
#define CT_TUNE_NEIGHBOURS_H

#include "tune_state.h"
#include "tune_search.h"

/* Decides s once, appends the missing neighbours of every pick and runs
 * launches of each, with its winner and the baseline, through run, then
 * flush after each launch index (user: their first argument).  *stop as
 * run's; an error with its status. */
ct_status_t ct_tune_neighbours(ct_tune_state_t *s, long launches, ct_tune_trial_fn run,
                               ct_tune_flush_fn flush, void *user, int *stop);

#endif
