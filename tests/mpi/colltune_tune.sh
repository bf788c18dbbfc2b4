#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune tune end to end at np=2, through the real mpirun and collbench:
#  - a tiny exhaustive tune (three allreduce algorithms, 64K..256K, two
#    launches each) with the algorithm as a launch setting (apply =
#    launch) finishes: one journal line per trial, one trial directory per
#    trial, report.json/report.md name the trials and the objective over
#    ranks (the slowest rank: every trial ran collbench -a 3, and chased
#    each size's CI to the budget: --ci-patience 1e6);
#  - the same in-process (the algorithm a run-time variable, the default):
#    one shared launch per launch index measures all four configurations
#    (collbench --config), each journaled as its own trial in its group;
#    a run-time variable collbench cannot write (READONLY) makes the
#    shared launch fail, and its configurations run one per launch;
#  - the default strategy (halving) on the same space finishes too and
#    gives its finalists at least two full launches;
#  - a configuration that fails (the fault shim, LD_PRELOADed by one value
#    of a space variable, corrupts allreduce: collbench exits 1) is
#    journaled as "wrong", excluded, and the tune still exits 0;
#  - a bad space or --weights file fails with file:line before anything
#    runs (exit 2).
. "$top_srcdir/tests/mpi/lib.sh"

ct_colltune_test
mkdir -p "$T/tmp"
set -- --np 2 --launcher-arg --oversubscribe --launcher-arg --bind-to --launcher-arg none \
    --launcher-arg --mca --launcher-arg orte_tmpdir_base --launcher-arg "$T/tmp" \
    --mca mpi_yield_when_idle=1 --timeout 60
space="$top_srcdir/tests/mpi/tune_tiny.ini"
# The same space with the algorithm a launch setting: a launch per trial.
sed 's/^scope = allreduce$/scope = allreduce\napply = launch/' "$space" >"$T/tiny_launch.ini"
grep -q '^apply = launch' "$T/tiny_launch.ini" || fail "tiny_launch.ini: $(cat "$T/tiny_launch.ini")"

# 1. exhaustive: baseline + 3 algorithms, 2 launches = 8 trials.
timeout 120 "$CT" tune --space "$T/tiny_launch.ini" --out "$T/ex" "$@" --strategy exhaustive --launches 2 \
    -- -b 64K -e 256K -f 2 --size-budget 0.05 >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] || fail "exhaustive: exit $rc ($(cat "$T/err"))"
# The search's trials; a choice found (noise can make one at np=2) adds
# the verification's A/B trials, journaled under the scopes "verify" and
# "verify-confirm".
grep -v '"scope": *"verify' "$T/ex/journal.jsonl" >"$T/search.jsonl"
nv=$(grep -c '"scope": *"verify' "$T/ex/journal.jsonl")
[ "$(wc -l <"$T/search.jsonl")" -eq 8 ] || fail "journal lines: $(wc -l <"$T/search.jsonl"), want 8"
[ "$(ls "$T/ex/trials" | grep -vc '^verify-')" -eq 8 ] || fail "trial dirs: $(ls "$T/ex/trials")"
[ "$(grep -c '"status": *"ok"' "$T/search.jsonl")" -eq 8 ] || fail "not all ok: $(cat "$T/ex/journal.jsonl")"
[ "$(json_get "$T/ex/report.json" trials.#)" -eq $((8 + nv)) ] || fail "report.json trials"
[ "$(json_get "$T/ex/report.json" trials_run)" -eq $((8 + nv)) ] || fail "report.json trials_run"
[ "$(json_get "$T/ex/report.json" strategy)" = exhaustive ] || fail "report.json strategy"
# 3 sizes of allreduce, each with default and best ranges over 2 launches.
[ "$(json_get "$T/ex/report.json" cells.#)" -eq 3 ] || fail "cells: $(json_get "$T/ex/report.json" cells)"
[ "$(json_get "$T/ex/report.json" cells.0.default_launches)" -eq 2 ] || fail "default launches"
[ "$(json_get "$T/ex/report.json" cells.2.bytes)" -eq 262144 ] || fail "largest size"
# The A/B runs exactly when the search made a choice (5 pairs, and 5 more
# when it found a suspect to confirm).
if [ "$(json_get "$T/ex/report.json" choices.#)" -gt 0 ]; then
    [ "$(json_get "$T/ex/report.json" verified)" = true ] && { [ "$nv" -eq 10 ] || [ "$nv" -eq 20 ]; } ||
        fail "choices made but no verification ($nv A/B trials)"
else
    [ "$(json_get "$T/ex/report.json" verified)" = false ] && [ "$nv" -eq 0 ] ||
        fail "no choice but a verification ran"
fi
# Every trial key of the journal is named in report.json.
for k in $(sed 's/.*"key": *"\([0-9a-f]*\)".*/\1/' "$T/ex/journal.jsonl" | sort -u); do
    grep -q "$k" "$T/ex/report.json" || fail "report.json does not name trial $k"
done
grep -q 'coll_tuned_allreduce_algorithm' "$T/ex/report.md" || fail "report.md: $(cat "$T/ex/report.md")"
grep -q 'allreduce | 256K' "$T/ex/report.md" || fail "report.md rows: $(cat "$T/ex/report.md")"
# The objective over ranks: the slowest rank's (collbench -a 3) by default,
# in every trial's results and named in both reports.
[ "$(json_get "$T/ex/report.json" objective.ranks)" = max ] || fail "report.json objective"
[ "$(json_get "$T/ex/report.json" objective.collbench_a)" -eq 3 ] || fail "report.json objective -a"
grep -q 'Objective over ranks (--objective max): the slowest rank' "$T/ex/report.md" ||
    fail "report.md objective: $(grep -i objective "$T/ex/report.md")"
# And each size chased its CI to the budget, as tune's decisions were
# measured (collbench's own --ci-patience bounds it for sweeps).
for r in "$T"/ex/trials/*/results.json; do
    [ "$(json_get "$r" options.rank_aggregation)" = max ] || fail "$r: not -a 3"
    [ "$(json_get "$r" options.ci_patience)" = 1000000 ] ||
        fail "$r: --ci-patience $(json_get "$r" options.ci_patience)"
done
grep -q 'trial 8/8' "$T/err" || fail "progress lines: $(cat "$T/err")"
ls "$T/ex" | grep -q tmp && fail "temp files left: $(ls -a "$T/ex")"
# Interleaved: launch 0 of every configuration before any launch 1.
first1=$(grep -n '"launch": *1' "$T/search.jsonl" | head -1 | cut -d: -f1)
last0=$(grep -n '"launch": *0' "$T/search.jsonl" | tail -1 | cut -d: -f1)
[ "$last0" -lt "$first1" ] || fail "launches not interleaved"
grep -q '"group"' "$T/search.jsonl" && fail "a launch setting was searched in shared launches"

# 1b. in-process: the same 8 trials from 2 shared launches of 4 configurations.
# (This and the tunes below test the search: no A/B, --verify-pairs 0.)
timeout 120 "$CT" tune --space "$space" --out "$T/ip" "$@" --strategy exhaustive --launches 2 \
    --verify-pairs 0 \
    -- -b 64K -e 256K -f 2 --size-budget 0.05 >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] || fail "in-process: exit $rc ($(cat "$T/err"))"
grep -v '"scope": *"verify' "$T/ip/journal.jsonl" >"$T/ip.jsonl"
[ "$(wc -l <"$T/ip.jsonl")" -eq 8 ] || fail "in-process journal lines: $(wc -l <"$T/ip.jsonl")"
[ "$(grep -c '"status": *"ok"' "$T/ip.jsonl")" -eq 8 ] || fail "in-process: not all ok"
[ "$(grep -c '"group": *"allreduce-' "$T/ip.jsonl")" -eq 8 ] || fail "in-process: groups"
[ "$(sed -n 's/.*"group": *"\([^"]*\)".*/\1/p' "$T/ip.jsonl" | sort -u | wc -l)" -eq 2 ] ||
    fail "in-process: want 2 shared launches: $(cat "$T/ip.jsonl")"
[ "$(ls "$T/ip/trials" | grep -vc '^verify-')" -eq 2 ] || fail "in-process dirs: $(ls "$T/ip/trials")"
[ "$(json_get "$T/ip/report.json" launches_shared)" -eq 2 ] || fail "launches_shared"
[ "$(json_get "$T/ip/report.json" cells.0.default_launches)" -eq 2 ] || fail "ip default launches"
# Each configuration's own rows: the three algorithms and the defaults differ.
d=$(ls "$T/ip/trials" | grep -v '^verify-' | head -1)
[ "$(grep -c ',out-of-place,' "$T/ip/trials/$d/results.csv")" -eq 12 ] ||
    fail "shared launch rows: $(cat "$T/ip/trials/$d/results.csv")"
grep -q -- '--config' "$T/ip/trials/$d/collbench.err" 2>/dev/null &&
    fail "collbench refused a --config: $(cat "$T/ip/trials/$d/collbench.err")"
# A variable declared run-time that MPI_T cannot write: the shared launch
# fails (collbench exit 2) and its configurations run one per launch.
cat >"$T/ro.ini" <<EOS
[space]
name = ro
via = mca

[var coll_tuned_use_dynamic_rules]
scope = global
values = 1
apply = runtime
EOS
timeout 120 "$CT" tune --space "$T/ro.ini" --out "$T/ro" "$@" --collectives allreduce --verify-pairs 0 \
    --strategy exhaustive --launches 1 -- -b 1K -e 1K --size-budget 0.05 >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] || fail "read-only run-time variable: exit $rc ($(cat "$T/err"))"
grep -q 'failed.*one per launch' "$T/err" || fail "no fallback message: $(cat "$T/err")"
grep -q 'readonly' "$T/err" || fail "collbench's reason not shown: $(cat "$T/err")"
[ "$(grep -v '"scope": *"verify' "$T/ro/journal.jsonl" | grep -c '"status": *"ok"')" -eq 2 ] ||
    fail "fallback trials: $(cat "$T/ro/journal.jsonl")"

# Without --resume, a directory with a journal is refused.
"$CT" tune --space "$space" --out "$T/ex" "$@" -- -b 64K -e 64K --size-budget 0.05 2>"$T/err"
[ $? -eq 2 ] || fail "reuse of --out without --resume not refused"

# 2. halving (the default): every candidate once (short), finalists >= 2 more.
timeout 120 "$CT" tune --space "$space" --out "$T/hv" "$@" --verify-pairs 0 -- -b 64K -e 128K -f 2 --size-budget 0.05 \
    >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] || fail "halving: exit $rc ($(cat "$T/err"))"
[ "$(json_get "$T/hv/report.json" strategy)" = halving ] || fail "halving strategy"
[ "$(json_get "$T/hv/report.json" cells.0.default_launches)" -ge 3 ] ||
    fail "halving: baseline launches $(json_get "$T/hv/report.json" cells.0.default_launches)"
# The finalists: the candidates with the most launches in the search, at
# least 3 (one short, two full); the others were halved away earlier.
most=$(grep -v '"scope": *"verify' "$T/hv/journal.jsonl" | grep -v '"config": *{}' |
    sed 's/.*"key": *"\([0-9a-f]*\)".*/\1/' | sort | uniq -c | sort -rn | awk 'NR == 1 { print $1 }')
[ "${most:-0}" -ge 3 ] || fail "halving: finalist launches ${most:-0}"
grep -q '(short)' "$T/err" || fail "halving: no short launch"

# 3. a failing configuration is journaled, excluded, and the tune goes on.
shim="$top_builddir/tests/tools/.libs/libfault_shim.so"
[ -f "$shim" ] || fail "shim not built: $shim"
cat >"$T/fail.ini" <<EOS
[space]
name = fail
via = env

[var LD_PRELOAD]
scope = global
values = $shim
EOS
timeout 120 "$CT" tune --space "$T/fail.ini" --out "$T/fail" "$@" --collectives allreduce \
    --strategy exhaustive --env FAULT_SHIM_MODE=corrupt -- -b 1K -e 1K --size-budget 0.05 >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] || fail "failing config: exit $rc ($(cat "$T/err"))"
# baseline twice, the shim once (excluded after its first failure)
[ "$(wc -l <"$T/fail/journal.jsonl")" -eq 3 ] || fail "fail journal: $(cat "$T/fail/journal.jsonl")"
[ "$(grep -c '"status": *"wrong"' "$T/fail/journal.jsonl")" -eq 1 ] ||
    fail "no wrong trial: $(cat "$T/fail/journal.jsonl")"
[ "$(json_get "$T/fail/report.json" trials_failed)" -eq 1 ] || fail "trials_failed"
[ "$(json_get "$T/fail/report.json" choices.#)" -eq 0 ] || fail "a failed config was chosen"
grep -q 'excluded' "$T/err" || fail "no exclusion message: $(cat "$T/err")"

# 4. a bad space: file:line, exit 2, no output directory made.
printf '[space]\nname = bad\n\n[var coll_tuned_allreduce_algorithm]\nscope = allreduce\nvalues = 99\n' \
    >"$T/bad.ini"
"$CT" tune --space "$T/bad.ini" --out "$T/never" "$@" 2>"$T/err"
[ $? -eq 2 ] || fail "bad space: not exit 2"
grep -q "bad.ini:[0-9]" "$T/err" || fail "bad space message: $(cat "$T/err")"
[ ! -e "$T/never" ] || fail "bad space: output directory created"
# ... and a bad --weights profile the same way.
printf 'allreduce 1M 10\nallreduce 64K lots\n' >"$T/w.txt"
"$CT" tune --space "$space" --weights "$T/w.txt" --out "$T/never" "$@" 2>"$T/err"
[ $? -eq 2 ] || fail "bad weights: not exit 2"
grep -q "w.txt:2: weight: 'lots'" "$T/err" || fail "bad weights message: $(cat "$T/err")"
[ ! -e "$T/never" ] || fail "bad weights: output directory created"
exit 0
