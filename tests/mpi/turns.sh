#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: alone (compares medians and CPU times: tests/run-test.sh)
# App contexts take turns (issue 37, src/world_apps_mpi.h): one mpirun
# with several app contexts, "-np N collbench A : -np M -x VAR=V collbench
# B", runs each context's whole job on its own ranks, one context after
# the other, each writing its outputs as if launched alone.  `-x` is per
# context in Open MPI 4.1 (`--mca` is global), so a setting read once per
# process (a rules file) is in force in one context only: what a tune's
# A/B of its files needs without a launch per side.
. "$top_srcdir/tests/mpi/lib.sh"
# (a) runs in the background: a failed check kills what is left of it (any
# process whose command line holds $T).
trap 'for p in $(pgrep -f "$T/" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done; rm -rf "$T"' EXIT

# turns_mpirun ARGS... : mpirun as ct_mpirun runs it, with the contexts in
# ARGS ("-np 2 PROG ... : -np 2 PROG ...").
turns_mpirun() {
    timeout 120 "$MPIRUN" --allow-run-as-root --oversubscribe --bind-to none \
        --mca mpi_yield_when_idle 1 --mca orte_tmpdir_base "$T" --mca odls_base_sigkill_timeout 0 \
        "$@"
}
# PIDS: appends its process id to FILE, then becomes the rest of its
# arguments (paths as arguments, never in the script).
# shellcheck disable=SC2016 # expanded by the sh -c it is given to
PIDS='echo $$ >>"$1"; shift; exec "$@"'
epoch() { date -u -d "$(json_get "$1" "$2")" +%s; }
# cpu_ticks FILE: the CPU (user + system, in clock ticks) used so far by
# each process listed in FILE, on one line.
cpu_ticks() {
    while read -r p; do awk '{ printf "%d ", $14 + $15 }' "/proc/$p/stat"; done <"$1"
}
# wait_line FILE ERE: until a line of FILE matches (60 s at most).
wait_line() {
    i=0
    until grep -q "$2" "$1" 2>/dev/null; do
        i=$((i + 1))
        [ $i -lt 1200 ] || fail "no line '$2' in $1: $(cat "$1")"
        sleep 0.05
    done
}

# (a) Sizes and settings differ: np 3 (defaults) then np 2 forcing
# coll/tuned's ring allreduce and chain broadcast.  Each context writes its
# own CSV and JSON, of its own ranks and with its own settings in force.
# (b) The turns do not overlap: context 0 measures for 2.4 s (--min-time,
# 4 sizes x placements) and context 1 starts after it ended (the JSONs'
# start and end, to the second).  Waiting, context 1 takes no CPU from
# it: over context 0's allreduce (from its table's first line to its
# broadcast's, 1.2 s and more) each of context 1's ranks used under 5% of
# a CPU (measured 0-1 ticks of 150; a rank waiting in a blocking receive,
# which yields, took 22).
A="-C allreduce,broadcast -b 8 -e 8 --quiet --turns"
# shellcheck disable=SC2086
turns_mpirun -np 3 "$COLLBENCH" $A --min-time 0.6 --size-budget 0.6 \
    --csv "$T/a.csv" --json "$T/a.json" : \
    -np 2 -x OMPI_MCA_coll_tuned_use_dynamic_rules=1 -x OMPI_MCA_coll_tuned_allreduce_algorithm=4 \
    -x OMPI_MCA_coll_tuned_bcast_algorithm=2 \
    sh -c "$PIDS" sh "$T/pids" "$COLLBENCH" $A --size-budget 0.05 \
    --csv "$T/b.csv" --json "$T/b.json" >"$T/a.out" 2>"$T/a.err" &
launch=$!
wait_line "$T/a.out" '^# Collective test starting: allreduce'
t1=$(date +%s.%N) c1=$(cpu_ticks "$T/pids")
wait_line "$T/a.out" '^# Collective test starting: broadcast'
t2=$(date +%s.%N) c2=$(cpu_ticks "$T/pids")
wait $launch || fail "(a) exit $? ($(cat "$T/a.err"))"
[ "$(grep -c '^# Collective test starting: ' "$T/a.out")" -eq 4 ] || fail "(a) not 2 tables each"
for x in a b; do
    [ "$(json_get "$T/$x.json" status)" = ok ] || fail "(a) $x.json status"
    [ "$(awk -F, 'NR > 1' "$T/$x.csv" | wc -l)" -eq 4 ] || fail "(a) $x.csv: not 4 rows"
done
[ "$(json_get "$T/a.json" nranks)" = 3 ] || fail "(a) a.json nranks $(json_get "$T/a.json" nranks)"
[ "$(json_get "$T/b.json" nranks)" = 2 ] || fail "(a) b.json nranks $(json_get "$T/b.json" nranks)"
[ "$(awk -F, 'NR > 1 { print $9 }' "$T/b.csv" | sort -u)" = 2 ] || fail "(a) b.csv nranks"
[ "$(json_get "$T/a.json" fingerprint.mpi_t.coll_tuned_allreduce_algorithm)" = 0 ] ||
    fail "(a) context 0 has context 1's allreduce algorithm"
[ "$(json_get "$T/b.json" fingerprint.mpi_t.coll_tuned_allreduce_algorithm)" = 4 ] ||
    fail "(a) context 1's allreduce algorithm is not in force"
[ "$(json_get "$T/b.json" fingerprint.mpi_t.coll_tuned_bcast_algorithm)" = 2 ] ||
    fail "(a) context 1's bcast algorithm is not in force"
a0=$(epoch "$T/a.json" start_time) a1=$(epoch "$T/a.json" end_time)
b0=$(epoch "$T/b.json" start_time)
[ $((a1 - a0)) -ge 2 ] || fail "(b) context 0 took $((a1 - a0)) s, want 2 (the check needs it)"
[ "$b0" -ge "$a1" ] || fail "(b) context 1 started at $b0, before context 0 ended at $a1"
w=$(awk -v a="$t1" -v b="$t2" 'BEGIN { print b - a }')
echo "$c1 | $c2" | awk -v w="$w" -v hz="$(getconf CLK_TCK)" '{
    n = (NF - 1) / 2
    if (n != 2 || w < 0.5) { print "want 2 ranks and 0.5 s: " n " ranks, " w " s"; exit 1 }
    for (i = 1; i <= n; i++) if ($(n + 1 + i) - $i > 0.05 * w * hz) {
        print "a rank used " ($(n + 1 + i) - $i) " ticks of " (w * hz); exit 1 } }' >"$T/cpu" ||
    fail "(b) context 1 took CPU from context 0: $(cat "$T/cpu")"
echo "ok: (a) (b) context 0 $((a1 - a0)) s; context 1's CPU ticks over $w s: $c1-> $c2"

# (c) A slow choice planted in context 1 only: coll/tuned's chain broadcast
# in 16-byte segments, 1 MiB at np 2, measured 11-14 ms against 0.09-0.11
# ms (~100x; 27x at worst on a loaded machine), first by -x, then (d) by a
# rules file (read once per process: the case turns exist for), chain of
# fan-out 1 in 16-byte segments, 7-35 ms against 0.1 ms.  Context 1's
# fastest placement must read >= 5x context 0's slowest.
slow_check() {
    fast=$(awk -F, 'NR > 1 && $14 > m { m = $14 } END { print m }' "$T/$1.csv")
    slow=$(awk -F, 'NR > 1 && (m == "" || $14 < m) { m = $14 } END { print m }' "$T/$2.csv")
    awk -v f="$fast" -v s="$slow" 'BEGIN { exit !(f > 0 && s >= 5 * f) }' ||
        fail "($3) context 1 read $slow us, context 0 $fast us: the setting is not in context 1 alone"
    echo "ok: ($3) context 0 $fast us, context 1 $slow us"
}
B="-C broadcast -b 1M -e 1M -n 20 -w 2 --quiet --turns"
# shellcheck disable=SC2086
turns_mpirun -np 2 "$COLLBENCH" $B --csv "$T/c0.csv" : \
    -np 2 -x OMPI_MCA_coll_tuned_use_dynamic_rules=1 -x OMPI_MCA_coll_tuned_bcast_algorithm=2 \
    -x OMPI_MCA_coll_tuned_bcast_algorithm_segmentsize=16 \
    "$COLLBENCH" $B --csv "$T/c1.csv" >"$T/c.out" 2>"$T/c.err" ||
    fail "(c) exit $? ($(cat "$T/c.err"))"
slow_check c0 c1 c
# Open MPI 4.1's classic rules: broadcast (7), one comm size entry from 1
# up, one rule from 0 B: algorithm 2 (chain), fan-out 1, segment 16 B.
printf '1\n7\n1\n1 1\n0 2 1 16\n' >"$T/rules.conf"
# shellcheck disable=SC2086
turns_mpirun -np 2 "$COLLBENCH" $B --csv "$T/d0.csv" --json "$T/d0.json" : \
    -np 2 -x OMPI_MCA_coll_tuned_use_dynamic_rules=1 \
    -x OMPI_MCA_coll_tuned_dynamic_rules_filename="$T/rules.conf" \
    "$COLLBENCH" $B --csv "$T/d1.csv" --json "$T/d1.json" >"$T/d.out" 2>"$T/d.err" ||
    fail "(d) exit $? ($(cat "$T/d.err"))"
slow_check d0 d1 d
[ -z "$(json_get "$T/d0.json" fingerprint.mpi_t.coll_tuned_dynamic_rules_filename)" ] ||
    fail "(d) context 0 names the rules file"
[ "$(json_get "$T/d1.json" fingerprint.mpi_t.coll_tuned_dynamic_rules_filename)" = "$T/rules.conf" ] ||
    fail "(d) context 1 does not name the rules file"

# (e) A usage error in one context: that context's rank 0 says so, once,
# in its turn, and the launch exits 2 (mpirun reports a rank's non-zero
# exit), but the other context still ran and wrote its outputs: the
# failing context exits only after the last turn.  Either order.
E="-C allreduce -b 8 -e 8 --size-budget 0.02 --quiet --turns"
# shellcheck disable=SC2086
turns_mpirun -np 2 "$COLLBENCH" $E --csv "$T/e0.csv" --json "$T/e0.json" : \
    -np 2 "$COLLBENCH" $E --no-such-option --csv "$T/e1.csv" >"$T/e.out" 2>"$T/e.err"
rc=$?
[ $rc -eq 2 ] || fail "(e) bad option in context 1: exit $rc, want 2 ($(cat "$T/e.err"))"
[ "$(grep -c "^collbench: error: unknown option '--no-such-option'" "$T/e.err")" -eq 1 ] ||
    fail "(e) not one error line: $(cat "$T/e.err")"
[ "$(json_get "$T/e0.json" status)" = ok ] || fail "(e) context 0 wrote no JSON"
[ "$(awk -F, 'NR > 1' "$T/e0.csv" | wc -l)" -eq 2 ] || fail "(e) context 0's CSV"
[ ! -e "$T/e1.csv" ] || fail "(e) the failing context wrote a CSV"
# shellcheck disable=SC2086
turns_mpirun -np 2 "$COLLBENCH" $E -C bogus --csv "$T/f0.csv" : \
    -np 2 "$COLLBENCH" $E --csv "$T/f1.csv" --json "$T/f1.json" >"$T/f.out" 2>"$T/f.err"
rc=$?
[ $rc -eq 2 ] || fail "(e) bad -C in context 0: exit $rc, want 2 ($(cat "$T/f.err"))"
[ "$(grep -c "^collbench: error: -C: unknown collective 'bogus'" "$T/f.err")" -eq 1 ] ||
    fail "(e) not one error line: $(cat "$T/f.err")"
[ "$(json_get "$T/f1.json" status)" = ok ] || fail "(e) context 1 wrote no JSON after context 0's error"
[ "$(awk -F, 'NR > 1' "$T/f1.csv" | wc -l)" -eq 2 ] || fail "(e) context 1's CSV"
echo "ok: (e) a bad option in either context: exit 2, the other context's outputs written"

# (f) Three contexts, 1 : 2 : 1 ranks: the turn passes twice, each JSON of
# its own size, in launch order.
# shellcheck disable=SC2086
turns_mpirun -np 1 "$COLLBENCH" $E --json "$T/g0.json" : -np 2 "$COLLBENCH" $E --json "$T/g1.json" : \
    -np 1 "$COLLBENCH" $E --json "$T/g2.json" >"$T/g.out" 2>"$T/g.err" ||
    fail "(f) exit $? ($(cat "$T/g.err"))"
got=$(for i in 0 1 2; do json_get "$T/g$i.json" nranks; done | tr '\n' ' ')
[ "$got" = "1 2 1 " ] || fail "(f) nranks by context: $got"
prev=0
for i in 0 1 2; do
    s=$(epoch "$T/g$i.json" start_time)
    [ "$s" -ge "$prev" ] || fail "(f) context $i started before context $((i - 1)) ended"
    prev=$(epoch "$T/g$i.json" end_time)
done
echo "ok: (f) three contexts"

# (g) MPICH's Hydra, where make check built the MPICH collbench: contexts by
# `:`, per-context variables by -env; each context's JSON shows its own
# broadcast algorithm (MPI_T: binomial is 1, auto 0).  MPICH 4.0.2 has no
# slow enough choice at np 2 for a timing check (1.5x at most here).
if [ -x "$top_builddir/build-mpich/collbench" ] && [ -n "${MPIEXEC_HYDRA:-}" ]; then
    M="$top_builddir/build-mpich/collbench"
    # shellcheck disable=SC2086
    timeout 120 "$MPIEXEC_HYDRA" -launcher fork -n 2 "$M" $E --json "$T/h0.json" : \
        -n 1 -env MPIR_CVAR_BCAST_DEVICE_COLLECTIVE 0 -env MPIR_CVAR_BCAST_INTRA_ALGORITHM binomial \
        "$M" $E --json "$T/h1.json" >"$T/h.out" 2>"$T/h.err" || fail "(g) exit $? ($(cat "$T/h.err"))"
    [ "$(json_get "$T/h0.json" nranks)" = 2 ] || fail "(g) h0.json nranks"
    [ "$(json_get "$T/h1.json" nranks)" = 1 ] || fail "(g) h1.json nranks"
    [ "$(json_get "$T/h0.json" fingerprint.mpi_t.MPIR_CVAR_BCAST_INTRA_ALGORITHM)" = 0 ] ||
        fail "(g) context 0 has context 1's broadcast algorithm"
    [ "$(json_get "$T/h1.json" fingerprint.mpi_t.MPIR_CVAR_BCAST_INTRA_ALGORITHM)" = 1 ] ||
        fail "(g) context 1's broadcast algorithm is not in force"
    [ "$(epoch "$T/h1.json" start_time)" -ge "$(epoch "$T/h0.json" end_time)" ] ||
        fail "(g) context 1 started before context 0 ended"
    echo "ok: (g) MPICH, mpiexec.hydra -n 2 ... : -n 1 -env ..."
else
    echo "note: (g) skipped: no MPICH collbench (build-mpich/collbench) or mpiexec.hydra"
fi
# (h) --turns given to some contexts only: every process ends with exit 2,
# the error once; given to none, an MPMD launch is one job (the emulated
# hosts of shapes.sh are made that way): one JSON of 2 ranks.
N="-C allreduce -b 8 -e 8 --size-budget 0.02 --quiet"
# shellcheck disable=SC2086
turns_mpirun -np 1 "$COLLBENCH" $E --json "$T/i0.json" : -np 1 "$COLLBENCH" $N \
    --json "$T/i1.json" >"$T/i.out" 2>"$T/i.err"
rc=$?
[ "$rc" -eq 2 ] || fail "(h) mixed --turns: exit $rc ($(cat "$T/i.err"))"
[ "$(grep -c "^collbench: error: --turns reached 1 of the launch's 2 processes" "$T/i.err")" -eq 1 ] ||
    fail "(h) mixed --turns: the error once: $(cat "$T/i.err")"
[ ! -e "$T/i0.json" ] && [ ! -e "$T/i1.json" ] || fail "(h) mixed --turns: a job ran"
# shellcheck disable=SC2086
turns_mpirun -np 1 "$COLLBENCH" $N --json "$T/j.json" : -np 1 "$COLLBENCH" $N \
    --json "$T/j.json" >"$T/j.out" 2>"$T/j.err" || fail "(h) one job: exit $? ($(cat "$T/j.err"))"
[ "$(json_get "$T/j.json" nranks)" = 2 ] || fail "(h) without --turns the launch is not one job"
echo "ok: (h) --turns in some contexts refused; in none, one job"

exit 0
