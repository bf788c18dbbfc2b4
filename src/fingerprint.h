/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fingerprint.h - the job's environment fingerprint for the JSON
 * (doc/formats.md, "fingerprint"): the lowest rank of each host takes its
 * host's (ct_fingerprint.h, plus MPI_T's selection variables read through
 * cvars.h), and rank 0 gets its own, every host's digest, and the whole
 * fingerprint of each host whose digest differs from its own: a node with
 * another driver or kernel is named.  MPI-free interface over world.h.
 */
#ifndef CT_FINGERPRINT_JOB_H
#define CT_FINGERPRINT_JOB_H

#include <stddef.h>

#include "ct_fingerprint.h"
#include "world.h"

typedef struct {
    char hostname[128];
    char digest[CT_FINGERPRINT_DIGEST_LEN];
    ct_fingerprint_t fp; /* in "other_hosts" only */
} ct_fingerprint_host_t;

typedef struct {
    ct_fingerprint_t fp; /* rank 0's host's */
    char digest[CT_FINGERPRINT_DIGEST_LEN];
    ct_fingerprint_host_t *hosts; /* every host's digest, in order of first rank */
    size_t nhosts;
    ct_fingerprint_host_t *others; /* hosts whose digest differs from rank 0's */
    size_t nothers;
} ct_fingerprint_job_t;

/* Collective; call it once the backend is open, so that the libraries it
 * loaded are listed.  *mpit_held says that this rank holds an MPI_T session
 * opened before MPI_Init (ct_cvars_hold, collbench.c): it is read from and
 * released here (and *mpit_held cleared) before the libraries are listed,
 * since the session keeps every MPI component loaded.  On rank 0 *job_p
 * gets the job's fingerprint (ct_fingerprint_job_free); NULL elsewhere.
 * Running out of memory ends the job (exit 3), as it would leave the other
 * ranks waiting. */
void ct_fingerprint_gather(ct_world_t *world, int *mpit_held, ct_fingerprint_job_t **job_p);
void ct_fingerprint_job_free(ct_fingerprint_job_t *job);

#endif
