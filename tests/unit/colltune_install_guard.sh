#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune install's guard (ct_install_check_report), case by case, with
# no MPI: a TUNE_DIR of a report.json and an mca-params.conf alone.  It
# refuses (exit 2, nothing written) a tune that ran no A/B, one that wrote
# no choice, and an mca-params.conf line that sets exactly a choice the
# report marks dropped (name AND value, whatever the spaces, tabs or CR
# around them, at any line); it installs (exit 0) the same name with
# another value, a dropped value that a written choice also sets, a
# commented-out line, and a choice with no value to compare.  Every
# setting is read, however many and however long its line; mpich.env's
# (sh: export NAME=VALUE, NAME=VALUE, quotes removed) are checked the same,
# and a line sh would run or expand there is refused.  The end to
# end install with the real Open MPI: tests/mpi/colltune_install.sh.
set -u
: "${top_builddir:?run through make check}"
CT="$top_builddir/tuner/colltune"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-guard.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# The report most cases use: A written, B = 3 dropped.
REPORT='{"verified": true, "choices": [
 {"name": "coll_tuned_bcast_algorithm", "value": "6", "written": true},
 {"name": "coll_tuned_allreduce_algorithm", "value": "3", "written": false}]}'
GOOD='coll_tuned_bcast_algorithm = 6'
DROPPED='coll_tuned_allreduce_algorithm = 3'

n=0
# check NAME WANT_RC WANT_MESSAGE REPORT MCA: a fresh TUNE_DIR holding
# REPORT as report.json and MCA (printf's %b: \t, \r, \n) as
# mca-params.conf; install into a fresh DIR must exit WANT_RC, with
# WANT_MESSAGE in its stderr when refused, and leave DIR empty then.
check() {
    n=$((n + 1))
    tune="$T/tune$n" site="$T/site$n"
    mkdir "$tune"
    printf '%s\n' "$4" >"$tune/report.json"
    printf '%b\n' "$5" >"$tune/mca-params.conf"
    "$CT" install "$tune" --to "$site" >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq "$2" ] || fail "$1: exit $rc, want $2 ($(cat "$T/err"))"
    if [ "$2" -ne 0 ]; then
        grep -qF "$3" "$T/err" || fail "$1: no '$3' in: $(cat "$T/err")"
        [ ! -e "$site/mca-params.conf" ] || fail "$1: refused, yet installed"
    else
        cmp -s "$tune/mca-params.conf" "$site/mca-params.conf" || fail "$1: not installed as is"
    fi
}

check "written choice only" 0 "" "$REPORT" "$GOOD"
check "dropped line" 2 "marks dropped" "$REPORT" "$GOOD\n$DROPPED"
check "dropped line first" 2 "marks dropped" "$REPORT" "$DROPPED\n$GOOD"
check "dropped, no spaces" 2 "marks dropped" "$REPORT" "coll_tuned_allreduce_algorithm=3"
check "dropped, tabs and CR" 2 "marks dropped" "$REPORT" \
    " \tcoll_tuned_allreduce_algorithm \t= \t3 \t\r"
check "dropped name, another value" 0 "" "$REPORT" "$GOOD\ncoll_tuned_allreduce_algorithm = 4"
check "dropped value, another name" 0 "" "$REPORT" "$GOOD\ncoll_tuned_bcast_algorithm = 3"
check "commented out" 0 "" "$REPORT" "$GOOD\n# $DROPPED\n#$DROPPED"
check "a line with no =" 0 "" "$REPORT" "$GOOD\ncoll_tuned_allreduce_algorithm 3"
check "dropped and also written" 0 "" '{"verified": true, "choices": [
 {"name": "coll_tuned_allreduce_algorithm", "value": "3", "written": false},
 {"name": "coll_tuned_allreduce_algorithm", "value": "3", "written": true}]}' "$DROPPED"
check "dropped choice with no value" 0 "" '{"verified": true, "choices": [
 {"name": "coll_tuned_bcast_algorithm", "value": "6", "written": true},
 {"name": "coll_tuned_allreduce_algorithm", "written": false}]}' "$GOOD\n$DROPPED"
check "dropped choice with no name" 0 "" '{"verified": true, "choices": [
 {"name": "coll_tuned_bcast_algorithm", "value": "6", "written": true},
 {"value": "3", "written": false}]}' "$GOOD\n$DROPPED"
check "dropped empty value" 2 "marks dropped" '{"verified": true, "choices": [
 {"name": "coll_tuned_bcast_algorithm", "value": "6", "written": true},
 {"name": "coll_tuned_allreduce_algorithm", "value": "", "written": false}]}' \
    "$GOOD\ncoll_tuned_allreduce_algorithm ="
check "no A/B" 2 "ran no A/B" '{"verified": false, "choices": [
 {"name": "coll_tuned_bcast_algorithm", "value": "6", "written": true}]}' "$GOOD"
check "nothing written" 2 "no choice was verified and written" '{"verified": true, "choices": [
 {"name": "coll_tuned_allreduce_algorithm", "value": "3", "written": false}]}' "$GOOD"
check "one written of two" 0 "" '{"verified": true, "choices": [
 {"name": "coll_tuned_allreduce_algorithm", "value": "3", "written": false},
 {"name": "coll_tuned_bcast_algorithm", "value": "6", "written": true}]}' "$GOOD"

# The last setting the guard reads: 255 others, then the dropped one
# (setting 256), alone and with one more after it (a file longer than the
# guard reads; past it: issue 38).
many=$(i=1; while [ $i -le 255 ]; do printf 'btl_tcp_param_%d = %d\\n' $i $i; i=$((i + 1)); done)
check "dropped at setting 256" 2 "marks dropped" "$REPORT" "$many$DROPPED"
check "dropped at setting 256 of 257" 2 "marks dropped" "$REPORT" "$many$DROPPED\n$GOOD"
# Every setting is read (issue 38, I17): the dropped one at 301.
many=$(i=1; while [ $i -le 300 ]; do printf 'btl_tcp_param_%d = %d\\n' $i $i; i=$((i + 1)); done)
check "dropped at setting 301" 2 "mca-params.conf:302 sets" "$REPORT" "$GOOD\n$many$DROPPED"
check "301 settings, none dropped" 0 "" "$REPORT" "$GOOD\n$many"
# A line is never cut in two (issue 38): 8200 blanks between the name and
# its '=' are one setting, and a long comment's tail is no setting.
pad=$(printf '%8200s' '')
check "dropped, 8200 blanks before =" 2 "marks dropped" "$REPORT" \
    "$GOOD\ncoll_tuned_allreduce_algorithm$pad= 3"
check "long comment, a setting at its end" 0 "" "$REPORT" "$GOOD\n# $pad$DROPPED"

# mpich.env, sourced with set -a: its export lines (and a plain NAME=VALUE,
# exported the same) against the report's dropped choices, the value read
# as sh reads it (issue 38, R8).
MREPORT='{"verified": true, "choices": [
 {"name": "MPIR_CVAR_BCAST_INTRA_ALGORITHM", "value": "binomial", "written": true},
 {"name": "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM", "value": "ring", "written": false}]}'
MGOOD='export MPIR_CVAR_BCAST_INTRA_ALGORITHM=binomial'
# check_env NAME WANT_RC WANT_MESSAGE ENV: as check, with ENV as mpich.env
# (and no mca-params.conf).
check_env() {
    n=$((n + 1))
    tune="$T/tune$n" site="$T/site$n"
    mkdir "$tune"
    printf '%s\n' "$MREPORT" >"$tune/report.json"
    printf '%b\n' "$4" >"$tune/mpich.env"
    "$CT" install "$tune" --to "$site" >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq "$2" ] || fail "$1: exit $rc, want $2 ($(cat "$T/err"))"
    if [ "$2" -ne 0 ]; then
        grep -qF "$3" "$T/err" || fail "$1: no '$3' in: $(cat "$T/err")"
        [ ! -e "$site/mpich.env" ] || fail "$1: refused, yet installed"
    else
        cmp -s "$tune/mpich.env" "$site/mpich.env" || fail "$1: not installed as is"
    fi
}
check_env "mpich.env written choice" 0 "" "# a comment\n$MGOOD\nexport MPIR_CVAR_ALLREDUCE_DEVICE_COLLECTIVE=0"
check_env "mpich.env dropped" 2 "mpich.env:2 sets MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM = ring, a choice" \
    "$MGOOD\nexport MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=ring"
check_env "mpich.env dropped, quoted" 2 "marks dropped" \
    "$MGOOD\n  export\tMPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM='ring' # c"
check_env "mpich.env dropped, double-quoted" 2 "marks dropped" \
    "$MGOOD\nexport MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=\"r\"ing"
check_env "mpich.env dropped, no export" 2 "marks dropped" \
    "$MGOOD\nMPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=ring"
check_env "mpich.env dropped name, another value" 0 "" \
    "$MGOOD\nexport MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=recursive_doubling"
check_env "mpich.env, an expansion" 2 "mpich.env:2: " \
    "$MGOOD\nexport MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=\$(touch $T/MARK)"
check_env "mpich.env, two words" 2 "more than one word" \
    "$MGOOD\nexport MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=ring MPIR_CVAR_X=1"
check_env "mpich.env, a command" 2 "run it as a command" "$MGOOD\ntouch $T/MARK"
check_env "mpich.env, an open quote" 2 "does not end on its line" \
    "$MGOOD\nexport MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM='ring"
# Inside "...", sh expands $ and ` (refused, each alone) and drops a
# backslash only before $ ` " \ ("r\ing" is r\ing, not ring); unquoted, a
# backslash always goes (r\ing is ring).
check_env "mpich.env, a backquote in double quotes" 2 "which sh would expand" \
    "$MGOOD\nexport MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=\"\`touch $T/MARK\`\""
check_env "mpich.env, a \$ in double quotes" 2 "which sh would expand" \
    "$MGOOD\nexport MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=\"\$(touch $T/MARK)\""
check_env "mpich.env, a backslash kept in double quotes" 0 "" \
    "$MGOOD\nexport MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=\"r\\\\ing\""
check_env "mpich.env dropped, a backslash unquoted" 2 "marks dropped" \
    "$MGOOD\nexport MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=r\\\\ing"
# A name may start with a lowercase letter (sh's NAME: [A-Za-z_][A-Za-z0-9_]*).
check_env "mpich.env, lowercase names" 0 "" "$MGOOD\nexport lower_case=1\nmixed_Name=2\n_x=3"
[ ! -e "$T/MARK" ] || fail "a value of mpich.env was run"
echo "$n cases"
exit 0
