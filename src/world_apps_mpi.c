/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * world_apps_mpi.c - app contexts taking turns (world_apps_mpi.h).
 */
#define _GNU_SOURCE
#include "world_apps_mpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mpi_check.h"

/* Tags on MPI_COMM_WORLD, which carries nothing else once the contexts
 * have their own communicators. */
enum { CT_APPS_TAG_NUM = 31001, CT_APPS_TAG_ALL, CT_APPS_TAG_TURN, CT_APPS_TAG_DONE };

#define CT_APPS_MPI(fn, args)                                                                      \
    do {                                                                                           \
        if ((st = ct_mpi_status(fn args, #fn, __FILE__, __LINE__)) != CT_OK)                       \
            goto out;                                                                              \
    } while (0)

/* Every rank's context number and --turns into all (2 x size entries),
 * by messages to and from world rank 0. */
static ct_status_t ct_world_apps_gather(int rank, int size, const int mine[2], int *all)
{
    ct_status_t st = CT_OK;
    if (rank != 0) {
        CT_APPS_MPI(MPI_Send, (mine, 2, MPI_INT, 0, CT_APPS_TAG_NUM, MPI_COMM_WORLD));
        CT_APPS_MPI(MPI_Recv, (all, 2 * size, MPI_INT, 0, CT_APPS_TAG_ALL, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE));
        return CT_OK;
    }
    all[0] = mine[0];
    all[1] = mine[1];
    for (int r = 1; r < size; r++)
        CT_APPS_MPI(MPI_Recv, (&all[2 * r], 2, MPI_INT, r, CT_APPS_TAG_NUM, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE));
    for (int r = 1; r < size; r++)
        CT_APPS_MPI(MPI_Send, (all, 2 * size, MPI_INT, r, CT_APPS_TAG_ALL, MPI_COMM_WORLD));
out:
    return st;
}

ct_status_t ct_world_apps_setup(MPI_Comm *comm, ct_world_apps_t *apps, int turns, char *err,
                                size_t errlen)
{
    int *appnum = NULL, flag = 0, rank = 0, size = 1, told = 0;
    ct_status_t st = CT_OK;
    MPI_Group world = MPI_GROUP_NULL, mine = MPI_GROUP_NULL;
    int *all = NULL;
    *comm = MPI_COMM_WORLD;
    apps->app = 0;
    apps->napps = 1;
    apps->first = NULL;
    CT_APPS_MPI(MPI_Comm_get_attr, (MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag));
    CT_APPS_MPI(MPI_Comm_rank, (MPI_COMM_WORLD, &rank));
    CT_APPS_MPI(MPI_Comm_size, (MPI_COMM_WORLD, &size));
    const int me[2] = {flag && appnum != NULL && *appnum > 0 ? *appnum : 0, turns != 0};
    if ((all = calloc(2 * (size_t)size, sizeof *all)) == NULL)
        return CT_ERR_NOMEM;
    if ((st = ct_world_apps_gather(rank, size, me, all)) != CT_OK)
        goto out;
    for (int r = 0; r < size; r++)
        told += all[2 * r + 1];
    if (told == 0)
        goto out; /* one job, however many app contexts */
    if (told != size) {
        snprintf(err, errlen,
                 "--turns reached %d of the launch's %d processes: give it to every app context "
                 "(each a job of its own) or to none (one job)",
                 told, size);
        st = CT_ERR_USAGE;
        goto out;
    }
    for (int r = 1; r < size; r++)
        if (all[2 * r] != all[2 * r - 2] && all[2 * r] != all[2 * r - 2] + 1) {
            snprintf(err, errlen,
                     "the launch's app contexts are not contiguous rank ranges in order "
                     "(rank %d is in context %d, rank %d in %d)",
                     r - 1, all[2 * r - 2], r, all[2 * r]);
            st = CT_ERR_USAGE;
            goto out;
        }
    if (all[0] != 0 || all[2 * size - 2] == 0)
        goto out; /* one context: MPI_COMM_WORLD as it is */
    apps->app = me[0];
    apps->napps = all[2 * size - 2] + 1;
    if ((apps->first = calloc((size_t)apps->napps + 1, sizeof *apps->first)) == NULL) {
        st = CT_ERR_NOMEM;
        goto out;
    }
    for (int r = size - 1; r >= 0; r--)
        apps->first[all[2 * r]] = r;
    apps->first[apps->napps] = size;
    int range[1][3] = {{apps->first[apps->app], apps->first[apps->app + 1] - 1, 1}};
    CT_APPS_MPI(MPI_Comm_group, (MPI_COMM_WORLD, &world));
    CT_APPS_MPI(MPI_Group_range_incl, (world, 1, range, &mine));
    CT_APPS_MPI(MPI_Comm_create_group, (MPI_COMM_WORLD, mine, CT_APPS_TAG_NUM, comm));
out:
    if (mine != MPI_GROUP_NULL)
        MPI_Group_free(&mine);
    if (world != MPI_GROUP_NULL)
        MPI_Group_free(&world);
    free(all);
    return st;
}

ct_status_t ct_world_apps_wait_idle(MPI_Request *req)
{
    ct_status_t st = CT_OK;
    int done = 0;
    long pause_ns = 100000;
    for (;;) {
        CT_APPS_MPI(MPI_Test, (req, &done, MPI_STATUS_IGNORE));
        if (done)
            break;
        const struct timespec pause = {0, pause_ns};
        nanosleep(&pause, NULL);
        if (pause_ns < 20000000)
            pause_ns *= 2;
    }
out:
    return st;
}

/* Waits, sleeping, for a token from world rank from. */
static ct_status_t ct_world_apps_wait(int from, int tag)
{
    ct_status_t st = CT_OK;
    MPI_Request req;
    int token = 0;
    CT_APPS_MPI(MPI_Irecv, (&token, 1, MPI_INT, from, tag, MPI_COMM_WORLD, &req));
    st = ct_world_apps_wait_idle(&req);
out:
    return st;
}

ct_status_t ct_world_apps_turn_begin(const ct_world_apps_t *apps, MPI_Comm comm)
{
    (void)comm;
    if (apps->napps == 1 || apps->app == 0)
        return CT_OK;
    return ct_world_apps_wait(apps->first[apps->app - 1], CT_APPS_TAG_TURN);
}

ct_status_t ct_world_apps_turn_end(const ct_world_apps_t *apps, MPI_Comm comm)
{
    ct_status_t st = CT_OK;
    int rank = 0, token = 1;
    if (apps->napps == 1)
        return CT_OK;
    CT_APPS_MPI(MPI_Barrier, (comm));
    CT_APPS_MPI(MPI_Comm_rank, (comm, &rank));
    int last = apps->app == apps->napps - 1;
    if (rank == 0) {
        /* The next context's ranks, or, from the last, everyone else. */
        int lo = last ? 0 : apps->first[apps->app + 1];
        int hi = last ? apps->first[apps->app] : apps->first[apps->app + 2];
        for (int r = lo; r < hi; r++)
            CT_APPS_MPI(MPI_Send, (&token, 1, MPI_INT, r,
                                   last ? CT_APPS_TAG_DONE : CT_APPS_TAG_TURN, MPI_COMM_WORLD));
    }
    if (!last)
        st = ct_world_apps_wait(apps->first[apps->napps - 1], CT_APPS_TAG_DONE);
out:
    return st;
}

void ct_world_apps_free(ct_world_apps_t *apps)
{
    free(apps->first);
    apps->first = NULL;
}
