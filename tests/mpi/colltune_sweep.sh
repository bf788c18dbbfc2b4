#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune sweep end to end, through the real mpirun and collbench:
#  - a value full of shell syntax (spaces, ';', $(...), quotes, backticks,
#    '*') reaches collbench literally and runs nothing: collbench records
#    NCCL_* variables in the JSON "environment", so it travels as one;
#  - a --mca parameter reaches MPI (the ranks see OMPI_MCA_...);
#  - the CSV has the rows, the table is the nccl-tests table;
#  - collbench's exit code passes through (2 for its bad input);
#  - a hung run is killed at --timeout (124), mpirun and every rank;
#  - SIGKILL of colltune itself still takes the run down.
. "$top_srcdir/tests/mpi/lib.sh"

ct_colltune_test
# lib.sh's mpirun settings; the session directory's name has a space.
mkdir -p "$T/tmp dir"
set -- --launcher-arg --oversubscribe --launcher-arg --bind-to --launcher-arg none \
    --launcher-arg --mca --launcher-arg orte_tmpdir_base --launcher-arg "$T/tmp dir"

hostile='a b;$(touch X)"q'"'"'`touch Y`*'
cd "$T" || fail "cd $T"
timeout 120 "$CT" sweep --out "$T/run" --np 2 "$@" --mca mpi_yield_when_idle=1 \
    --mca coll_tuned_use_dynamic_rules=1 --env "NCCL_DEBUG_SUBSYS=$hostile" --timeout 100 \
    -- -C allreduce -b 8 -e 64 -f 8 --quiet >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] || fail "sweep: exit $rc ($(cat "$T/err"))"
for f in results.csv results.json collbench.txt collbench.err launch.json; do
    [ -f "$T/run/$f" ] || fail "no $f in --out"
done
# 8 and 64 bytes, out-of-place and in-place, after the header.
[ "$(awk -F, 'NR > 1 && $4 == "allreduce" && $9 == 2' "$T/run/results.csv" | wc -l)" -eq 4 ] ||
    fail "CSV rows: $(cat "$T/run/results.csv")"
check_table "$T/run/collbench.txt"
got=$(json_get "$T/run/results.json" environment.NCCL_DEBUG_SUBSYS) || fail "no NCCL_DEBUG_SUBSYS in JSON"
[ "$got" = "$hostile" ] || fail "the value changed on the way: '$got', want '$hostile'"
[ ! -e "$T/X" ] && [ ! -e "$T/Y" ] || fail "a hostile value was executed"
[ "$(json_get "$T/run/results.json" environment.OMPI_MCA_coll_tuned_use_dynamic_rules)" = 1 ] ||
    fail "--mca did not reach MPI: $(json_get "$T/run/results.json" environment)"
[ "$(json_get "$T/run/launch.json" outcome)" = ok ] || fail "launch.json outcome"
[ "$(json_get "$T/run/launch.json" env.NCCL_DEBUG_SUBSYS)" = "$hostile" ] || fail "launch.json env"
grep -q 'colltune sweep: ok (exit 0)' "$T/err" || fail "summary: $(cat "$T/err")"

# A second sweep into the same directory is refused; --force replaces.
"$CT" sweep --out "$T/run" --np 2 "$@" -- -C allreduce -b 8 -e 8 --quiet 2>"$T/err"
[ $? -eq 2 ] || fail "reuse of --out not refused"

# The --launcher form; collbench's own bad input comes back as 2.
timeout 120 "$CT" sweep --out "$T/bad" \
    --launcher "$MPIRUN -np 2 --oversubscribe --bind-to none --mca mpi_yield_when_idle 1" \
    --launcher-arg --mca --launcher-arg orte_tmpdir_base --launcher-arg "$T/tmp dir" \
    -- -C nosuchcoll >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "collbench bad input: exit $rc, want 2 ($(cat "$T/err"))"
grep -q 'nosuchcoll' "$T/bad/collbench.err" || fail "collbench.err: $(cat "$T/bad/collbench.err")"

# A collective that never returns (the fault shim hangs rank 1): the
# timeout kills the trial's whole session, mpirun and both ranks.
shim="$top_builddir/tests/tools/.libs/libfault_shim.so"
[ -f "$shim" ] || fail "shim not built: $shim"
start=$(date +%s)
timeout 120 "$CT" sweep --out "$T/hang" --np 2 "$@" --mca mpi_yield_when_idle=1 \
    --env "LD_PRELOAD=$shim" --env FAULT_SHIM_MODE=hang --timeout 3 --grace 2 \
    -- -C allreduce -b 1K -e 1K --quiet >"$T/out" 2>"$T/err"
rc=$?
elapsed=$(($(date +%s) - start))
[ "$rc" -eq 124 ] || fail "hang: exit $rc, want 124 ($(cat "$T/err"))"
[ "$elapsed" -lt 30 ] || fail "hang: took ${elapsed}s"
sid=$(json_get "$T/hang/launch.json" session) || fail "no session in launch.json"
# live_in_session SID: live (not zombie) processes of session SID, from
# /proc/PID/stat ("pid (comm) state ppid pgrp session ...").
live_in_session() {
    want=$1
    for f in /proc/[0-9]*/stat; do
        s=$(cat "$f" 2>/dev/null) || continue
        rest=${s##*) }
        # shellcheck disable=SC2086
        set -- $rest
        [ $# -ge 4 ] && [ "$4" = "$want" ] && [ "$1" != Z ] && echo "${f#/proc/}"
    done
}
left=$(live_in_session "$sid")
[ -z "$left" ] || fail "processes of the timed-out trial left: $left"
# Neither mpirun nor a rank of this run, by its output path.
if command -v pgrep >/dev/null 2>&1; then
    pgrep -f "$T/hang/results" >/dev/null && fail "a process of the hung run survived: $(pgrep -af "$T/hang/results")"
fi

# SIGKILL of colltune itself (nothing can be passed on): mpirun gets
# SIGTERM from the kernel (PR_SET_PDEATHSIG) and takes its ranks down.
"$CT" sweep --out "$T/k9" --np 2 "$@" --mca mpi_yield_when_idle=1 \
    --env "LD_PRELOAD=$shim" --env FAULT_SHIM_MODE=hang --timeout 100 \
    -- -C allreduce -b 1K -e 1K --quiet >"$T/out" 2>"$T/err" &
ct=$!
i=0
while [ ! -s "$T/k9/launch.json" ] && ! pgrep -f "$T/k9/results" >/dev/null && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
sleep 1
kill -9 "$ct"
wait "$ct" 2>/dev/null
i=0
while pgrep -f "$T/k9/results" >/dev/null && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
pgrep -f "$T/k9/results" >/dev/null && fail "after SIGKILL of colltune, its run survived: $(pgrep -af "$T/k9/results")"
exit 0
