#!/bin/sh
# colltune regress, end to end on small histories made here from the
# committed collbench results (no MPI): a steady history (exit 0), a slower
# newest run with a new MPI library (exit 1, the first slow run named and
# the version change printed, --md written, --baseline pinned), CSV-only
# (imported) runs ("unknown" metadata), and bad input (exit 2): an empty
# history, a single run, a missing column, an unknown schema, another
# tool's file, a bad --baseline.
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
expect 0 "0 series slower" "$H"
grep -q "reduce_scatter.* same " "$T/out" || fail "steady history: no 'same' verdict"

# --- one slow run alone is a spike: unknown, exit 0 ---
json_run "$H/r15" 15 1.5
sed -i 's/Open MPI v4.1.4/Open MPI v4.1.5/' "$H/r15/results.json"
expect 0 "0 series slower" "$H"
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
grep -qF "## Diagnosis" "$T/report.md" || fail "--md: no diagnosis"
ls "$T" | grep -q '\.tmp$' && fail "--md left a temporary file"
expect 1 "SLOWER" --baseline r05 "$H"
expect 0 "0 series slower" --threshold 60 "$H"
expect 2 "no such run" --baseline nosuch "$H"
expect 2 "is the newest run" --baseline r16 "$H"
expect 2 "--window" --window 1 "$H"

# --- imported runs (CSV only): accepted, the metadata change unknown ---
I="$T/imp"
for d in 01 02 03 04 05 06 07 08 09 10 11 12 13; do csv_run "$I/i$d" "$d" 1; done
expect 0 "0 series slower" "$I"
csv_run "$I/i14" 14 2
csv_run "$I/i15" 15 2
expect 1 "what changed: unknown" "$I"
grep -qF "first slow run i14" "$T/out" || fail "imported: first slow run not named"

# --- bad input: exit 2, naming the problem and the file ---
mkdir -p "$T/empty"
expect 2 "empty history" "$T/empty"
mkdir -p "$T/one"
json_run "$T/one/r1" 01 1
expect 2 "a single run" "$T/one"
expect 2 "this is a run directory" "$T/one/r1"
expect 2 "HISTORY" --window 3
expect 2 "No such file" "$T/nosuch"

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
