/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * stub_nccl.c - a libnccl stand-in for tests/mpi/nccl_unavailable.sh.
 *
 * Built by the test with the system compiler, in three shapes:
 *   -DSTUB_ONLY_VERSION       exports ncclGetVersion alone (a missing symbol)
 *   -DSTUB_VERSION=21100      reports that NCCL_VERSION_CODE (default 22809)
 *   (default)                 every symbol the backend resolves
 * ncclCommInitRank fails on the ranks listed in $STUB_NCCL_INIT_FAIL
 * (comma-separated, or "all") and otherwise hands out a dummy communicator;
 * every collective fails.  Types are spelled as plain C (enums are ints).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef STUB_VERSION
#define STUB_VERSION 22809
#endif

typedef struct {
    char internal[128];
} stub_unique_id_t;

int ncclGetVersion(int *version)
{
    *version = STUB_VERSION;
    return 0;
}

#ifndef STUB_ONLY_VERSION
static int stub_listed(const char *list, int rank)
{
    char buf[256];
    if (list == NULL)
        return 0;
    if (strcmp(list, "all") == 0)
        return 1;
    snprintf(buf, sizeof buf, "%s", list);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ","))
        if (atoi(tok) == rank)
            return 1;
    return 0;
}

int ncclGetUniqueId(stub_unique_id_t *id)
{
    memset(id, 0, sizeof *id);
    return 0;
}

int ncclCommInitRank(void **comm, int nranks, stub_unique_id_t id, int rank)
{
    (void)nranks;
    (void)id;
    if (stub_listed(getenv("STUB_NCCL_INIT_FAIL"), rank))
        return 3; /* ncclInternalError */
    *comm = malloc(1);
    return 0;
}

int ncclCommDestroy(void *comm)
{
    free(comm);
    return 0;
}

int ncclCommAbort(void *comm)
{
    free(comm);
    return 0;
}

/* Collectives never run on the stub: they fail with ncclInvalidUsage. */
int ncclAllReduce(const void *s, void *r, size_t n, int dt, int op, void *comm, void *stream)
{
    (void)s, (void)r, (void)n, (void)dt, (void)op, (void)comm, (void)stream;
    return 5;
}

int ncclAllGather(const void *s, void *r, size_t n, int dt, void *comm, void *stream)
{
    (void)s, (void)r, (void)n, (void)dt, (void)comm, (void)stream;
    return 5;
}

int ncclReduceScatter(const void *s, void *r, size_t n, int dt, int op, void *comm, void *stream)
{
    (void)s, (void)r, (void)n, (void)dt, (void)op, (void)comm, (void)stream;
    return 5;
}

int ncclBroadcast(const void *s, void *r, size_t n, int dt, int root, void *comm, void *stream)
{
    (void)s, (void)r, (void)n, (void)dt, (void)root, (void)comm, (void)stream;
    return 5;
}

int ncclSend(const void *s, size_t n, int dt, int peer, void *comm, void *stream)
{
    (void)s, (void)n, (void)dt, (void)peer, (void)comm, (void)stream;
    return 5;
}

int ncclRecv(void *r, size_t n, int dt, int peer, void *comm, void *stream)
{
    (void)r, (void)n, (void)dt, (void)peer, (void)comm, (void)stream;
    return 5;
}

int ncclGroupStart(void) { return 0; }
int ncclGroupEnd(void) { return 0; }

const char *ncclGetErrorString(int result) { return result == 3 ? "internal error" : "stub error"; }

const char *ncclGetLastError(void *comm)
{
    (void)comm;
    return "stub libnccl makes no communicators here";
}

int ncclCommGetAsyncError(void *comm, int *error)
{
    (void)comm;
    *error = 0;
    return 0;
}
#endif
