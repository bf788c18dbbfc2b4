/*
 * fault_shim.c - a test double for a faulty network, LD_PRELOADed into
 * collbench by the tests.  Through MPI's profiling interface (PMPI) it
 * makes rank 1's MPI_Allreduce on float data misbehave, as chosen by
 * FAULT_SHIM_MODE:
 *   corrupt (default)  add 1 to the first element received
 *   hang               never return (a stuck link), to exercise -T
 * collbench's own bookkeeping reduces doubles and long longs, so it is
 * left alone.  Only tests load this library.
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm)
{
    int rank = 0;
    const char *mode = getenv("FAULT_SHIM_MODE");
    PMPI_Comm_rank(comm, &rank);
    int target = rank == 1 && datatype == MPI_FLOAT && count > 0;

    if (target && mode && strcmp(mode, "hang") == 0)
        for (;;)
            pause();
    int rc = PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
    if (rc == MPI_SUCCESS && target) {
        float v;
        memcpy(&v, recvbuf, sizeof v);
        v += 1.0f;
        memcpy(recvbuf, &v, sizeof v);
    }
    return rc;
}
