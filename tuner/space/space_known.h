/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * space_known.h - what colltune knows about the variables a space may name:
 * the values the library accepts (so a space is rejected before a trial
 * would make NCCL or Open MPI abort or, worse, silently ignore it), the
 * collective a variable affects, and values that are only valid up to some
 * rank count (coll/tuned's two_proc algorithms).
 *
 * Variables colltune does not know pass unchecked: a space may name any
 * NCCL_*, UCX_* or MCA variable.
 */
#ifndef CT_SPACE_KNOWN_H
#define CT_SPACE_KNOWN_H

#include <stddef.h>
#include "ct_status.h"

/* CT_OK when value is acceptable for name (or name is unknown); otherwise
 * CT_ERR_USAGE with the reason in why. */
ct_status_t ct_space_known_check(const char *name, const char *value, char *why, size_t whylen);

/* The collective (ct_coll_id_t) a known per-collective variable affects,
 * CT_SCOPE_GLOBAL for a known global one, or -2 when colltune cannot tell.
 * A coll/tuned variable for a call collbench never makes is CT_ERR_USAGE
 * with the reason in why. */
ct_status_t ct_space_known_scope(const char *name, int *scope_p, char *why, size_t whylen);

/* Whether name is an MPI control variable that Open MPI reads when a
 * communicator is created, so that collbench --config can change it
 * between communicators of one launch: coll/tuned's forced algorithm and
 * the segment size, fan-outs, radix and request limit beside it
 * (coll_tuned_<coll>_algorithm[_*]).  coll_tuned_use_dynamic_rules and
 * coll_tuned_dynamic_rules_filename are not: READONLY in Open MPI 4.1.4,
 * they are read at MPI_Init (open-mpi/ompi#12866).  And NCCL_ALGO and
 * NCCL_PROTO, which NCCL 2.28 reads at every ncclCommInitRank
 * (src/graph/tuning.cc, ncclTopoTuneModel), where most NCCL_* variables
 * are read once per process (NCCL_PARAM's cache). */
int ct_space_known_runtime(const char *name);

/* The most ranks name=value is valid at (0: no limit) and why. */
long ct_space_known_max_ranks(const char *name, const char *value, const char **why_p);

#endif
