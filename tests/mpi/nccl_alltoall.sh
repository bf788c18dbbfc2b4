#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The nccl backend's alltoall, and the host-side work of a timed call, on
# the test doubles (tests/nccl/fake_nccl_mpi.c, tests/nccl/stub_cudart.c).
#
# What this proves: where libnccl has ncclAlltoAll (NCCL 2.28+) alltoall
# runs through it, one call per alltoall, as nccl-tests 2.19 does, and
# results.json says so (backend.alltoall); where it lacks the symbol
# (the double built as NCCL 2.27.7) grouped ncclSend/ncclRecv run instead;
# both are right.  In place, the call gets send == recv (nccl-tests' form,
# which NCCL 2.28 does not copy on one rank) and the in-place half does no
# copy of its own.  A timed broadcast is one ncclBroadcast and nothing
# else: the only copies are the validation's, the only syncs one per batch.
# What it cannot prove: how fast anything is on a GPU.
. "$top_srcdir/tests/mpi/lib.sh"
unset COLLTUNE_NCCL_LIB COLLTUNE_CUDART_LIB STUB_CUDA_DEVICES CUDA_VISIBLE_DEVICES NCCL_HOSTID \
    NCCL_CONF_FILE FAKE_NCCL_FAIL_FUNC

ct_build_fake_nccl
ct_build_fake_nccl_noa2a

# run NAME NP LIB ARGS... : collbench --backend nccl on double LIB, with the
# doubles' call logs in $T/NAME.nccl.RANK and $T/NAME.cuda.RANK; $rc,
# $T/NAME.out, $T/NAME.err, $T/NAME.json.
run() {
    name=$1 np=$2 lib=$3
    shift 3
    CT_MPIRUN_ARGS="-x STUB_CUDA_DEVICES=$np -x FAKE_NCCL_INIT_LOG=$T/$name.nccl \
        -x STUB_CUDA_LOG=$T/$name.cuda" ct_mpirun "$np" --backend nccl --nccl-lib "$lib" \
        --cudart-lib "$T/libcudart-stub.so" --json "$T/$name.json" "$@" \
        >"$T/$name.out" 2>"$T/$name.err"
    rc=$?
}

# calls NAME RANK API : how many times rank RANK called API (the double's
# "calls" line, written at ncclCommDestroy).
calls() {
    sed -n "s/.* calls .* $3=\([0-9]*\).*/\1/p" "$T/$1.nccl.$2"
}

# cuda NAME RANK memcpy|sync : the stub runtime's count.
cuda() {
    sed -n "s/.*$3=\([0-9]*\).*/\1/p" "$T/$1.cuda.$2"
}

# rows_sum NAME KEY : KEY summed over results.json's rows.
rows_sum() {
    n=0 i=0
    while v=$(json_get "$T/$1.json" "results.$i.$2" 2>/dev/null) && [ -n "$v" ]; do
        n=$((n + v)) i=$((i + 1))
    done
    echo "$n"
}

# rows NAME : how many rows results.json has (both placements).
rows() {
    i=0
    while v=$(json_get "$T/$1.json" "results.$i.bytes" 2>/dev/null) && [ -n "$v" ]; do
        i=$((i + 1))
    done
    echo "$i"
}

SIZES="-b 8 -e 32K -f 8"

# 1. With ncclAlltoAll: every alltoall is one ncclAlltoAll, no send/recv.
for np in 1 2 3; do
    run a2a$np "$np" "$T/libnccl-fake.so" -C alltoall $SIZES
    nccl_all_right a2a$np 1
    how=$(json_get "$T/a2a$np.json" backend.alltoall)
    [ "$how" = ncclAlltoAll ] || fail "a2a$np: backend.alltoall is '$how', want ncclAlltoAll"
    for r in $(seq 0 $((np - 1))); do
        a=$(calls a2a$np "$r" ncclAlltoAll)
        s=$(calls a2a$np "$r" ncclSend)
        g=$(calls a2a$np "$r" ncclGroupStart)
        [ -n "$a" ] && [ "$a" -gt 0 ] && [ "$s" = 0 ] && [ "$g" = 0 ] ||
            fail "a2a$np rank $r: ncclAlltoAll=$a ncclSend=$s ncclGroupStart=$g: $(cat "$T/a2a$np.nccl.$r")"
        # In place: send == recv, as nccl-tests passes it.
        ip=$(calls a2a$np "$r" ncclAlltoAll.in_place)
        [ "$ip" -gt 0 ] && [ "$ip" -lt "$a" ] ||
            fail "a2a$np rank $r: $ip of $a ncclAlltoAll calls in place"
        # No copy but the out-of-place validation's (upload of the receive
        # and the send buffer, download: 3 a size); the in-place half,
        # unchecked, copies nothing before, between or after its calls.
        m=$(cuda a2a$np "$r" memcpy)
        [ "$m" -eq $(($(rows a2a$np) / 2 * 3)) ] ||
            fail "a2a$np rank $r: $m cudaMemcpyAsync for $(rows a2a$np) rows, want 3 a size"
    done
    echo "ok: a2a$np through ncclAlltoAll"
done

# 2. Without the symbol (an NCCL 2.27): grouped send/recv, still right.
for np in 1 2 3; do
    run noa2a$np "$np" "$T/libnccl-fake-noa2a.so" -C alltoall $SIZES
    nccl_all_right noa2a$np 1
    how=$(json_get "$T/noa2a$np.json" backend.alltoall)
    [ "$how" = "grouped ncclSend/ncclRecv" ] ||
        fail "noa2a$np: backend.alltoall is '$how', want grouped ncclSend/ncclRecv"
    [ "$(json_get "$T/noa2a$np.json" backend.nccl_version)" = 2.27.7 ] ||
        fail "noa2a$np: not the 2.27.7 double"
    a=$(calls noa2a$np 0 ncclAlltoAll)
    s=$(calls noa2a$np 0 ncclSend)
    g=$(calls noa2a$np 0 ncclGroupStart)
    [ "$a" = 0 ] && [ "$g" -gt 0 ] && [ "$s" -eq $((g * np)) ] ||
        fail "noa2a$np: ncclAlltoAll=$a ncclSend=$s ncclGroupStart=$g, want 0, $np sends a group"
    echo "ok: noa2a$np through grouped send/recv"
done

# 3. Host-side work of a timed broadcast (2 ranks, the case that read
# 1.7-2.1x nccl-tests on an H200): run() is one ncclBroadcast, wait() one
# cudaStreamSynchronize and one ncclCommGetAsyncError.  Copies: the
# validation's only, 3 a size out of place and 2 in place (upload of the
# receive buffer, download), whatever the number of timed calls.
run bcast 2 "$T/libnccl-fake.so" -C broadcast $SIZES
nccl_all_right bcast 1
timed=$(rows_sum bcast iterations)
for r in 0 1; do
    b=$(calls bcast "$r" ncclBroadcast)
    w=$(calls bcast "$r" ncclCommGetAsyncError)
    m=$(cuda bcast "$r" memcpy)
    y=$(cuda bcast "$r" sync)
    other=$(sed -n 's/.* calls //p' "$T/bcast.nccl.$r" | tr ' ' '\n' |
        grep -v -e '^ncclBroadcast=' -e '^ncclCommGetAsyncError=' | grep -v '=0$')
    [ -z "$other" ] || fail "bcast rank $r: other NCCL calls: $other"
    [ "$m" -eq $(($(rows bcast) / 2 * 5)) ] ||
        fail "bcast rank $r: $m cudaMemcpyAsync for $(rows bcast) rows, want 3 + 2 a size"
    [ "$y" -eq $((w + m)) ] || fail "bcast rank $r: $y syncs, want $w waits + $m copies"
    [ "$b" -ge "$timed" ] && [ "$b" -gt $((2 * w)) ] ||
        fail "bcast rank $r: $b ncclBroadcast for $timed timed calls and $w waits"
    echo "ok: bcast rank $r: $b ncclBroadcast ($timed timed), $w waits, $m copies"
done
