#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune regress on hostile histories (issue 38), no MPI:
# - H6: a run directory named RUN whose metadata holds "/RUN/" (the run's
#   own name in a path is written /RUN/: it was replaced by itself forever,
#   100% CPU, no output);
# - H12: a `latest` link to the newest run counts it once (one slow night
#   stays "unknown", exit 0; the link is never "the first slow run"), and
#   a link to another history's run is not taken as a run, each with a
#   note on stderr;
# - H5: an environment value holding newlines and HTML, and run names
#   holding them, never forge a line of the text report, and the --md
#   report holds no raw HTML, no link and no broken table row;
# - H15: --index with a FIFO for a run's regress.json does not block (that
#   run's verdict is "-", the file named on stderr).
# Every run is bounded by timeout(1): a hang fails, it does not stall the
# suite.
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
CT="$top_builddir/tuner/colltune"
JSON="$top_srcdir/tests/unit/plot_results.json"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-regress-hostile.XXXXXX")
trap 'rm -rf "$T"' EXIT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# run WANT ARGS...: colltune regress ARGS exits WANT within 60 s (far
# beyond the fraction of a second these histories take: a hang, not a slow
# machine, reaches it); stdout in $T/out, stderr in $T/err.
run() {
    want=$1
    shift
    timeout 60 "$CT" regress "$@" >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -ne 124 ] || fail "regress $*: still running after 60 s (a hang)"
    [ "$rc" -eq "$want" ] || { cat "$T/out" "$T/err" >&2; fail "regress $*: exit $rc, want $want"; }
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

# add_env FILE NAME VALUE: NAME=VALUE (VALUE JSON-escaped already, taken
# as it is: through the environment, not awk -v, which reads escapes) first
# in FILE's "environment".
add_env() {
    kv="    \"$2\": \"$3\"," awk '{ print } /^  "environment": \{/ { print ENVIRON["kv"] }' \
        "$1" >"$1.new" && mv "$1.new" "$1"
}

# history DIR NRUNS STEP FACTOR: runs r01.. of DIR, FACTOR times slower from
# run STEP on.
history() {
    i=1
    while [ "$i" -le "$2" ]; do
        f=1
        [ "$i" -lt "$3" ] || f=$4
        json_run "$1/r$(printf %02d "$i")" "$(printf %02d "$i")" "$f"
        i=$((i + 1))
    done
}

# --- H6: a run named RUN, its metadata holding /RUN/ -----------------------
history "$T/h6" 12 10 2
mv "$T/h6/r10" "$T/h6/RUN"
add_env "$T/h6/RUN/results.json" MY_DATA "/data/RUN/RUN/p"
run 1 "$T/h6"
grep -qF "first slow run RUN" "$T/out" || fail "H6: the first slow run RUN not named"
grep -qF "MY_DATA: unset -> /data/RUN/RUN/p from run RUN" "$T/out" ||
    fail "H6: the run's own path not shown as /RUN/"

# --- H12: links in the history ---------------------------------------------
# One slow night (the newest, 1.5x): unknown until the next run confirms it.
history "$T/h12" 14 14 1.5
run 0 "$T/h12"
cp "$T/out" "$T/h12.want"
ln -s r14 "$T/h12/latest"
run 0 "$T/h12"
grep -qF "14 runs in $T/h12, newest r14" "$T/out" || fail "H12: latest -> r14 counted as a run"
grep -qF "latest" "$T/out" && fail "H12: the link named in the report"
cmp -s "$T/out" "$T/h12.want" || fail "H12: the report changed with a latest link"
grep -qF "$T/h12/latest: a link to r14, a run this history counts by its own name: skipped" \
    "$T/err" || fail "H12: no note for the latest link"
# A link to another history's run, newer than every run here: not a run.
json_run "$T/other/r20" 20 3
ln -s "$T/other/r20" "$T/h12/zz"
run 0 "$T/h12"
grep -qF "14 runs in $T/h12, newest r14" "$T/out" || fail "H12: a link to another history taken as a run"
grep -qF "$T/h12/zz: a link to $T/other/r20, not a run directory of this history: skipped" \
    "$T/err" || fail "H12: no note for the link elsewhere"

# --- H5: newlines and HTML from results.json and run names -----------------
# The newest 3 runs twice as slow, with a new algorithm whose value (as
# recorded, byte for byte) holds newlines, a <script> block, a table cell's
# '|' and a link; the first slow run's name holds a newline and HTML too.
nl='
'
forged='FORGED LINE allreduce 8 mpi SLOWER'
val="4\\n$forged\\n<script>alert(1)</script> | x [a](javascript:y) \`c\`"
history "$T/h5" 12 10 2
for r in r10 r11 r12; do
    add_env "$T/h5/$r/results.json" OMPI_MCA_coll_tuned_allreduce_algorithm "$val"
done
bad="r10$nl$forged <img src=x onerror=alert(2)>"
mv "$T/h5/r10" "$T/h5/$bad"
run 1 --md "$T/h5.md" "$T/h5"
for f in "$T/out" "$T/h5.md"; do
    if grep -q "^$forged" "$f"; then
        sed -n "/^$forged/p" "$f" >&2
        fail "H5: a value or a run name forged a line of $f"
    fi
done
grep -qF "OMPI_MCA_coll_tuned_allreduce_algorithm: unset -> 4?$forged?<script>" "$T/out" ||
    fail "H5: the value not shown with '?' for its newlines"
grep -qF "first slow run r10?$forged <img src=x onerror=alert(2)> (2026-01-10" "$T/out" ||
    fail "H5: the run name not shown with '?' for its newline"
# the markdown: no raw HTML, no link, the table's rows whole
if grep -nE '<script|<img|(^|[^\\])\]\(' "$T/h5.md"; then
    fail "H5: raw HTML or a link in the markdown"
fi
grep -qF '4?FORGED LINE allreduce 8 mpi SLOWER?&lt;script&gt;alert(1)&lt;/script&gt; \| x \[a\](javascript:y) \`c\`' \
    "$T/h5.md" || fail "H5: the value not escaped in the markdown"
awk -F'|' '/^\| [a-z]/ { n = 0; for (i = 2; i < NF; i++) if ($i !~ /\\$/) n++
           if (n != 12) { print FILENAME ":" FNR ": " n " cells"; bad = 1 } } END { exit bad }' \
    "$T/h5.md" || fail "H5: a markdown table row split by a value"

# --- H15: --index with a FIFO for a run's regress.json ----------------------
history "$T/h15" 12 99 1
mkfifo "$T/h15/r05/regress.json"
run 0 --index "$T/h15.html" "$T/h15"
grep -qF "$T/h15/r05/regress.json: is a FIFO (named pipe), not a regular file; its verdict shown as -" \
    "$T/err" || fail "H15: the FIFO regress.json not named"
grep -qE '<td>r05</td><td>[^<]*</td><td>-</td>' "$T/h15.html" || fail "H15: the FIFO's verdict not shown as -"

echo "PASS: colltune regress on hostile histories"
