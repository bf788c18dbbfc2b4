#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Noise data in every CSV row (schema 2): sync, samples, converged, the
# median's 95% CI, late calls and the slowest rank's own median, consistent
# with each other and the same in the JSON rows.  An old (version 1) CSV is
# never appended to.  The other modes name themselves.
. "$top_srcdir/tests/mpi/lib.sh"

ct_mpirun 2 -C allreduce,broadcast -b 8 -e 4K -f 8 --size-budget 0.05 --quiet \
    --csv "$T/r.csv" --json "$T/r.json" >/dev/null 2>"$T/err" || fail "exit $? ($(cat "$T/err"))"

awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    {
        sync = $col["sync"]; n = $col["samples"]; conv = $col["converged"]
        lo = $col["ci_low_us"]; hi = $col["ci_high_us"]; med = $col["median_us"]
        late = $col["late"]; slow = $col["slowest_rank_median_us"]
        if (sync != "window") { print "sync " sync ", want the default for mpi, window"; bad = 1 }
        if (n < 1 || n != int(n)) { print "samples " n; bad = 1 }
        if (conv != 0 && conv != 1) { print "converged " conv; bad = 1 }
        if (!(lo <= med && med <= hi)) { print "CI " lo " .. " hi " around " med; bad = 1 }
        if (late < 0 || late != int(late)) { print "late " late; bad = 1 }
        if (sync != "window" && late != 0) { print "late calls in " sync " mode"; bad = 1 }
        if (slow <= 0) { print "slowest rank median " slow; bad = 1 }
        rows++
    }
    END { if (rows != 16) { print rows " rows"; bad = 1 } exit bad }
' "$T/r.csv" || fail "noise columns: $(cat "$T/r.csv")"

# The JSON rows carry the same fields, with the same values.
i=0
for field in sync samples converged late; do
    csv=$(awk -F, -v f="$field" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == f) c = i; next }
        NR == 4 { print $c }' "$T/r.csv")
    json=$(json_get "$T/r.json" "results.2.$field")
    [ "$field" = converged ] && json=$([ "$json" = true ] && echo 1 || echo 0)
    [ "$csv" = "$json" ] || fail "row 3 $field: CSV $csv, JSON $json"
done
for field in ci_low_us ci_high_us slowest_rank_median_us; do
    csv=$(awk -F, -v f="$field" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == f) c = i; next }
        NR == 4 { print $c }' "$T/r.csv")
    json=$(json_get "$T/r.json" "results.2.$field")
    awk -v a="$csv" -v b="$json" 'BEGIN { d = a - b; if (d < 0) d = -d; exit d <= 1e-5 * b ? 0 : 1 }' ||
        fail "row 3 $field: CSV $csv, JSON $json"
done

for mode in barrier batch; do
    ct_mpirun 2 -C allreduce -b 8 -e 8 --sync $mode --size-budget 0.05 --quiet \
        --csv "$T/$mode.csv" >/dev/null 2>"$T/err" || fail "--sync $mode: exit $? ($(cat "$T/err"))"
    got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "sync") c = i; next }
        { print $c }' "$T/$mode.csv" | sort -u)
    [ "$got" = "$mode" ] || fail "--sync $mode: the sync column says '$got'"
done

# A version 1 file keeps its layout: refused, untouched.
head -n 1 "$T/r.csv" | cut -d, -f1-22 >"$T/v1.csv"
echo "r,t,mpi,allreduce,in-place,float,sum,-1,2,1,8,2,10,1.5,1,2,1,3,0.01,0.01,0,abc" >>"$T/v1.csv"
cp "$T/v1.csv" "$T/v1.orig"
ct_mpirun 2 -C allreduce -b 8 -e 8 --csv "$T/v1.csv" >/dev/null 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "version 1 CSV: exit $rc, want 2"
grep -q -- "--csv $T/v1.csv: line 1: a schema version 1 header" "$T/err" ||
    fail "version 1 message: $(cat "$T/err")"
cmp -s "$T/v1.csv" "$T/v1.orig" || fail "the version 1 file was changed"
exit 0
