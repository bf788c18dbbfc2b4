#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# --sizes LIST: exactly these sizes, sorted and de-duplicated, instead of
# the -b/-e/-i/-f sweep (which it overrides), each rounded per collective
# as the sweep's sizes are.  Bad lists are in bad_input.sh.
. "$top_srcdir/tests/mpi/lib.sh"

# 2 ranks, float: allreduce takes any multiple of 4 bytes, allgather of 8
# (one float per rank), so 12 -> 8 (then one 8 row) and 100 -> 96 there.
# -b/-e/-f would give other sizes: --sizes wins.
ct_mpirun 2 -C allreduce,allgather --sizes 4K,12,8,12,100 -b 1M -e 4M -f 2 -n 3 -w 1 \
    --csv "$T/r.csv" --json "$T/r.json" >"$T/out" 2>"$T/err" || fail "exit $?: $(cat "$T/err")"
check_table "$T/out"
# sizes COLL PLACEMENT : the CSV's bytes of COLL's rows, in order.
sizes() {
    awk -F, -v c="$1" -v p="$2" 'NR > 1 && $4 == c && $5 == p { printf "%s ", $11 }' "$T/r.csv"
}
for p in out-of-place in-place; do
    [ "$(sizes allreduce $p)" = "8 12 100 4096 " ] || fail "allreduce $p: $(sizes allreduce $p)"
    [ "$(sizes allgather $p)" = "8 96 4096 " ] || fail "allgather $p: $(sizes allgather $p)"
done
[ "$(awk 'NR > 1' "$T/r.csv" | wc -l)" -eq 14 ] || fail "want 14 CSV rows: $(cat "$T/r.csv")"
grep -qxF '# Sizes (--sizes): 8,12,100,4096' "$T/out" || fail "no sizes line: $(cat "$T/out")"
grep -q '^# nThread 1 nGpus 1 minBytes 8 maxBytes 4096 step: 0(list) ' "$T/out" ||
    fail "preamble: $(grep nThread "$T/out")"
[ "$(json_get "$T/r.json" options.sizes.#)" = 4 ] || fail "JSON options.sizes"
[ "$(json_get "$T/r.json" options.sizes.2)" = 100 ] || fail "JSON options.sizes.2"
[ "$(json_get "$T/r.json" options.max_bytes)" = 4096 ] || fail "JSON options.max_bytes"
# The rounding note names what was rounded, as for a sweep.
grep -q 'allgather float (2 sizes, e.g. 12 -> 8 B)' "$T/err" || fail "rounding note: $(cat "$T/err")"
echo "ok: --sizes rows at exactly its sizes"
exit 0
