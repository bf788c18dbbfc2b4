#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A tiny tune through srun, against a real Slurm (tests/slurm/slurm.sh):
# tests/mpi/tune_tiny.ini (three allreduce algorithms), exhaustive, two
# launches each, under --launcher 'srun -N 1 --ntasks-per-node 2' (the
# rank count taken from that line): it finishes with its journal (8 search
# trials, all ok, from 2 shared launches: the algorithm is a run-time
# variable, searched in-process with collbench --config), one trial
# directory per launch, report.json at 2 ranks and report.md;
# when the search made a choice (noise can make one at 2 ranks), the
# verification ran its A/B pairs through srun too, reading the files it
# wrote (mca_base_param_files through --export).  Every srun has srun's -t and the tune's --timeout, and
# the tune runs under `timeout`.
. "$top_srcdir/tests/mpi/lib.sh"
. "$top_srcdir/tests/slurm/slurm.sh"
ct_colltune_test
ct_slurm_up "$T/slurm"

ct_slurm_run 90 "$CT" tune --space "$top_srcdir/tests/mpi/tune_tiny.ini" --out "$T/tune" \
    --launcher 'srun -t 1 -N 1 --ntasks-per-node 2' --mca mpi_yield_when_idle=1 --timeout 30 \
    --strategy exhaustive --launches 2 -- -b 64K -e 128K -f 2 >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] || fail "srun tune: exit $rc ($(cat "$T/err"))"
grep -v '"scope": *"verify' "$T/tune/journal.jsonl" >"$T/search.jsonl"
[ "$(wc -l <"$T/search.jsonl")" -eq 8 ] || fail "journal: $(cat "$T/tune/journal.jsonl")"
[ "$(grep -c '"status": *"ok"' "$T/search.jsonl")" -eq 8 ] || fail "not all ok: $(cat "$T/search.jsonl")"
[ "$(ls "$T/tune/trials" | grep -vc '^verify-')" -eq 2 ] || fail "trial dirs: $(ls "$T/tune/trials")"
[ "$(grep -c '"group": *"allreduce-' "$T/search.jsonl")" -eq 8 ] || fail "not in shared launches"
[ "$(json_get "$T/tune/report.json" nranks)" -eq 2 ] || fail "report.json nranks"
[ "$(json_get "$T/tune/report.json" cells.#)" -eq 2 ] || fail "cells: $(json_get "$T/tune/report.json" cells)"
grep -q 'coll_tuned_allreduce_algorithm' "$T/tune/report.md" || fail "report.md: $(cat "$T/tune/report.md")"
# Every launch was a Slurm job (slurmctld logs each one's end): the 2
# shared ones and the A/B's.
n=$(grep -c '_job_complete: JobId=[0-9]* done' "$T/slurm/log/slurmctld.log")
launches=$((2 + $(grep -c '"scope": *"verify' "$T/tune/journal.jsonl")))
[ "$n" -eq "$launches" ] || fail "$n Slurm jobs for $launches launches"
if [ "$(json_get "$T/tune/report.json" choices.#)" -gt 0 ]; then
    [ "$(json_get "$T/tune/report.json" verified)" = true ] || fail "a choice, not verified"
    [ "$(grep -c '"scope": *"verify' "$T/tune/journal.jsonl")" -ge 10 ] || fail "no A/B trials"
    [ -f "$T/tune/verify/mca-params.conf" ] || fail "no verify/mca-params.conf: $(ls -R "$T/tune")"
fi

ct_slurm_down
left=$(ct_slurm_left)
[ -z "$left" ] || fail "left running: $left"
exit 0
