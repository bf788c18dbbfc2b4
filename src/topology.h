/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * topology.h - where this process sits in its host, through hwloc: the
 * NUMA nodes and cores its CPU binding covers, the host's size, and the
 * NUMA node of a PCI device (a GPU) by its bus id.  Local calls, no MPI;
 * rankinfo.c gathers the answers.
 */
#ifndef CT_TOPOLOGY_H
#define CT_TOPOLOGY_H

#include "ct_placement.h"
#include "ct_status.h"

typedef struct {
    ct_set_t pus;  /* PUs (OS indices) of the CPU binding */
    ct_set_t numa; /* NUMA nodes (OS indices) those PUs belong to */
    int cores;     /* whole or partial cores the binding covers */
    int bound;     /* 0: bound to the whole machine (or not at all) */
    int host_numa_nodes, host_cores, host_pus;
} ct_topology_rank_t;

/* This process' binding and its host's size; CT_ERR_UNAVAILABLE (all
 * zero) when hwloc cannot read the topology. */
ct_status_t ct_topology_rank(ct_topology_rank_t *out);

/* The NUMA nodes nearest the PCI device bus_id ("0000:3b:00.0"), from
 * hwloc's I/O objects; CT_ERR_UNAVAILABLE when hwloc does not know it.
 * Used for GPUs only, and not run where there is no GPU. */
ct_status_t ct_topology_pci_numa(const char *bus_id, ct_set_t *numa);

/* "hwloc 2.9.0": the library collbench was built against. */
const char *ct_topology_source(void);

#endif
