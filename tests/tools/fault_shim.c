/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fault_shim.c - a test double for a faulty network, LD_PRELOADed into
 * collbench by the tests.  Through MPI's profiling interface (PMPI) it
 * makes collectives on float data misbehave, as chosen by FAULT_SHIM_MODE:
 *   corrupt (default)  rank 1's MPI_Allreduce adds 1 to the first element
 *                      received
 *   hang               rank 1's MPI_Allreduce never returns (a stuck link),
 *                      to exercise -T
 *   misplace           MPI_Reduce_scatter_block computes the right blocks,
 *                      then every rank passes its block to the next rank:
 *                      each ends with a neighbour's correctly reduced block
 *                      (all values right, all in the wrong place)
 * collbench's own bookkeeping reduces doubles and long longs, so it is
 * left alone.  Only tests load this library.
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fault_shim_mode(const char *name)
{
    const char *mode = getenv("FAULT_SHIM_MODE");
    if (mode == NULL || *mode == '\0')
        mode = "corrupt";
    return strcmp(mode, name) == 0;
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm)
{
    int rank = 0;
    PMPI_Comm_rank(comm, &rank);
    int target = rank == 1 && datatype == MPI_FLOAT && count > 0;

    if (target && fault_shim_mode("hang"))
        for (;;)
            pause();
    int rc = PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
    if (rc == MPI_SUCCESS && target && fault_shim_mode("corrupt")) {
        float v;
        memcpy(&v, recvbuf, sizeof v);
        v += 1.0f;
        memcpy(recvbuf, &v, sizeof v);
    }
    return rc;
}

int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    int rc = PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
    int rank = 0, size = 1;
    if (rc != MPI_SUCCESS || !fault_shim_mode("misplace") || datatype != MPI_FLOAT ||
        recvcount <= 0)
        return rc;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    /* In place or not, the rank's block is at the start of recvbuf. */
    return PMPI_Sendrecv_replace(recvbuf, recvcount, datatype, (rank + 1) % size, 0,
                                 (rank + size - 1) % size, 0, comm, MPI_STATUS_IGNORE);
}
