/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mpi_error_shim.c - a test double that makes a real MPI call fail,
 * LD_PRELOADed into collbench by tests/mpi/mpi_errors.sh.  Through MPI's
 * profiling interface it passes an invalid argument on to the real
 * library, so the error comes from MPI itself, through whatever error
 * handler collbench installed.  MPI_ERROR_SHIM chooses the call:
 *   bcast    every rank's typed MPI_Bcast gets count -1 (MPI_ERR_COUNT);
 *            collbench's own MPI_BYTE broadcasts are left alone
 *   barrier  rank 1's MPI_Barrier gets MPI_COMM_NULL (MPI_ERR_COMM)
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

static int ct_shim_mode(const char *mode)
{
    const char *m = getenv("MPI_ERROR_SHIM");
    return m != NULL && strcmp(m, mode) == 0;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    if (ct_shim_mode("bcast") && datatype != MPI_BYTE)
        count = -1;
    return PMPI_Bcast(buf, count, datatype, root, comm);
}

int MPI_Barrier(MPI_Comm comm)
{
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (ct_shim_mode("barrier") && rank == 1)
        comm = MPI_COMM_NULL;
    return PMPI_Barrier(comm);
}
