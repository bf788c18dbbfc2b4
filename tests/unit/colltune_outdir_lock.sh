#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# An output directory is one run's at a time (issue 15, E3): while another
# process holds DIR/.lock, colltune plot --out DIR, regress --plot DIR and
# health --out DIR exit 2 naming the holder's pid and write nothing there;
# once it is gone,
# they run.  (Two real sweeps and tunes at once: tests/mpi/colltune_lock.sh.)
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
CT="$top_builddir/tuner/colltune"
CSV="$top_srcdir/tests/unit/plot_results.csv"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-lock.XXXXXX")
holder=
trap '[ -z "$holder" ] || kill "$holder" 2>/dev/null; rm -rf "$T"' EXIT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
command -v flock >/dev/null 2>&1 || { echo "SKIP: no flock(1) (util-linux)"; exit 77; }

D="$T/out"
mkdir "$D"
# A holder that writes its pid the way colltune does, then keeps the lock.
sh -c 'echo $$ >"$1/.lock"; exec flock -o "$1/.lock" sleep 30' sh "$D" &
holder=$!
i=0
until [ -s "$D/.lock" ] && ! flock -n "$D/.lock" true 2>/dev/null; do
    i=$((i + 1))
    [ "$i" -lt 100 ] || fail "the holder never took the lock"
    sleep 0.1
done
pid=$(cat "$D/.lock")

"$CT" plot --gnuplot /bin/true --out "$D" "$CSV" >"$T/o" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "plot into a locked directory: exit $rc, want 2 ($(cat "$T/err"))"
grep -qF "$D is in use by pid $pid" "$T/err" || fail "plot: $(cat "$T/err")"
[ -z "$(ls "$D")" ] || fail "plot wrote into a locked directory: $(ls "$D")"

mkdir -p "$T/h/r1" "$T/h/r2"
cp "$CSV" "$T/h/r1/results.csv"
cp "$CSV" "$T/h/r2/results.csv"
"$CT" regress --gnuplot /bin/true --plot "$D" "$T/h" >"$T/o" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "regress --plot into a locked directory: exit $rc, want 2 ($(cat "$T/err"))"
grep -qF "$D is in use by pid $pid" "$T/err" || fail "regress: $(cat "$T/err")"

# health --out D: refused before any launch (it used to launch into D/job).
"$CT" health --out "$D" --np 2 --collbench /bin/false >"$T/o" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "health into a locked directory: exit $rc, want 2 ($(cat "$T/err"))"
grep -qF "$D is in use by pid $pid" "$T/err" || fail "health: $(cat "$T/err")"
[ -z "$(ls "$D")" ] || fail "health wrote into a locked directory: $(ls "$D")"

kill "$holder"
wait "$holder" 2>/dev/null
holder=
if command -v gnuplot >/dev/null 2>&1; then
    "$CT" plot --out "$D" "$CSV" >/dev/null 2>"$T/err" || fail "plot after the holder left: $(cat "$T/err")"
    [ -s "$D/index.html" ] || fail "plot after the holder left wrote no index.html"
fi
# Issue 26 (L6, L2, L3): a DIR/.lock that is not a file the lock made is
# refused, exit 2 naming it and what it is, and never written: a hard link
# to a user's file used to be truncated and given a pid.
echo precious >"$T/precious"
# lock_refused NAME WHAT: plot --out $T/NAME exits 2 with "WHAT" and
# $T/precious is untouched.
lock_refused() {
    "$CT" plot --gnuplot /bin/true --out "$T/$1" "$CSV" >"$T/o" 2>"$T/err"
    rc=$?
    [ "$rc" -eq 2 ] || fail "$1: exit $rc, want 2 ($(cat "$T/err"))"
    grep -qF "cannot lock $T/$1/.lock: it $2" "$T/err" || fail "$1: $(cat "$T/err")"
    [ "$(cat "$T/precious")" = precious ] || fail "$1: the file behind .lock was written: $(cat "$T/precious")"
}
mkdir "$T/hard" "$T/sym" "$T/fifo" "$T/user"
ln "$T/precious" "$T/hard/.lock"
lock_refused hard "has 2 hard links"
ln -s "$T/precious" "$T/sym/.lock"
lock_refused sym "is a symbolic link, not a regular file"
mkfifo "$T/fifo/.lock"
lock_refused fifo "is a FIFO (named pipe), not a regular file"
cp "$T/precious" "$T/user/.lock"
lock_refused user "holds something other than a pid"
[ "$(cat "$T/user/.lock")" = precious ] || fail "a user's .lock was written"
# A lock an earlier run left (its pid in it) is taken again.
echo 123456789 >"$T/user/.lock"
"$CT" plot --gnuplot /bin/true --out "$T/user" "$CSV" >"$T/o" 2>"$T/err"
grep -q "cannot lock\|in use" "$T/err" && fail "an earlier run's lock: $(cat "$T/err")"
[ "$(cat "$T/user/.lock")" != 123456789 ] || fail "an earlier run's lock did not get the new pid"
echo "a locked output directory is refused with the holder's pid; a .lock not made by a lock is never written"
