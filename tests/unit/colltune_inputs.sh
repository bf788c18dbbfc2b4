#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Every reader of a user's file refuses what is not a regular text file of
# bounded size (issue 15, E2, E17, E24): /dev/zero, a FIFO and a directory
# given as a log, results, a space, a hostfile, a history's run, a health
# report, each exit 2 naming the file and what it is, at once (no hang:
# each command has 20 s and 1 GiB of address space, where /dev/zero used
# to grow to 24 GB); a NUL byte in a space file is named by file:line.
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
CT="$top_builddir/tuner/colltune"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-inputs.XXXXXX")
trap 'rm -rf "$T"' EXIT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
mkfifo "$T/fifo" || fail "mkfifo"
mkdir "$T/dir"

# refused WHAT ARGS...: colltune ARGS exits 2 within 20 s, its stderr says
# WHAT ("is a FIFO, ...") and names $f.
refused() {
    what=$1
    shift
    (ulimit -v 1048576 && exec timeout 20 "$CT" "$@") >/dev/null 2>"$T/err"
    rc=$?
    [ "$rc" -ne 124 ] || fail "colltune $*: hung (killed after 20 s)"
    [ "$rc" -eq 2 ] || fail "colltune $*: exit $rc, want 2 ($(cat "$T/err"))"
    grep -qF -- "$what" "$T/err" || fail "colltune $*: stderr lacks '$what': $(cat "$T/err")"
    grep -qF -- "$f" "$T/err" || fail "colltune $*: stderr does not name $f: $(cat "$T/err")"
}

for f in /dev/zero "$T/fifo" "$T/dir"; do
    case $f in
    /dev/zero) what="is a character device, not a regular file" ;;
    */fifo) what="is a FIFO (named pipe), not a regular file" ;;
    *) what="is a directory, not a regular file" ;;
    esac
    refused "$what" import --out "$T/imp.csv" "$f"
    refused "$what" import --format nccl-tests --out "$T/imp.csv" "$f"
    refused "$what" import --format osu --np 2 --out "$T/imp.csv" "$f"
    refused "$what" plot --gnuplot /bin/true --out "$T/p" "$f"
    refused "$what" health --report "$f"
    refused "$what" tune --space "$f" --out "$T/t" --np 2
    refused "$what" tune --space "$top_srcdir/tests/mpi/tune_tiny.ini" --weights "$f" --out "$T/t" --np 2
    refused "$what" sweep --out "$T/s" --np 2 --hostfile "$f"
done
[ ! -e "$T/imp.csv" ] || fail "import wrote an output from a refused input"

# A history whose newest run's results are a FIFO.
for r in r1 r2 r3; do mkdir -p "$T/h/$r" && cp "$top_srcdir/tests/unit/plot_results.csv" "$T/h/$r/results.csv"; done
rm "$T/h/r3/results.csv"
mkfifo "$T/h/r3/results.csv"
# regress skips a run without a regular results file, saying so, and
# does not wait on the FIFO.
(ulimit -v 1048576 && exec timeout 20 "$CT" regress "$T/h") >/dev/null 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] || fail "regress with a FIFO run: exit $rc, want 0 ($(cat "$T/err"))"
grep -qF "$T/h/r3: no results.json or results.csv, skipped" "$T/err" || fail "regress: $(cat "$T/err")"

# A NUL byte in a space file used to cut its line short silently.
printf '[space]\nname = x\000y\n' >"$T/nul.ini"
f="$T/nul.ini"
refused "nul.ini:2: line: a NUL byte" tune --space "$T/nul.ini" --out "$T/t" --np 2
# A NUL byte in a log.
printf '# nThread 1\000\n' >"$T/nul.log"
f="$T/nul.log"
refused "nul.log:1: a NUL byte" import --out "$T/imp.csv" "$T/nul.log"
# Values no collbench row holds are refused by the reader, named by
# file:line, instead of failing inside gnuplot with exit 3 (E19).
CSV="$top_srcdir/tests/unit/plot_results.csv"
{ sed -n 1,2p "$CSV"; sed -n 3p "$CSV" | awk -F, -v OFS=, '{ $11 = 0; print }'; } >"$T/zero.csv"
f="$T/zero.csv"
refused "zero.csv:3: column bytes: 0 is not a positive byte count" plot --gnuplot /bin/true --out "$T/p" "$f"
{ sed -n 1,2p "$CSV"; sed -n 3p "$CSV" | awk -F, -v OFS=, '{ $20 = -1.5; print }'; } >"$T/neg.csv"
f="$T/neg.csv"
refused "neg.csv:3: column busbw_gbps: -1.5 is negative" plot --gnuplot /bin/true --out "$T/p" "$f"
echo "every reader refuses /dev/zero, FIFOs, directories, NUL bytes and impossible values"
