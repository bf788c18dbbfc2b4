#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# End to end, the checker catches a wrong result: a PMPI shim (a test
# double standing in for a faulty network) changes one element of rank 1's
# MPI_Allreduce output.  collbench must count it, fail the footer and exit 1.
. "$top_srcdir/tests/mpi/lib.sh"

shim="$top_builddir/tests/tools/.libs/libfault_shim.so"
[ -f "$shim" ] || fail "shim not built: $shim"

CT_MPIRUN_ARGS="-x LD_PRELOAD=$shim" ct_mpirun 2 -C allreduce -b 1K -e 4K -f 4 -n 10 --quiet \
    >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 1 ] || fail "exit $rc with a planted error, want 1 ($(cat "$T/err"))"
grep -q '^# Out of bounds values : 4 FAILED$' "$T/out" ||
    fail "footer should count 4 wrong (2 sizes x 2 placements): $(grep Out "$T/out")"
awk '!/^#/ && ($9 != 1 || $13 != 1) { exit 1 }' "$T/out" || fail "#wrong should be 1 per half"

# Without the shim the same run is clean.
ct_mpirun 2 -C allreduce -b 1K -e 4K -f 4 -n 10 --quiet >"$T/out" 2>"$T/err" ||
    fail "clean run: exit $?"
check_table "$T/out"
exit 0
