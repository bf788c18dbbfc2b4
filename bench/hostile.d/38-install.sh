# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=sh
# bench/hostile.d/38-install.sh - issue 38's install and verify-install
# cases (the audit's reproductions, no MPI: MPICH's side through a stub
# mpiexec.hydra, a stand-in collbench and a fake mpivars):
#   I17, R8  the dropped-choice guard: a dropped choice at setting 301 of
#            mca-params.conf, one behind 8200 blanks (a cut line), one in
#            mpich.env (quoted), a line of mpich.env sh would run
#   R1, V6, R6  a FIFO report.json, mca-params.conf or nccl.env (install,
#            verify-install), a 17 MiB report.json
#   I9, I10  install --to 'new,dir' or a newline, tune --out 'c,omma':
#            refused, no directory left behind
#   I13, I3  install --force over another tune's files; --to TUNE/verify
#   V3, V4, V7, V5, V1  verify-install: NOT ONE OF ITS VALUES not launched,
#            a quoted value, a comma in a name, DIR a file, the removed run
#            directory said so
# Sourced by bench/hostile (its helpers and $T, $CT).
I38=$T/i38
mkdir -p "$I38/bin"
i38_report='{"verified": true, "choices": [
 {"name": "coll_tuned_bcast_algorithm", "value": "6", "written": true},
 {"name": "coll_tuned_allreduce_algorithm", "value": "3", "written": false},
 {"name": "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM", "value": "ring", "written": false}]}'
# i38_tune DIR: a tune's directory: report.json, mca-params.conf, verify/.
i38_tune() {
    mkdir -p "$1/verify"
    printf '%s\n' "$i38_report" >"$1/report.json"
    printf 'coll_tuned_bcast_algorithm = 6\n' >"$1/mca-params.conf"
    echo 'btl_vader_eager_limit = 1 # FROM_VERIFY' >"$1/verify/mca-params.conf"
}
# The stubs: mpiexec.hydra runs the program with its -genv variables;
# collbench writes the --cvars asked for as MPICH's MPI_T reads them.
cat >"$I38/bin/mpiexec.hydra" <<'STUB'
#!/bin/sh
echo launched >>"$(dirname "$0")/launched"
while [ $# -gt 0 ]; do
    case "$1" in
    -n | -np | -f | -ppn | -launcher) shift 2 ;;
    -genv) export "$2=$3" && shift 3 ;;
    *) break ;;
    esac
done
exec "$@"
STUB
cat >"$I38/bin/collbench" <<'FAKE'
#!/bin/sh
json= cvars=
while [ $# -gt 0 ]; do
    case $1 in --json) json=$2 && shift ;; --csv) : >"$2" && shift ;; --cvars) cvars=$2 && shift ;; esac
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
        printf '%s"%s": {"value": "%s"}' "$sep" "$n" "$v"
        sep=,
    done
    printf '}}\n'
} >"$json"
FAKE
_tab=$(printf '\t')
cat >"$I38/list" <<EOF
${_tab}MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=0${_tab}SCOPE_ALL_EQ${_tab}No-object${_tab}MPI_INT${_tab}VERBOSITY_USER_BASIC${_tab}Variable to select alltoall algorithmauto - Internal algorithm selection (can be overridden with MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE)brucks                    - Force brucks algorithmnb                        - Force nonblocking algorithmpairwise                  - Force pairwise algorithmpairwise_sendrecv_replace - Force pairwise sendrecv replace algorithmscattered                 - Force scattered algorithm
EOF
printf '#!/bin/sh\ncat "%s/list"\n' "$I38" >"$I38/bin/mpivars"
chmod +x "$I38/bin/mpiexec.hydra" "$I38/bin/collbench" "$I38/bin/mpivars"
# i38_gone RC_WANTED PATH CMD ARGS...: CMD, then exit 99 (and say so) if
# PATH exists; CMD's exit code otherwise.
cat >"$I38/bin/gone" <<'EOF'
#!/bin/sh
path=$1
shift
"$@"
rc=$?
[ ! -e "$path" ] || { echo "gone: $path was left behind" >&2; exit 99; }
exit "$rc"
EOF
chmod +x "$I38/bin/gone"
HY38="$I38/bin/mpiexec.hydra -launcher fork"

# --- I17, R8: the guard reads every setting, every line whole -------------
i38_tune "$I38/i17"
_i=1
while [ $_i -le 300 ]; do
    echo "btl_x$_i = $_i"
    _i=$((_i + 1))
done >>"$I38/i17/mca-params.conf"
echo 'coll_tuned_allreduce_algorithm = 3' >>"$I38/i17/mca-params.conf"
hcase "I17 a dropped choice at setting 302 of mca-params.conf" 2 "mca-params.conf:302 sets coll_tuned_allreduce_algorithm = 3" \
    "$CT" install "$I38/i17" --to "$I38/i17site"
i38_tune "$I38/i17c"
printf 'coll_tuned_allreduce_algorithm%8200s= 3\n' '' >>"$I38/i17c/mca-params.conf"
hcase "I17c a dropped choice behind 8200 blanks (one line, not two)" 2 "marks dropped" \
    "$CT" install "$I38/i17c" --to "$I38/i17csite"
i38_tune "$I38/r8"
printf "export MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM='ring'\n" >"$I38/r8/mpich.env"
hcase "R8 a dropped choice in mpich.env, quoted" 2 "mpich.env:1 sets MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM = ring" \
    "$CT" install "$I38/r8" --to "$I38/r8site"
i38_tune "$I38/r8b"
# shellcheck disable=SC2016 # the literal $(...) is the value under test
printf 'export MPIR_CVAR_BCAST_INTRA_ALGORITHM=$(touch MARK)\n' >"$I38/r8b/mpich.env"
hcase "R8b a value sh would run, in mpich.env" 2 "mpich.env:1: " \
    "$CT" install "$I38/r8b" --to "$I38/r8bsite"

# --- R1, V6, R6: FIFOs and a report too large -------------------------------
for _f in report.json mca-params.conf nccl.env; do
    i38_tune "$I38/r1-$_f"
    rm -f "$I38/r1-$_f/$_f"
    mkfifo "$I38/r1-$_f/$_f"
    hcase "R1 install, $_f a FIFO" 2 "$_f: is a FIFO" "$CT" install "$I38/r1-$_f" --to "$I38/r1site"
done
mkdir -p "$I38/v6"
mkfifo "$I38/v6/mca-params.conf"
hcase "V6 verify-install, mca-params.conf a FIFO" 2 "mca-params.conf: is a FIFO" \
    "$CT" verify-install "$I38/v6" --np 2
i38_tune "$I38/r6"
{
    printf '{"verified": true, "pad": "'
    dd if=/dev/zero bs=1048576 count=17 2>/dev/null | tr '\0' x
    printf '", "choices": [{"name": "coll_tuned_bcast_algorithm", "value": "6", "written": true}]}\n'
} >"$I38/r6/report.json"
hcase "R6 install, a 17 MiB report.json (not read whole)" 2 "colltune reads at most" \
    "$CT" install "$I38/r6" --to "$I38/r6site"
rm -f "$I38/r6/report.json"

# --- I9, I10: a refused DIR is never made ------------------------------------
i38_tune "$I38/t"
hcase "I9 install --to 'new,dir' (nothing left behind)" 2 "has a comma or newline" \
    "$I38/bin/gone" "$I38/new,dir" "$CT" install "$I38/t" --to "$I38/new,dir"
# shellcheck disable=SC2154 # nl: bench/hostile's newline
hcase "I10 install --to a newline (nothing left behind)" 2 "has a comma or newline" \
    "$I38/bin/gone" "$I38/nl${nl}dir" "$CT" install "$I38/t" --to "$I38/nl${nl}dir"
hcase "I9b tune --out 'c,omma' (nothing left behind)" 2 "has a comma" \
    "$I38/bin/gone" "$I38/c,omma" "$CT" tune --space "$SPACE" --out "$I38/c,omma" --np 2

# --- I13, I3: no mixed install, not into the tune's verify/ -------------------
i38_tune "$I38/full"
: >"$I38/full/nccl.env"
: >"$I38/full/ucx.conf"
"$CT" install "$I38/full" --to "$I38/site" >/dev/null 2>&1
keep "$I38/site/mca-params.conf" "$I38/site/nccl.env"
hcase "I13 install --force over another tune's other files" 2 "would stay beside them and mix two tunes" \
    "$CT" install "$I38/t" --to "$I38/site" --force
keep "$I38/t/verify/mca-params.conf"
hcase "I3 install --to TUNE_DIR/verify --force" 2 "is inside TUNE_DIR" \
    "$CT" install "$I38/t" --to "$I38/t/verify" --force

# --- V3, V4, V7, V5, V1: verify-install -----------------------------------------
mkdir -p "$I38/v3" "$I38/v4" "$I38/v7" "$I38/v1"
echo 'export MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=nosuch' >"$I38/v3/mpich.env"
on_stdout
hcase "V3 NOT ONE OF ITS VALUES: exit 1, nothing launched" 1 "not launched" \
    "$I38/bin/gone" "$I38/bin/launched" env PATH="$I38/bin:$PATH" \
    "$CT" verify-install "$I38/v3" --launcher "$HY38" --collbench "$I38/bin/collbench"
echo "export MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM='pairwise'" >"$I38/v4/mpich.env"
on_stdout
hcase "V4 a value in quotes, unquoted as sh would" 0 "1 of 1 values in force" \
    env PATH="$I38/bin:$PATH" \
    "$CT" verify-install "$I38/v4" --launcher "$HY38" --collbench "$I38/bin/collbench"
echo 'btl_vader_eager_limit,coll_tuned_priority = 1' >"$I38/v7/mca-params.conf"
hcase "V7 a comma in a name of mca-params.conf (a bad file)" 2 "is not a parameter name" \
    "$CT" verify-install "$I38/v7" --np 2
: >"$I38/afile"
hcase "V5 verify-install DIR a regular file (no stale errno)" 2 "afile: not a directory" \
    "$CT" verify-install "$I38/afile" --np 2
echo 'export MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=brucks' >"$I38/v1/mpich.env"
hcase "V1 the run directory named is said to be removed" 0 "(compared; kept when a launch fails)" \
    env PATH="$I38/bin:$PATH" \
    "$CT" verify-install "$I38/v1" --launcher "$HY38" --collbench "$I38/bin/collbench"
