#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune verify-install through mpiexec.hydra (issue 38), with no MPI:
# a stub mpiexec.hydra (records its argv, runs the program with its -genv
# variables), a stand-in collbench that writes the --cvars it is asked for
# as MPICH's MPI_T would (an algorithm as its position in the list) and a
# fake mpivars.  Checks:
#  - mpich.env's value is read as sh reads it: 'pairwise' and "pairwise"
#    are pairwise, in force (exit 0), passed on without quotes (V4);
#  - a value the installed MPICH does not list is NOT ONE OF ITS VALUES,
#    exit 1, and nothing is launched (V3); a value sh would expand is a
#    bad file, exit 2, never run;
#  - a comma in a name of mca-params.conf is a bad file, exit 2, before
#    any launch (V7: it went into --cvars as two names);
#  - DIR a regular file says "not a directory", not a stale errno (V5);
#  - the run directory named by the launch's line is said to be removed
#    once it is (V1).
set -u
: "${top_builddir:?run through make check}"
CT="$top_builddir/tuner/colltune"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-vinst.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
mkdir "$T/bin" "$T/tmp"

cat >"$T/mpiexec.hydra" <<'STUB'
#!/bin/sh
log="$(dirname "$0")/argv.log"
for a in "$@"; do printf '%s\n' "$a"; done >>"$log"
echo "--end--" >>"$log"
while [ $# -gt 0 ]; do
    case "$1" in
    -n | -np | -f | -ppn | -launcher) shift 2 ;;
    -genv)
        export "$2=$3"
        shift 3
        ;;
    *) break ;;
    esac
done
exec "$@"
STUB
cat >"$T/collbench" <<'FAKE'
#!/bin/sh
json= cvars=
while [ $# -gt 0 ]; do
    case $1 in
    --json) json=$2 && shift ;;
    --csv) : >"$2" && shift ;;
    --cvars) cvars=$2 && shift ;;
    esac
    shift
done
{
    printf '{"cvars": {'
    sep=
    for n in $(echo "$cvars" | tr , ' '); do
        eval "v=\${$n-}"
        i=0
        for w in auto brucks nb pairwise pairwise_sendrecv_replace scattered; do
            [ "$w" = "$v" ] && v=$i
            i=$((i + 1))
        done
        printf '%s"%s": {"value": %s}' "$sep" "$n" "$v"
        sep=,
    done
    printf '}}\n'
} >"$json"
FAKE
# What mpivars 4.0.2 prints for the CVAR (its description's line breaks gone).
tab=$(printf '\t')
cat >"$T/list" <<EOF2
${tab}MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=0${tab}SCOPE_ALL_EQ${tab}No-object${tab}MPI_INT${tab}VERBOSITY_USER_BASIC${tab}Variable to select alltoall algorithmauto - Internal algorithm selection (can be overridden with MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE)brucks                    - Force brucks algorithmnb                        - Force nonblocking algorithmpairwise                  - Force pairwise algorithmpairwise_sendrecv_replace - Force pairwise sendrecv replace algorithmscattered                 - Force scattered algorithm
EOF2
printf '#!/bin/sh\ncat "%s/list"\n' "$T" >"$T/bin/mpivars"
chmod +x "$T/mpiexec.hydra" "$T/collbench" "$T/bin/mpivars"

# vi WANT_RC ENV_LINE: verify-install of a DIR holding mpich.env = ENV_LINE
# through the stub; its exit must be WANT_RC.
vi() {
    rm -rf "$T/site" "$T/argv.log"
    mkdir "$T/site"
    printf '%s\n' "$2" >"$T/site/mpich.env"
    PATH="$T/bin:$PATH" TMPDIR="$T/tmp" "$CT" verify-install "$T/site" \
        --launcher "$T/mpiexec.hydra -launcher fork" --collbench "$T/collbench" >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq "$1" ] || fail "$2: exit $rc, want $1 ($(cat "$T/out" "$T/err"))"
}

vi 0 "export MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=pairwise"
grep -qF "1 of 1 values in force" "$T/out" || fail "plain: $(cat "$T/out")"
# V1: the directory the launch's line names is said to be removed.
run=$(sed -n 's/.*; results in \(.*\)\/$/\1/p' "$T/err")
[ -n "$run" ] || fail "no 'results in' line: $(cat "$T/err")"
[ ! -e "$run" ] || fail "the run directory $run is still there"
grep -qF "removed $run/" "$T/err" || fail "V1: $run named, removed without a word: $(cat "$T/err")"

vi 0 "export MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM='pairwise'"
grep -qF "1 of 1 values in force" "$T/out" || fail "V4 '...': $(cat "$T/out")"
grep -qx "pairwise" "$T/argv.log" || fail "V4 '...': -genv value: $(cat "$T/argv.log")"
vi 0 'export MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM="pair"wise # a comment'
grep -qF "1 of 1 values in force" "$T/out" || fail "V4 \"...\": $(cat "$T/out")"

vi 1 "export MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=nosuch"
grep -qF "NOT ONE OF ITS VALUES: MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM = nosuch" "$T/out" ||
    fail "V3: $(cat "$T/out")"
[ ! -e "$T/argv.log" ] || fail "V3: launched after NOT ONE OF ITS VALUES"

vi 2 "export MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=\$(touch $T/MARK)"
grep -qF "mpich.env:1: " "$T/err" || fail "an expansion: $(cat "$T/err")"
if [ -e "$T/argv.log" ] || [ -e "$T/MARK" ]; then fail "an expansion: launched or run"; fi

# V7: a comma in an MCA name, refused before the launch.
rm -rf "$T/site" "$T/argv.log"
mkdir "$T/site"
printf 'btl_vader_eager_limit,coll_tuned_priority = 1\n' >"$T/site/mca-params.conf"
"$CT" verify-install "$T/site" --np 2 --launcher "$T/no-mpirun" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "V7: exit $rc, want 2 ($(cat "$T/out" "$T/err"))"
grep -qF "mca-params.conf:1: 'btl_vader_eager_limit,coll_tuned_priority' is not a parameter name" \
    "$T/err" || fail "V7: $(cat "$T/err")"

# V5: DIR a file.
: >"$T/afile"
"$CT" verify-install "$T/afile" --np 2 >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "V5: exit $rc, want 2"
grep -qF "DIR $T/afile: not a directory" "$T/err" || fail "V5: $(cat "$T/err")"
exit 0
