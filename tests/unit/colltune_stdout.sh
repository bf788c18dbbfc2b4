#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A standard output that cannot be written is an error, as in git: with
# stdout on /dev/full (a full disk) colltune --help, --version and a regress
# that prints its table, and collbench --help and a measured table, exit 3
# saying "cannot write standard output"; with SIGPIPE ignored, a closed
# pipe (EPIPE) is the same error, not a silent exit 0.
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
CT="$top_builddir/tuner/colltune"
CB="$top_builddir/src/collbench"
JSON="$top_srcdir/tests/unit/plot_results.json"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-stdout.XXXXXX")
trap 'rm -rf "$T"' EXIT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

[ -w /dev/full ] || { echo "SKIP: no /dev/full"; exit 77; }

# full PROG ARGS...: PROG ARGS >/dev/full exits 3 with the message.
full() {
    prog=$1
    "$@" >/dev/full 2>"$T/err"
    rc=$?
    [ "$rc" -eq 3 ] || { cat "$T/err" >&2; fail "$* >/dev/full: exit $rc, want 3"; }
    grep -q "^$(basename "$prog"): cannot write standard output: No space left on device" "$T/err" ||
        { cat "$T/err" >&2; fail "$* >/dev/full: no 'cannot write standard output' message"; }
}

for d in 1 2 3 4 5 6; do
    mkdir -p "$T/hist/r$d"
    sed "s/\"start_time\": *\"20[^\"]*\"/\"start_time\": \"2026-01-0${d}T00:00:00Z\"/" "$JSON" \
        >"$T/hist/r$d/results.json"
done
"$CT" regress "$T/hist" >"$T/out" 2>&1 || { cat "$T/out" >&2; fail "regress on a steady history failed"; }
full "$CT" --help
full "$CT" --version
full "$CT" help regress
full "$CT" regress "$T/hist"

# A closed pipe with SIGPIPE ignored: write gets EPIPE.
{
    sleep 1
    trap '' PIPE
    exec "$CT" regress "$T/hist" 2>"$T/err"
} | true
grep -q "cannot write standard output: Broken pipe" "$T/err" ||
    { cat "$T/err" >&2; fail "EPIPE on stdout not reported"; }

# collbench, a singleton without a launcher (rank 0 prints).
"$CB" --help >/dev/null 2>"$T/err" || { echo "SKIP: collbench does not run as a singleton"; exit 77; }
full "$CB" --help
# The table: collbench's own writer reports it, still exit 3.
"$CB" -C allreduce -b 8 -e 64 -n 3 >/dev/full 2>"$T/err"
[ $? -eq 3 ] || { cat "$T/err" >&2; fail "collbench table >/dev/full: exit not 3"; }
grep -q "No space left on device" "$T/err" || { cat "$T/err" >&2; fail "collbench table >/dev/full: no message"; }
echo "PASS: stdout errors exit 3 with a message"
