#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune tune --resume after SIGKILL:
#  - SIGKILL of colltune mid-tune (the journal has >= 2 lines), then
#    --resume: the finished trials are not run again (the journal's lines
#    before the kill are kept as they were, no (scope, key, launch) twice,
#    one trial directory per launch: a shared launch of the in-process
#    search (a journal "group") or a trial of its own) and the outputs are
#    whole (report.json parses, no temp file left).
# SIGINT is colltune_tune_sigint.sh.
. "$top_srcdir/tests/mpi/lib.sh"

ct_colltune_test
mkdir -p "$T/tmp"
set -- --np 2 --launcher-arg --oversubscribe --launcher-arg --bind-to --launcher-arg none \
    --launcher-arg --mca --launcher-arg orte_tmpdir_base --launcher-arg "$T/tmp" \
    --mca mpi_yield_when_idle=1 --timeout 60 --space "$top_srcdir/tests/mpi/tune_tiny.ini" \
    --strategy exhaustive --launches 3
# 4 configurations x 3 launches = 12 trials.
want=12

# check_done DIR: a whole, finished tune: $want search trials, plus the
# verification's 10 A/B trials (scope "verify") when the search made a
# choice (noise can make one at np=2), and 10 more (scope
# "verify-confirm") when the A/B found a suspect to confirm.
check_done() {
    total=$(wc -l <"$1/journal.jsonl")
    nv=$(grep -c '"scope": *"verify' "$1/journal.jsonl")
    nab=$(grep -c '"scope": *"verify"' "$1/journal.jsonl")
    [ $((total - nv)) -eq $want ] || fail "$1: search trials $((total - nv)), want $want"
    if [ "$(json_get "$1/report.json" choices.#)" -gt 0 ]; then
        [ "$nab" -eq 10 ] || fail "$1: $nab A/B trials, want 10"
        [ "$nv" -eq 10 ] || [ "$nv" -eq 20 ] || fail "$1: $nv A/B and confirmation trials"
    else
        [ "$nv" -eq 0 ] || fail "$1: an A/B without a choice"
    fi
    dups=$(sed 's/.*"key": *"\([0-9a-f]*\)", *"scope": *"\([a-z_-]*\)".*"launch": *\([0-9]*\).*/\2-\1-\3/' \
        "$1/journal.jsonl" | sort | uniq -d)
    [ -z "$dups" ] || fail "$1: trials run twice: $dups"
    # A shared launch's trials share a directory; the A/B's app contexts
    # taking turns (group turns-*) have one each, as trials alone do.
    groups=$(sed -n 's/.*"group": *"\([^"]*\)".*/\1/p' "$1/journal.jsonl" | grep -v '^turns-' |
        sort -u | wc -l)
    turns=$(grep -c '"group": *"turns-' "$1/journal.jsonl")
    alone=$(grep -vc '"group"' "$1/journal.jsonl")
    [ "$groups" -ge 3 ] || fail "$1: $groups shared launches, want one per launch index"
    [ "$(ls "$1/trials" | wc -l)" -eq $((groups + turns + alone)) ] ||
        fail "$1: trial dirs $(ls "$1/trials" | wc -l), want $groups shared + $turns + $alone"
    [ "$(json_get "$1/report.json" trials.#)" -eq "$total" ] || fail "$1: report.json is not whole"
    [ -s "$1/report.md" ] || fail "$1: no report.md"
    ls -a "$1" | grep -q '\.tmp' && fail "$1: temp files left: $(ls -a "$1")"
    return 0
}

# 1. SIGKILL, then --resume.
"$CT" tune --out "$T/k" "$@" -- -b 64K -e 256K -f 2 --size-budget 0.05 >"$T/out" 2>"$T/err" &
ct=$!
ct_wait_lines "$T/k/journal.jsonl" 2
kill -9 "$ct"
wait "$ct" 2>/dev/null
# what had finished when it died (a torn last line is not a finished trial)
n=$(wc -l <"$T/k/journal.jsonl")
head -n "$n" "$T/k/journal.jsonl" >"$T/before"
[ "$n" -lt $want ] || fail "the tune finished before the kill; make it longer"
# SIGKILL took the running trial down (PDEATHSIG): nothing of it is left.
i=0
while pgrep -f "$T/k/trials" >/dev/null && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
pgrep -f "$T/k/trials" >/dev/null && fail "a trial survived SIGKILL of colltune"
timeout 120 "$CT" tune --out "$T/k" "$@" --resume -- -b 64K -e 256K -f 2 --size-budget 0.05 >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] || fail "resume: exit $rc ($(cat "$T/err"))"
head -n "$n" "$T/k/journal.jsonl" | cmp -s - "$T/before" || fail "resume changed the journaled trials"
grep -q -- "--resume: $n trials already" "$T/err" || fail "resume message: $(cat "$T/err")"
[ "$(json_get "$T/k/report.json" trials_resumed)" -eq "$n" ] || fail "trials_resumed"
check_done "$T/k"
[ "$(json_get "$T/k/report.json" trials_run)" -eq $((total - n)) ] || fail "trials_run after resume"
# A second --resume runs nothing more.
timeout 120 "$CT" tune --out "$T/k" "$@" --resume -- -b 64K -e 256K -f 2 --size-budget 0.05 >"$T/out" 2>"$T/err" ||
    fail "second resume: $(cat "$T/err")"
[ "$(json_get "$T/k/report.json" trials_run)" -eq 0 ] || fail "second resume ran trials"
check_done "$T/k"

exit 0
