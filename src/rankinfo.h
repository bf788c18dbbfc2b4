/*
 * rankinfo.h - where each rank runs: host, pid, local rank, CPU binding.
 *
 * Gathered once at start (collective) so the JSON metadata can show how
 * ranks were placed and bound; a job bound badly is a common cause of
 * numbers that look like a slow node.
 */
#ifndef CT_RANKINFO_H
#define CT_RANKINFO_H

#include "ct_status.h"
#include "world.h"

typedef struct {
    char hostname[128];
    char cpus[120]; /* affinity as ranges, "0-3,8" */
    int pid;
    int local_rank;
} ct_rankinfo_t;

/* Collective.  On rank 0 *all_p gets world-size entries (free()); on other
 * ranks it is NULL. */
ct_status_t ct_rankinfo_gather(ct_world_t *world, ct_rankinfo_t **all_p);

/* The calling process' CPU affinity as ranges. */
void ct_rankinfo_cpus(char *buf, size_t buflen);

#endif
