#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# Every collective at 2 ranks, both placements: valid table, no wrong
# results, the expected rows, exit 0.  The rank reduction is nccl-tests'
# average over ranks (-a 1) unless -a says otherwise, and both the table
# (a '#' line) and results.json name it.
. "$top_srcdir/tests/mpi/lib.sh"

ct_mpirun 2 -C all -b 8 -e 1M -f 4 --size-budget 0.2 --quiet --json "$T/r.json" >"$T/out" 2>"$T/err" ||
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
# The reduction over ranks, named: max (the slowest rank) by default, avg
# (nccl-tests' default) with -a 1.
grep -qx "#  Rank reduction: max over ranks, the slowest rank (-a 3, the collective's completion); nccl-tests' default is -a 1, the average" \
    "$T/out" || fail "default reduction line: $(grep -i 'reduction' "$T/out")"
[ "$(json_get "$T/r.json" timing.rank_aggregation)" = max ] || fail "timing.rank_aggregation"
[ "$(json_get "$T/r.json" options.rank_aggregation)" = max ] || fail "options.rank_aggregation"
ct_mpirun 2 -C allreduce -b 8 -e 8 -a 1 --size-budget 0.05 --quiet --json "$T/m.json" >"$T/out" \
    2>"$T/err" || fail "-a 1: exit $? ($(cat "$T/err"))"
check_table "$T/out"
grep -qx "#  Rank reduction: avg over ranks (-a 1, nccl-tests' default); collbench's default is -a 3, the slowest rank" \
    "$T/out" || fail "-a 1 reduction line: $(grep -i 'reduction' "$T/out")"
[ "$(json_get "$T/m.json" timing.rank_aggregation)" = avg ] || fail "-a 1: timing.rank_aggregation"
[ "$(json_get "$T/m.json" options.rank_aggregation)" = avg ] || fail "-a 1: options.rank_aggregation"
exit 0
