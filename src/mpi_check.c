/* SPDX-License-Identifier: BSD-3-Clause */
#include "mpi_check.h"

#include <mpi.h>
#include <stdio.h>

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
