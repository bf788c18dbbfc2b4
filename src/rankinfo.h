/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rankinfo.h - where each rank runs: host, pid, local rank, CPU binding.
 *
 * Gathered once at start (collective) so the JSON metadata can show how
 * ranks were placed and bound; a job bound badly is a common cause of
 * numbers that look like a slow node.
 */
#ifndef CT_RANKINFO_H
#define CT_RANKINFO_H

#include "backend/backend.h"
#include "ct_status.h"
#include "topology.h"
#include "world.h"

typedef struct {
    char hostname[128];
    char cpus[120]; /* affinity as ranges, "0-3,8" */
    int pid;
    int local_rank;
    int has_topology;        /* hwloc read the host (topology below is valid) */
    ct_topology_rank_t topo; /* binding's PUs, NUMA nodes, cores; host sizes */
    int gpu;                 /* device index, -1: none (every backend but nccl) */
    char gpu_bus_id[32];     /* "0000:3b:00.0" */
    ct_set_t gpu_numa;       /* empty: hwloc did not find the device */
} ct_rankinfo_t;

/* Collective.  On rank 0 *all_p gets world-size entries (free()); on other
 * ranks it is NULL. */
ct_status_t ct_rankinfo_gather(ct_world_t *world, ct_rankinfo_t **all_p);

/* Collective, after the backend opened: each rank's device (ops->device_pci)
 * and its NUMA nodes through hwloc, into all (rank 0's array; NULL on the
 * others).  Nothing is recorded for backends without devices.  There is no
 * GPU where the tests run: this path is not run there. */
void ct_rankinfo_gather_gpu(ct_world_t *world, const ct_backend_ops_t *ops, void *ctx,
                            ct_rankinfo_t *all);

/* Placement warnings for the JSON (ct_placement.h's rules): a rank bound
 * away from its GPU's NUMA nodes, and two bound ranks of one host sharing
 * a core.  Each line is written by emit(line, arg).  Local, on rank 0. */
void ct_rankinfo_warnings(const ct_rankinfo_t *all, int n, void (*emit)(const char *, void *),
                          void *arg);

/* The calling process' CPU affinity as ranges. */
void ct_rankinfo_cpus(char *buf, size_t buflen);

#endif
