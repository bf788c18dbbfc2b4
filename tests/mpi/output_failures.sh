#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# Output failures during and at the end of a run:
#   D1  a full disk under the CSV is exit 3 naming the file and the reason;
#       the rows written before stay, whole
#   D10 the JSON's temporary file (beside the target, pid in its name) is
#       gone after a failed write and after a signal sent while it exists;
#       a stale one from a killed run does not block a later run
# The full disk is a tmpfs of one page where mount works (root), else the
# io_shim's ENOSPC after a few rows.
. "$top_srcdir/tests/mpi/lib.sh"

shim="$top_builddir/tests/tools/.libs/libio_shim.so"
[ -f "$shim" ] || fail "shim not built: $shim"
SWEEP="-C allreduce -b 8 -e 1M -f 2 --size-budget 0.02 --quiet"

mkdir "$T/small"
if mount -t tmpfs -o size=4k tmpfs "$T/small" 2>/dev/null; then
    trap 'umount "$T/small" 2>/dev/null; rm -rf "$T"' EXIT
    full_args=
else
    echo "note: cannot mount a tmpfs; a full disk is simulated by tests/tools/io_shim.c" >&2
    full_args="-x LD_PRELOAD=$shim -x IO_SHIM_FULL=/small/r.csv -x IO_SHIM_FULL_AFTER=3000"
fi

# D1: 36 rows do not fit in 4 KiB.
CT_MPIRUN_ARGS="$full_args" ct_mpirun 2 $SWEEP --csv "$T/small/r.csv" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 3 ] || fail "full disk: exit $rc, want 3 ($(cat "$T/err"))"
grep -q -- "--csv $T/small/r.csv: write failed: No space left on device" "$T/err" ||
    fail "full disk message: $(cat "$T/err")"
rows=$(grep -c ',allreduce,' "$T/small/r.csv")
[ "$rows" -gt 0 ] && [ "$rows" -lt 36 ] || fail "full disk: $rows rows kept"
[ "$(tail -c 1 "$T/small/r.csv" | od -An -c | tr -d ' ')" = '\n' ] || fail "a half row was left"
awk -F, 'NR == 1 { n = NF } NF != n { bad = 1 } END { exit bad }' "$T/small/r.csv" ||
    fail "a partial row was left"
grep -q 'Collective test starting' "$T/out" || fail "the table did not start"
# Every rank stops at the size whose row could not be written (rank 0
# alone sees the failure; they agree on it): the table ends there, not
# after all 18 sizes of the sweep.
sizes=$(grep -c '^ *[0-9]' "$T/out")
[ "$sizes" -lt 18 ] || fail "full disk: the sweep went on to all $sizes sizes after the failure"
rm -f "$T/small/r.csv"

# D10: a JSON that cannot be written leaves the old file and no temporary.
if [ -z "$full_args" ]; then
    echo old >"$T/small/r.json"
    head -c 3000 /dev/zero >"$T/small/filler" 2>/dev/null
    ct_mpirun 2 $SWEEP --json "$T/small/r.json" >/dev/null 2>"$T/err"
    rc=$?
    [ "$rc" -eq 3 ] || fail "JSON on a full disk: exit $rc, want 3 ($(cat "$T/err"))"
    grep -q -- "--json $T/small/r.json: .*No space left on device" "$T/err" ||
        fail "JSON full disk message: $(cat "$T/err")"
    [ "$(cat "$T/small/r.json")" = old ] || fail "the old JSON was damaged"
    ls "$T/small" | grep -q '\.tmp$' && fail "temporary file left: $(ls "$T/small")"
fi

# D10: TERM to rank 0 while the temporary file exists (the shim holds the
# rename for 3 s and says when): the signal waits for the rename, so the
# document is whole and no temporary file is left.
ct_mpirun_bg() {
    CT_MPIRUN_ARGS="-x LD_PRELOAD=$shim -x IO_SHIM_SLOW_RENAME=/sig.json -x IO_SHIM_READY=$T/ready" \
        ct_mpirun 2 -C allreduce -b 8 -e 8 --size-budget 0.02 --quiet --json "$T/sig.json" \
        >/dev/null 2>"$T/sig.err"
}
ct_mpirun_bg &
job=$!
waited=0
while [ ! -s "$T/ready" ] && [ "$waited" -lt 600 ]; do
    sleep 0.1
    waited=$((waited + 1))
done
[ -s "$T/ready" ] || fail "the run never reached the rename ($(cat "$T/sig.err"))"
ls "$T" | grep -q '^sig\.json\..*\.[0-9][0-9]*\.tmp$' || fail "no temporary file with host and pid beside the target"
kill -TERM "$(cat "$T/ready")"
wait "$job"
ls "$T" | grep -q '\.tmp$' && fail "temporary file left after TERM: $(ls "$T")"
json_get "$T/sig.json" results.# >/dev/null || fail "the JSON is not whole after TERM"

# D10: a stale temporary file from a killed run is no obstacle, and the
# next run on its host removes it: a dead pid of this host's goes; a live
# pid's (this shell) and another host's stay.
host=$(uname -n | tr -c 'A-Za-z0-9._\n-' _)
sleep 0 &
dead=$!
wait "$dead"
echo '{"trunc' >"$T/stale.json.$host.$dead.tmp"
echo '{"live' >"$T/stale.json.$host.$$.tmp"
echo '{"other' >"$T/stale.json.otherhost-x.$dead.tmp"
ct_mpirun 2 -C allreduce -b 8 -e 8 --size-budget 0.02 --quiet --json "$T/stale.json" \
    >/dev/null 2>"$T/err" || fail "beside a stale temporary: exit $? ($(cat "$T/err"))"
json_get "$T/stale.json" schema >/dev/null || fail "no JSON beside a stale temporary"
[ -e "$T/stale.json.$host.$dead.tmp" ] && fail "a dead run's temporary file was left"
[ -e "$T/stale.json.$host.$$.tmp" ] || fail "a live process' temporary file was removed"
[ -e "$T/stale.json.otherhost-x.$dead.tmp" ] || fail "another host's temporary file was removed"
exit 0
