#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune plot, end to end on committed collbench results (no MPI): PNG
# and SVG files of the requested size, index.html whose every link
# resolves, the scripts of plots/ run alone, and the failures: no gnuplot
# (exit 3 naming the Debian package), a missing column, an unknown schema
# or a bad value (exit 2 naming file:line).
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
CT="$top_builddir/tuner/colltune"
CSV="$top_srcdir/tests/unit/plot_results.csv"
JSON="$top_srcdir/tests/unit/plot_results.json"
TUNE="$top_srcdir/tests/unit/plot_tune"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-plot.XXXXXX")
trap 'rm -rf "$T"' EXIT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# expect RC "STDERR WORD" ARGS...: colltune plot exits RC, its stderr says WORD.
expect() {
    want=$1 word=$2
    shift 2
    "$CT" plot "$@" >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq "$want" ] || { cat "$T/err" >&2; fail "plot $*: exit $rc, want $want"; }
    grep -qF -- "$word" "$T/err" || { cat "$T/err" >&2; fail "plot $*: stderr lacks '$word'"; }
}

# --- failures that need no gnuplot ---
expect 3 gnuplot-nox --gnuplot "$T/no-such-gnuplot" --out "$T/x" "$CSV"
[ ! -e "$T/x" ] || fail "no gnuplot: --out was created all the same"

# A bad input fails before gnuplot runs: /bin/true stands in for it.
G="--gnuplot=/bin/true"
head -1 "$CSV" | sed 's/,busbw_gbps//' >"$T/missing.csv"
sed -n 2p "$CSV" >>"$T/missing.csv"
expect 2 "missing.csv:1: missing column busbw_gbps" $G --out "$T/x" "$T/missing.csv"
{ sed -n 1p "$CSV" | sed 's/$/,future_col/'; } >"$T/future.csv"
expect 2 "future.csv:1: unknown schema" $G --out "$T/x" "$T/future.csv"
{ sed -n 1,2p "$CSV"; sed -n 3p "$CSV" | awk -F, -v OFS=, '{ $11 = "lots"; print }'; } >"$T/badval.csv"
expect 2 "badval.csv:3: column bytes" $G --out "$T/x" "$T/badval.csv"
echo "size,time_us" >"$T/other.csv"
expect 2 "other.csv:1: not a collbench results header" $G --out "$T/x" "$T/other.csv"
echo '{"schema": "colltune-results/9", "results": []}' >"$T/future.json"
expect 2 "future.json:1: unknown schema 'colltune-results/9'" $G --out "$T/x" "$T/future.json"
expect 2 "no-such.csv" $G --out "$T/x" "$T/no-such.csv"
expect 2 "--size" $G --out "$T/x" --size 1024 "$CSV"
expect 2 "--format" $G --out "$T/x" --format gif "$CSV"
expect 2 "--out DIR is required" $G "$CSV"
: >"$T/file"
expect 2 "--out $T/file/sub" $G --out "$T/file/sub" "$CSV"
[ ! -e "$T/x" ] || fail "bad input: --out was created all the same"

if ! command -v gnuplot >/dev/null 2>&1; then
    echo "SKIP: no gnuplot (apt-get install gnuplot-nox): image checks not run"
    exit 77
fi

# png_dims FILE: "WIDTH HEIGHT" from the IHDR chunk, after checking the
# 8-byte signature.
png_dims() {
    sig=$(od -An -tu1 -N8 "$1" | tr -s ' ' | sed 's/^ //')
    [ "$sig" = "137 80 78 71 13 10 26 10" ] || fail "$1: not a PNG (signature $sig)"
    od -An -tu1 -j16 -N8 "$1" |
        awk '{ print ($1 * 16777216 + $2 * 65536 + $3 * 256 + $4), ($5 * 16777216 + $6 * 65536 + $7 * 256 + $8) }'
}

# links_resolve DIR: every href and src of DIR/index.html is a non-empty file.
links_resolve() {
    n=0
    for l in $(grep -o -E '(href|src)="[^"#]+"' "$1/index.html" | sed 's/^[a-z]*="//; s/"$//' | sort -u); do
        case $l in /* | *://*) fail "index.html: link $l is not relative" ;; esac
        [ -s "$1/$l" ] || fail "index.html links $l, which is missing or empty"
        n=$((n + 1))
    done
    [ "$n" -gt 0 ] || fail "index.html links nothing"
    echo "$n"
}

# --- both formats, a chosen size, results and a tune ---
D="$T/both"
"$CT" plot --out "$D" --tune "$TUNE" --format both --size 1100x600 "$CSV" "$JSON" >"$T/out" 2>"$T/err" ||
    { cat "$T/err" >&2; fail "plot --format both failed"; }
grep -q "open $D/index.html" "$T/out" || fail "plot does not print the index page's path"
for p in allreduce_busbw allreduce_latency broadcast_busbw broadcast_latency \
    reduce_scatter_busbw reduce_scatter_latency broadcast_tuned; do
    [ -s "$D/$p.png" ] || fail "$p.png missing or empty"
    [ "$(png_dims "$D/$p.png")" = "1100 600" ] || fail "$p.png is $(png_dims "$D/$p.png"), want 1100 600"
    head -c 200 "$D/$p.svg" | grep -q -E '^(<\?xml|<svg)' || fail "$p.svg does not start like SVG"
    grep -q '</svg>' "$D/$p.svg" || fail "$p.svg is not closed"
    grep -q 'viewBox="0 0 1100 600"' "$D/$p.svg" || fail "$p.svg is not 1100x600"
    grep -q "src=\"$p.png\"" "$D/index.html" || fail "index.html does not show $p.png"
    [ -s "$D/$p.dat" ] || fail "$p.dat missing"
done
# Each line of the plot is one series: the two runs and placements of the CSV.
[ "$(grep -c '^# series' "$D/allreduce_busbw.dat")" -eq 4 ] || fail "allreduce: want 4 series"
grep -q '^"mpi, run runA, out-of-place"$' "$D/allreduce_busbw.dat" || fail "series label"
grep -q '<td>allreduce</td>\|>allreduce</a></td>' "$D/index.html" || fail "summary table lacks allreduce"
grep -q '>reduce_scatter</a>' "$D/index.html" || fail "summary table lacks the JSON's collective"
links=$(links_resolve "$D") || exit 1
[ "$links" -ge 21 ] || fail "index.html has only $links links"
ls -a "$D" | grep -q 'tmp' && fail "temporary files left in $D"
# The tune's speedups in the index: default / tuned of report.json's cell.
grep -q '<h2>Tuned against default</h2>' "$D/index.html" || fail "index.html lacks the tune table"
grep -q '<tr><td>broadcast</td><td>256 KiB</td><td class="n">1857.82</td><td class="n">154.70</td><td class="n">12.01&times;</td><td class="n">0.00397</td><td>yes</td></tr>' \
    "$D/index.html" || fail "index.html: the tune's broadcast 256 KiB row is not 1857.82 / 154.70 = 12.01x, p 0.00397, holds"

# --- the defaults: PNG only, at least 1024 px wide; into an existing DIR ---
D="$T/png"
mkdir "$D"
"$CT" plot --out "$D" "$CSV" >/dev/null 2>"$T/err" || { cat "$T/err" >&2; fail "default plot failed"; }
set -- $(png_dims "$D/allreduce_busbw.png")
[ "$1" -ge 1024 ] || fail "default width $1 < 1024"
[ ! -e "$D/allreduce_busbw.svg" ] || fail "SVG written without --format svg"
[ ! -e "$D/broadcast_tuned.png" ] || fail "tuned plot without --tune"
[ ! -e "$D/allreduce_scaling.png" ] || fail "scaling plot from a single scale"
[ ! -e "$D/scaling.md" ] || fail "scaling.md from a single scale"
links_resolve "$D" >/dev/null || exit 1

# --- SVG only: the page shows the SVGs ---
D="$T/svg"
"$CT" plot --out "$D" --format svg "$JSON" >/dev/null 2>"$T/err" || fail "svg plot failed"
grep -q 'src="reduce_scatter_busbw.svg"' "$D/index.html" || fail "svg page does not show the svg"
links_resolve "$D" >/dev/null || exit 1

# --- a schema 1 file (no CI columns): CI bars are missing, not an error ---
D="$T/v1"
cut -d, -f1-22 "$CSV" >"$T/v1.csv"
"$CT" plot --out "$D" --bars ci "$T/v1.csv" >/dev/null 2>"$T/err" || { cat "$T/err" >&2; fail "schema 1 plot failed"; }
grep -q ' NaN NaN$' "$D/allreduce_latency.dat" || fail "schema 1: CI not NaN in the data file"
[ -s "$D/allreduce_latency.png" ] || fail "schema 1: no latency plot"

# --- runs at 1, 2 and 4 nodes (2, 4, 8 ranks): the scaling plot and table ---
# Copies of the CSV whose busbw is divided by 1 + 0.2 (nodes - 1): the
# efficiency against 1 node is 1/1.2 = 83% at 2 nodes and 1/1.6 = 62.5% at 4.
for s in 1 2 4; do
    awk -F, -v OFS=, -v s=$s 'NR == 1 { print; next }
        { $1 = "scale" s; $9 = 2 * s; $10 = s; $20 = $20 / (1 + 0.2 * (s - 1)); print }' \
        "$CSV" >"$T/scale$s.csv"
done
D="$T/scaling"
"$CT" plot --out "$D" --format both "$T/scale1.csv" "$T/scale2.csv" "$T/scale4.csv" >/dev/null 2>"$T/err" ||
    { cat "$T/err" >&2; fail "scaling plot failed"; }
for c in allreduce broadcast; do
    [ "$(png_dims "$D/${c}_scaling.png")" = "1280 720" ] || fail "${c}_scaling.png missing or wrong size"
    grep -q '</svg>' "$D/${c}_scaling.svg" || fail "${c}_scaling.svg not closed"
    grep -q "src=\"${c}_scaling.png\"" "$D/index.html" || fail "index.html does not show ${c}_scaling.png"
done
# 4 sizes per series (the default), each at 3 scales, the largest size included.
dat="$D/allreduce_scaling.dat"
[ "$(grep -c '^# series' "$dat")" -eq 8 ] || fail "scaling: want 2 series x 4 sizes, got $(grep -c '^# series' "$dat")"
grep -q '^"mpi, out-of-place, 256 KiB"$' "$dat" || fail "scaling: the largest size is not a line"
awk '/^[0-9]/ { n++; e[$1] = e[$1] " " $4; if ($3 <= 0) bad = 1 }
     /^[0-9]/ && $1 == 1 && $4 != "1.0000" { bad = 1 }
     /^[0-9]/ && $1 == 2 && ($4 < 0.832 || $4 > 0.835) { bad = 1 }
     /^[0-9]/ && $1 == 4 && ($4 < 0.624 || $4 > 0.626) { bad = 1 }
     END { exit !(n == 24 && !bad) }' "$dat" || fail "scaling efficiencies are not 1, 0.833, 0.625: $(cat "$dat")"
grep -q '^| series | size | 1 node | 2 nodes | 4 nodes |$' "$D/scaling.md" || fail "scaling.md header"
grep -q '^| mpi, in-place | 256 KiB | .* (100%) | .* (83%) | .* (62%) |$' "$D/scaling.md" ||
    fail "scaling.md lacks the 256 KiB in-place row at 100/83/62%"
grep -q '<h2>Scaling efficiency</h2>' "$D/index.html" || fail "index.html lacks the scaling table"
links_resolve "$D" >/dev/null || exit 1
# By ranks, two sizes per series.
"$CT" plot --out "$T/byranks" --scale-by ranks --scaling-sizes 2 "$T/scale1.csv" "$T/scale4.csv" >/dev/null 2>"$T/err" ||
    { cat "$T/err" >&2; fail "--scale-by ranks failed"; }
[ "$(grep -c '^# series' "$T/byranks/allreduce_scaling.dat")" -eq 4 ] || fail "--scaling-sizes 2: want 4 lines"
awk '/^[0-9]/ && $1 != 2 && $1 != 8 { exit 1 }' "$T/byranks/allreduce_scaling.dat" || fail "--scale-by ranks: x is not 2 and 8 ranks"
grep -q '| 2 ranks | 8 ranks |' "$T/byranks/scaling.md" || fail "--scale-by ranks: table header"
expect 2 "--scale-by" $G --out "$T/x" --scale-by hosts "$CSV"
expect 2 "--scaling-sizes" $G --out "$T/x" --scaling-sizes 0 "$CSV"
gnuplot -c "$top_srcdir/plots/scaling.gp" "$dat" "$T/alone_scaling.png" "alone" "" 1024x600 ranks ||
    fail "plots/scaling.gp alone failed"
[ "$(png_dims "$T/alone_scaling.png")" = "1024 600" ] || fail "scaling.gp alone: $(png_dims "$T/alone_scaling.png")"

# --- a script of plots/ on its own, on the data file colltune wrote ---
gnuplot -c "$top_srcdir/plots/busbw.gp" "$T/both/allreduce_busbw.dat" "$T/alone.png" "alone" 2>"$T/err" ||
    { cat "$T/err" >&2; fail "plots/busbw.gp alone failed"; }
[ "$(png_dims "$T/alone.png")" = "1280 720" ] || fail "plots/busbw.gp alone: $(png_dims "$T/alone.png")"
gnuplot -c "$top_srcdir/plots/latency.gp" "$T/both/allreduce_latency.dat" "$T/alone.svg" "alone" "" 800x500 ci ||
    fail "plots/latency.gp alone failed"
grep -q 'viewBox="0 0 800 500"' "$T/alone.svg" || fail "latency.gp alone: not 800x500 SVG"

echo "PASS: colltune plot"
