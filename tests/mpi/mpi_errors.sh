#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# MPI errors return to collbench (MPI_ERRORS_RETURN) and become exit 3
# with the MPI call, file:line and MPI's error string; exit 2 stays for bad
# input.  A PMPI shim (tests/tools/mpi_error_shim.c) hands the real MPI an
# invalid argument, so the error is MPI's own.
. "$top_srcdir/tests/mpi/lib.sh"

shim="$top_builddir/tests/tools/.libs/libmpi_error_shim.so"
[ -f "$shim" ] || fail "shim not built: $shim"

# A failing collective in the backend: every rank reports it, exit 3.
CT_MPIRUN_ARGS="-x LD_PRELOAD=$shim -x MPI_ERROR_SHIM=bcast" \
    ct_mpirun 2 -C broadcast -b 8 -e 8 -n 5 --quiet >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 3 ] || fail "backend MPI error: exit $rc, want 3 ($(cat "$T/err"))"
grep -Eq '^collbench: rank [01]: MPI_Bcast failed at [^ ]*src/backend/backend_mpi\.c:[0-9]+: MPI_ERR_COUNT' \
    "$T/err" || fail "backend MPI error message: $(cat "$T/err")"
grep -v '^#' "$T/out" | grep -q . && fail "backend MPI error: printed a result row"

# A failing call in collbench's own bookkeeping (the world): reported,
# then the job ends with exit 3 instead of continuing out of step.
CT_MPIRUN_ARGS="-x LD_PRELOAD=$shim -x MPI_ERROR_SHIM=barrier" \
    ct_mpirun 2 -C allreduce -b 8 -e 8 -n 5 --quiet >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 3 ] || fail "world MPI error: exit $rc, want 3 ($(cat "$T/err"))"
grep -Eq '^collbench: rank 1: MPI_Barrier failed at [^ ]*src/world_mpi\.c:[0-9]+: MPI_ERR_COMM' \
    "$T/err" || fail "world MPI error message: $(cat "$T/err")"
exit 0
