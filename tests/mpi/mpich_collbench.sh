#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# collbench built against MPICH (build-mpich/collbench, make check's second
# build) under mpiexec.hydra: every collective at 2 and 4 ranks (the
# table's shape, no wrong result), the CSV and JSON (MPICH's library
# version, MPICH's variables in the fingerprint), and --cvars reading an
# algorithm CVAR back as in force: MPICH exposes its enum CVARs as MPI_INT,
# the choice's position in MPICH's list (recursive_doubling is 3), whatever
# set it (the environment here).  SKIP without MPICH.
. "$top_srcdir/tests/mpi/lib.sh"
ct_mpich_collbench

ct_mpich_run 2 -C all -b 8 -e 1M -f 16 --size-budget 0.05 --quiet --json "$T/r.json" \
    --csv "$T/r.csv" >"$T/out" 2>"$T/err" || fail "np=2: exit $? ($(cat "$T/err"))"
check_table "$T/out"
for c in allreduce allgather alltoall broadcast reduce_scatter; do
    grep -q "^# Collective test starting: $c\$" "$T/out" || fail "np=2: no table for $c"
done
# 8 B .. 512 KiB by 16 is 5 sizes per collective.
rows=$(grep -vc '^#' "$T/out")
[ "$rows" -eq 25 ] || fail "np=2: expected 25 rows, got $rows"
# The CSV: both placements of every row, 2 ranks, backend mpi, #wrong 0.
head -n 1 "$T/r.csv" | grep -q '^run_id,time,backend,collective,placement,' || fail "CSV header"
awk -F, 'NR > 1 { n++; if ($3 != "mpi" || $9 != 2 || $21 != 0) bad = 1 }
    END { exit (n == 50 && !bad) ? 0 : 1 }' "$T/r.csv" ||
    fail "CSV: want 50 rows, mpi, 2 ranks, #wrong 0: $(cat "$T/r.csv")"
[ "$(json_get "$T/r.json" status)" = ok ] || fail "JSON status"
[ "$(json_get "$T/r.json" nranks)" = 2 ] || fail "JSON nranks"
[ "$(json_get "$T/r.json" results.#)" -eq 50 ] || fail "JSON: want 50 results"
json_get "$T/r.json" mpi_library_version | grep -q '^MPICH Version:' ||
    fail "JSON mpi_library_version: $(json_get "$T/r.json" mpi_library_version)"
# The fingerprint's MPI_T list holds MPICH's algorithm CVARs (auto: 0).
[ "$(json_get "$T/r.json" fingerprint.mpi_t.MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM)" = 0 ] ||
    fail "fingerprint: MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM not recorded as 0"

# 4 ranks on 2 cores: MPICH's waiting ranks spin, so a few fixed
# iterations and --sync barrier (window mode's waits took minutes).
ct_mpich_run 4 -C all -b 8 -e 32K -f 64 -r 3 -n 3 -w 1 --sync barrier >"$T/out4" 2>"$T/err" ||
    fail "np=4: exit $? ($(cat "$T/err"))"
check_table "$T/out4"
grep -q "allgather float: 1 size(s) below one element per rank skipped" "$T/err" ||
    fail "np=4: no skip note for allgather"
# Sizes 8, 512, 32K: 3 for allreduce/broadcast, 2 for the split ones.
rows=$(grep -vc '^#' "$T/out4")
[ "$rows" -eq 12 ] || fail "np=4: expected 12 rows, got $rows"
awk '!/^#/ && NF == 13 && $4 == "none" && $5 == 3 { n++ } END { exit n == 3 ? 0 : 1 }' "$T/out4" ||
    fail "np=4: broadcast rows should show root 3"

# --cvars: the default (auto, 0), then the environment's choice as MPICH
# parsed it, read back through MPI_T as an int.
cv=MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM
ct_mpich_run 2 -C allreduce -b 8 -e 8 --size-budget 0.05 --quiet --json "$T/cv.json" --cvars "$cv" \
    >/dev/null 2>"$T/err" || fail "--cvars: exit $? ($(cat "$T/err"))"
[ "$(json_get "$T/cv.json" "cvars.$cv.value")" = 0 ] || fail "--cvars: default is not 0 (auto)"
[ "$(json_get "$T/cv.json" "cvars.$cv.scope")" = all_eq ] || fail "--cvars: scope"
MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=recursive_doubling \
    ct_mpich_run 2 -C allreduce -b 8 -e 8 --size-budget 0.05 --quiet --json "$T/cv.json" \
    --cvars "$cv" >"$T/out" 2>"$T/err" || fail "--cvars env: exit $? ($(cat "$T/err"))"
check_table "$T/out"
[ "$(json_get "$T/cv.json" "cvars.$cv.value")" = 3 ] ||
    fail "--cvars: recursive_doubling (3) from the environment is not the value in force"
[ "$(json_get "$T/cv.json" "fingerprint.env.$cv")" = recursive_doubling ] ||
    fail "fingerprint: the environment's $cv is not recorded"
ct_mpich_run 2 -C allreduce -b 8 -e 8 --quiet --json "$T/bad.json" \
    --cvars MPIR_CVAR_ALLREDUCE_INTRA_ALGORITM >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "--cvars with a misspelt name: exit $rc, want 2"
grep -q -- '--cvars MPIR_CVAR_ALLREDUCE_INTRA_ALGORITM: the MPI library has no such control variable' \
    "$T/err" || fail "--cvars misspelt: $(cat "$T/err")"
[ ! -e "$T/bad.json" ] || fail "--cvars misspelt: wrote its JSON"
exit 0
