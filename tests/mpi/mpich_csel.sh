#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# mpich-coll-selection.json under the installed MPICH (read through
# MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE at MPI_Init): written from a
# result with recursive_doubling for allreduce over 64..1024 B at 2 ranks,
# with MPICH's own tree taken out of the libmpich collbench runs on (as the
# tune takes it, from collbench's JSON fingerprint).  Which algorithm ran
# is seen by behaviour, not timing: the probe counts the UCX sends of one
# allreduce (recursive_doubling 1, reduce_scatter_allgather 2, which is
# MPICH's own choice at these sizes).  At every size of the range the file
# does what forcing the CVAR does; outside it, at 3 ranks, and for a file
# whose choice is another collective's, what MPICH's default does.  A
# reduce_scatter_allgather leaf keeps its restriction (built-in op): with a
# user op MPICH's own choice runs, where an unguarded leaf asserts.  SKIP
# without MPICH.
. "$top_srcdir/tests/mpi/lib.sh"
ct_mpich_collbench
probe="$top_builddir/build-mpich/csel_probe"
emit="$top_builddir/tests/mpi/mpich_csel_emit"
[ -x "$probe" ] || fail "no $probe"

# The library collbench runs on, from its JSON's fingerprint.
ct_mpich_run 2 -C allreduce -b 8 -e 8 -n 2 -w 1 --quiet --json "$T/fp.json" >/dev/null 2>"$T/err" ||
    fail "collbench: exit $? ($(cat "$T/err"))"
lib=$(sed -n 's/.*"libmpich\.so[.0-9]*": *{ *"path": *"\([^"]*\)".*/\1/p' "$T/fp.json" | head -n 1)
[ -z "$lib" ] && lib=$(tr -d '\n' <"$T/fp.json" |
    sed -n 's/.*"libmpich\.so[.0-9]*": *{[^}]*"path": *"\([^"]*\)".*/\1/p')
[ -f "$lib" ] || fail "no libmpich path in collbench's fingerprint: $(grep -c libmpich "$T/fp.json")"

mkdir "$T/rd" "$T/ag" "$T/rsa"
"$emit" "$lib" "$T/rd" 2 MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM recursive_doubling 64 1024 ||
    fail "emit rd: exit $?"
"$emit" "$lib" "$T/ag" 2 MPIR_CVAR_ALLGATHER_INTRA_ALGORITHM ring 64 1024 || fail "emit ag: exit $?"
"$emit" "$lib" "$T/rsa" 2 MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM reduce_scatter_allgather 64 1024 ||
    fail "emit rsa: exit $?"
[ -s "$T/rd/mpich-coll-selection.json" ] || fail "no mpich-coll-selection.json"

# The sends of one allreduce: NP COUNT [user], env from $E (words).
sends() {
    # shellcheck disable=SC2086
    out=$(env MPIR_CVAR_ALLREDUCE_DEVICE_COLLECTIVE=0 $E timeout 60 "$MPIEXEC_HYDRA" \
        -launcher fork -np "$1" "$probe" "$2" ${3:-} 2>"$T/err") ||
        fail "probe np=$1 count=$2 ${E:-auto}: exit $? ($(head -c 300 "$T/err"))"
    case $out in *wrong=0) ;; *) fail "probe np=$1 count=$2 ${E:-auto}: $out" ;; esac
    echo "$out" | sed -n 's/.*sends=\([0-9]*\).*/\1/p'
}
J=MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE
# Floats: 15 is 60 B, 16 is 64 B, 256 is 1024 B, 257 is 1028 B.
for c in 15 16 64 256 257 1024; do
    E= auto=$(sends 2 "$c")
    E=MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=recursive_doubling forced=$(sends 2 "$c")
    E="$J=$T/rd/mpich-coll-selection.json" file=$(sends 2 "$c")
    E="$J=$T/ag/mpich-coll-selection.json" other=$(sends 2 "$c")
    [ "$auto" = 2 ] && [ "$forced" = 1 ] ||
        fail "count $c: auto $auto and forced $forced sends: the probe does not tell them apart"
    case $c in
    16 | 64 | 256) want=$forced ;;
    *) want=$auto ;;
    esac
    [ "$file" = "$want" ] || fail "count $c: the file's allreduce sent $file, want $want"
    [ "$other" = "$auto" ] || fail "count $c: an allgather file changed allreduce ($other sends)"
done
# Another communicator size keeps MPICH's own subtree.
E= auto3=$(sends 3 64)
E="$J=$T/rd/mpich-coll-selection.json" file3=$(sends 3 64)
[ "$file3" = "$auto3" ] || fail "3 ranks: the file's allreduce sent $file3, MPICH's own $auto3"
# The restriction in front of the leaf: a user op takes MPICH's choice.
E="$J=$T/rsa/mpich-coll-selection.json" u=$(sends 2 64 user)
E= uauto=$(sends 2 64 user)
[ "$u" = "$uauto" ] || fail "user op: the file's allreduce sent $u, MPICH's own $uauto"
exit 0
