#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# End to end, the checker catches misplaced data: a PMPI shim (a test double
# standing in for a faulty network) lets MPI_Reduce_scatter_block compute
# the right blocks, then rotates them between ranks, so each of 4 ranks
# holds a neighbour's correctly reduced block.  The values are all right,
# only their place is wrong; collbench must count them, fail the footer and
# exit 1.  With the old, index-periodic pattern this run reported 0 wrong.
. "$top_srcdir/tests/mpi/lib.sh"

shim="$top_builddir/tests/tools/.libs/libfault_shim.so"
[ -f "$shim" ] || fail "shim not built: $shim"

args="-C reduce_scatter -d float -o sum -b 64 -e 4K -f 8 -n 5 -w 1 --quiet"

# shellcheck disable=SC2086
CT_MPIRUN_ARGS="-x LD_PRELOAD=$shim -x FAULT_SHIM_MODE=misplace" ct_mpirun 4 $args \
    >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 1 ] || fail "exit $rc with misplaced blocks, want 1 ($(cat "$T/err"))"
grep -q '^# Out of bounds values : [1-9][0-9]* FAILED$' "$T/out" ||
    fail "footer should count wrong values: $(grep Out "$T/out")"
rows=$(grep -vc '^#' "$T/out")
[ "$rows" -eq 3 ] || fail "expected 3 sizes, got $rows rows"
# Every row, out of place (column 9) and in place (column 13), has wrong
# elements: most of each rank's block, on every rank.
awk '!/^#/ && ($9 == "N/A" || $9 < 1 || $13 == "N/A" || $13 < 1) { exit 1 }' "$T/out" ||
    fail "#wrong should be > 0 in every row and placement: $(grep -v '^#' "$T/out")"

# Without the shim the same run is clean.
# shellcheck disable=SC2086
ct_mpirun 4 $args >"$T/out" 2>"$T/err" || fail "clean run: exit $? ($(cat "$T/err"))"
check_table "$T/out"
exit 0
