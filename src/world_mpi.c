/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * world_mpi.c - ct_world over MPI_COMM_WORLD.
 *
 * MPI errors return (MPI_ERRORS_RETURN on MPI_COMM_WORLD, which the
 * communicators split from it inherit, and which MPI also uses for errors
 * tied to no communicator), so each one is reported with its call and
 * file:line (mpi_check.h) instead of aborting inside MPI with a usage-like
 * exit code.  The calls here are the engine's own bookkeeping: a failure
 * leaves the ranks disagreeing about where they are, which no caller could
 * recover from, so after the report every rank ends with exit 3
 * (ct_world_abort) rather than continuing with garbage.
 */
#define _GNU_SOURCE
#include "world.h"

#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpi_check.h"
#include "world_apps_mpi.h"

#define CT_HOSTNAME_MAX 256

/* One MPI call of the world; on failure it has been reported, and the job
 * ends with exit 3. */
#define CT_WORLD_MPI(w, fn, args)                                                                  \
    ct_world_require((w), ct_mpi_status(fn args, #fn, __FILE__, __LINE__))

struct ct_world {
    MPI_Comm comm;
    int rank;
    int size;
    int local_rank;
    int local_size;
    int nnodes;
    int host_index;                      /* this rank's host, numbered in order of first rank */
    int host_rank;                       /* this rank's place among its host's, in rank order */
    int *host_sizes;                     /* nnodes entries: ranks per host */
    char (*host_names)[CT_HOSTNAME_MAX]; /* nnodes entries */
    char hostname[CT_HOSTNAME_MAX];
    char library_version[MPI_MAX_LIBRARY_VERSION_STRING];
    ct_world_apps_t apps; /* the launch's app contexts; comm is this one's */
};

static void ct_world_require(struct ct_world *w, ct_status_t st)
{
    if (st != CT_OK)
        ct_world_abort(w, CT_EXIT_FAILURE);
}

/* The world's bookkeeping moves a few bytes; a count that does not fit an
 * int is a bug in the caller, never something to wrap. */
static int ct_world_count(struct ct_world *w, size_t n, const char *what)
{
    if (n > INT_MAX) {
        fprintf(stderr, "collbench: rank %d: %s: %zu elements exceed MPI's int count\n", w->rank,
                what, n);
        ct_world_abort(w, CT_EXIT_FAILURE);
    }
    return (int)n;
}

/* Numbers the hosts by hostname, in order of their first rank: ranks on
 * one host share memory and a NIC, so nnodes is what busbw comparisons
 * across clusters need, and the hosts' order and sizes are what --shapes
 * places its sub-communicators by (the same order as the JSON's "hosts").
 * By name, not MPI_COMM_TYPE_SHARED: emulated hosts share one kernel. */
static void ct_world_count_hosts(struct ct_world *w)
{
    char *all = malloc((size_t)w->size * CT_HOSTNAME_MAX);

    w->host_sizes = calloc((size_t)w->size, sizeof *w->host_sizes);
    w->host_names = calloc((size_t)w->size, sizeof *w->host_names);
    if (all == NULL || w->host_sizes == NULL || w->host_names == NULL) {
        /* The others are about to wait in MPI_Allgather for this rank. */
        fprintf(stderr, "collbench: rank %d: out of memory gathering host names\n", w->rank);
        ct_world_abort(w, CT_EXIT_FAILURE);
    }
    CT_WORLD_MPI(w, MPI_Allgather,
                 (w->hostname, CT_HOSTNAME_MAX, MPI_CHAR, all, CT_HOSTNAME_MAX, MPI_CHAR, w->comm));
    w->nnodes = 0;
    for (int r = 0; r < w->size; r++) {
        const char *name = all + (size_t)r * CT_HOSTNAME_MAX;
        int k = 0;
        while (k < w->nnodes && strcmp(w->host_names[k], name) != 0)
            k++;
        if (k == w->nnodes)
            memcpy(w->host_names[w->nnodes++], name, CT_HOSTNAME_MAX);
        if (r == w->rank) {
            w->host_index = k;
            w->host_rank = w->host_sizes[k];
        }
        w->host_sizes[k]++;
    }
    free(all);
}

static void ct_world_describe(struct ct_world *w);

ct_status_t ct_world_init(int *argc, char ***argv, int turns, ct_world_t **world_p)
{
    struct ct_world *w = calloc(1, sizeof *w);

    if (w == NULL)
        return CT_ERR_NOMEM;
    if (MPI_Init(argc, argv) != MPI_SUCCESS) {
        free(w);
        return CT_ERR_UNAVAILABLE;
    }
    w->comm = MPI_COMM_WORLD;
    /* First, so that every later failure is reported, not fatal in MPI. */
    CT_WORLD_MPI(w, MPI_Comm_set_errhandler, (w->comm, MPI_ERRORS_RETURN));
    char err[256];
    ct_status_t st = ct_world_apps_setup(&w->comm, &w->apps, turns, err, sizeof err);
    if (st == CT_ERR_USAGE) {
        /* Every process read the same gathered list: all end here, alike. */
        int rank = 0;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        if (rank == 0)
            fprintf(stderr, "collbench: error: %s\n", err);
        *world_p = w; /* to finalize */
        return CT_ERR_USAGE;
    }
    if (st != CT_OK)
        ct_world_abort(w, ct_status_exit_code(st));
    if (w->comm != MPI_COMM_WORLD)
        CT_WORLD_MPI(w, MPI_Comm_set_errhandler, (w->comm, MPI_ERRORS_RETURN));
    ct_world_describe(w);
    *world_p = w;
    return CT_OK;
}

/* Rank, size, host and library of w->comm (collective over it). */
static void ct_world_describe(struct ct_world *w)
{
    MPI_Comm local;
    int len = 0;

    CT_WORLD_MPI(w, MPI_Comm_rank, (w->comm, &w->rank));
    CT_WORLD_MPI(w, MPI_Comm_size, (w->comm, &w->size));
    CT_WORLD_MPI(w, MPI_Comm_split_type,
                 (w->comm, MPI_COMM_TYPE_SHARED, w->rank, MPI_INFO_NULL, &local));
    CT_WORLD_MPI(w, MPI_Comm_rank, (local, &w->local_rank));
    CT_WORLD_MPI(w, MPI_Comm_size, (local, &w->local_size));
    CT_WORLD_MPI(w, MPI_Comm_free, (&local));
    if (gethostname(w->hostname, sizeof w->hostname - 1) != 0)
        strcpy(w->hostname, "unknown");
    CT_WORLD_MPI(w, MPI_Get_library_version, (w->library_version, &len));
    /* Open MPI's string ends in a newline and padding; keep the first line. */
    w->library_version[strcspn(w->library_version, "\r\n")] = '\0';
    w->hostname[sizeof w->hostname - 1] = '\0';
    ct_world_count_hosts(w);
}

ct_status_t ct_world_split(ct_world_t *world, int color, int key, ct_world_t **sub_p)
{
    MPI_Comm comm;
    *sub_p = NULL;
    CT_WORLD_MPI(world, MPI_Comm_split,
                 (world->comm, color >= 0 ? color : MPI_UNDEFINED, key, &comm));
    if (comm == MPI_COMM_NULL)
        return CT_OK;
    struct ct_world *w = calloc(1, sizeof *w);
    if (w == NULL) {
        /* The others of this communicator would wait in its first call. */
        fprintf(stderr, "collbench: rank %d: out of memory splitting the world\n", world->rank);
        ct_world_abort(world, CT_EXIT_FAILURE);
    }
    w->comm = comm; /* inherits MPI_ERRORS_RETURN */
    ct_world_describe(w);
    *sub_p = w;
    return CT_OK;
}

ct_status_t ct_world_dup(ct_world_t *world, ct_world_t **dup_p)
{
    MPI_Comm comm;
    *dup_p = NULL;
    CT_WORLD_MPI(world, MPI_Comm_dup, (world->comm, &comm));
    struct ct_world *w = calloc(1, sizeof *w);
    if (w == NULL) {
        fprintf(stderr, "collbench: rank %d: out of memory duplicating the world\n", world->rank);
        ct_world_abort(world, CT_EXIT_FAILURE);
    }
    w->comm = comm; /* inherits MPI_ERRORS_RETURN */
    ct_world_describe(w);
    *dup_p = w;
    return CT_OK;
}

void ct_world_free(ct_world_t *sub)
{
    if (sub == NULL)
        return;
    (void)CT_MPI_CALL(MPI_Comm_free, (&sub->comm));
    free(sub->host_sizes);
    free(sub->host_names);
    free(sub);
}

void ct_world_turn_begin(ct_world_t *w)
{
    ct_world_require(w, ct_world_apps_turn_begin(&w->apps, w->comm));
}

void ct_world_turn_end(ct_world_t *w)
{
    ct_world_require(w, ct_world_apps_turn_end(&w->apps, w->comm));
}

int ct_world_app(const ct_world_t *w) { return w->apps.app; }
int ct_world_napps(const ct_world_t *w) { return w->apps.napps; }

void ct_world_finalize(ct_world_t *world)
{
    if (world->comm != MPI_COMM_WORLD)
        (void)CT_MPI_CALL(MPI_Comm_free, (&world->comm));
    ct_world_apps_free(&world->apps);
    /* Too late to abort; the report is all that can be done. */
    (void)CT_MPI_CALL(MPI_Finalize, ());
    free(world->host_sizes);
    free(world->host_names);
    free(world);
}

int ct_world_rank(const ct_world_t *w) { return w->rank; }
int ct_world_size(const ct_world_t *w) { return w->size; }
int ct_world_local_rank(const ct_world_t *w) { return w->local_rank; }
int ct_world_local_size(const ct_world_t *w) { return w->local_size; }
int ct_world_nnodes(const ct_world_t *w) { return w->nnodes; }
int ct_world_host_index(const ct_world_t *w) { return w->host_index; }
int ct_world_host_rank(const ct_world_t *w) { return w->host_rank; }
int ct_world_host_size(const ct_world_t *w, int host)
{
    return host >= 0 && host < w->nnodes ? w->host_sizes[host] : 0;
}
const char *ct_world_host_name(const ct_world_t *w, int host)
{
    return host >= 0 && host < w->nnodes ? w->host_names[host] : "";
}
const char *ct_world_hostname(const ct_world_t *w) { return w->hostname; }
const char *ct_world_library_version(const ct_world_t *w) { return w->library_version; }
void *ct_world_native(ct_world_t *w) { return &w->comm; }

void ct_world_barrier(ct_world_t *w) { CT_WORLD_MPI(w, MPI_Barrier, (w->comm)); }

/* MPI_Barrier busy-polls in Open MPI: a rank waiting there for minutes
 * would take a core from the ranks being measured.  A non-blocking
 * barrier, tested with sleeps that grow from 0.1 ms to 20 ms between
 * tests (each test wakes the rank and runs MPI's progress), costs them
 * almost nothing and ends within 20 ms of the last rank's arrival. */
void ct_world_barrier_idle(ct_world_t *w)
{
    MPI_Request req;
    CT_WORLD_MPI(w, MPI_Ibarrier, (w->comm, &req));
    ct_world_require(w, ct_world_apps_wait_idle(&req));
}

static MPI_Op ct_world_mpi_op(ct_reduce_t op)
{
    switch (op) {
    case CT_REDUCE_MIN: return MPI_MIN;
    case CT_REDUCE_MAX: return MPI_MAX;
    default: return MPI_SUM;
    }
}

void ct_world_allreduce_double(ct_world_t *w, double *inout, size_t n, ct_reduce_t op)
{
    int count = ct_world_count(w, n, "ct_world_allreduce_double");
    CT_WORLD_MPI(w, ct_mpi_allreduce_padded,
                 (inout, count, MPI_DOUBLE, ct_world_mpi_op(op), w->comm));
}

void ct_world_allreduce_long(ct_world_t *w, long long *inout, size_t n, ct_reduce_t op)
{
    int count = ct_world_count(w, n, "ct_world_allreduce_long");
    CT_WORLD_MPI(w, ct_mpi_allreduce_padded,
                 (inout, count, MPI_LONG_LONG, ct_world_mpi_op(op), w->comm));
}

void ct_world_bcast(ct_world_t *w, void *buf, size_t bytes, int root)
{
    int count = ct_world_count(w, bytes, "ct_world_bcast");
    CT_WORLD_MPI(w, MPI_Bcast, (buf, count, MPI_BYTE, root, w->comm));
}

void ct_world_gather(ct_world_t *w, const void *in, size_t bytes, void *out, int root)
{
    int count = ct_world_count(w, bytes, "ct_world_gather");
    CT_WORLD_MPI(w, MPI_Gather, (in, count, MPI_BYTE, out, count, MPI_BYTE, root, w->comm));
}

void ct_world_gatherv(ct_world_t *w, const void *in, size_t bytes, void **out_p, size_t *lens,
                      int root)
{
    int count = ct_world_count(w, bytes, "ct_world_gatherv"), *counts = NULL, *displs = NULL;
    char *out = NULL;
    int is_root = w->rank == root;

    *out_p = NULL;
    if (is_root) {
        counts = calloc((size_t)w->size, sizeof *counts);
        displs = calloc((size_t)w->size, sizeof *displs);
        if (counts == NULL || displs == NULL) {
            fprintf(stderr, "collbench: rank %d: out of memory gathering\n", w->rank);
            ct_world_abort(w, CT_EXIT_FAILURE);
        }
    }
    CT_WORLD_MPI(w, MPI_Gather, (&count, 1, MPI_INT, counts, 1, MPI_INT, root, w->comm));
    if (is_root) {
        size_t total = 0;
        for (int r = 0; r < w->size; r++) {
            displs[r] = ct_world_count(w, total, "ct_world_gatherv");
            total += (size_t)counts[r];
            lens[r] = (size_t)counts[r];
        }
        (void)ct_world_count(w, total, "ct_world_gatherv");
        if ((out = malloc(total ? total : 1)) == NULL) {
            fprintf(stderr, "collbench: rank %d: out of memory gathering\n", w->rank);
            ct_world_abort(w, CT_EXIT_FAILURE);
        }
    }
    CT_WORLD_MPI(w, MPI_Gatherv,
                 (in, count, MPI_BYTE, out, counts, displs, MPI_BYTE, root, w->comm));
    free(counts);
    free(displs);
    *out_p = out;
}

_Noreturn void ct_world_abort(ct_world_t *w, int exit_code)
{
    MPI_Abort(w->comm, exit_code);
    _exit(exit_code);
}
