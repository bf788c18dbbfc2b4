#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# The CSV holds one row per collective x size x placement, and each row
# agrees with the table: same size, count, type, op, root and #wrong, and a
# median that the table shows rounded.  A second run appends, one header.
. "$top_srcdir/tests/mpi/lib.sh"

ct_mpirun 2 -C allreduce,alltoall,broadcast -b 1K -e 64K -f 4 --size-budget 0.2 \
    --csv "$T/r.csv" --run-id first --quiet >"$T/out" 2>"$T/err" || fail "exit $?"
check_table "$T/out"
head -n 1 "$T/r.csv" | grep -q '^run_id,time,backend,collective,placement,dtype,op,root,nranks,nnodes,bytes,count,iterations,median_us,p10_us,p90_us,min_us,max_us,algbw_gbps,busbw_gbps,wrong,config_id,sync,samples,converged,ci_low_us,ci_high_us,late,slowest_rank_median_us$' ||
    fail "CSV header"
awk -F, -v table="$T/out" '
    function close_to(a, b) { d = a - b; if (d < 0) d = -d; return d <= 0.006 + 0.006 * b }
    BEGIN {
        while ((getline line < table) > 0) {
            if (line ~ /^# Collective test starting: /) { split(line, h, ": "); coll = h[2] }
            if (line ~ /^#/) continue
            n = split(line, f, " ")
            key = coll "," f[1]
            rows[key] = 1
            cnt[key] = f[2]; typ[key] = f[3]; op[key] = f[4]; root[key] = f[5]
            t["out-of-place," key] = f[6]; w["out-of-place," key] = f[9]
            t["in-place," key] = f[10]; w["in-place," key] = f[13]
            nrows++
        }
    }
    NR == 1 { next }
    {
        key = $4 "," $11
        if (!(key in rows)) { print "CSV row not in table: " $0; bad = 1; next }
        if ($12 != cnt[key] || $6 != typ[key] || $7 != op[key] || $8 != root[key]) { print "columns differ: " $0; bad = 1 }
        if ($21 != w[$5 "," key]) { print "#wrong differs: " $0; bad = 1 }
        if (!close_to(t[$5 "," key], $14)) { print "median " $14 " vs table " t[$5 "," key]; bad = 1 }
        if ($1 != "first" || $3 != "mpi" || $9 != 2 || $10 != 1) { print "run columns: " $0; bad = 1 }
        ncsv++
    }
    END { if (ncsv != 2 * nrows) { print ncsv " CSV rows for " nrows " table rows"; bad = 1 } exit bad }
' "$T/r.csv" || fail "CSV does not match the table"

ct_mpirun 2 -C allreduce -b 1K -e 1K --size-budget 0.1 --csv "$T/r.csv" --run-id second \
    --quiet >/dev/null 2>"$T/err" || fail "second run: exit $?"
[ "$(grep -c '^run_id,' "$T/r.csv")" -eq 1 ] || fail "header repeated on append"
[ "$(grep -c '^second,' "$T/r.csv")" -eq 2 ] || fail "appended rows missing"

# A file that is not ours is refused, not appended to.
echo "a,b,c" >"$T/other.csv"
ct_mpirun 2 -C allreduce -b 1K -e 1K --csv "$T/other.csv" >/dev/null 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "foreign CSV: exit $rc, want 2"
grep -q "other.csv: line 1: not a collbench results header" "$T/err" || fail "foreign CSV message"
[ "$(cat "$T/other.csv")" = "a,b,c" ] || fail "foreign CSV was modified"

# colltune import reads collbench's own table whole (issue 25): every
# collective's rows (the ranks are printed once, before the first table),
# the backend it names, and the medians the CSV holds (table rounding).
ct_colltune_test
"$CT" import --out "$T/imported.csv" "$T/out" 2>"$T/err" || fail "import of the table: $(cat "$T/err")"
for c in allreduce alltoall broadcast; do
    want=$(awk -F, -v c="$c" '$1 == "first" && $4 == c' "$T/r.csv" | wc -l)
    got=$(awk -F, -v c="$c" 'NR > 1 && $4 == c && $3 == "mpi" && $9 == 2' "$T/imported.csv" | wc -l)
    [ "$got" -eq "$want" ] && [ "$got" -gt 0 ] ||
        fail "import: $got $c rows (mpi, 2 ranks), the CSV has $want: $(cat "$T/err")"
done
sed '/^#  Rank/d' "$T/out" >"$T/noranks"
"$CT" import --out "$T/noranks.csv" "$T/noranks" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "import of a table without ranks: exit $rc, want 2"
grep -q "3 tables not imported" "$T/err" || fail "import without ranks: $(cat "$T/err")"
[ ! -e "$T/noranks.csv" ] || fail "import without ranks wrote its output"
exit 0
