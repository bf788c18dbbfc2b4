/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * delay_shim.c - a stand-in for a slow driver, LD_PRELOADed into collbench
 * by tests/mpi/delay_shim.sh and bench/regress-history.  It is NOT a real
 * slowdown: through MPI's profiling interface (PMPI) it busy-waits a fixed
 * DELAY_SHIM_US microseconds (default 0: no delay) before each collective
 * that collbench's MPI backend calls (src/backend/backend_mpi.c), then
 * calls the real one.  collbench's own bookkeeping goes through the same
 * calls and is delayed too, as a slow driver would delay it.
 *
 * It busy-waits rather than sleeps because a sleep of a few microseconds
 * overshoots by the scheduler's granularity; a spin adds what it says.
 * The variable is read on each call (getenv, well under a microsecond) so
 * the shim keeps no state.
 *
 * Three optional filters narrow it to one place, so a test can plant a
 * slowdown where a tune never measured (tests/mpi/colltune_no_harm.sh):
 *   DELAY_SHIM_ONLY=MPI_Bcast   only that call;
 *   DELAY_SHIM_BYTES=N          only calls of N bytes (the call's own
 *                               count times its datatype's size);
 *   DELAY_SHIM_IF=VAR           only where VAR is set in the environment
 *                               (colltune's A/B sets COLLTUNE_VERIFY_CHOICES
 *                               on its tuned side alone: a stand-in for
 *                               "the emitted files make this slow").
 * And DELAY_SHIM_JITTER_US=J adds 0 to J microseconds more to each delay,
 * drawn from the clock's nanoseconds (still no state): calls whose times
 * spread, so that a median's CI cannot close (tests/mpi/ci_patience.sh).
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The delay in nanoseconds from DELAY_SHIM_US; 0 when unset or invalid. */
static long long delay_shim_ns(void)
{
    const char *s = getenv("DELAY_SHIM_US");
    char *end = NULL;
    if (s == NULL || *s == '\0')
        return 0;
    long long us = strtoll(s, &end, 10);
    if (*end != '\0' || us <= 0 || us > 10000000)
        return 0;
    return us * 1000;
}

/* Whether the filters (see the top) let call, of count elements of type,
 * be delayed. */
static int delay_shim_applies(const char *call, int count, MPI_Datatype type)
{
    const char *only = getenv("DELAY_SHIM_ONLY"), *bytes = getenv("DELAY_SHIM_BYTES");
    const char *when = getenv("DELAY_SHIM_IF");
    if (only != NULL && *only != '\0' && strcmp(only, call) != 0)
        return 0;
    if (when != NULL && *when != '\0' && getenv(when) == NULL)
        return 0;
    if (bytes != NULL && *bytes != '\0') {
        int size = 0;
        if (PMPI_Type_size(type, &size) != MPI_SUCCESS ||
            (long long)count * size != strtoll(bytes, NULL, 10))
            return 0;
    }
    return 1;
}

static void delay_shim_wait(const char *call, int count, MPI_Datatype type)
{
    struct timespec start, now;
    long long ns = delay_shim_ns();
    if (ns == 0 || !delay_shim_applies(call, count, type) ||
        clock_gettime(CLOCK_MONOTONIC, &start) != 0)
        return;
    const char *jitter = getenv("DELAY_SHIM_JITTER_US");
    long long jitter_ns = jitter != NULL ? strtoll(jitter, NULL, 10) * 1000 : 0;
    if (jitter_ns > 0 && jitter_ns <= 10000000000LL)
        ns += start.tv_nsec % (jitter_ns + 1);
    do {
        if (clock_gettime(CLOCK_MONOTONIC, &now) != 0)
            return;
    } while ((now.tv_sec - start.tv_sec) * 1000000000LL + (now.tv_nsec - start.tv_nsec) < ns);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm)
{
    delay_shim_wait("MPI_Allreduce", count, datatype);
    return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    delay_shim_wait("MPI_Bcast", count, datatype);
    return PMPI_Bcast(buffer, count, datatype, root, comm);
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    delay_shim_wait("MPI_Allgather", sendcount, sendtype);
    return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    delay_shim_wait("MPI_Alltoall", sendcount, sendtype);
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    delay_shim_wait("MPI_Reduce_scatter_block", recvcount, datatype);
    return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
}
