#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# MPICH's algorithm CVARs searched in-process, for real (MPICH 4.0.2, ch4,
# through mpiexec.hydra).  collbench --config writes
# MPIR_CVAR_<COLL>_INTRA_ALGORITHM through MPI_T by name, and MPICH uses it
# at the next call: with MPIR_CVAR_COLLECTIVE_FALLBACK=error, allgather's
# recursive_doubling (power-of-two communicators only) fails at 3 ranks in
# its configuration and not before.  Then a planted bad site default (smp
# allreduce, about 4x slower at 256 KiB-1 MiB here, with
# MPIR_CVAR_ALLREDUCE_DEVICE_COLLECTIVE=0 so that ch4's shared-memory path
# does not bypass the choice on one node) is undone by colltune tune with
# tests/mpi/mpich_tune.ini, and the choice reads back as in force through
# --cvars.  np 2 for the tune: MPICH's waiting ranks spin, and 2 ranks on
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
# configuration 1 (recursive_doubling at 3 ranks) fails in MPICH.
# shellcheck disable=SC2086
MPIR_CVAR_COLLECTIVE_FALLBACK=error ct_mpich_run 3 -C allgather -b 3K -e 3K $short \
    --config "$ag=recursive_doubling" >"$T/out" 2>"$T/err" &&
    fail "allgather recursive_doubling at 3 ranks ran under COLLECTIVE_FALLBACK=error"
grep -q '^# Configuration 0' "$T/out" && grep -A1 '^# Configuration 0' "$T/out" | grep -q ' 3072 ' ||
    fail "configuration 0 did not run first: $(cat "$T/out")"
grep -q 'User set collective algorithm is not usable' "$T/err" ||
    fail "no MPICH fallback error: $(head -5 "$T/err")"
# ring can run there: the same launch passes, and reads back ring (4).
# shellcheck disable=SC2086
MPIR_CVAR_COLLECTIVE_FALLBACK=error ct_mpich_run 3 -C allgather -b 3K -e 3K $short \
    --config "$ag=ring" --json "$T/ring.json" >"$T/out" 2>"$T/err" ||
    fail "allgather ring at 3 ranks: $(head -5 "$T/err")"
[ "$(json_get "$T/ring.json" "configs.1.cvars.$ag.value")" = 4 ] ||
    fail "configuration ring does not read back 4"

# The planted site default, undone by the tune.
out="$T/tune"
MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=smp MPIR_CVAR_ALLREDUCE_DEVICE_COLLECTIVE=0 \
    timeout 120 "$CT" tune --space "$top_srcdir/tests/mpi/mpich_tune.ini" --out "$out" \
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
*) fail "tune chose '$choice' over the planted smp: $(grep -A4 '^| collective' "$out/report.md")" ;;
esac

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
