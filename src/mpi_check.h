/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mpi_check.h - MPI return codes at collbench's boundary.
 *
 * collbench sets MPI_ERRORS_RETURN on its communicators (world_mpi.c), so a
 * failed MPI call returns its code instead of aborting inside MPI.  Every
 * call goes through CT_MPI_CALL, which reports the call, the file:line that
 * made it and MPI's own error string once, where it happened, and converts
 * the code to a ct_status_t (CT_ERR_BACKEND: exit 3).  Only the MPI-facing
 * files (world_mpi.c, backend_mpi.c, clocksync_mpi.c) include this header.
 */
#ifndef CT_MPI_CHECK_H
#define CT_MPI_CHECK_H

#include "ct_status.h"

#include <mpi.h>

/* CT_MPI_CALL(MPI_Bcast, (buf, n, dt, root, comm)): the call's status. */
#define CT_MPI_CALL(fn, args) ct_mpi_status(fn args, #fn, __FILE__, __LINE__)

/* CT_OK for MPI_SUCCESS; otherwise prints "collbench: rank R: CALL failed
 * at FILE:LINE: MPI's string" on stderr and returns CT_ERR_BACKEND. */
ct_status_t ct_mpi_status(int rc, const char *call, const char *file, int line);

/* MPI_Allreduce in place of count elements of dt on comm, for collbench's
 * own bookkeeping (not a measured call): the count is padded to the
 * communicator's size with scratch elements, because MPICH's forced
 * MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=reduce_scatter_allgather (in force
 * around a --config configuration's calls, the engine's own included)
 * needs count >= the largest power of two <= size, and under
 * MPIR_CVAR_COLLECTIVE_FALLBACK=error a smaller count fails.  Built
 * against Open MPI it is a plain MPI_Allreduce.  Returns an MPI code. */
int ct_mpi_allreduce_padded(void *inout, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm);

#endif
