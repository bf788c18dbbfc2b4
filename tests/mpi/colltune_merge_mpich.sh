#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: alone (the tunes decide from timings)
# colltune merge of real MPICH tunes (MPICH 4.0.2, ch4, mpiexec.hydra
# -launcher fork, np 2: MPICH's waiting ranks spin, and a real np 3 tune
# takes two minutes on these 2 cores).  The site forces a slow broadcast
# in its environment, as colltune_site_mpich.sh plants it
# (scatter_ring_allgather, ch4's own selection off), so each tune writes a
# verified range choice in the form that wins: mpich.env (the CVAR set to
# auto) and mpich-coll-selection.json (MPICH's own tree, read from the
# library the tune ran: report.json's "mpich_lib").  Two tunes, at 64..128
# KiB and at 512 KiB..1 MiB (one site for both: allreduce's planted smp
# would break broadcast's tune, whose collbench runs allreduces itself).
#  1. Same shape: the two tunes merged.  Every MPICH file a tune holds is
#     in the merge (or the merge is refused naming it: never exit 0 with a
#     file lost), every choice in its report.json is "written", and the
#     selection file holds both ranges.  One tune twice: its selection
#     file as the tune wrote it.
#  2. Two shapes: the broadcast tune with its report at 3 ranks beside it:
#     the selection file holds broadcast's choice at comm_size<=2 and <=3.
#     The other tune's range stays at comm size 2 only.  MPICH reads the
#     merged files (sourced mpich.env, the selection file named) and runs
#     broadcast at both ranges at np 2 and 3.
#  3. A tune whose MPICH library cannot be read: its range choice has no
#     file, so the merge is refused naming its selection file.
# SKIP without MPICH.
. "$top_srcdir/tests/mpi/lib.sh"
ct_mpich_collbench
ct_colltune_test
T=$(cd -P "$T" && pwd)

export MPIR_CVAR_BCAST_DEVICE_COLLECTIVE=0 MPIR_CVAR_BCAST_INTRA_ALGORITHM=scatter_ring_allgather
MFILES="mpich.env intel-mpi.env mpich-coll-selection.json"

tune() { # OUT SIZES...
    out=$1
    shift
    timeout 120 "$CT" tune --space mpich-coll --out "$out" --launcher "$MPIEXEC_HYDRA -launcher fork" \
        --np 2 --collbench "$MPICH_COLLBENCH" --collectives broadcast -- "$@" >"$out.out" 2>&1 ||
        fail "tune $*: exit $? ($(tail -5 "$out.out"))"
    [ -f "$out/mpich-coll-selection.json" ] || fail "tune $*: no selection file: $(grep '^- ' "$out/report.md")"
}
tune "$T/bc" -b 64K -e 128K -f 2
tune "$T/big" -b 512K -e 1M -f 2
[ "$(json_get "$T/bc/report.json" mpich_lib)" != null ] || fail "report.json names no MPICH library"

# kept OUT TUNE...: merge exits 0 and keeps every MPICH file of the tunes,
# or exits 2 naming the file it cannot keep; 0 when merged.
kept() {
    out=$1
    shift
    "$CT" merge --out "$out" "$@" >"$T/out" 2>"$T/err"
    rc=$?
    for f in $MFILES; do
        for t in "$@"; do
            [ -f "$t/$f" ] || continue
            [ "$rc" = 0 ] && [ ! -f "$out/$f" ] && fail "merge of $*: exit 0 without $t's $f"
            [ "$rc" = 2 ] && grep -qF "$t/$f" "$T/err" && return 1
        done
    done
    [ "$rc" = 0 ] || fail "merge of $*: exit $rc naming no MPICH file: $(cat "$T/err")"
    n=$(json_get "$out/report.json" choices.#)
    i=0
    while [ "$i" -lt "$n" ]; do
        [ "$(json_get "$out/report.json" "choices.$i.written")" = true ] ||
            fail "merge of $*: choice $i not written: $(cat "$out/report.json")"
        i=$((i + 1))
    done
    return 0
}

# 1. Same shape.
kept "$T/m1" "$T/bc" "$T/big" || fail "1: refused: $(cat "$T/err")"
s="$T/m1/mpich-coll-selection.json"
for max in 131072 1048576; do
    json_get "$s" "collective=bcast.comm_type=intra.comm_size<=2.avg_msg_size<=$max" >/dev/null ||
        fail "1: the selection file lacks the range up to $max: $(json_get "$s" collective=bcast)"
done
grep -q "^export MPIR_CVAR_BCAST_INTRA_ALGORITHM=auto\$" "$T/m1/mpich.env" ||
    fail "1: mpich.env: $(cat "$T/m1/mpich.env")"
cp -r "$T/bc" "$T/bc2"
kept "$T/m0" "$T/bc" "$T/bc2" || fail "1: the same tune twice refused: $(cat "$T/err")"
cmp -s "$T/bc/mpich-coll-selection.json" "$T/m0/mpich-coll-selection.json" ||
    fail "1: the same tune twice: another selection file"

# 2. Two shapes.
cp -r "$T/bc" "$T/bc3"
sed -i 's/"nranks": 2,/"nranks": 3,/; s/"ranks_per_node": 2,/"ranks_per_node": 3,/' "$T/bc3/report.json"
kept "$T/m2" "$T/bc" "$T/bc3" "$T/big" || fail "2: refused: $(cat "$T/err")"
s="$T/m2/mpich-coll-selection.json"
for n in 2 3; do
    json_get "$s" "collective=bcast.comm_type=intra.comm_size<=$n.avg_msg_size<=131072" >/dev/null ||
        fail "2: no broadcast choice at comm size $n: $(json_get "$s" collective=bcast)"
done
json_get "$s" "collective=bcast.comm_type=intra.comm_size<=3.avg_msg_size<=1048576" >/dev/null 2>&1 &&
    fail "2: the tune at 2 ranks only holds at 3: $(json_get "$s" collective=bcast)"
for np in 2 3; do
    # shellcheck disable=SC1090
    (set -a && . "$T/m2/mpich.env" && MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=$s &&
        ct_mpich_run $np -C broadcast -b 64K -e 1M -f 16 -n 2 -w 1 --quiet) >"$T/run.out" 2>&1 ||
        fail "2: MPICH at np $np with the merged files: exit $? ($(tail -5 "$T/run.out"))"
done

# 3. A library that cannot be read.
cp -r "$T/bc" "$T/nolib"
sed -i 's|"mpich_lib": "[^"]*"|"mpich_lib": "/nonexistent/libmpich.so.12"|' "$T/nolib/report.json"
"$CT" merge --out "$T/m3" "$T/nolib" "$T/big" >"$T/out" 2>"$T/err" && fail "3: merged without the tree"
grep -qF "the tune wrote $T/nolib/mpich-coll-selection.json" "$T/err" && grep -qF /nonexistent/libmpich "$T/err" ||
    fail "3: $(cat "$T/err")"
[ ! -e "$T/m3" ] || fail "3: --out left behind"
echo PASS
