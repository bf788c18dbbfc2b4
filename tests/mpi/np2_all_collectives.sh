#!/bin/sh
# Every collective at 2 ranks, both placements: valid table, no wrong
# results, the expected rows, exit 0.
. "$top_srcdir/tests/mpi/lib.sh"

ct_mpirun 2 -C all -b 8 -e 1M -f 4 --size-budget 0.2 --quiet >"$T/out" 2>"$T/err" ||
    fail "exit $? ($(cat "$T/err"))"
check_table "$T/out"
for c in allreduce allgather alltoall broadcast reduce_scatter; do
    grep -q "^# Collective test starting: $c\$" "$T/out" || fail "no table for $c"
done
# 8 B .. 512 KiB by 4 is 9 sizes; every collective can split 8 B over 2 ranks.
rows=$(grep -vc '^#' "$T/out")
[ "$rows" -eq 45 ] || fail "expected 45 rows, got $rows"
# Broadcast reports its root, the others -1; reductions name the op.
awk '!/^#/ && $4 == "none" && $5 != -1 && $5 != 0 { exit 1 }' "$T/out" || fail "root column"
exit 0
