# SPDX-License-Identifier: BSD-3-Clause
# tests/mpi/lib.sh - shared set-up for the MPI tests (sourced).
#
# Runs collbench through the real mpirun, with the settings DESIGN.md found
# necessary here: root allowed, oversubscription past 2 cores, no binding
# and yield-when-idle (or small collectives take milliseconds), and session
# files in the test's own directory.  Every launch has a timeout, so a hang
# fails the test instead of the CI run.
set -u

: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
: "${MPIRUN:=mpirun}"

COLLBENCH="$top_builddir/src/collbench"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-test.XXXXXX")
trap 'rm -rf "$T"' EXIT

# ct_colltune_test: for the colltune tests, $CT is the built colltune, and
# whatever a failed check leaves running (any process whose command line
# holds $T, unique to the test) is killed when the test exits.
ct_colltune_test() {
    CT="$top_builddir/tuner/colltune"
    trap 'for p in $(pgrep -f "$T/" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done; rm -rf "$T"' EXIT
}

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# ct_mpirun NP ARGS... : collbench under mpirun; stdout/stderr as given.
# CT_MPIRUN_ARGS adds mpirun options (unquoted words, e.g. "-x VAR=value").
# odls_base_sigkill_timeout 0: when a rank exits non-zero (every bad-input
# case), mpirun aborts the job and waited 1 s between SIGTERM and SIGKILL
# for ranks that had already exited: 1.4 s a case instead of 0.4 s.
ct_mpirun() {
    np=$1
    shift
    # shellcheck disable=SC2086
    timeout 120 "$MPIRUN" --allow-run-as-root -np "$np" --oversubscribe --bind-to none \
        --mca mpi_yield_when_idle 1 --mca orte_tmpdir_base "$T" --mca odls_base_sigkill_timeout 0 \
        ${CT_MPIRUN_ARGS:-} \
        "$COLLBENCH" "$@"
}

# check_table FILE NRANKS : the nccl-tests table shape, every #wrong zero.
check_table() {
    awk -f "$top_srcdir/tests/mpi/table_check.awk" "$1" || fail "table shape in $1"
}

# json_get FILE PATH : one value from a JSON file (tests/tools/json_get).
json_get() {
    "$top_builddir/tests/tools/json_get" "$1" "$2"
}

# ct_wait_lines FILE N: until FILE has N complete lines (10 s at most).
ct_wait_lines() {
    i=0
    while [ "$(cat "$1" 2>/dev/null | wc -l)" -lt "$2" ] && [ $i -lt 200 ]; do
        sleep 0.05
        i=$((i + 1))
    done
    [ "$(wc -l <"$1")" -ge "$2" ] || fail "journal $1 did not reach $2 lines"
}

# ct_slow_collbench PATH SECONDS: a collbench that waits SECONDS before it
# starts, so that a run using it is still going when a test needs it to.
ct_slow_collbench() {
    printf '#!/bin/sh\nsleep %s\nexec "%s" "$@"\n' "$2" "$COLLBENCH" >"$1"
    chmod +x "$1"
}

# ct_wait_lock DIR: until a colltune holds DIR/.lock (its pid written).
ct_wait_lock() {
    i=0
    until [ -s "$1/.lock" ]; do
        i=$((i + 1))
        [ "$i" -lt 200 ] || fail "nothing took the lock of $1"
        sleep 0.05
    done
}

# ct_journal_trials FILE: "SCOPE KEY LAUNCH" of each search trial of a
# journal (the verification's A/B trials, scopes "verify", "verify-dtypes"
# and "verify-confirm", left out).
ct_journal_trials() {
    grep -v '^{"key":"[0-9a-f]*","scope":"verify' "$1" |
        sed 's/^{"key":"\([0-9a-f]*\)","scope":"\([^"]*\)".*"launch":\([0-9]*\),"status".*/\2 \1 \3/'
}

# nccl_all_right NAME NCOLLS : after a run of the nccl backend whose exit
# status is $rc and table $T/NAME.out: exit 0, one clean footer per
# collective, and no row with a non-zero #wrong (columns 9 and 13 of the
# data rows).  In-place alltoall is N/A, never checked: NCCL has none (as
# in nccl-tests).
nccl_all_right() {
    [ "$rc" -eq 0 ] || fail "$1: exit $rc: $(cat "$T/$1.err")"
    n=$(grep -c '^# Out of bounds values : 0 OK' "$T/$1.out")
    [ "$n" -eq "$2" ] || fail "$1: $n clean footers, want $2: $(cat "$T/$1.out")"
    bad=$(awk '/^# Collective test starting: / { coll = $NF }
        !/^#/ && NF >= 13 && ($9 != 0 || $13 != (coll == "alltoall" ? "N/A" : 0))' "$T/$1.out")
    [ -z "$bad" ] || fail "$1: wrong results: $bad"
    echo "ok: $1"
}

# ct_build_fake_nccl: the NCCL test double (tests/nccl/fake_nccl_mpi.c,
# NCCL's API over MPI on host memory: there is no GPU here) and the stub
# CUDA runtime, built with mpicc into $T/libnccl-fake.so and
# $T/libcudart-stub.so; SKIP (77) without an mpicc.
ct_build_fake_nccl() {
    mpicc_fake=
    for c in "${MPICC:-}" "$(dirname "$MPIRUN")/mpicc" mpicc; do
        if [ -n "$c" ] && command -v "$c" >/dev/null 2>&1; then
            mpicc_fake=$c
            break
        fi
    done
    [ -n "$mpicc_fake" ] || {
        echo "SKIP: no mpicc to build the fake libnccl"
        exit 77
    }
    "$mpicc_fake" -std=c11 -shared -fPIC -o "$T/libnccl-fake.so" \
        "$top_srcdir/tests/nccl/fake_nccl_mpi.c" || fail "cannot build the fake libnccl"
    "$mpicc_fake" -std=c11 -shared -fPIC -o "$T/libcudart-stub.so" \
        "$top_srcdir/tests/nccl/stub_cudart.c" || fail "cannot build the stub libcudart"
}

# ct_build_fake_nccl_noa2a: after ct_build_fake_nccl, the same double as an
# NCCL 2.27 without ncclAlltoAll (-DFAKE_NCCL_NO_ALLTOALL), in
# $T/libnccl-fake-noa2a.so.
ct_build_fake_nccl_noa2a() {
    "$mpicc_fake" -std=c11 -shared -fPIC -DFAKE_NCCL_NO_ALLTOALL -o "$T/libnccl-fake-noa2a.so" \
        "$top_srcdir/tests/nccl/fake_nccl_mpi.c" || fail "cannot build the fake libnccl without ncclAlltoAll"
}

# ct_mpich_collbench: for the MPICH tests, $MPICH_COLLBENCH is make check's
# second collbench (build-mpich/collbench, built against MPICH where
# configure found mpicc.mpich and mpiexec.hydra); SKIP (77) without it.
ct_mpich_collbench() {
    MPICH_COLLBENCH="$top_builddir/build-mpich/collbench"
    if [ ! -x "$MPICH_COLLBENCH" ] || [ -z "${MPIEXEC_HYDRA:-}" ]; then
        echo "SKIP: no MPICH collbench: apt-get install mpich libmpich-dev, then configure again"
        exit 77
    fi
}

# ct_mpich_run NP ARGS... : the MPICH collbench under mpiexec.hydra (after
# ct_mpich_collbench); stdout/stderr as given.  Hydra needs no option to
# run as root, nor to oversubscribe, and passes the whole environment on;
# -launcher fork starts its proxy here, never through ssh, whatever the
# host name resolves to.  MPICH 4.0.2 (ch4) has nothing like Open MPI's
# yield when idle: callers oversubscribing the 2 cores keep runs short
# (doc/tests.md).  CT_MPICH_RUN_ARGS adds hydra options (unquoted words).
ct_mpich_run() {
    np=$1
    shift
    # shellcheck disable=SC2086
    timeout 120 "$MPIEXEC_HYDRA" -launcher fork -np "$np" ${CT_MPICH_RUN_ARGS:-} \
        "$MPICH_COLLBENCH" "$@"
}
