#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Trials: every launch runs in its own session (and process group), and a
# timeout or an interrupt takes all of it down (SIGTERM, then SIGKILL),
# leaving no process behind: not the launcher, not an orphaned grandchild
# in a process group of its own (as Open MPI puts ranks).  The launcher
# here is tests/tools/ct_sleeper (a prefix launcher), which ignores SIGTERM
# and leaves such an orphan, the worst case.  Also:
# exit statuses are classified into collbench's exit codes.
set -u
: "${top_builddir:?run through make check}"
CT="$top_builddir/tuner/colltune"
SLEEPER="$top_builddir/tests/tools/ct_sleeper"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-trial.XXXXXX")
# Whatever a failed check leaves running dies with the test.
trap 'for p in $(cat "$T"/*.pids 2>/dev/null); do kill -9 "$p" 2>/dev/null; done; rm -rf "$T"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
[ -d /proc/self ] || { echo "SKIP: no /proc"; exit 77; }

# live_in_session: pids of processes in session $SID_WANT that are alive
# (not zombies), from /proc/PID/stat ("pid (comm) state ppid pgrp session ...").
live_in_session() {
    for f in /proc/[0-9]*/stat; do
        s=$(cat "$f" 2>/dev/null) || continue
        rest=${s##*) }
        # shellcheck disable=SC2086
        set -- $rest
        [ $# -ge 4 ] || continue
        if [ "$4" = "$SID_WANT" ] && [ "$1" != Z ] && [ "$1" != X ]; then
            echo "${f#/proc/}" | cut -d/ -f1
        fi
    done
}
session_gone() {
    SID_WANT=$1
    left=$(live_in_session)
    [ -z "$left" ] || fail "$2: processes of session $1 still alive: $left ($(ps -o pid,pgid,stat,args -p "$(echo $left | tr ' ' ,)" 2>&1))"
}
alive() { [ -r "/proc/$1/stat" ] && ! grep -q ') [ZX] ' "/proc/$1/stat" 2>/dev/null; }

# 1. Timeout: the leader ignores SIGTERM; SIGKILL follows after --grace.
start=$(date +%s)
"$CT" sweep --out "$T/t1" --launcher "$SLEEPER $T/t1.pids hang" --timeout 1 --grace 0.5 \
    >"$T/out" 2>"$T/err"
rc=$?
elapsed=$(($(date +%s) - start))
[ "$rc" -eq 124 ] || fail "timeout: exit $rc, want 124 ($(cat "$T/err"))"
[ "$elapsed" -lt 10 ] || fail "timeout took ${elapsed}s"
[ -s "$T/t1.pids" ] || fail "the sleeper never started ($(cat "$T/err"))"
read -r leader grandchild <"$T/t1.pids"
session_gone "$leader" "after the timeout"
alive "$grandchild" && fail "orphaned grandchild $grandchild survived the timeout"
alive "$leader" && fail "leader $leader survived the timeout"
grep -q 'got SIGTERM, then SIGKILL' "$T/err" || fail "timeout message: $(cat "$T/err")"
grep -q 'sleeper started' "$T/t1/collbench.txt" || fail "stdout not captured in collbench.txt"
grep -q '"outcome": "timeout"' "$T/t1/launch.json" || fail "launch.json: $(cat "$T/t1/launch.json")"

# 2. The launcher exits 0 but leaves an orphan in its session: killed too.
"$CT" sweep --out "$T/t2" --launcher "$SLEEPER $T/t2.pids exit" --timeout 30 \
    >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] || fail "stray: exit $rc, want 0 ($(cat "$T/err"))"
read -r leader grandchild <"$T/t2.pids"
session_gone "$leader" "after a clean exit"
alive "$grandchild" && fail "stray grandchild $grandchild survived"
grep -q 'killed processes the launcher left behind' "$T/err" || fail "stray message: $(cat "$T/err")"

# 3. SIGINT and SIGTERM to colltune reach the trial's session; exit 130.
for sig in INT TERM; do
    rm -f "$T/t3.pids"
    "$CT" sweep --out "$T/t3$sig" --launcher "$SLEEPER $T/t3.pids hang" --timeout 60 --grace 0.5 \
        >"$T/out" 2>"$T/err" &
    ct=$!
    i=0
    while [ ! -s "$T/t3.pids" ] && [ $i -lt 100 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    [ -s "$T/t3.pids" ] || fail "SIG$sig: the sleeper never started"
    cp "$T/t3.pids" "$T/t3$sig.pids"
    start=$(date +%s)
    kill -"$sig" "$ct"
    wait "$ct"
    rc=$?
    elapsed=$(($(date +%s) - start))
    [ "$rc" -eq 130 ] || fail "SIG$sig: exit $rc, want 130 ($(cat "$T/err"))"
    [ "$elapsed" -lt 10 ] || fail "SIG$sig: took ${elapsed}s to stop"
    read -r leader grandchild <"$T/t3.pids"
    session_gone "$leader" "after SIG$sig"
    alive "$grandchild" && fail "SIG$sig: grandchild $grandchild survived"
    grep -q 'interrupted' "$T/err" || fail "SIG$sig message: $(cat "$T/err")"
done

# 4. Exit statuses keep collbench's meaning; anything else is a failure (3),
# a signal a crash (3).  The prefix "sh -c 'CODE'" gets collbench's path as
# $0 and sweep's --csv PATH as $1 $2.  Exit 1 is "wrong" when the results
# hold a row with #wrong > 0 (collbench's meaning); without one it is the
# launch's failure (mpirun exits 1 when it cannot start the ranks).
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wrong") w = i }
    NR == 2 { $w = 1 } { print }' "$top_srcdir/tests/unit/plot_results.csv" >"$T/wrong.csv"
n=0
for pair in "exit 0:0:ok" "cp $T/wrong.csv \"\$2\"; exit 1:1:wrong" "exit 1:3:failure" \
    "exit 2:2:bad-input" "exit 3:3:failure" \
    "exit 77:77:unavailable" "exit 124:124:timeout" "exit 5:3:failure" \
    "kill -SEGV \$\$:3:crash" "exit 139:3:crash"; do
    code=${pair%%:*}
    rest=${pair#*:}
    want=${rest%%:*}
    outcome=${rest#*:}
    n=$((n + 1))
    "$CT" sweep --out "$T/c$n" --launcher "sh -c '$code'" --timeout 30 >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq "$want" ] || fail "'$code': exit $rc, want $want ($(cat "$T/err"))"
    grep -q "\"outcome\": \"$outcome\"" "$T/c$n/launch.json" ||
        fail "'$code': outcome: $(cat "$T/c$n/launch.json")"
    grep -q "colltune sweep: $outcome (exit $want)" "$T/err" || fail "'$code': $(cat "$T/err")"
done

# 5. Variables reach a prefix launcher's child through its environment,
# unchanged (MCA parameters as OMPI_MCA_*), and nothing in them runs.
printf '#!/bin/sh\nexit 0\n' >"$T/cb" && chmod +x "$T/cb"
hostile='a b;$(touch pwned)"q'"'"'`touch pwned2`*'
(cd "$T" && "$CT" sweep --out "$T/env" --collbench "$T/cb" --env "NCCL_T=$hostile" \
    --mca 'x_y=1 2' --launcher "sh -c 'printf %s \"\$NCCL_T\" >\"\$0.env\"; printf %s \"\$OMPI_MCA_x_y\" >\"\$0.mca\"'" \
    >"$T/out" 2>"$T/err") || fail "env: exit $? ($(cat "$T/err"))"
[ "$(cat "$T/cb.env")" = "$hostile" ] || fail "env value changed: $(cat "$T/cb.env")"
[ "$(cat "$T/cb.mca")" = "1 2" ] || fail "OMPI_MCA_x_y: $(cat "$T/cb.mca")"
[ ! -e "$T/pwned" ] && [ ! -e "$T/pwned2" ] || fail "a hostile value was executed"
exit 0
