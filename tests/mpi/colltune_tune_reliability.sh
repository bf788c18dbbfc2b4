#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune tune's reliability (issue 15), through the real mpirun and
# collbench:
#  - E8: a reason every trial shares (collbench arguments it refuses)
#    stops the tune after the defaults' first trial, with collbench's exit
#    code (2) and its own message, instead of "done" after every trial
#    failed; a launcher that cannot start the ranks (exit 1 and no
#    wrong row) is a failure (exit 3), not collbench's "wrong results";
#  - E3: a second tune (or --resume) of a directory another tune holds
#    exits 2 naming its pid, and adds nothing to its journal.
. "$top_srcdir/tests/mpi/lib.sh"

ct_colltune_test
mkdir -p "$T/tmp"
set -- --np 2 --launcher-arg --oversubscribe --launcher-arg --bind-to --launcher-arg none \
    --launcher-arg --mca --launcher-arg orte_tmpdir_base --launcher-arg "$T/tmp" \
    --mca mpi_yield_when_idle=1 --timeout 60
space="$top_srcdir/tests/mpi/tune_tiny.ini"

# --- E8 ---
timeout 120 "$CT" tune --space "$space" --out "$T/bad" "$@" --strategy exhaustive \
    -- --bogus-flag -b 8 -e 8 >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "bad collbench arguments: exit $rc, want 2 ($(cat "$T/err"))"
grep -qF "collbench: error: unknown option '--bogus-flag'" "$T/err" || fail "collbench's message not shown: $(cat "$T/err")"
grep -q "the defaults' trial failed" "$T/err" || fail "no reason to stop: $(cat "$T/err")"
[ "$(wc -l <"$T/bad/journal.jsonl")" -eq 1 ] || fail "ran on after the defaults failed: $(cat "$T/bad/journal.jsonl")"
grep -q 'done:' "$T/err" && fail "said done: $(cat "$T/err")"
# More ranks than slots: mpirun cannot start them and exits 1, which is
# not collbench's "wrong results" (no row says #wrong): the tune stops
# after the defaults' trial with exit 3, as sweep does (it said "done",
# exit 0, after every trial failed).
timeout 120 "$CT" tune --space "$space" --out "$T/slots" --np 64 --timeout 60 --strategy exhaustive \
    -- -b 8 -e 8 >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 3 ] || fail "--np 64 on 2 slots: exit $rc, want 3 ($(cat "$T/err"))"
grep -q "the launch failed (exit 1 with no wrong result" "$T/err" || fail "--np 64: $(cat "$T/err")"
[ "$(wc -l <"$T/slots/journal.jsonl")" -eq 1 ] || fail "--np 64 ran on: $(cat "$T/slots/journal.jsonl")"
# Wrong results at the defaults themselves (the fault shim corrupts every
# allreduce): nothing to tune against; exit 1 after the first trial (it
# said "nothing decided", exit 0).
shim="$top_builddir/tests/tools/.libs/libfault_shim.so"
timeout 120 "$CT" tune --space "$space" --out "$T/wrongdef" "$@" --strategy exhaustive \
    --env "LD_PRELOAD=$shim" --env FAULT_SHIM_MODE=corrupt -- -b 1K -e 1K >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 1 ] || fail "wrong results at the defaults: exit $rc, want 1 ($(cat "$T/err"))"
grep -q "the defaults' trial gave wrong results" "$T/err" || fail "wrong defaults: $(cat "$T/err")"
[ "$(wc -l <"$T/wrongdef/journal.jsonl")" -eq 1 ] || fail "wrong defaults ran on: $(cat "$T/wrongdef/journal.jsonl")"
timeout 120 "$CT" sweep --out "$T/sweep-slots" --np 64 --timeout 60 -- -C allreduce -b 8 -e 8 \
    >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 3 ] || fail "sweep --np 64 on 2 slots: exit $rc, want 3 ($(cat "$T/err"))"
grep -q "the launch failed: exit 1 with no wrong result" "$T/err" || fail "sweep --np 64: $(cat "$T/err")"

# --- E3 ---
# A collbench that waits 3 s before it starts keeps the first tune busy.
ct_slow_collbench "$T/slow-collbench" 3
D="$T/busy"
timeout 120 "$CT" tune --space "$space" --out "$D" "$@" --strategy exhaustive --launches 1 \
    --collbench "$T/slow-collbench" -- -b 64K -e 64K >/dev/null 2>"$T/err1" &
first=$!
ct_wait_lock "$D"
for extra in "" --resume; do
    timeout 60 "$CT" tune --space "$space" --out "$D" "$@" --strategy exhaustive --launches 1 $extra \
        -- -b 64K -e 64K >/dev/null 2>"$T/err2"
    rc=$?
    [ "$rc" -eq 2 ] || fail "a second tune $extra into a busy --out: exit $rc, want 2 ($(cat "$T/err2"))"
    grep -qF "$D is in use by pid " "$T/err2" || fail "second tune $extra: $(cat "$T/err2")"
done
wait "$first"
rc1=$?
[ "$rc1" -eq 0 ] || fail "the first tune: exit $rc1 ($(cat "$T/err1"))"
# Each trial once: no line twice.
[ "$(sort "$D/journal.jsonl" | uniq -d | wc -l)" -eq 0 ] || fail "a journal line twice"
exit 0
