/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mpi_check.h - MPI return codes at collbench's boundary.
 *
 * collbench sets MPI_ERRORS_RETURN on its communicators (world_mpi.c), so a
 * failed MPI call returns its code instead of aborting inside MPI.  Every
 * call goes through CT_MPI_CALL, which reports the call, the file:line that
 * made it and MPI's own error string once, where it happened, and converts
 * the code to a ct_status_t (CT_ERR_BACKEND: exit 3).  Only the MPI-facing
 * files (world_mpi.c, backend_mpi.c) include this header.
 */
#ifndef CT_MPI_CHECK_H
#define CT_MPI_CHECK_H

#include "ct_status.h"

/* CT_MPI_CALL(MPI_Bcast, (buf, n, dt, root, comm)): the call's status. */
#define CT_MPI_CALL(fn, args) ct_mpi_status(fn args, #fn, __FILE__, __LINE__)

/* CT_OK for MPI_SUCCESS; otherwise prints "collbench: rank R: CALL failed
 * at FILE:LINE: MPI's string" on stderr and returns CT_ERR_BACKEND. */
ct_status_t ct_mpi_status(int rc, const char *call, const char *file, int line);

#endif
