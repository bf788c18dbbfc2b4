#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune sweep --scales, through the real mpirun and collbench, by ranks
# (1 and 2 on this machine; by nodes runs on the emulated cluster,
# tests/cluster/): one sweep per scale, DIR/results.csv with every
# scale's rows and their nranks, the efficiency table on stdout and in
# scaling.md, the scaling plot; --resume keeps finished scales; and every
# refusal comes before the first launch.
. "$top_srcdir/tests/mpi/lib.sh"

ct_colltune_test
set -- --launcher-arg --oversubscribe --launcher-arg --bind-to --launcher-arg none \
    --launcher-arg --mca --launcher-arg orte_tmpdir_base --launcher-arg "$T" \
    --mca mpi_yield_when_idle=1 --timeout 100
cb="-C allreduce,broadcast -b 1K -e 64K -f 8 --quiet"

# shellcheck disable=SC2086
timeout 200 "$CT" sweep --out "$T/s" --scales 1,2 --scale-by ranks "$@" -- $cb >"$T/out" 2>"$T/err" ||
    fail "sweep --scales: exit $? ($(cat "$T/err"))"
for s in 1 2; do
    [ "$(json_get "$T/s/scale-$s/launch.json" outcome)" = ok ] || fail "scale $s: launch.json outcome"
    check_table "$T/s/scale-$s/collbench.txt"
done
# 2 collectives x 3 sizes x 2 placements at each scale, one header.
[ "$(grep -c '^run_id,' "$T/s/results.csv")" -eq 1 ] || fail "results.csv: more than one header"
for s in 1 2; do
    n=$(awk -F, -v s=$s 'NR > 1 && $9 == s' "$T/s/results.csv" | wc -l)
    [ "$n" -eq 12 ] || fail "results.csv: $n rows at $s ranks, want 12"
done
# The table: broadcast's busbw at 1 rank is a local copy, allreduce's is 0,
# so allreduce's efficiency is against 2 ranks (100% there).
grep -q '^allreduce: busbw (GB/s) by ranks' "$T/out" || fail "no allreduce table on stdout: $(cat "$T/out")"
grep -q '^| series | size | 1 rank | 2 ranks |$' "$T/s/scaling.md" || fail "scaling.md header: $(cat "$T/s/scaling.md")"
awk '/^## allreduce/ { a = 1; next } /^## / { a = 0 }
     a && /^\| mpi/ { n++; if ($0 !~ /\| 0 GB\/s \(0%\) \| [0-9.e+-]+ GB\/s \(100%\) \|$/) bad = 1 }
     END { exit !(n == 6 && !bad) }' "$T/s/scaling.md" || fail "allreduce rows: $(cat "$T/s/scaling.md")"
[ -s "$T/s/plots/allreduce_scaling.png" ] || fail "no scaling plot"
grep -q 'allreduce_scaling.png' "$T/s/plots/index.html" || fail "index.html lacks the scaling plot"

# --resume: both scales finished, nothing runs again.
before=$(stat -c %Y "$T/s/scale-2/results.csv")
# shellcheck disable=SC2086
"$CT" sweep --out "$T/s" --scales 1,2 --scale-by ranks --resume "$@" -- $cb >"$T/out" 2>"$T/err" ||
    fail "--resume: exit $?"
[ "$(grep -c 'finished before, kept' "$T/err")" -eq 2 ] || fail "--resume ran a finished scale: $(cat "$T/err")"
[ "$(stat -c %Y "$T/s/scale-2/results.csv")" = "$before" ] || fail "--resume rewrote scale 2"
# A scale that did not finish runs again under --resume.
rm "$T/s/scale-2/launch.json"
# shellcheck disable=SC2086
"$CT" sweep --out "$T/s" --scales 1,2 --scale-by ranks --resume "$@" -- $cb >"$T/out" 2>"$T/err" ||
    fail "--resume after a lost scale: exit $?"
grep -q 'scale 1: finished before' "$T/err" && grep -q 'scale 2 ranks (2 ranks)' "$T/err" ||
    fail "--resume did not rerun exactly scale 2: $(cat "$T/err")"

# Refusals, exit 2, before any launch (nothing is created).
expect_refused() {
    want=$1
    shift
    "$CT" sweep "$@" >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq 2 ] || fail "sweep $*: exit $rc, want 2 ($(cat "$T/err"))"
    grep -qF -- "$want" "$T/err" || fail "sweep $*: stderr lacks '$want': $(cat "$T/err")"
}
expect_refused "exists (--resume" --out "$T/s" --scales 1,2 --scale-by ranks
expect_refused "--scales 2,1: positive counts, ascending" --out "$T/n" --scales 2,1
expect_refused "--scales 1,,2" --out "$T/n" --scales 1,,2
expect_refused "ends with a comma" --out "$T/n" --scales 1,2,
expect_refused "--np with --scales" --out "$T/n" --scales 1,2 --np 2
expect_refused "go with --scales" --out "$T/n" --np 2 --resume
expect_refused "--scale-by hosts" --out "$T/n" --scales 1,2 --scale-by hosts
expect_refused "needs --hostfile" --out "$T/n" --scales 1,2
printf 'node1 slots=4\n# a comment\n\nnode2\n' >"$T/hosts"
expect_refused "--scales up to 4 nodes, but --hostfile $T/hosts names 2 hosts" --out "$T/n" \
    --scales 1,4 --hostfile "$T/hosts"
expect_refused "a prefix launcher cannot be told the scale" --out "$T/n" --scales 1,2 --launcher env
[ ! -e "$T/n" ] || fail "a refused sweep created --out"
echo "PASS: colltune sweep --scales"
