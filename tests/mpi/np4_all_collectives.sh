#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# Every collective at 4 ranks (oversubscribed on 2 cores), root 3 for
# broadcast: valid table, no wrong results; sizes too small to split over
# 4 ranks are skipped with a note, not failed.
. "$top_srcdir/tests/mpi/lib.sh"

ct_mpirun 4 -C all -b 8 -e 256K -f 8 -r 3 --size-budget 0.2 >"$T/out" 2>"$T/err" ||
    fail "exit $? ($(cat "$T/err"))"
check_table "$T/out"
grep -q "allgather float: 1 size(s) below one element per rank skipped" "$T/err" ||
    fail "no skip note for allgather"
# Sizes 8, 64, ..., 256K: 6 for allreduce/broadcast, 5 for the split ones.
rows=$(grep -vc '^#' "$T/out")
[ "$rows" -eq 27 ] || fail "expected 27 rows, got $rows"
awk '!/^#/ && NF == 13 && $4 == "none" && $5 == 3 { n++ } END { exit n == 6 ? 0 : 1 }' "$T/out" ||
    fail "broadcast rows should show root 3"
exit 0
