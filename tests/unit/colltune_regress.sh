#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune regress, end to end on small histories made here from the
# committed collbench results (no MPI): a steady history (exit 0), a slower
# newest run with a new MPI library (exit 1, the first slow run named and
# the version change printed, --md written, --baseline pinned), CSV-only
# (imported) runs ("unknown" metadata), and bad input (exit 2): an empty
# history, a run directory given as the history, a missing column, an unknown schema, another
# tool's file, a bad --baseline.  FASTER (a speed-up, exit 0), the
# diagnosis printed once per first slow run, and --plot: PNG and SVG of
# the requested size, index.html's links, the flagged runs and the run
# times in the data file, the y axis fitted to the data (log and linear),
# the time axis, and an imported history's plots free of sentinels (no
# "-1 nodes", no hash of the empty configuration, run names for dates);
# no gnuplot (exit 3) and a bad --plot DIR (exit 2) before any work.
# --index: the history's page links every run's plots and regress.json,
# relative and existing, and shows the recorded verdicts ("-" for a bad
# regress.json); a bad --index FILE exits 2 before any work.
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
CT="$top_builddir/tuner/colltune"
CSV="$top_srcdir/tests/unit/plot_results.csv"
JSON="$top_srcdir/tests/unit/plot_results.json"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-regress.XXXXXX")
trap 'rm -rf "$T"' EXIT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# expect RC WORD ARGS...: colltune regress exits RC, its stdout+stderr say WORD.
expect() {
    want=$1 word=$2
    shift 2
    "$CT" regress "$@" >"$T/out" 2>&1
    rc=$?
    [ "$rc" -eq "$want" ] || { cat "$T/out" >&2; fail "regress $*: exit $rc, want $want"; }
    grep -qF -- "$word" "$T/out" || { cat "$T/out" >&2; fail "regress $*: output lacks '$word'"; }
}

# json_run DIR DAY FACTOR: plot_results.json as the run of 2026-01-DAY, its
# medians times FACTOR and a little deterministic noise.
json_run() {
    mkdir -p "$1"
    awk -v day="$2" -v f="$3" '
        /"start_time"/ { sub(/"20[^"]*"/, "\"2026-01-" day "T00:00:00Z\"") }
        /"median_us":/ { n++; v = $2 + 0; sub(/[0-9.eE+-]+/, sprintf("%.6g",
                          v * f * (1 + 0.01 * ((day * 7 + n) % 5 - 2) / 2)), $2) }
        { print }' "$JSON" >"$1/results.json"
}
# csv_run DIR DAY FACTOR: the same from plot_results.csv, CSV only (an import).
csv_run() {
    mkdir -p "$1"
    awk -F, -v OFS=, -v day="$2" -v f="$3" 'NR == 1 { print; next }
        { $2 = "2026-01-" day "T00:00:00Z"; $14 = $14 * f * (1 + 0.01 * ((day * 7 + NR) % 5 - 2) / 2)
          print }' "$CSV" >"$1/results.csv"
}

# --- a steady history of 14 runs: nothing slower ---
H="$T/hist"
for d in 01 02 03 04 05 06 07 08 09 10 11 12 13 14; do json_run "$H/r$d" "$d" 1; done
expect 0 "0 slower," "$H"
grep -q "reduce_scatter.* same " "$T/out" || fail "steady history: no 'same' verdict"

# --- one slow run alone is a spike: unknown, exit 0 ---
json_run "$H/r15" 15 1.5
sed -i 's/Open MPI v4.1.4/Open MPI v4.1.5/' "$H/r15/results.json"
expect 0 "0 slower," "$H"
grep -q " unknown " "$T/out" || fail "spike: not reported unknown"

# --- the newest two runs 50% slower, from a new MPI library on ---
json_run "$H/r16" 16 1.5
sed -i 's/Open MPI v4.1.4/Open MPI v4.1.5/' "$H/r16/results.json"
expect 1 "SLOWER" --md "$T/report.md" "$H"
grep -qF "first slow run r15" "$T/out" || fail "slower: first slow run not named"
grep -qF "last good run r14" "$T/out" || fail "slower: last good run not named"
grep -qF "mpi_library_version" "$T/out" || fail "slower: the library change not printed"
grep -qF "v4.1.5" "$T/out" || fail "slower: the new version not printed"
if grep -q "ess_base_jobid\|start_time\|command_line" "$T/out"; then
    fail "slower: volatile metadata listed as a change"
fi
grep -qF "| SLOWER |" "$T/report.md" || fail "--md: no SLOWER row"
# one diagnosis for the run every series slowed at, not one per series
grep -qF "first slow run r15 (2026-01-15T00:00:00Z), for 10 series; last good run r14" "$T/out" ||
    fail "slower: the diagnosis is not grouped by the first slow run"
[ "$(grep -c "candidate causes, most specific first" "$T/out")" -eq 1 ] ||
    fail "slower: the metadata diff printed more than once"
grep -qF "## Diagnosis" "$T/report.md" || fail "--md: no diagnosis"
ls "$T" | grep -q '\.tmp$' && fail "--md left a temporary file"
expect 1 "SLOWER" --baseline r05 "$H"
expect 0 "0 slower," --threshold 60 "$H"
expect 2 "no such run" --baseline nosuch "$H"
expect 2 "is the newest run" --baseline r16 "$H"
expect 2 "--window" --window 1 "$H"

# --- --plot: before any work, then the pictures ---
: >"$T/file"
"$CT" regress --plot "$T/file/sub" "$H" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] || fail "--plot under a file: not exit 2"
grep -qF -- "--plot $T/file/sub" "$T/err" || fail "--plot under a file: not named"
[ ! -s "$T/out" ] || fail "--plot under a file: the history was judged all the same"
"$CT" regress --plot "$T/np" --gnuplot "$T/no-such-gnuplot" "$H" >"$T/out" 2>"$T/err"
[ $? -eq 3 ] || fail "no gnuplot: not exit 3"
grep -qF gnuplot-nox "$T/err" || fail "no gnuplot: the package not named"
[ ! -e "$T/np" ] && [ ! -s "$T/out" ] || fail "no gnuplot: work done all the same"
expect 2 "go with --plot DIR" --format svg "$H"
expect 2 "--size" --plot "$T/np" --size 10x10 "$H"
if command -v gnuplot >/dev/null 2>&1; then
    P="$T/plots"
    expect 1 "open $P/index.html" --plot "$P" --format both --size 1000x560 "$H"
    # png_dims FILE: "WIDTH HEIGHT" from the IHDR chunk, after the signature.
    png_dims() {
        sig=$(od -An -tu1 -N8 "$1" | tr -s ' ' | sed 's/^ //')
        [ "$sig" = "137 80 78 71 13 10 26 10" ] || fail "$1: not a PNG (signature $sig)"
        od -An -tu1 -j16 -N8 "$1" |
            awk '{ print ($1 * 16777216 + $2 * 65536 + $3 * 256 + $4), ($5 * 16777216 + $6 * 65536 + $7 * 256 + $8) }'
    }
    n=0
    for f in "$P"/*.png; do
        [ "$(png_dims "$f")" = "1000 560" ] || fail "$f is $(png_dims "$f"), want 1000 560"
        s=${f%.png}.svg
        grep -q 'viewBox="0 0 1000 560"' "$s" && grep -q '</svg>' "$s" || fail "$s: not a 1000x560 SVG"
        grep -qF "src=\"$(basename "$f")\"" "$P/index.html" || fail "index.html does not show $f"
        n=$((n + 1))
    done
    # one overview (reduce_scatter) and one image per slower series (10)
    [ "$n" -eq 11 ] || fail "--plot: $n images, want 11"
    for l in $(grep -o -E '(href|src)="[^"#]+"' "$P/index.html" | sed 's/^[a-z]*="//; s/"$//' | sort -u); do
        case $l in /* | *://*) fail "index.html: link $l is not relative" ;; esac
        [ -s "$P/$l" ] || fail "index.html links $l, which is missing or empty"
    done
    grep -qF '<td>SLOWER</td>' "$P/index.html" || fail "index.html: no verdict table"
    D="$P/reduce_scatter_8_0_timeseries.dat"
    grep -qE '^14 "r15" 2026-01-15T00:00:00Z [0-9.e+-]+ [0-9.e+-]+ [0-9.e+-]+ [0-9.e+-]+ 1 first_slow$' "$D" ||
        fail "$D: r15 not marked as the first slow run"
    grep -qE '^15 "r16" .* 2 slow$' "$D" || fail "$D: r16 not marked as a later slow run"
    grep -qE '^0 "r01" .* NaN NaN NaN 0 -$' "$D" || fail "$D: r01 is in the band or flagged"
    grep -q '^"' "$P/reduce_scatter_timeseries.dat" || fail "overview: no series title"
    ls -a "$P" | grep -q 'tmp' && fail "temporary files left in $P"
    # the script alone, on the data file regress wrote
    gnuplot -c "$top_srcdir/plots/timeseries.gp" "$D" "$T/alone.png" "alone" "" 800x500 ||
        fail "plots/timeseries.gp alone failed"
    [ "$(png_dims "$T/alone.png")" = "800 500" ] || fail "timeseries.gp alone: $(png_dims "$T/alone.png")"

    # axes DATA: "YMIN YMAX XMIN XMAX" of the axes timeseries.gp drew,
    # read back from gnuplot itself.
    axes() {
        gnuplot -e "call '$top_srcdir/plots/timeseries.gp' '$1' '$T/axes.png' 't' '' ''; \
            print sprintf('%g %g %.1f %.1f', GPVAL_Y_MIN, GPVAL_Y_MAX, GPVAL_X_MIN, GPVAL_X_MAX)" 2>&1
    }
    # fitted DATA LOG: the y range holds every median and the drawn band
    # with at most a 1.3x margin on a log axis (LOG=1) or 30% of the span
    # on a linear one; the old autoscale drew 0.1 to 1000 for 1 to 16 us.
    fitted() {
        r=$(axes "$1")
        awk -v r="$r" -v lg="$2" -v f="$1" '
            BEGIN { split(r, a, " "); lo = 1e300; hi = -1 }
            /^[0-9]/ { for (c = 4; c <= 7; c++) if ($c != "NaN") {
                           if ($c + 0 < lo) lo = $c + 0; if ($c + 0 > hi) hi = $c + 0 } }
            END {
                m = lg ? 0 : (hi - lo) * 0.3
                ok = a[1] <= lo && a[2] >= hi && (lg ? a[1] >= lo / 1.3 && a[2] <= hi * 1.3 \
                                                     : a[1] >= lo - m && a[2] <= hi + m)
                if (!ok) { printf "%s: y axis %s to %s for data %g to %g\n", f, a[1], a[2], lo, hi; exit 1 }
            }' "$1" || fail "timeseries.gp: the y axis is not fitted to the data"
    }
    fitted "$D" 0
    # a steady history: the overview spans 1 to 16 us, a log axis
    for d in 01 02 03 04 05 06 07 08 09 10 11 12 13 14; do json_run "$T/steady/s$d" "$d" 1; done
    expect 0 "0 slower," --plot "$T/sp" --format both "$T/steady"
    grep -q "log scale" "$T/sp/reduce_scatter_timeseries.svg" || fail "steady overview: not a log axis"
    fitted "$T/sp/reduce_scatter_timeseries.dat" 1
    # a time axis (seconds since 1970): 2026-01-01 to 2026-01-14, a small margin
    axes "$T/sp/reduce_scatter_timeseries.dat" | awk '{ exit !($3 <= 1767225600 && $3 >= 1767225600 - 86400 &&
        $4 >= 1768348800 && $4 <= 1768348800 + 86400) }' ||
        fail "steady overview: x axis $(axes "$T/sp/reduce_scatter_timeseries.dat") is not the runs' dates"
    # one band, in words: the first series' and what it is, never "R1"
    grep -qF "baseline of 8 B, out-of-place" "$T/sp/reduce_scatter_timeseries.svg" ||
        fail "steady overview: the band's legend does not name its series"
    grep -qF "the range a single run may reach" "$T/sp/reduce_scatter_timeseries.svg" ||
        fail "steady overview: the band is not said in words"
    if grep -q "R1" "$T/sp/reduce_scatter_timeseries.svg" "$T/sp/index.html"; then
        fail "steady overview: R1 in the legend or the page"
    fi

    # an imported history: no run times, nodes unknown (-1), the default
    # configuration; none of these sentinels reaches a title or a label
    for d in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15; do
        csv_run "$T/impd/i$d" "$d" "$([ "$d" -ge 14 ] && echo 2 || echo 1)"
        awk -F, -v OFS=, 'NR > 1 { $2 = ""; $10 = -1; $22 = "cbf29ce484222325" } { print }' \
            "$T/impd/i$d/results.csv" >"$T/x.csv"
        mv "$T/x.csv" "$T/impd/i$d/results.csv"
    done
    expect 1 "SLOWER" --plot "$T/ip" --format both --index "$T/impd/index.html" "$T/impd"
    for f in "$T/ip/index.html" "$T/ip"/*.dat "$T/ip"/*.svg "$T/impd/index.html"; do
        if grep -qE "cbf29ce484222325|-1 node" "$f"; then
            fail "$f: a sentinel in a title or label: $(grep -oE "cbf29ce484222325|-1 node" "$f" | head -1)"
        fi
    done
    if grep -qF "()" "$T/ip/index.html" "$T/impd/index.html"; then
        fail "imported: an empty date in a title"
    fi
    grep -qF "2 ranks; runs i01 to i15" "$T/ip/index.html" || fail "imported: the runs not named for dates"
    grep -qF "<td>default</td>" "$T/impd/index.html" || fail "imported: the default configuration not named"
    grep -qE '^0 "i01" - [0-9.e+-]+ NaN NaN NaN 0 -$' "$T/ip/allreduce_timeseries.dat" ||
        fail "imported: no '-' for an unknown run time"
    [ "$(axes "$T/ip/allreduce_timeseries.dat" | cut -d' ' -f3-)" = "-0.5 14.5" ] ||
        fail "imported: x axis $(axes "$T/ip/allreduce_timeseries.dat"), want the run index -0.5 to 14.5"
    fitted "$T/ip/allreduce_timeseries.dat" 0
else
    echo "no gnuplot (apt-get install gnuplot-nox): --plot's images not checked"
fi

# --- --index: the history's page ---
expect 2 "--index $T/file/x.html: directory" --index "$T/file/x.html" "$H"
[ ! -e "$H/index.html" ] || fail "bad --index: work done all the same"
mkdir -p "$H/r15/plots" "$H/r16/plots/regress"
echo '<html></html>' >"$H/r15/plots/index.html"
echo '<html></html>' >"$H/r16/plots/regress/index.html"
cat >"$H/r16/regress.json" <<'RJ'
{"schema": "colltune-regress/1", "newest": {"run": "r16", "date": "2026-01-16T00:00:00Z"},
 "verdict": "slower", "exit": 1,
 "counts": {"series": 10, "slower": 10, "faster": 0, "same": 0, "unknown": 0},
 "event": {"direction": "slower", "series": 10, "of": 10, "median_change": 0.5, "run": "r15"},
 "first_slow_run": "r15"}
RJ
echo '{"schema": "colltune-regress/1", "verdict": "baseline", "counts": {"series": 10}}' >"$H/r01/regress.json"
echo 'not json {' >"$H/r14/regress.json"
mkdir -p "$T/elsewhere"
for page in "$H/index.html" "$T/elsewhere/history.html"; do
    expect 1 "history: open $page" --md "$H/latest.md" --index "$page" "$H"
    dir=$(dirname "$page")
    grep -qF "REGRESSION: 10 of 10 series slower (median change +50%), first slow run r15" "$page" ||
        fail "$page: the newest verdict not in words"
    grep -qF "<td>baseline begins: 10 series</td>" "$page" || fail "$page: r01's verdict not shown"
    grep -qE '<td>r14</td><td>[^<]*</td><td>-</td>' "$page" || fail "$page: a bad regress.json not shown as -"
    # newest first: r16's row before r01's
    [ "$(grep -n '<td>r16</td>' "$page" | cut -d: -f1)" -lt "$(grep -n '<td>r01</td>' "$page" | cut -d: -f1)" ] ||
        fail "$page: not newest first"
    links=$(grep -o 'href="[^"#]*"' "$page" | sed 's/^href="//; s/"$//' | sort -u)
    for want in r15/plots/index.html r16/plots/regress/index.html r16/regress.json r14/regress.json \
        r01/regress.json latest.md; do
        echo "$links" | grep -q "$want\$" || fail "$page: no link to $want"
    done
    for l in $links; do
        case $l in /* | *://*) fail "$page: link $l is not relative" ;; esac
        [ -s "$dir/$l" ] || fail "$page links $l, which is missing or empty"
    done
    # and nothing else: a run without plots or regress.json links none
    [ "$(echo "$links" | wc -l)" -eq 6 ] || fail "$page: want 6 links, not: $links"
done
ls "$H" | grep -q '\.tmp$' && fail "--index left a temporary file"

# --- faster: the newest two runs 30% faster is FASTER, not a regression ---
F="$T/fast"
for d in 01 02 03 04 05 06 07 08 09 10 11 12 13 14; do json_run "$F/f$d" "$d" 1; done
json_run "$F/f15" 15 0.7
json_run "$F/f16" 16 0.7
expect 0 "10 faster," --md "$T/fast.md" "$F"
grep -q "reduce_scatter.* FASTER *f15$" "$T/out" || fail "faster: no FASTER row naming f15"
grep -qF "first faster run f15" "$T/out" || fail "faster: the first faster run not named"
grep -qF "| FASTER |" "$T/fast.md" || fail "faster --md: no FASTER row"
grep -qF "## Faster" "$T/fast.md" || fail "faster --md: no Faster section"

# --- slower from the run on which the pml changed (collbench's JSON
# "transport": the pml that really ran): the diagnosis names it ---
P="$T/pml"
pml_run() { # DIR DAY FACTOR PML
    json_run "$1" "$2" "$3"
    sed -i "s/^  \"ucx_version\": null,/  \"ucx_version\": null,\n  \"transport\": {\"pml\": \"$4\", \"btl_loaded\": \"self,tcp,vader\", \"ucx_config\": null},/" \
        "$1/results.json"
}
for d in 01 02 03 04 05 06 07 08 09 10 11 12 13; do pml_run "$P/p$d" "$d" 1 ob1; done
pml_run "$P/p14" 14 1.6 ucx
pml_run "$P/p15" 15 1.6 ucx
expect 1 "SLOWER" "$P"
grep -qF "first slow run p14" "$T/out" || fail "pml: first slow run not named"
grep -qF "transport.pml: ob1 -> ucx from run p14" "$T/out" || fail "pml: the change from ob1 to ucx not printed"

# --- imported runs (CSV only): accepted, the metadata change unknown ---
I="$T/imp"
for d in 01 02 03 04 05 06 07 08 09 10 11 12 13; do csv_run "$I/i$d" "$d" 1; done
expect 0 "0 slower," "$I"
csv_run "$I/i14" 14 2
csv_run "$I/i15" 15 2
expect 1 "candidate causes: unknown" "$I"
grep -qF "first slow run i14" "$T/out" || fail "imported: first slow run not named"

# --- bad input: exit 2, naming the problem and the file ---
mkdir -p "$T/empty"
expect 2 "empty history" "$T/empty"
mkdir -p "$T/one"
json_run "$T/one/r1" 01 1
# a single run is the first night: the baseline begins, exit 0
expect 0 "baseline begins: 10 series in run r1" "$T/one"
expect 2 "this is a run directory" "$T/one/r1"
expect 2 "HISTORY" --window 3
expect 2 "No such file" "$T/nosuch"
# Runs are ordered by their date: one that is not a date is refused, not
# sorted to the end and judged "the newest".
mkdir -p "$T/baddate"
json_run "$T/baddate/r1" 01 1
json_run "$T/baddate/r2" 02 1
sed 's/"start_time": *"[^"]*"/"start_time": "yesterday-ish"/' "$T/baddate/r1/results.json" >"$T/x.json"
mv "$T/x.json" "$T/baddate/r1/results.json"
expect 2 "r1/results.json: start_time 'yesterday-ish' is not YYYY-MM-DDTHH:MM:SSZ" "$T/baddate"
mkdir -p "$T/badtime"
csv_run "$T/badtime/r1" 01 1
csv_run "$T/badtime/r2" 02 1
awk -F, -v OFS=, 'NR == 2 { $2 = "not a time" } { print }' "$T/badtime/r2/results.csv" >"$T/x.csv"
mv "$T/x.csv" "$T/badtime/r2/results.csv"
expect 2 "r2/results.csv:2: column time: 'not a time' is not YYYY-MM-DDTHH:MM:SSZ" "$T/badtime"
csv_run "$T/badtime/r2" 02 1
awk -F, -v OFS=, 'NR == 2 { $2 = "2026-01-40T00:00:00Z" } { print }' "$T/badtime/r1/results.csv" >"$T/x.csv"
mv "$T/x.csv" "$T/badtime/r1/results.csv"
expect 2 "r1/results.csv:2: column time: '2026-01-40T00:00:00Z'" "$T/badtime"

B="$T/bad"
for d in 01 02 03; do csv_run "$B/r$d" "$d" 1; done
cp -r "$B" "$T/bad2"
sed -i '1s/,busbw_gbps//' "$B/r02/results.csv"
expect 2 "r02/results.csv:1: missing column busbw_gbps" "$B"

cp -r "$T/bad2" "$T/bad3"
json_run "$T/bad3/r04" 04 1
sed -i 's#colltune-results/2#colltune-results/9#' "$T/bad3/r04/results.json"
expect 2 "r04/results.json:1: unknown schema" "$T/bad3"

cat >"$T/bad2/r02/results.csv" <<'OSU'
# OSU MPI Allreduce Latency Test v7.1
# Size       Avg Latency(us)
8                       1.23
OSU
expect 2 "r02/results.csv:1: not a collbench results header" "$T/bad2"

echo "colltune regress: ok"
