/*
 * fault_shim.c - a test double for a faulty network: LD_PRELOAD it into
 * collbench and rank 1's MPI_Allreduce results get one element changed,
 * through MPI's own profiling interface (PMPI).  Only tests load it.
 */
#include <mpi.h>
#include <string.h>

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm)
{
    int rc = PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
    int rank = 0, size = 0;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Type_size(datatype, &size);
    /* Only the benchmark's data (float), not collbench's own bookkeeping,
     * which reduces doubles and long longs. */
    if (rc == MPI_SUCCESS && rank == 1 && datatype == MPI_FLOAT && count > 0) {
        float v;
        memcpy(&v, recvbuf, sizeof v);
        v += 1.0f;
        memcpy(recvbuf, &v, sizeof v);
    }
    return rc;
}
