#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune sweep's reliability (issue 15), through the real mpirun and
# collbench:
#  - E13: a missing --hostfile and a --collbench that is a directory are
#    exit 2 with the reason, before any launch;
#  - E6: --force keeps the earlier results until the new ones exist: a run
#    that fails leaves them as they were, a run that measures replaces them;
#  - K2 (issue 26): the results set aside survive --force runs killed with
#    SIGKILL, and a failing run brings back that pair, whole;
#  - E3: two sweeps into one --out at once: the second exits 2 naming the
#    first one's pid, and the first one's results hold one run's rows.
. "$top_srcdir/tests/mpi/lib.sh"

ct_colltune_test
set -- --launcher-arg --oversubscribe --launcher-arg --bind-to --launcher-arg none \
    --launcher-arg --mca --launcher-arg orte_tmpdir_base --launcher-arg "$T" \
    --mca mpi_yield_when_idle=1 --timeout 100
small="-C allreduce -b 8 -e 64 -f 8 --quiet"

# --- E13 ---
"$CT" sweep --out "$T/e13" --np 2 --hostfile "$T/no-such-hostfile" "$@" -- $small >/dev/null 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "missing --hostfile: exit $rc, want 2 ($(cat "$T/err"))"
grep -qF -- "--hostfile $T/no-such-hostfile: No such file" "$T/err" || fail "missing --hostfile: $(cat "$T/err")"
mkdir "$T/adir"
"$CT" sweep --out "$T/e13" --np 2 --collbench "$T/adir" "$@" -- $small >/dev/null 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "--collbench a directory: exit $rc, want 2 ($(cat "$T/err"))"
grep -qF -- "--collbench $T/adir: is a directory, not a regular file" "$T/err" || fail "--collbench a directory: $(cat "$T/err")"
[ ! -e "$T/e13/launch.json" ] || fail "E13: a launch happened"

# --- E6 ---
D="$T/run"
timeout 120 "$CT" sweep --out "$D" --np 2 "$@" -- $small >/dev/null 2>"$T/err" ||
    fail "first sweep: $(cat "$T/err")"
good=$(cksum <"$D/results.csv")
goodj=$(cksum <"$D/results.json")
timeout 120 "$CT" sweep --out "$D" --force --np 2 "$@" -- -C nosuchcoll >/dev/null 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "a failing --force run: exit $rc, want collbench's 2 ($(cat "$T/err"))"
[ "$(cksum <"$D/results.csv")" = "$good" ] || fail "a failed --force run lost the earlier results.csv"
[ "$(cksum <"$D/results.json")" = "$goodj" ] || fail "a failed --force run lost the earlier results.json"
grep -q 'earlier results' "$T/err" || fail "a failed --force run does not say the results were kept: $(cat "$T/err")"
timeout 120 "$CT" sweep --out "$D" --force --np 2 "$@" -- -C allreduce -b 8 -e 8 --quiet \
    >/dev/null 2>"$T/err" || fail "a good --force run: $(cat "$T/err")"
[ "$(awk -F, 'NR > 1' "$D/results.csv" | wc -l)" -eq 2 ] || fail "--force: want the new run's 2 rows: $(cat "$D/results.csv")"
ls -A "$D" | grep -q prev && fail "--force left the earlier results aside: $(ls -A "$D")"

# --- K2 (issue 26) ---
# --force runs SIGKILLed after setting the good results aside, each leaving
# a cut CSV: the set-aside pair survives them all; a run without --force
# is refused naming it; a failing --force run brings back that pair, whole.
good=$(cksum <"$D/results.csv")
goodj=$(cksum <"$D/results.json")
printf '#!/bin/sh\nexec sleep 60\n' >"$T/hang-collbench"
chmod +x "$T/hang-collbench"
for kill_no in 1 2; do
    "$CT" sweep --out "$D" --force --np 2 --collbench "$T/hang-collbench" "$@" -- $small \
        >/dev/null 2>"$T/err" &
    killed=$!
    i=0
    until [ ! -e "$D/results.csv" ] && [ ! -e "$D/results.json" ]; do
        i=$((i + 1))
        [ "$i" -lt 200 ] || fail "K2: --force run $kill_no never set the results aside"
        sleep 0.05
    done
    sleep 0.5
    kill -9 "$killed"
    wait "$killed" 2>/dev/null
    printf 'cut,run,%s\n' "$kill_no" >"$D/results.csv" # what a killed collbench leaves
done
"$CT" sweep --out "$D" --np 2 "$@" -- $small >/dev/null 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "K2: no --force after a killed --force run: exit $rc, want 2 ($(cat "$T/err"))"
grep -qF "interrupted --force run set aside" "$T/err" || fail "K2: no --force: $(cat "$T/err")"
timeout 120 "$CT" sweep --out "$D" --force --np 2 "$@" -- -C nosuchcoll >/dev/null 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "K2: a failing --force run: exit $rc, want 2 ($(cat "$T/err"))"
[ "$(cksum <"$D/results.csv")" = "$good" ] || fail "K2: the earlier results.csv is lost: $(ls -A "$D"; cat "$T/err")"
[ "$(cksum <"$D/results.json")" = "$goodj" ] || fail "K2: the earlier results.json is lost: $(ls -A "$D")"
grep -q 'earlier results' "$T/err" || fail "K2: the kept results are not named: $(cat "$T/err")"
ls -A "$D" | grep -q prev && fail "K2: a set-aside copy is left: $(ls -A "$D")"

# --- E3 ---
# A collbench that waits 4 s before it starts, so that the first sweep is
# still running when the second one comes.
ct_slow_collbench "$T/slow-collbench" 4
C="$T/conc"
timeout 120 "$CT" sweep --out "$C" --np 2 --collbench "$T/slow-collbench" "$@" -- $small \
    >/dev/null 2>"$T/err1" &
first=$!
ct_wait_lock "$C"
timeout 120 "$CT" sweep --out "$C" --np 2 "$@" -- $small >/dev/null 2>"$T/err2"
rc=$?
wait "$first"
rc1=$?
[ "$rc" -eq 2 ] || fail "a second sweep into a busy --out: exit $rc, want 2 ($(cat "$T/err2"))"
grep -qF "$C is in use by pid " "$T/err2" || fail "second sweep: $(cat "$T/err2")"
[ "$rc1" -eq 0 ] || fail "the first sweep: exit $rc1 ($(cat "$T/err1"))"
[ "$(awk -F, 'NR > 1' "$C/results.csv" | wc -l)" -eq 4 ] || fail "two runs' rows mixed: $(cat "$C/results.csv")"
exit 0
