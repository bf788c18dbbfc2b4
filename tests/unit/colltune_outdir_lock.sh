#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# An output directory is one run's at a time (issue 15, E3): while another
# process holds DIR/.lock, colltune plot --out DIR, regress --plot DIR and
# health --out DIR exit 2 naming the holder's pid and write nothing there;
# once it is gone,
# they run.  (Two real sweeps and tunes at once: tests/mpi/colltune_lock.sh.)
# Then the edges of ct_outdir: a .lock of 31 digits is a lock's, of 32 not;
# --out's missing levels are made, a 4073-byte one is too long; a pid that
# cannot be written fails the run; import --out FILE and --force.
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
# A holder that writes its pid the way colltune does, then keeps the lock
# (on its own descriptor, so that killing it frees the lock at once; no
# output of ours left open, or a harness reading it waits for it).
sh -c 'exec 9>>"$1/.lock"; echo $$ >"$1/.lock"; flock 9; exec sleep 30' sh "$D" \
    </dev/null >/dev/null 2>&1 &
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
# ... and holds that pid alone: the longer old line is cut, not overwritten
# in part.
[ "$(wc -l <"$T/user/.lock")" -eq 1 ] || fail "an earlier run's lock: $(cat "$T/user/.lock")"
grep -qx '[0-9][0-9]*' "$T/user/.lock" || fail "an earlier run's lock: $(cat "$T/user/.lock")"
# The longest pid line read is 31 bytes: 31 digits are a lock's, 32 are not.
digits=1234567890123456789012345678901
mkdir "$T/d31" "$T/d32"
printf '%s' "$digits" >"$T/d31/.lock"
"$CT" plot --gnuplot /bin/true --out "$T/d31" "$CSV" >"$T/o" 2>"$T/err"
grep -q "cannot lock\|in use" "$T/err" && fail "31 digits: $(cat "$T/err")"
[ "$(cat "$T/d31/.lock")" != "$digits" ] || fail "31 digits: the lock did not get the new pid"
printf '%s2' "$digits" >"$T/d32/.lock"
lock_refused d32 "holds something other than a pid"
[ "$(cat "$T/d32/.lock")" = "${digits}2" ] || fail "32 digits: written"

# ct_outdir_prepare: the missing directories of --out are made, each level.
"$CT" plot --gnuplot /bin/true --out "$T/new/a/b" "$CSV" >"$T/o" 2>"$T/err"
[ -f "$T/new/a/b/.lock" ] || fail "new/a/b not made: $(cat "$T/err")"
grep -q -- "--out" "$T/err" && fail "new/a/b: $(cat "$T/err")"
# The probe DIR/.colltune-probe.XXXXXX must fit 4095 bytes: a directory of
# 4072 bytes is used, one of 4073 is too long (said so, nothing written).
long_dir() { # long_dir N: a path of N bytes under $T/long
    _l="$T/long"
    while [ $((${#_l} + 201)) -lt "$1" ]; do
        _l="$_l/$(printf '%0200d' 0)"
    done
    printf '%s/%0*d' "$_l" $(($1 - ${#_l} - 1)) 0
}
L1=$(long_dir 4072)
L2=$(long_dir 4073)
[ ${#L1} -eq 4072 ] || fail "long_dir: ${#L1}"
[ ${#L2} -eq 4073 ] || fail "long_dir: ${#L2}"
mkdir -p "$L1" "$L2" || fail "mkdir -p of a 4073-byte path"
"$CT" plot --gnuplot /bin/true --out "$L1" "$CSV" >"$T/o" 2>"$T/err"
grep -q -- "--out .*: path is too long" "$T/err" && fail "4072 bytes: refused"
[ -f "$L1/.lock" ] || fail "4072 bytes: no lock taken: $(cat "$T/err")"
"$CT" plot --gnuplot /bin/true --out "$L2" "$CSV" >"$T/o" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "4073 bytes: exit $rc, want 2"
grep -qF -- "--out $L2: path is too long" "$T/err" || fail "4073 bytes: $(cat "$T/err")"
[ -z "$(ls -A "$L2")" ] || fail "4073 bytes: wrote $(ls -A "$L2")"
rm -rf "$T/long"
# Started with stdin closed, the probe's descriptor may be 0: still a file.
"$CT" plot --gnuplot /bin/true --out "$T/nostdin" "$CSV" <&- >"$T/o" 2>"$T/err"
grep -q "not writable\|cannot lock" "$T/err" && fail "stdin closed: $(cat "$T/err")"
[ -f "$T/nostdin/.lock" ] || fail "stdin closed: no lock taken: $(cat "$T/err")"
# The pid cannot be written (a file size limit of 0, SIGXFSZ ignored):
# exit 2 naming the lock, not a run without one.  Its stderr goes through a
# pipe, which the limit does not cover.
{
    (trap '' XFSZ; ulimit -f 0; exec "$CT" plot --gnuplot /bin/true --out "$T/fsize" "$CSV") \
        2>&1 >/dev/null
    echo $? >"$T/rc"
} | cat >"$T/err"
[ "$(cat "$T/rc")" -eq 2 ] || fail "no room for the pid: exit $(cat "$T/rc"), want 2 ($(cat "$T/err"))"
grep -qF "cannot write $T/fsize/.lock: File too large" "$T/err" || fail "no room for the pid: $(cat "$T/err")"

# ct_outdir_check_file (import --out FILE): a new file is written; an
# existing one only with --force; a directory never.
LOG="$top_srcdir/tests/unit/import/nccl_allreduce.log"
"$CT" import --out "$T/i.csv" "$LOG" >"$T/o" 2>"$T/err" || fail "import to a new file: $(cat "$T/err")"
[ -s "$T/i.csv" ] || fail "import wrote no $T/i.csv"
"$CT" import --out "$T/i.csv" "$LOG" >"$T/o" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "import over a file: exit $rc, want 2"
grep -qF -- "--out $T/i.csv: exists (give --force to replace it)" "$T/err" || fail "import over a file: $(cat "$T/err")"
"$CT" import --force --out "$T/i.csv" "$LOG" >"$T/o" 2>"$T/err" || fail "import --force: $(cat "$T/err")"
mkdir "$T/idir"
"$CT" import --force --out "$T/idir" "$LOG" >"$T/o" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "import onto a directory: exit $rc, want 2"
grep -qF -- "--out $T/idir: is a directory, not a regular file" "$T/err" || fail "import onto a directory: $(cat "$T/err")"
"$CT" import --out "$T/nodir/i.csv" "$LOG" >"$T/o" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "import into no directory: exit $rc, want 2"
grep -qF -- "--out $T/nodir/i.csv: directory $T/nodir: does not exist" "$T/err" || fail "import into no directory: $(cat "$T/err")"
echo "a locked output directory is refused with the holder's pid; a .lock not made by a lock is never written"
