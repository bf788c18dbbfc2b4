/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_ab_turns.h - the A/B's pairs as app contexts of one launch.
 *
 * The A/B needs fresh processes on each side: Open MPI reads a rules file
 * once per process and MPICH its selection file once, so the files' side
 * and the defaults' cannot share processes.  They can share a launch:
 * "mpirun -np N collbench DEFAULT : -np N -x ... collbench TUNED : ..."
 * starts every side's processes at once, and collbench runs the app
 * contexts in turn, each a job of its own on its own ranks (collbench's
 * world.h), while the others sleep.  Each context is one launch of the
 * A/B's statistics (its own MPI_Init, placement and memory, its results
 * in its own trial directory, journaled as the fresh launch would be), so
 * the verdicts and the test stay as they are; the start-up is paid once
 * per turns launch instead of once per side.
 *
 * Only where every context can share the launch's transport: the files
 * set collective choices alone (no global choice: pml, btl, UCX
 * transports), the launcher is mpirun with the scale from --np, and the
 * user asked for it (--verify-turns, default every pair of a round in one
 * launch).  Otherwise the pairs stay fresh launches (tune_ab.c).
 */
#ifndef CT_TUNE_AB_TURNS_H
#define CT_TUNE_AB_TURNS_H

#include <stddef.h>

#include "tune_result.h"
#include "tune_trial.h"

/* Whether the A/B of result's candidates (significant, writable) can run
 * as turns under x's launcher; why (when not) in words. */
int ct_tune_ab_turns_ok(const ct_tune_runner_t *x, const ct_tune_result_t *result, char *why,
                        size_t len);

/* How many app contexts one launch can hold without oversubscribing a
 * host that one launch does not (json: a search trial's results, its
 * "hosts" with ranks_per_node and cores): Open MPI yields when idle and
 * stops binding on an oversubscribed host, so more contexts than fit
 * would measure the files otherwise than a job runs them.  A host one
 * launch already oversubscribes sets no bound.  0, with why, when the
 * JSON cannot say. */
size_t ct_tune_turns_fit(const char *json, char *why, size_t len);

/* Whether the user pinned what oversubscription would change: Open
 * MPI's mpi_yield_when_idle (--mca or OMPI_MCA_ in --env) and mpirun's
 * --bind-to (then the hosts set no bound on the contexts). */
int ct_tune_turns_pinned(const ct_tune_runner_t *x);

/* The A/B's pairs on vsc (nvsc kinds of launch, each side of each),
 * per_launch pairs to a launch, alternating which side goes first as the
 * fresh pairs do.  CT_OK with *stop 0 or 130 (interrupted), or an error.
 * A turns launch that fails with no context's results (mpirun refused
 * the slots, say) journals nothing and sets x->no_turns: the caller runs
 * what is left as fresh launches. */
ct_status_t ct_tune_ab_turns(ct_tune_runner_t *x, ct_tune_scope_t *vsc, size_t nvsc, size_t pairs,
                             size_t per_launch, int *stop);

#endif
