/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * world_apps_mpi.h - a launch's app contexts taking turns (world_mpi.c's
 * helper; "mpirun -np N collbench A : -np N collbench B").
 *
 * Each app context is a job of its own: its own arguments and environment
 * (a tune's A/B loads a file that Open MPI or MPICH reads once per
 * process on one side only), so the contexts' processes may decide a
 * collective differently, and a collective over MPI_COMM_WORLD could
 * deadlock (measured: one side's recursive doubling against the other's
 * ring in MPI_Comm_split_type).  So nothing here calls a collective on
 * MPI_COMM_WORLD: the contexts are found with point-to-point messages, each
 * gets its communicator from MPI_Comm_create_group (collective over its
 * own processes only), and the turns pass by point-to-point tokens that
 * the waiting ranks poll with growing sleeps, taking no CPU from the
 * context being measured.  Point-to-point needs the same transport on
 * every side: contexts may differ in collective settings, not in pml,
 * btl or UCX transports (colltune only launches turns for such files).
 */
#ifndef CT_WORLD_APPS_MPI_H
#define CT_WORLD_APPS_MPI_H

#include <mpi.h>
#include <stddef.h>

#include "ct_status.h"

typedef struct {
    int app;    /* this process's context, from 0 */
    int napps;  /* 1: a launch of one program */
    int *first; /* napps + 1 entries: context k is world ranks first[k] .. first[k+1]-1 */
} ct_world_apps_t;

/* After MPI_Init: the contexts, and *comm this process's, when every
 * process was told --turns (turns); when none was, one context, the
 * launch (MPI_COMM_WORLD), as an MPMD launch of one job is (hosts made
 * by per-context settings, say).  CT_ERR_USAGE with err when only some
 * processes were told, or the contexts are not contiguous rank ranges in
 * order (mpirun and Hydra place them so). */
ct_status_t ct_world_apps_setup(MPI_Comm *comm, ct_world_apps_t *apps, int turns, char *err,
                                size_t errlen);

/* Waits for req, testing it between sleeps that grow from 0.1 ms to
 * 20 ms (each test runs MPI's progress): a waiting rank takes next to no
 * CPU from ranks that measure, and wakes within 20 ms.  ct_world's idle
 * barrier waits this way too. */
ct_status_t ct_world_apps_wait_idle(MPI_Request *req);

/* Waits (sleeping) until the contexts before this one are done. */
ct_status_t ct_world_apps_turn_begin(const ct_world_apps_t *apps, MPI_Comm comm);
/* This context is done (collective over comm): the next one starts, and
 * this process waits, sleeping, until the last context is done, so that
 * no process sits in MPI_Finalize while another context measures. */
ct_status_t ct_world_apps_turn_end(const ct_world_apps_t *apps, MPI_Comm comm);

void ct_world_apps_free(ct_world_apps_t *apps);

#endif
