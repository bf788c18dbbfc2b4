#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# MPICH's algorithm CVARs searched in-process, for real (MPICH 4.0.2, ch4,
# through mpiexec.hydra).  collbench --config writes
# MPIR_CVAR_<COLL>_INTRA_ALGORITHM through MPI_T by name, and MPICH uses it
# at the next call: with MPIR_CVAR_COLLECTIVE_FALLBACK=error, allgather's
# recursive_doubling (power-of-two communicators only) is refused at 3
# ranks in its configuration and not before (exit 4, the launch's other
# configurations measured), and tuner/spaces/mpich-coll.ini searches
# allgather in one shared launch with that value refused.  Then a planted
# bad site default (smp allreduce, about 4x slower at 256 KiB-1 MiB here, with
# MPIR_CVAR_ALLREDUCE_DEVICE_COLLECTIVE=0 so that ch4's shared-memory path
# does not bypass the choice on one node) is undone by colltune tune
# --space mpich-coll in shared launches (the fallback guard written per
# configuration, so the planted smp, which cannot run under it, is the
# baseline as the site has it; the guard is never a choice), and the
# choice reads back as in force through --cvars.  np 2 for the tune: MPICH's waiting ranks spin, and 2 ranks on
# these 2 cores keep the timings clean.  SKIP without MPICH.
. "$top_srcdir/tests/mpi/lib.sh"
ct_mpich_collbench
ct_colltune_test

ag=MPIR_CVAR_ALLGATHER_INTRA_ALGORITHM
ar=MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM
short="--sync barrier -n 3 -w 1"

# An unknown name: exit 2, naming the choices MPICH's description lists.
# shellcheck disable=SC2086
ct_mpich_run 2 -C allreduce -b 8 -e 8 $short --config "$ar=ring" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "--config $ar=ring: exit $rc, want 2"
grep -q "$ar=ring: not one of its choices (auto, nb, smp, recursive_doubling, reduce_scatter_allgather)" \
    "$T/err" || fail "--config unknown name: $(cat "$T/err")"

# The write takes effect at the next call: configuration 0 (auto) runs,
# configuration 1 (recursive_doubling at 3 ranks) is refused by MPICH
# (**collalgo, before any message moves): exit 4, the refusal recorded once
# for that configuration, and configuration 2 (ring) measured in the same
# launch, reading back ring (4).
# shellcheck disable=SC2086
MPIR_CVAR_COLLECTIVE_FALLBACK=error ct_mpich_run 3 -C allgather -b 3K -e 6K -f 2 $short \
    --config "$ag=recursive_doubling" --config "$ag=ring" --json "$T/rd.json" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 4 ] || fail "allgather recursive_doubling at 3 ranks: exit $rc, want 4 ($(head -5 "$T/err"))"
grep -q '^# Configuration 0' "$T/out" && grep -A1 '^# Configuration 0' "$T/out" | grep -q ' 3072 ' ||
    fail "configuration 0 did not run first: $(cat "$T/out")"
for k in 0 2; do
    for b in 3072 6144; do
        grep -A1 "^# Configuration $k:" "$T/out" | grep -q "^ *$b " ||
            fail "configuration $k not measured at $b B beside the refusal: $(cat "$T/out")"
    done
done
! grep -q '^# Configuration 1:' "$T/out" || fail "configuration 1 has rows: $(cat "$T/out")"
grep -q '^#  allgather float (configuration 1): refused by the library: MPI_Allgather: User set collective algorithm is not usable' \
    "$T/out" || fail "no refusal line in the table: $(cat "$T/out")"
[ "$(grep -c 'refused at' "$T/err")" = 1 ] && grep -q 'configuration 1): refused at 3072 B' "$T/err" ||
    fail "the refusal is not reported once, at 3072 B: $(cat "$T/err")"
! grep -q 'failed at' "$T/err" || fail "a refusal printed as a failure: $(cat "$T/err")"
[ "$(json_get "$T/rd.json" refused.#)" = 1 ] &&
    [ "$(json_get "$T/rd.json" refused.0.config)" = 1 ] &&
    [ "$(json_get "$T/rd.json" refused.0.label)" = "$ag=recursive_doubling" ] &&
    [ "$(json_get "$T/rd.json" refused.0.bytes)" = 3072 ] ||
    fail "JSON refused: $(json_get "$T/rd.json" refused)"
json_get "$T/rd.json" refused.0.message | grep -q 'User set collective algorithm is not usable' ||
    fail "JSON refusal message: $(json_get "$T/rd.json" refused.0.message)"
[ "$(json_get "$T/rd.json" "configs.2.cvars.$ag.value")" = 4 ] ||
    fail "configuration ring does not read back 4"

# reduce_scatter_allgather (count >= the largest power of two <= size) in
# force around collbench's own one-element allreduces: padded, they run.
# shellcheck disable=SC2086
MPIR_CVAR_COLLECTIVE_FALLBACK=error MPIR_CVAR_ALLREDUCE_DEVICE_COLLECTIVE=0 ct_mpich_run 3 \
    -C allreduce -b 1K -e 1K $short --config "$ar=reduce_scatter_allgather" >"$T/out" 2>"$T/err" ||
    fail "allreduce reduce_scatter_allgather under COLLECTIVE_FALLBACK=error: exit $? ($(head -5 "$T/err"))"
grep -A1 '^# Configuration 1:' "$T/out" | grep -q '^ *1024 ' ||
    fail "configuration 1 (reduce_scatter_allgather) not measured: $(cat "$T/out")"

# mpich-coll.ini as shipped, searched in-process for allgather and
# alltoall at 3 ranks: both collectives' values share one launch (each a
# --config-for of its collective, the fallback guard written with each
# forced value through MPI_T); allgather's recursive_doubling is recorded refused there and
# never chosen, the others measured; alltoall's four algorithms are refused
# in place (brucks, pairwise, scattered: after their out-of-place row) or
# out of place (pairwise_sendrecv_replace), so only the defaults compare.
out="$T/coll"
timeout 120 "$CT" tune --space "$top_srcdir/tuner/spaces/mpich-coll.ini" --out "$out" \
    --launcher "$MPIEXEC_HYDRA -launcher fork" --np 3 --collbench "$MPICH_COLLBENCH" \
    --verify-pairs 0 --strategy exhaustive --launches 1 --collectives allgather,alltoall \
    -- -b 3K -e 3K --sync barrier -n 3 -w 1 >"$T/coll.out" 2>&1 ||
    fail "tune mpich-coll: exit $? ($(tail -5 "$T/coll.out"))"
grep -q 'launches measured several configurations side by side' "$out/report.md" ||
    fail "tune mpich-coll: not searched in-process: $(cat "$T/coll.out")"
! grep -q 'run one per launch' "$T/coll.out" || fail "tune mpich-coll: a shared launch failed"
[ "$(json_get "$out/report.json" launches_shared)" = 1 ] &&
    [ "$(json_get "$out/report.json" trials_run)" = 9 ] &&
    [ "$(json_get "$out/report.json" trials_failed)" = 0 ] ||
    fail "tune mpich-coll: not 9 trials in 1 shared launch: $(cat "$T/coll.out")"
[ "$(json_get "$out/report.json" refused.#)" = 5 ] &&
    [ "$(grep -c "^- scope alltoall, .*: alltoall float refused" "$out/report.md")" = 4 ] ||
    fail "tune mpich-coll: not 5 refusals: $(json_get "$out/report.json" refused)"
grep -q "^- scope allgather, $ag=recursive_doubling .*: allgather float refused" "$out/report.md" ||
    fail "tune mpich-coll: recursive_doubling not recorded refused: $(cat "$out/report.md")"
[ "$(json_get "$out/report.json" cells.#)" = 2 ] || fail "tune mpich-coll: not 2 cells"
i=0
while [ "$i" -lt 2 ]; do
    case "$(json_get "$out/report.json" "cells.$i.collective"):$(json_get "$out/report.json" "cells.$i.best_config")" in
    allgather:*recursive_doubling* | alltoall:*ALGORITHM*)
        fail "tune mpich-coll: a refused configuration is the best: $(grep -A3 '^| collective' "$out/report.md")" ;;
    esac
    i=$((i + 1))
done
# allgather's other three configurations measured: 3K in both placements.
for c in "$out"/trials/shared-*-s0/results.csv; do
    j=${c%.csv}.json
    k=0
    while [ "$k" -lt "$(json_get "$j" refused.#)" ] &&
        [ "$(json_get "$j" refused.$k.label)" != "allgather:$ag=recursive_doubling,MPIR_CVAR_COLLECTIVE_FALLBACK=error" ]; do
        k=$((k + 1))
    done
    [ "$(grep -c ',allgather,' "$c")" = 6 ] && [ "$k" -lt "$(json_get "$j" refused.#)" ] ||
        fail "$j: not 3 configurations measured and recursive_doubling refused"
done
n=$(json_get "$out/report.json" choices.#)
i=0
while [ "$i" -lt "$n" ]; do
    case "$(json_get "$out/report.json" "choices.$i.value")" in
    recursive_doubling | brucks | pairwise* | scattered) fail "tune mpich-coll chose a refused algorithm" ;;
    esac
    i=$((i + 1))
done

# The planted site default, undone by the tune.
out="$T/tune"
MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=smp MPIR_CVAR_ALLREDUCE_DEVICE_COLLECTIVE=0 \
    timeout 120 "$CT" tune --space mpich-coll --out "$out" \
    --launcher "$MPIEXEC_HYDRA -launcher fork" --np 2 --collbench "$MPICH_COLLBENCH" \
    --verify-pairs 0 --strategy exhaustive --launches 5 --collectives allreduce \
    -- -b 256K -e 1M -f 4 --sync barrier -n 20 -w 2 >"$T/tune.out" 2>&1 ||
    fail "tune: exit $? ($(tail -5 "$T/tune.out"))"
grep -q 'launches measured several configurations side by side' "$out/report.md" ||
    fail "tune: the algorithm was not searched in-process"
# Every shared launch's configuration 0 read back the planted smp (2).
for j in "$out"/trials/allreduce-*-[0-9]-s0/results.json; do
    [ "$(json_get "$j" "configs.0.cvars.$ar.value")" = 2 ] || fail "$j: start-up is not smp"
done
n=$(json_get "$out/report.json" choices.#)
choice=
i=0
while [ "$i" -lt "$n" ]; do
    if [ "$(json_get "$out/report.json" "choices.$i.name")" = "$ar" ]; then
        choice=$(json_get "$out/report.json" "choices.$i.value")
        [ "$(json_get "$out/report.json" "choices.$i.significant")" = true ] ||
            fail "tune: the choice is not significant"
    fi
    i=$((i + 1))
done
case "$choice" in
recursive_doubling | reduce_scatter_allgather | auto) ;;
'') fail "tune made no allreduce algorithm choice over the planted smp: $(grep '^- ' "$out/report.md")" ;;
*) fail "tune chose '$choice' over the planted smp: $(grep -A4 '^| collective' "$out/report.md")" ;;
esac

# The guard is only ever set while measuring: no choice of it.
i=0
while [ "$i" -lt "$n" ]; do
    [ "$(json_get "$out/report.json" "choices.$i.name")" = MPIR_CVAR_COLLECTIVE_FALLBACK ] &&
        fail "tune: MPIR_CVAR_COLLECTIVE_FALLBACK is a choice: $(grep '^- ' "$out/report.md")"
    i=$((i + 1))
done

# The choice applied as a site would (the environment), read back through
# MPI_T as in force: its position in MPICH's list, not a timing.
case "$choice" in
auto) want=0 ;; recursive_doubling) want=3 ;; *) want=4 ;;
esac
MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=$choice ct_mpich_run 2 -C allreduce -b 8 -e 8 -n 2 -w 1 \
    --quiet --json "$T/cv.json" --cvars "$ar" >/dev/null 2>"$T/err" ||
    fail "--cvars: exit $? ($(cat "$T/err"))"
[ "$(json_get "$T/cv.json" "cvars.$ar.value")" = "$want" ] ||
    fail "$ar=$choice reads back $(json_get "$T/cv.json" "cvars.$ar.value"), want $want"
exit 0
