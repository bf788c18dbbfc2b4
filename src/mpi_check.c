/* SPDX-License-Identifier: BSD-3-Clause */
#include "mpi_check.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ct_status_t ct_mpi_status(int rc, const char *call, const char *file, int line)
{
    char msg[MPI_MAX_ERROR_STRING] = "";
    int len = 0, rank = -1, initialized = 0, finalized = 0;

    if (rc == MPI_SUCCESS)
        return CT_OK;
    /* The rank helps read interleaved output; ask only while MPI can answer. */
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (initialized && !finalized)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS)
        snprintf(msg, sizeof msg, "MPI error code %d", rc);
    fprintf(stderr, "collbench: rank %d: %s failed at %s:%d: %s\n", rank, call, file, line, msg);
    return CT_ERR_BACKEND;
}

#if defined(MPICH_VERSION) && !defined(OMPI_MAJOR_VERSION)
#define CT_MPI_PAD_ALLREDUCE 1
#else
#define CT_MPI_PAD_ALLREDUCE 0
#endif

int ct_mpi_allreduce_padded(void *inout, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    int size = 0, tsize = 0;
    int rc = MPI_Comm_size(comm, &size);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_size(dt, &tsize);
    /* Only MPICH's algorithm variables are in force around the engine's
     * calls (configs_mpit.c); Open MPI's are read per communicator. */
    if (!CT_MPI_PAD_ALLREDUCE)
        size = 0;
    if (rc != MPI_SUCCESS || count >= size)
        return rc == MPI_SUCCESS ? MPI_Allreduce(MPI_IN_PLACE, inout, count, dt, op, comm) : rc;
    /* Zeros: every rank pads alike, and the padding is never read. */
    char small[512];
    size_t need = (size_t)size * (size_t)tsize;
    char *buf = need <= sizeof small ? small : calloc(1, need);
    if (buf == NULL)
        return MPI_ERR_NO_MEM;
    memset(buf, 0, need);
    memcpy(buf, inout, (size_t)count * (size_t)tsize);
    rc = MPI_Allreduce(MPI_IN_PLACE, buf, size, dt, op, comm);
    if (rc == MPI_SUCCESS)
        memcpy(inout, buf, (size_t)count * (size_t)tsize);
    if (buf != small)
        free(buf);
    return rc;
}
