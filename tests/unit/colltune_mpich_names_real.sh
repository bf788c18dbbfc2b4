#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A space's MPIR_CVAR_* names and algorithm values against the installed
# MPICH's mpivars (skipped without it).  The values listed in the refusal
# are read from mpivars' descriptions, whose items it prints glued to the
# text before them: the list must be MPICH 4.0's, word for word.
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
CT="$top_builddir/tuner/colltune"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-mpichreal.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
command -v mpivars >/dev/null 2>&1 || { echo "SKIP: no mpivars (Debian: mpich)"; exit 77; }
mpivars 2>/dev/null | grep -q "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM" ||
    { echo "SKIP: mpivars lists no MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM"; exit 77; }

# refused VAR VALUE WANT: tune exits 2 with WANT (the listed values).
refused() {
    printf '[space]\nname = m\nvia = env\n\n[var %s]\nvalues = auto, %s\n' "$1" "$2" >"$T/s.ini"
    timeout 60 "$CT" tune --space "$T/s.ini" --out "$T/t" --np 2 --launcher "$T/no-mpirun" \
        >/dev/null 2>"$T/err"
    rc=$?
    [ "$rc" -eq 2 ] || fail "$1=$2: exit $rc, want 2 ($(cat "$T/err"))"
    grep -qF -- "$T/s.ini:5: $1: '$2' is not one of MPICH" "$T/err" || fail "$1=$2: $(cat "$T/err")"
    grep -qF -- "$3" "$T/err" || fail "$1=$2: want the list $3: $(cat "$T/err")"
}
refused MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM ring \
    "(auto, nb, smp, recursive_doubling, reduce_scatter_allgather)"
refused MPIR_CVAR_BCAST_INTRA_ALGORITHM ring \
    "(auto, binomial, nb, smp, scatter_recursive_doubling_allgather, scatter_ring_allgather)"
refused MPIR_CVAR_ALLGATHER_INTRA_ALGORITHM x "(auto, brucks, nb, recursive_doubling, ring)"
refused MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM x \
    "(auto, brucks, nb, pairwise, pairwise_sendrecv_replace, scattered)"
refused MPIR_CVAR_REDUCE_SCATTER_BLOCK_INTRA_ALGORITHM x \
    "(auto, noncommutative, recursive_doubling, pairwise, recursive_halving, nb)"
# 4.1's blocking radix is not a CVAR of 4.0.2.
if mpichversion 2>/dev/null | grep -q "Version: *4\.0\."; then
    printf '[space]\nname = m\nvia = env\n\n[var MPIR_CVAR_ALLREDUCE_RECEXCH_KVAL]\nvalues = 2, 4\n' >"$T/k.ini"
    timeout 60 "$CT" tune --space "$T/k.ini" --out "$T/t" --np 2 --launcher "$T/no-mpirun" \
        >/dev/null 2>"$T/err"
    grep -qF "k.ini:5: MPIR_CVAR_ALLREDUCE_RECEXCH_KVAL: not a CVAR of MPICH 4.0" "$T/err" ||
        fail "4.1's KVAL: $(cat "$T/err")"
fi

# The shipped space passes, and the tune goes on to its next check (the
# launcher, which does not exist).
timeout 60 "$CT" tune --space "$top_srcdir/tuner/spaces/mpich-coll.ini" --out "$T/t" --np 2 \
    --launcher "$T/no-mpirun" >/dev/null 2>"$T/err"
grep -qF "$T/no-mpirun" "$T/err" || fail "mpich-coll.ini did not reach the launcher check: $(cat "$T/err")"
exit 0
