#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# Output paths are checked before anything is measured (exit 2, the path
# and the problem named, nothing printed on stdout, nothing left behind):
#   D2 one file for --csv and --json (by name, through a symlink, a hard link)
#   D3 a device node or FIFO is refused, never replaced; a symlink is followed
#   D4 a FIFO, /dev/stdout on a pipe: refused at once, nothing hangs;
#      --csv - streams the CSV to stdout, the table then goes to stderr
#   D6 a missing directory, a directory, an unwritable place
#   D9 appending to a CSV whose last line lacks its newline adds it first
. "$top_srcdir/tests/mpi/lib.sh"

SWEEP="-C allreduce -b 8 -e 1K -f 4 --size-budget 0.02 --quiet"

# refused PATTERN ARGS... : exit 2 before measuring, PATTERN on stderr.
refused() {
    pattern=$1
    shift
    # shellcheck disable=SC2086
    ct_mpirun 2 $SWEEP "$@" >"$T/out" 2>"$T/err" </dev/null
    rc=$?
    [ "$rc" -eq 2 ] || fail "$*: exit $rc, want 2 ($(cat "$T/err"))"
    grep -q -- "$pattern" "$T/err" || fail "$*: message: $(cat "$T/err"), want $pattern"
    [ ! -s "$T/out" ] || fail "$*: printed on stdout, so it ran: $(head -3 "$T/out")"
}

# D2: the same file twice.
refused "--json $T/same: is the same file as --csv $T/same" --csv "$T/same" --json "$T/same"
[ ! -e "$T/same" ] || fail "a refused run left $T/same behind"
ln -s same2.csv "$T/link2.json"
refused "is the same file as --csv" --csv "$T/same2.csv" --json "$T/link2.json"
echo '{}' >"$T/hard.json"
ln "$T/hard.json" "$T/hard.csv"
refused "is the same file as --csv" --csv "$T/hard.csv" --json "$T/hard.json"

# D6: where no file can be written.
refused "--json $T/missing/r.json: directory $T/missing: does not exist" --json "$T/missing/r.json"
refused "--csv $T/missing/r.csv: directory $T/missing: does not exist" --csv "$T/missing/r.csv"
refused "--json $T: is a directory" --json "$T"
refused "--csv $T/: is a directory" --csv "$T/"
: >"$T/file"
refused "Not a directory" --json "$T/file/r.json"
mkdir "$T/ro"
if [ "$(id -u)" -ne 0 ]; then
    chmod 555 "$T/ro"
    ro_ok=1
elif mount -t tmpfs -o ro,size=64k tmpfs "$T/ro" 2>/dev/null; then
    ro_ok=1 # root passes permission bits: a read-only mount stops it
else
    ro_ok=0
    echo "note: no read-only directory (root, no mount): skipping the permission case" >&2
fi
if [ "$ro_ok" -eq 1 ]; then
    refused "--json $T/ro/r.json: cannot create files in" --json "$T/ro/r.json"
    refused "--csv $T/ro/r.csv: cannot create files in" --csv "$T/ro/r.csv"
    [ "$(id -u)" -ne 0 ] || umount "$T/ro"
fi

# D3: devices and FIFOs are refused and stay what they are.
if mknod "$T/null" c 1 3 2>/dev/null; then
    refused "--json $T/null: is a character device, not a regular file" --json "$T/null"
    refused "--csv $T/null: is a character device" --csv "$T/null"
    [ -c "$T/null" ] || fail "the device node was replaced"
fi
mkfifo "$T/fifo"
start=$(date +%s)
refused "--csv $T/fifo: is a FIFO (named pipe), not a regular file (use --csv - " --csv "$T/fifo"
refused "--json $T/fifo: is a FIFO" --json "$T/fifo"
[ -p "$T/fifo" ] || fail "the FIFO was replaced"
# D4: a rank's /dev/stdout is mpirun's pipe or pty: refused, not hung on.
ct_mpirun 2 $SWEEP --csv /dev/stdout 2>"$T/err" </dev/null | cat >"$T/out"
grep -Eq -- "--csv /dev/stdout: is a (FIFO|character device)" "$T/err" ||
    fail "/dev/stdout: $(cat "$T/err")"
[ $(($(date +%s) - start)) -lt 60 ] || fail "refusing FIFOs took too long"

# D3: a symlink is followed, written through and kept.
echo old >"$T/real.json"
ln -s real.json "$T/link.json"
ln -s made.json "$T/dangling.json"
ln -s real.csv "$T/link.csv"
ct_mpirun 2 $SWEEP --json "$T/link.json" --csv "$T/link.csv" >/dev/null 2>"$T/err" ||
    fail "through symlinks: exit $? ($(cat "$T/err"))"
[ -L "$T/link.json" ] && [ -L "$T/link.csv" ] || fail "a symlink was replaced"
json_get "$T/real.json" schema | grep -q '^colltune-results/' || fail "JSON not written through the link"
[ "$(wc -l <"$T/real.csv")" -eq 9 ] || fail "CSV not written through the link"
ct_mpirun 2 $SWEEP --json "$T/dangling.json" >/dev/null 2>"$T/err" || fail "dangling: exit $?"
[ -L "$T/dangling.json" ] && json_get "$T/made.json" schema >/dev/null ||
    fail "a dangling symlink was not followed"

# D4: --csv - : CSV alone on stdout, the table on stderr; --no-table drops it.
ct_mpirun 2 $SWEEP --csv - >"$T/out" 2>"$T/err" || fail "--csv -: exit $?"
head -n 1 "$T/out" | grep -q '^run_id,time,' || fail "--csv -: no header on stdout"
[ "$(grep -c ',allreduce,' "$T/out")" -eq 8 ] || fail "--csv -: rows: $(cat "$T/out")"
grep -q '^#' "$T/out" && fail "--csv -: table lines on stdout"
check_table "$T/err"
ct_mpirun 2 $SWEEP --csv - --no-table >"$T/out" 2>"$T/err" || fail "--no-table: exit $?"
[ "$(grep -c ',allreduce,' "$T/out")" -eq 8 ] || fail "--no-table: rows"
[ ! -s "$T/err" ] || fail "--no-table: the table still printed: $(cat "$T/err")"

# D9: the last line lacks its newline: the rows start on a line of their own.
{ head -n 2 "$T/real.csv"; tail -n 1 "$T/real.csv" | tr -d '\n'; } >"$T/cut.csv"
ct_mpirun 2 $SWEEP --csv "$T/cut.csv" >/dev/null 2>"$T/err" || fail "append: exit $?"
[ "$(wc -l <"$T/cut.csv")" -eq 11 ] || fail "append: $(wc -l <"$T/cut.csv") lines, want 11"
awk -F, -v n="$(head -n 1 "$T/cut.csv" | awk -F, '{ print NF }')" \
    'NF != n { print "line " NR ": " NF " columns"; bad = 1 } END { exit bad }' "$T/cut.csv" ||
    fail "append merged rows"
exit 0
