/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_placement.h - the placement rules behind collbench's
 * "placement_warnings", as pure functions over sets (no hwloc, no MPI, no
 * CUDA), so they are unit-tested with made-up topologies.
 *
 * A set is a bitmap of small indices (CPU PUs or NUMA nodes); collbench
 * fills them from hwloc (src/topology.c).
 */
#ifndef CT_PLACEMENT_H
#define CT_PLACEMENT_H

#include <stddef.h>
#include <stdint.h>

/* Up to 1024 PUs or NUMA nodes; larger indices are dropped by add. */
#define CT_SET_WORDS 16
#define CT_SET_MAX (CT_SET_WORDS * 64)

typedef struct {
    uint64_t w[CT_SET_WORDS];
} ct_set_t;

void ct_set_clear(ct_set_t *s);
void ct_set_add(ct_set_t *s, int index);
int ct_set_has(const ct_set_t *s, int index);
int ct_set_count(const ct_set_t *s);
int ct_set_empty(const ct_set_t *s);
int ct_set_intersects(const ct_set_t *a, const ct_set_t *b);
/* "0", "0,2-3" (ranges of two or more); "" for the empty set. */
void ct_set_format(const ct_set_t *s, char *buf, size_t buflen);

/* The GPU rule: a rank whose CPU binding touches none of its GPU's NUMA
 * nodes crosses the socket link on every transfer.  Returns 1 and writes
 * "rank R on numa X, its GPU G on numa Y" into buf when so; 0 when the sets
 * share a node or either is unknown (empty). */
int ct_placement_gpu_mismatch(int rank, const ct_set_t *rank_numa, int gpu,
                              const ct_set_t *gpu_numa, char *buf, size_t buflen);

/* The binding rule: two ranks on one host, both bound (not to the whole
 * machine), that share a PU take CPU from each other.  Returns 1 and
 * writes "ranks A and B on host H are bound to overlapping cores (X)". */
int ct_placement_overlap(int rank_a, int bound_a, const ct_set_t *pus_a, int rank_b, int bound_b,
                         const ct_set_t *pus_b, const char *host, char *buf, size_t buflen);

#endif
