#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune tune and SIGINT, at np=2 through the real mpirun:
#  - SIGINT to colltune while it runs a trial (the journal has >= 1 line):
#    exit 130, a message naming the journal, every journal line whole, and
#    nothing of the trial left running (no mpirun, no collbench);
#  - the same for ^C as a terminal sends it, to colltune's process group;
#  - then --resume finishes, each (scope, key, launch) of the search
#    journaled once, the lines from before the interrupt kept as they were.
. "$top_srcdir/tests/mpi/lib.sh"

ct_colltune_test
mkdir -p "$T/tmp"
set -- --np 2 --launcher-arg --oversubscribe --launcher-arg --bind-to --launcher-arg none \
    --launcher-arg --mca --launcher-arg orte_tmpdir_base --launcher-arg "$T/tmp" \
    --mca mpi_yield_when_idle=1 --timeout 60 --space "$top_srcdir/tests/mpi/tune_tiny.ini" \
    --strategy exhaustive --launches 3 --verify-pairs 0
# 4 configurations x 3 launches = 12 trials.  No A/B (--verify-pairs 0):
# what a choice noise makes would add is tested by colltune_verify.sh and
# colltune_tune_resume.sh.
want=12

# interrupt HOW ARGS...: starts a tune into $T/HOW, interrupts it after its
# first trial (HOW: pid, or group as ^C does) and checks what it left.
interrupt() {
    how=$1
    d="$T/$1"
    shift
    if [ "$how" = group ]; then
        # its own process group, as a shell job has
        setsid "$CT" tune --out "$d" "$@" -- -b 64K -e 256K -f 2 --size-budget 0.05 >"$T/out" 2>"$T/err" &
    else
        "$CT" tune --out "$d" "$@" -- -b 64K -e 256K -f 2 --size-budget 0.05 >"$T/out" 2>"$T/err" &
    fi
    ct=$!
    ct_wait_lines "$d/journal.jsonl" 1
    if [ "$how" = group ]; then
        kill -INT "-$ct"
    else
        kill -INT "$ct"
    fi
    wait "$ct"
    rc=$?
    [ "$rc" -eq 130 ] || fail "$how: SIGINT: exit $rc, want 130 ($(cat "$T/err"))"
    grep -q "interrupted; the journal $d/journal.jsonl is intact" "$T/err" ||
        fail "$how: SIGINT message: $(cat "$T/err")"
    # nothing of the running trial is left: colltune waited for it
    pgrep -af "$T/" >"$T/left" && fail "$how: left running after SIGINT: $(cat "$T/left")"
    n=$(wc -l <"$d/journal.jsonl")
    [ "$n" -lt $want ] || fail "$how: the tune finished before SIGINT; make it longer"
    [ "$(tail -c 1 "$d/journal.jsonl" | od -An -c | tr -d ' ')" = '\n' ] || fail "$how: journal torn"
    [ "$(grep -vc '^{"key":"[0-9a-f]*",.*}$' "$d/journal.jsonl")" -eq 0 ] ||
        fail "$how: a torn journal line: $(cat "$d/journal.jsonl")"
    cp "$d/journal.jsonl" "$T/$how.before"
}

# resume HOW ARGS...: --resume finishes, each trial once, earlier lines
# unchanged.
resume() {
    how=$1
    d="$T/$1"
    shift
    n=$(wc -l <"$T/$how.before")
    timeout 120 "$CT" tune --out "$d" "$@" --resume -- -b 64K -e 256K -f 2 --size-budget 0.05 >"$T/out" 2>"$T/err" ||
        fail "$how: resume after SIGINT: exit $? ($(cat "$T/err"))"
    grep -q -- "--resume: $n trials already in $d/journal.jsonl" "$T/err" ||
        fail "$how: resume message: $(cat "$T/err")"
    head -n "$n" "$d/journal.jsonl" | cmp -s - "$T/$how.before" || fail "$how: resume changed the journaled trials"
    # search trials (a choice adds the verification's A/B, scope verify)
    [ "$(ct_journal_trials "$d/journal.jsonl" | wc -l)" -eq $want ] ||
        fail "$how: $(ct_journal_trials "$d/journal.jsonl" | wc -l) search trials, want $want"
    [ "$(ct_journal_trials "$d/journal.jsonl" | sort -u | wc -l)" -eq $want ] ||
        fail "$how: trials run twice: $(ct_journal_trials "$d/journal.jsonl" | sort | uniq -d)"
    [ "$(json_get "$d/report.json" trials_resumed)" -eq "$n" ] || fail "$how: trials_resumed"
    [ "$(json_get "$d/report.json" trials_run)" -eq $(($(wc -l <"$d/journal.jsonl") - n)) ] ||
        fail "$how: trials_run"
}

interrupt pid "$@"
resume pid "$@"
interrupt group "$@"
resume group "$@"
exit 0
