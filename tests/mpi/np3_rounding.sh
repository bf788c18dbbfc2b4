#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# D7: at a rank count that does not divide the sizes (3 here), sizes are
# rounded down to the nearest valid one, as nccl-tests does, with one note
# on stderr naming what was rounded; the run succeeds and every row shows
# the size it measured.
. "$top_srcdir/tests/mpi/lib.sh"

ct_mpirun 3 -C all -b 8 -e 1M -f 2 -n 5 -w 1 >"$T/out" 2>"$T/err" ||
    fail "-b 8 -e 1M -f 2 at 3 ranks: exit $? ($(cat "$T/err"))"
check_table "$T/out"
n=$(grep -c 'rounded down' "$T/err")
[ "$n" -eq 1 ] || fail "$n rounding notes, want 1: $(cat "$T/err")"
grep -q "^collbench: note: .* at 3 ranks were rounded down, as nccl-tests does: allgather float (17 sizes, e.g. 16 -> 12 B), alltoall float (17 sizes, e.g. 16 -> 12 B), reduce_scatter float (17 sizes, e.g. 16 -> 12 B)$" \
    "$T/err" || fail "rounding note: $(cat "$T/err")"
# Rows of the splitting collectives are multiples of 4 B x 3 ranks, the
# largest 1048572; allreduce and broadcast keep the powers of two.
awk '/Collective test starting:/ { c = $5 }
     !/^#/ && NF == 13 {
         split_coll = c == "allgather" || c == "alltoall" || c == "reduce_scatter"
         if (split_coll && $1 % 12 != 0) { print "not a multiple of 12: " c " " $1; bad = 1 }
         if (!split_coll && $1 != 8 * 2 ^ n[c]) { print "not rounded: " c " " $1; bad = 1 }
         n[c]++; last[c] = $1
     }
     END {
         if (last["allgather"] != 1048572 || last["allreduce"] != 1048576) bad = 1
         exit bad
     }' "$T/out" || fail "row sizes: $(grep -v '^#' "$T/out" | head -40)"

# The defaults (32M everywhere) run too; before D7 they exited 2.
ct_mpirun 3 -n 2 -w 0 >"$T/out" 2>"$T/err" || fail "defaults at 3 ranks: exit $? ($(cat "$T/err"))"
check_table "$T/out"
[ "$(grep -c 'rounded down' "$T/err")" -eq 1 ] || fail "defaults: note: $(cat "$T/err")"
exit 0
