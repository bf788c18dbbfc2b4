#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A space's MPIR_CVAR_* names and algorithm values against mpivars, with a
# fake mpivars on PATH (fast, and the same without MPICH installed):
#  - an unknown name and a value not in the description are refused, exit
#    2, with the space's file:line and the listed values;
#  - "algorithmscattered" is read as algorithm + scattered (the column the
#    names are padded to), not algorithms + cattered;
#  - a space without MPIR_CVAR_ names never runs mpivars; a failing or
#    hanging mpivars is a note and the check is skipped.
set -u
: "${top_builddir:?run through make check}"
CT="$top_builddir/tuner/colltune"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-mpichnames.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
mkdir "$T/bin" "$T/bad" "$T/slow"
# What mpivars 4.0.2 prints (its descriptions with the line breaks gone).
tab=$(printf '\t')
cat >"$T/list" <<EOF2
${tab}MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=0${tab}SCOPE_ALL_EQ${tab}No-object${tab}MPI_INT${tab}VERBOSITY_USER_BASIC${tab}Variable to select alltoall algorithmauto - Internal algorithm selection (can be overridden with MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE)brucks                    - Force brucks algorithmnb                        - Force nonblocking algorithmpairwise                  - Force pairwise algorithmpairwise_sendrecv_replace - Force pairwise sendrecv replace algorithmscattered                 - Force scattered algorithm
${tab}MPIR_CVAR_COLLECTIVE_FALLBACK   =2${tab}SCOPE_ALL_EQ${tab}No-object${tab}MPI_INT${tab}VERBOSITY_USER_BASIC${tab}Use the fallback
EOF2
printf '#!/bin/sh\necho run >>"%s/ran"\ncat "%s/list"\n' "$T" "$T" >"$T/bin/mpivars"
printf '#!/bin/sh\necho "MPICH Version:    4.0.2"\n' >"$T/bin/mpichversion"
printf '#!/bin/sh\necho broken >&2\nexit 1\n' >"$T/bad/mpivars"
printf '#!/bin/sh\nexec sleep 60\n' >"$T/slow/mpivars"
chmod +x "$T/bin/mpivars" "$T/bin/mpichversion" "$T/bad/mpivars" "$T/slow/mpivars"

space() { # FILE VAR VALUES
    printf '[space]\nname = m\nvia = env\n\n[var %s]\nvalues = %s\nrequires = MPIR_CVAR_COLLECTIVE_FALLBACK=error\n' \
        "$2" "$3" >"$1"
}
# run PATHDIR SPACE: tune up to the launcher check (no launcher exists).
run() {
    PATH="$1:$PATH" timeout 60 "$CT" tune --space "$2" --out "$T/t" --np 2 \
        --launcher "$T/no-mpirun" >/dev/null 2>"$T/err"
}

space "$T/v.ini" MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM "brucks, cattered"
run "$T/bin" "$T/v.ini"
rc=$?
[ "$rc" -eq 2 ] || fail "bad value: exit $rc, want 2 ($(cat "$T/err"))"
grep -qF "$T/v.ini:5: MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM: 'cattered' is not one of MPICH 4.0.2's values (auto, brucks, nb, pairwise, pairwise_sendrecv_replace, scattered)" "$T/err" ||
    fail "bad value: $(cat "$T/err")"
[ ! -e "$T/t" ] || fail "the refused tune made its output directory"

space "$T/n.ini" MPIR_CVAR_ALLTOALL_KVAL "2, 4"
run "$T/bin" "$T/n.ini"
[ $? -eq 2 ] || fail "unknown name: not refused ($(cat "$T/err"))"
grep -qF "$T/n.ini:5: MPIR_CVAR_ALLTOALL_KVAL: not a CVAR of MPICH 4.0.2 (mpivars does not list it)" "$T/err" ||
    fail "unknown name: $(cat "$T/err")"

# A requires= name is checked too.
printf '[space]\nname = m\nvia = env\n\n[var MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM]\nvalues = brucks\nrequires = MPIR_CVAR_COLECTIVE_FALLBACK=error\n' >"$T/r.ini"
run "$T/bin" "$T/r.ini"
grep -qF "MPIR_CVAR_COLECTIVE_FALLBACK: not a CVAR" "$T/err" || fail "requires name: $(cat "$T/err")"

space "$T/ok.ini" MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM "scattered, pairwise_sendrecv_replace"
run "$T/bin" "$T/ok.ini"
grep -qF "$T/no-mpirun" "$T/err" || fail "good values: did not reach the launcher check: $(cat "$T/err")"
grep -q "MPIR_CVAR" "$T/err" && fail "good values refused: $(cat "$T/err")"

# Without MPIR_CVAR_ names mpivars is not run.
rm -f "$T/ran"
printf '[space]\nname = m\n[var MY_VAR]\nvia = env\nvalues = 1, 2\n' >"$T/other.ini"
run "$T/bin" "$T/other.ini"
[ ! -e "$T/ran" ] || fail "mpivars ran for a space without MPIR_CVAR_ names"

# A failing or hanging mpivars: a note, the check skipped, the tune goes on
# (the hang cut at 1 s, not the 10 s default).
COLLTUNE_HELPER_TIMEOUT=1
export COLLTUNE_HELPER_TIMEOUT
for d in bad slow; do
    run "$T/$d:$T/bin" "$T/v.ini"
    grep -qF "note: mpivars" "$T/err" || fail "$d mpivars: no note: $(cat "$T/err")"
    grep -qF "$T/no-mpirun" "$T/err" || fail "$d mpivars: did not go on: $(cat "$T/err")"
done
exit 0
