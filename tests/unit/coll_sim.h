/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * coll_sim.h - a collective simulated in-process, for the unit tests.
 *
 * Every rank's input comes from the collective's own fill_send; the
 * simulator computes what a correct collective delivers to each rank
 * (reductions in double, stored back through ct_dtype_store so integer
 * results wrap like the type; data movement byte for byte).  test_pattern
 * and test_faults plant errors in a copy of that output and check that
 * check_recv counts exactly what ct_sim_count_mismatch counts.
 */
#ifndef CT_COLL_SIM_H
#define CT_COLL_SIM_H

#include <stddef.h>
#include "coll.h"

#define CT_SIM_MAX_RANKS 8

typedef struct {
    const ct_coll_desc_t *desc;
    ct_coll_data_t data; /* rank filled in per use */
    size_t ts;           /* bytes per element */
    ct_coll_counts_t c;
    unsigned char *in[CT_SIM_MAX_RANKS];  /* each rank's send buffer */
    unsigned char *out[CT_SIM_MAX_RANKS]; /* correct output of each rank */
    unsigned char *work;                  /* recv_count elements to plant errors in */
} ct_sim_t;

/* nranks (1 to CT_SIM_MAX_RANKS) ranks running desc over bytes: fills
 * every input (over 0x5a bytes), computes every correct output, and
 * allocates work.  ct_sim_free releases the buffers. */
void ct_sim_setup(ct_sim_t *s, const ct_coll_desc_t *desc, ct_dtype_t dtype, ct_op_t op, int nranks,
                  int root, size_t bytes);
void ct_sim_free(ct_sim_t *s);

/* What a correct collective (skip -1) delivers to rank, or (reductions)
 * one that leaves rank skip's input out of the reduction. */
void ct_sim_simulate(const ct_sim_t *s, int rank, int skip, void *out);

/* Elements of a that the checker's comparison tells apart from the correct
 * b: those that differ, within the rounding avg on floats is allowed. */
size_t ct_sim_count_mismatch(const ct_sim_t *s, const void *a, const void *b);

#endif
