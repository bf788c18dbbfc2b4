#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The do-no-harm verification on MPICH, end to end (MPICH 4.0.2, ch4,
# mpiexec.hydra -launcher fork, np 2).  A planted site default (smp
# allreduce with MPIR_CVAR_ALLREDUCE_DEVICE_COLLECTIVE=0, about 4x slower
# at 256 KiB-1 MiB here) is undone by colltune tune --extend-ranges
# (searched at 256 and 512 KiB; 1 MiB in the search too often lost its
# significance to one preempted sample under make check): mpich.env
# carries a CVAR for every size, so the choice is stretched to every size
# and the A/B (5 pairs, the default) runs every collective at every power
# of two from 8 B to 1 MiB (its check sizes), the tuned side with
# mpich.env sourced.  Checks: mpich.env is written with the fast algorithm and the
# setting it needs; colltune install copies it; sourcing it, collbench
# --cvars reads both back as in force through MPI_T; verify-install through
# mpiexec.hydra says so too, and names a value an --env overrides (exit 1).
# SKIP without MPICH.
. "$top_srcdir/tests/mpi/lib.sh"
ct_mpich_collbench
ct_colltune_test
T=$(cd -P "$T" && pwd)

ar=MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM
dc=MPIR_CVAR_ALLREDUCE_DEVICE_COLLECTIVE
# Two outcomes are right, and both are seen here: mpich.env written, the
# A/B holding at every size; or nothing written because the choice stops
# short of every size, which mpich.env cannot carry: a size without a
# significant gain in the search (a preempted launch on these 2 shared
# cores), or a size the A/B found, and confirmed, slower (256 B at times:
# reduce_scatter_allgather against smp), its range cut.  MPICH's own
# selection tree then carries the range (mpich-coll-selection.json, which
# mpich.env names), or, without that tree, the report says NOT WRITTEN.
# Up to three tunes for one that writes the choice into mpich.env.
for try in 1 2 3; do
    out="$T/tune$try"
    MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=smp MPIR_CVAR_ALLREDUCE_DEVICE_COLLECTIVE=0 \
        timeout 150 "$CT" tune --space "$top_srcdir/tests/mpi/mpich_verify.ini" --out "$out" \
        --launcher "$MPIEXEC_HYDRA -launcher fork" --np 2 --collbench "$MPICH_COLLBENCH" \
        --strategy exhaustive --launches 7 --collectives allreduce --extend-ranges \
        -- -b 256K -e 512K -f 2 --sync barrier -n 20 -w 3 >"$T/tune.out" 2>&1 ||
        fail "tune: exit $? ($(tail -5 "$T/tune.out"))"
    grep "^export $ar=" "$out/mpich.env" 2>/dev/null | grep -qv "=auto\$" && break
    # Short of every size, MPICH's own selection tree carries the range
    # (mpich-coll-selection.json, tests/mpi/mpich_csel.sh); mpich.env
    # names it.
    if [ -f "$out/mpich-coll-selection.json" ]; then
        grep -q "^# In mpich-coll-selection.json: $ar=" "$out/mpich.env" ||
            fail "mpich-coll-selection.json written, mpich.env does not name it: $(cat "$out/mpich.env")"
        # The site's smp outranks the file unless mpich.env sets it to auto.
        grep -q "^export $ar=auto\$" "$out/mpich.env" ||
            fail "mpich-coll-selection.json written, the site's $ar=smp left in force: $(cat "$out/mpich.env")"
        continue
    fi
    grep -q '^| allreduce .*| no significant gain |' "$out/report.md" ||
        grep -q '^- allreduce .*NOT WRITTEN (range cut to where it held' "$out/report.md" ||
        fail "no mpich.env: $(grep '^- \|^| allreduce' "$out/report.md")"
    # Not written, and said so: the choice's range did not reach every size.
    grep -q 'NOT WRITTEN (.*the library reads it for every size' "$out/report.md" ||
        fail "a choice short of every size is not marked NOT WRITTEN: $(grep '^- ' "$out/report.md")"
done
grep "^export $ar=" "$out/mpich.env" 2>/dev/null | grep -qv "=auto\$" ||
    fail "no mpich.env choice in three tunes: $(grep '^- \|^| allreduce' "$out/report.md")"
grep -q 'colltune tune: verifying' "$T/tune.out" || fail "tune: no A/B ($(tail -5 "$T/tune.out"))"
choice=$(sed -n "s/^export $ar=//p" "$out/mpich.env")
case "$choice" in
reduce_scatter_allgather) want=4 ;;
*) fail "mpich.env sets $ar='$choice': $(cat "$out/mpich.env")" ;;
esac
grep -q "^export $dc=0\$" "$out/mpich.env" || fail "mpich.env lacks $dc=0"
# What the file reaches, the A/B measured: allreduce at every power of two
# from 8 B to 1 MiB.
sizes=$(sed -n 's/.*(every collective at \([0-9,]*\) B.*/\1/p' "$T/tune.out")
b=8
while [ "$b" -le 1048576 ]; do
    case ",$sizes," in *",$b,"*) ;; *) fail "the A/B did not run $b B (sizes $sizes)" ;; esac
    b=$((b * 2))
done

# Installed, then sourced as install says, read back through MPI_T.
"$CT" install "$out" --to "$T/site" >"$T/out" 2>"$T/err" || fail "install: exit $? ($(cat "$T/err"))"
# (its header's paths rewritten to DIR's; the settings as written)
[ "$(grep '^export' "$out/mpich.env")" = "$(grep '^export' "$T/site/mpich.env")" ] ||
    fail "install did not copy mpich.env's settings: $(cat "$T/site/mpich.env")"
(
    set -a
    . "$T/site/mpich.env"
    set +a
    ct_mpich_run 2 -C allreduce -b 8 -e 8 -n 2 -w 1 --quiet --json "$T/cv.json" \
        --cvars "$ar,$dc" >/dev/null 2>"$T/err"
) || fail "--cvars: exit $? ($(cat "$T/err"))"
[ "$(json_get "$T/cv.json" "cvars.$ar.value")" = "$want" ] ||
    fail "$ar=$choice reads back $(json_get "$T/cv.json" "cvars.$ar.value"), want $want"
[ "$(json_get "$T/cv.json" "cvars.$dc.value")" = 0 ] ||
    fail "$dc reads back $(json_get "$T/cv.json" "cvars.$dc.value"), want 0"

# verify-install through mpiexec.hydra: mpich.env's values in force.
set -- --launcher "$MPIEXEC_HYDRA -launcher fork" --np 2 --collbench "$MPICH_COLLBENCH" --timeout 60
"$CT" verify-install "$T/site" "$@" >"$T/out" 2>"$T/err" ||
    fail "verify-install: exit $? ($(cat "$T/out" "$T/err"))"
grep -q '2 of 2 values in force' "$T/out" || fail "verify-install: $(cat "$T/out")"
# An --env after the file's line wins: exit 1, the value named.
"$CT" verify-install "$T/site" "$@" --env "$ar=smp" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 1 ] || fail "verify-install with $ar=smp overriding: exit $rc ($(cat "$T/out" "$T/err"))"
grep -q "NOT IN FORCE: $ar = $choice in $T/site/mpich.env (MPI_T value $want), MPI_T reads 2" \
    "$T/out" || fail "verify-install did not name $ar: $(cat "$T/out")"
exit 0
