/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * world.h - the process group collbench runs in, without MPI types.
 *
 * The engine synchronises ranks, agrees on decisions and gathers metadata
 * through this interface; world_mpi.c implements it over MPI_COMM_WORLD.
 * Backends that speak MPI themselves get the communicator from
 * ct_world_native().  Every call here is collective unless it says not.
 */
#ifndef CT_WORLD_H
#define CT_WORLD_H

#include <stddef.h>
#include "ct_status.h"

typedef struct ct_world ct_world_t;

typedef enum { CT_REDUCE_SUM, CT_REDUCE_MIN, CT_REDUCE_MAX } ct_reduce_t;

/* turns: this process was told --turns (world_apps_mpi.h): when every
 * process was, each app context is a world of its own; when none was, the
 * launch is one world; when some were (or the contexts are not in order),
 * CT_ERR_USAGE on every process, said by rank 0: only ct_world_finalize
 * may follow. */
ct_status_t ct_world_init(int *argc, char ***argv, int turns, ct_world_t **world_p);
void ct_world_finalize(ct_world_t *world);

/* Collective: the ranks that pass one color >= 0 form a new world, ranked
 * by key; a rank passing color < 0 gets NULL.  Free with ct_world_free. */
ct_status_t ct_world_split(ct_world_t *world, int color, int key, ct_world_t **sub_p);
/* Collective: a duplicate of world's communicator (MPI_Comm_dup), which
 * takes the library's settings in force now (configs.h).  Free with
 * ct_world_free. */
ct_status_t ct_world_dup(ct_world_t *world, ct_world_t **dup_p);
void ct_world_free(ct_world_t *sub); /* a world from ct_world_split or _dup; NULL: nothing */

/* A launch of several app contexts ("mpirun -np N collbench --turns A :
 * -np N collbench --turns B", world_apps_mpi.h): ct_world_init's world is
 * this process's context, a job of its own, and the contexts take turns
 * in launch order.
 * turn_begin waits (sleeping) for the earlier contexts; turn_end
 * (collective over the context) starts the next and waits, sleeping, for
 * the last.  Both return at once for a launch of one program. */
void ct_world_turn_begin(ct_world_t *world);
void ct_world_turn_end(ct_world_t *world);
int ct_world_app(const ct_world_t *world);   /* this context, from 0 (local) */
int ct_world_napps(const ct_world_t *world); /* contexts in the launch (local) */

/* Local queries (not collective). */
int ct_world_rank(const ct_world_t *world);
int ct_world_size(const ct_world_t *world);
int ct_world_local_rank(const ct_world_t *world); /* rank among this host's */
int ct_world_local_size(const ct_world_t *world);
int ct_world_nnodes(const ct_world_t *world); /* distinct hosts */
/* Hosts by hostname, numbered 0.. in order of their first rank (the JSON's
 * "hosts" order): this rank's host, its place among that host's ranks (in
 * rank order), and a host's rank count and name (0 and "" outside). */
int ct_world_host_index(const ct_world_t *world);
int ct_world_host_rank(const ct_world_t *world);
int ct_world_host_size(const ct_world_t *world, int host);
const char *ct_world_host_name(const ct_world_t *world, int host);
const char *ct_world_hostname(const ct_world_t *world);
const char *ct_world_library_version(const ct_world_t *world);
void *ct_world_native(ct_world_t *world); /* points at the MPI_Comm */

void ct_world_barrier(ct_world_t *world);
/* A barrier that sleeps while it waits (polls up to 20 ms apart) instead of spinning:
 * for ranks that sit out a measurement on a sub-communicator. */
void ct_world_barrier_idle(ct_world_t *world);
void ct_world_allreduce_double(ct_world_t *world, double *inout, size_t n, ct_reduce_t op);
void ct_world_allreduce_long(ct_world_t *world, long long *inout, size_t n, ct_reduce_t op);
void ct_world_bcast(ct_world_t *world, void *buf, size_t bytes, int root);
/* Rank-ordered concatenation of every rank's bytes, delivered to root. */
void ct_world_gather(ct_world_t *world, const void *in, size_t bytes, void *out, int root);
/* The same for bytes that differ by rank (0 allowed): on root *out_p gets
 * the concatenation (malloc'd, free it) and lens[r] rank r's length
 * (world-size entries); elsewhere *out_p is NULL and lens unused. */
void ct_world_gatherv(ct_world_t *world, const void *in, size_t bytes, void **out_p, size_t *lens,
                      int root);

/* MPI errors return to collbench instead of aborting inside MPI.  A
 * collective below that fails has reported its MPI call, file:line and
 * MPI's error string, and ends the job with exit 3 (ct_world_abort): the
 * ranks no longer agree on where they are, so no caller could recover. */

/* Ends every rank now; for watchdogs and the unrecoverable failures above,
 * not for ordinary errors. */
_Noreturn void ct_world_abort(ct_world_t *world, int exit_code);

#endif
