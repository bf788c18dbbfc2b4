#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# The nccl backend where NCCL cannot run: every rank exits 77 with one
# exact "NCCL backend unavailable: <reason>" line, rank 0's naming the
# failing ranks, and nothing hangs (each run well under 20 s).
#
# Runs without a GPU.  Failures are produced with stand-in libraries built
# here from tests/nccl/stub_nccl.c and stub_cudart.c, plus this machine's
# own CUDA when it has the toolkit but no driver (DESIGN.md, "This
# machine").  It launches mpirun itself (not ct_mpirun): some cases give
# ranks different environments with mpirun's MPMD ":" syntax.
. "$top_srcdir/tests/mpi/lib.sh"
STUBS="$top_srcdir/tests/nccl"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The variables under test must come from the cases alone.
unset COLLTUNE_NCCL_LIB COLLTUNE_CUDART_LIB STUB_CUDA_DEVICES STUB_NCCL_INIT_FAIL \
    CUDA_VISIBLE_DEVICES

P='NCCL backend unavailable: '
ARGS='--backend nccl -b 8 -e 64 -f 2'
NOFILE='cannot open shared object file: No such file or directory'
tested=0

# launch NAME MPIRUN-ARGS... : one job with a 60 s timeout; output in
# $T/NAME.out and $T/NAME.err, exit status in $rc, seconds in $secs.
# odls_base_sigkill_timeout 0: as lib.sh's ct_mpirun (each case exits
# non-zero, and mpirun waited 1 s for ranks that had exited).
launch() {
    name=$1
    shift
    start=$(date +%s)
    timeout 60 "$MPIRUN" --oversubscribe --bind-to none --mca mpi_yield_when_idle 1 \
        --mca orte_tmpdir_base "$T" --mca odls_base_sigkill_timeout 0 "$@" >"$T/$name.out" \
        2>"$T/$name.err"
    rc=$?
    secs=$(($(date +%s) - start))
}

# expect NAME NP RANK0-LINE OTHER-LINE : exit 77 in under 20 s, exactly NP
# unavailable lines: rank 0's, and NP-1 copies of the others'.
expect() {
    name=$1 np=$2 line0=$3 other=$4
    [ "$rc" -eq 77 ] || fail "$name: exit $rc, want 77: $(cat "$T/$name.err")"
    [ "$secs" -lt 20 ] || fail "$name: took $secs s (a hang?)"
    n=$(grep -c "^$P" "$T/$name.err")
    [ "$n" -eq "$np" ] || fail "$name: $n unavailable lines, want $np: $(cat "$T/$name.err")"
    if [ "$line0" = "$other" ]; then
        n=$(grep -cxF -- "$P$line0" "$T/$name.err")
        [ "$n" -eq "$np" ] || fail "$name: want $np x '$P$line0', got: $(cat "$T/$name.err")"
    else
        n=$(grep -cxF -- "$P$line0" "$T/$name.err")
        [ "$n" -eq 1 ] || fail "$name: want rank 0's '$P$line0', got: $(cat "$T/$name.err")"
        n=$(grep -cxF -- "$P$other" "$T/$name.err")
        [ "$n" -eq $((np - 1)) ] ||
            fail "$name: want $((np - 1)) x '$P$other', got: $(cat "$T/$name.err")"
    fi
    grep -q . "$T/$name.out" && fail "$name: printed results: $(cat "$T/$name.out")"
    tested=$((tested + 1))
    echo "ok: $name (${secs} s)"
}

# --- (b) This machine as it is: the real toolkit, and no driver. ---
if [ -e /usr/local/cuda/lib64/libcudart.so.13 ] && [ ! -e /dev/nvidiactl ] &&
    ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
    launch machine -np 2 "$COLLBENCH" $ARGS
    r='cudaGetDeviceCount failed: CUDA driver version is insufficient for CUDA runtime version (35)'
    expect machine 2 "rank 0,1: $r" "$r"
else
    echo "skipped: this machine's CUDA (needs /usr/local/cuda 13 and no driver)"
fi

# --- The rest uses stand-in libraries. ---
CC_STUB=
for c in "${CC:-}" cc gcc; do
    if [ -n "$c" ] && command -v "$c" >/dev/null 2>&1; then
        CC_STUB=$c
        break
    fi
done
if [ -z "$CC_STUB" ]; then
    [ "$tested" -gt 0 ] && exit 0
    echo "SKIP: no C compiler for the stub libraries, and no CUDA toolkit"
    exit 77
fi
stub() { # stub OUTPUT SOURCE FLAGS...
    out=$1 src=$2
    shift 2
    "$CC_STUB" -std=c11 -shared -fPIC "$@" -o "$T/$out" "$STUBS/$src" ||
        fail "cannot build $out"
}
stub libnccl-full.so stub_nccl.c
stub libnccl-partial.so stub_nccl.c -DSTUB_ONLY_VERSION
stub libnccl-old.so stub_nccl.c -DSTUB_VERSION=21100
stub libcudart-stub.so stub_cudart.c
FULL="$T/libnccl-full.so" PARTIAL="$T/libnccl-partial.so" OLD="$T/libnccl-old.so"
CUDART="$T/libcudart-stub.so"

# --- (a) No CUDA runtime: the named library does not load. ---
launch nocudart -np 2 "$COLLBENCH" $ARGS --nccl-lib "$FULL" --cudart-lib /nonexistent/libcudart.so
r="cannot load /nonexistent/libcudart.so: /nonexistent/libcudart.so: $NOFILE"
expect nocudart 2 "rank 0,1: $r" "$r"

# The variable names the library; --cudart-lib wins over it.
launch envlib -np 2 -x COLLTUNE_CUDART_LIB=/nonexistent/env/libcudart.so \
    -x COLLTUNE_NCCL_LIB="$FULL" "$COLLBENCH" $ARGS
r="cannot load /nonexistent/env/libcudart.so: /nonexistent/env/libcudart.so: $NOFILE"
expect envlib 2 "rank 0,1: $r" "$r"
launch optwins -np 2 -x COLLTUNE_CUDART_LIB=/nonexistent/env/libcudart.so \
    "$COLLBENCH" $ARGS --nccl-lib "$FULL" --cudart-lib /nonexistent/opt/libcudart.so
r="cannot load /nonexistent/opt/libcudart.so: /nonexistent/opt/libcudart.so: $NOFILE"
expect optwins 2 "rank 0,1: $r" "$r"

# --- (c) A libnccl without a symbol the backend needs. ---
launch partial -np 2 "$COLLBENCH" $ARGS --nccl-lib "$PARTIAL"
r="$PARTIAL lacks symbol ncclGetUniqueId"
expect partial 2 "rank 0,1: $r" "$r"
launch partial4 -np 4 "$COLLBENCH" $ARGS --nccl-lib "$PARTIAL"
expect partial4 4 "rank 0-3: $r" "$r"

# --- Too old a NCCL. ---
launch old -np 2 "$COLLBENCH" $ARGS --nccl-lib "$OLD" --cudart-lib "$CUDART"
r='NCCL 2.11.0 is older than the minimum 2.12.0'
expect old 2 "rank 0,1: $r" "$r"

# --- A runtime that sees no device. ---
launch nodevice -np 2 -x STUB_CUDA_DEVICES=0 "$COLLBENCH" $ARGS --nccl-lib "$FULL" \
    --cudart-lib "$CUDART"
expect nodevice 2 "rank 0,1: no CUDA device visible" "no CUDA device visible"

# --- One rank fails, the other is fine: nobody enters NCCL, and rank 0
#     names the failing rank whichever it is. ---
launch rank1 -x STUB_CUDA_DEVICES=2 \
    -np 1 "$COLLBENCH" $ARGS --nccl-lib "$FULL" --cudart-lib "$CUDART" : \
    -np 1 "$COLLBENCH" $ARGS --nccl-lib "$PARTIAL" --cudart-lib "$CUDART"
r="$PARTIAL lacks symbol ncclGetUniqueId"
expect rank1 2 "rank 1: $r" "$r"
launch rank0 -x STUB_CUDA_DEVICES=2 \
    -np 1 "$COLLBENCH" $ARGS --nccl-lib "$PARTIAL" --cudart-lib "$CUDART" : \
    -np 1 "$COLLBENCH" $ARGS --nccl-lib "$FULL" --cudart-lib "$CUDART"
expect rank0 2 "rank 0: $r" "rank 0 could not start NCCL"

# --- Two ranks on one device: refused before NCCL's init. ---
launch shared -np 2 -x STUB_CUDA_DEVICES=1 "$COLLBENCH" $ARGS --nccl-lib "$FULL" \
    --cudart-lib "$CUDART"
[ "$rc" -eq 77 ] || fail "shared: exit $rc, want 77"
n=$(grep -c "^${P}rank 0,1: all on CUDA device 0000:01:00.0 of host .*; NCCL needs one device per rank" \
    "$T/shared.err")
[ "$n" -eq 2 ] || fail "shared: want the same line from both ranks: $(cat "$T/shared.err")"
echo "ok: shared (${secs} s)"

# --- ncclCommInitRank fails on one rank after all agreed: the others
#     abort their communicator and report that rank. ---
launch initfail -np 2 -x STUB_CUDA_DEVICES=2 -x STUB_NCCL_INIT_FAIL=1 "$COLLBENCH" $ARGS \
    --nccl-lib "$FULL" --cudart-lib "$CUDART"
r='ncclCommInitRank failed: internal error (3): stub libnccl makes no communicators here'
expect initfail 2 "rank 1: $r" "$r"
exit 0
