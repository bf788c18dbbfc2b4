#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# No subcommand writes over one of its own inputs (issue 15, E11, E14,
# E15): import --force --out equal to a log (or a link to it), plot --out
# holding an input under a name plot writes, regress --md onto a results
# file of the history.  Each exits 2 naming both, and the input is intact.
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
CT="$top_builddir/tuner/colltune"
CSV="$top_srcdir/tests/unit/plot_results.csv"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-outin.XXXXXX")
trap 'rm -rf "$T"' EXIT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
# refused FILE WORD ARGS...: colltune ARGS exits 2 saying WORD; FILE is
# still a copy of plot_results.csv.
refused() {
    file=$1 word=$2
    shift 2
    "$CT" "$@" >/dev/null 2>"$T/err"
    rc=$?
    [ "$rc" -eq 2 ] || fail "colltune $*: exit $rc, want 2 ($(cat "$T/err"))"
    grep -qF -- "$word" "$T/err" || fail "colltune $*: stderr lacks '$word': $(cat "$T/err")"
    cmp -s "$file" "$CSV" || fail "colltune $*: destroyed its input $file"
}

cp "$CSV" "$T/log.csv"
refused "$T/log.csv" "is the log $T/log.csv, an input" import --force --out "$T/log.csv" "$T/log.csv"
ln -s "$T/log.csv" "$T/link.csv"
refused "$T/log.csv" "is the log $T/log.csv, an input" import --force --out "$T/link.csv" "$T/log.csv"

mkdir "$T/p"
cp "$CSV" "$T/p/allreduce_busbw.dat"
refused "$T/p/allreduce_busbw.dat" "is an input and a name plot writes" \
    plot --gnuplot /bin/true --out "$T/p" "$T/p/allreduce_busbw.dat"

for r in r1 r2 r3; do mkdir -p "$T/h/$r" && cp "$CSV" "$T/h/$r/results.csv"; done
refused "$T/h/r1/results.csv" "is $T/h/r1/results.csv, an input" regress --md "$T/h/r1/results.csv" "$T/h"
echo "no output over an input"
