/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_busbw.h - bus bandwidth: nccl-tests' bus factors (doc/PERFORMANCE.md),
 * busbw = algbw x factor(nranks), for the kind each collective's row in
 * ct_names.c names.
 *
 * collbench's collective descriptors (src/coll) and colltune import (which
 * recomputes an imported log's busbw) both read it, so the two cannot
 * disagree.  Plain C, no MPI.
 */
#ifndef CT_BUSBW_H
#define CT_BUSBW_H

#include "ct_names.h"

/* The factor for collective id at nranks; 0 for an id outside
 * ct_coll_id_t or nranks < 1. */
double ct_coll_busbw_factor(ct_coll_id_t id, int nranks);

#endif
