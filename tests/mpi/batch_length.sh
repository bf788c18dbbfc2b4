#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Batch mode's batch length (doc/timing.md, "Batch length").  By default a
# batch holds at least 20 calls, lasts at least --batch-us (50 µs) and 100
# times the per-batch overhead measured in the warm-up; an explicit
# --batch-us is taken exactly.  Before this rule a call of 50 µs or more was
# timed one per batch, each sample paying a launch and a stream sync.
#
# Over the NCCL test doubles (tests/nccl/fake_nccl_mpi.c, with calls slowed
# to 100 µs by FAKE_NCCL_SLOW_*, and tests/nccl/stub_cudart.c, whose
# cudaStreamSynchronize sleeps STUB_CUDA_SYNC_US: an overhead of known
# size), then on the MPI backend with --sync batch.
. "$top_srcdir/tests/mpi/lib.sh"
unset COLLTUNE_NCCL_LIB COLLTUNE_CUDART_LIB STUB_CUDA_DEVICES CUDA_VISIBLE_DEVICES NCCL_HOSTID \
    NCCL_CONF_FILE FAKE_NCCL_SLOW_ALGO FAKE_NCCL_SLOW_PROTO FAKE_NCCL_SLOW_US \
    FAKE_NCCL_SLOW_BYTES STUB_CUDA_SYNC_US

ct_build_fake_nccl

# nccl NAME ARGS... : collbench --backend nccl on the doubles at np 2,
# one 1 KiB allreduce unless ARGS say otherwise; JSON in $T/NAME.json.
nccl() {
    name=$1
    shift
    CT_MPIRUN_ARGS="-x STUB_CUDA_DEVICES=2" ct_mpirun 2 --backend nccl \
        --nccl-lib "$T/libnccl-fake.so" --cudart-lib "$T/libcudart-stub.so" -C allreduce \
        -b 1K -e 1K -w 2 --quiet --json "$T/$name.json" "$@" >"$T/$name.out" 2>"$T/$name.err" ||
        fail "$name: exit $? ($(cat "$T/$name.err"))"
}
get() { json_get "$T/$1.json" "$2" || fail "$1.json: no $2"; }

# Calls of 100 µs (every protocol slowed): at least 20 a batch, not 1.
FAKE_NCCL_SLOW_PROTO=LL,LL128,Simple FAKE_NCCL_SLOW_US=100
export FAKE_NCCL_SLOW_PROTO FAKE_NCCL_SLOW_US
nccl slow --size-budget 2 # the budget must not be what cuts the batch
b=$(get slow results.0.batch)
[ "$b" -ge 20 ] || fail "slow: $b calls a batch of 100 µs calls, want 20 at least"
[ "$(get slow timing.batch.rule)" = auto ] || fail "slow: timing.batch.rule not auto"
[ "$(get slow timing.batch.min_calls)" -eq 20 ] || fail "slow: timing.batch.min_calls not 20"
o=$(get slow results.0.batch_overhead_us)
[ "$o" != null ] || fail "slow: no batch_overhead_us"
echo "ok: slow calls, $b a batch (overhead $o µs)"

# --batch-us given is exact: 50 µs holds one 100 µs call, 1000 µs at most
# ten of them (and the 20-call minimum is gone; one when a probe call was
# slowed to a millisecond, which this 2-core machine does under load).
nccl given50 --batch-us 50
[ "$(get given50 results.0.batch)" -eq 1 ] ||
    fail "given50: batch $(get given50 results.0.batch), want 1"
[ "$(get given50 timing.batch.rule)" = batch_us ] || fail "given50: timing.batch.rule"
[ "$(get given50 results.0.batch_overhead_us)" = null ] || fail "given50: an overhead measured"
nccl given1000 --batch-us 1000
b=$(get given1000 results.0.batch)
[ "$b" -ge 1 ] && [ "$b" -le 10 ] || fail "given1000: batch $b, want 1..10 (1000 µs / >= 100 µs)"
[ "$(get given1000 timing.batch.rule)" = batch_us ] || fail "given1000: timing.batch.rule"
echo "ok: --batch-us given is exact"
unset FAKE_NCCL_SLOW_PROTO FAKE_NCCL_SLOW_US

# A known overhead: each stream sync sleeps 300 µs.  The warm-up measures
# it, and a batch of small calls lasts 100 times that (30 ms; the budget of
# 2 s / 10 samples allows 200 ms, so it does not cut the batch).
STUB_CUDA_SYNC_US=300
export STUB_CUDA_SYNC_US
nccl sync -b 8 -e 8 --size-budget 2
unset STUB_CUDA_SYNC_US
o=$(get sync results.0.batch_overhead_us)
b=$(get sync results.0.batch)
t=$(get sync results.0.median_us)
awk -v o="$o" 'BEGIN { exit !(o >= 250 && o <= 20000) }' ||
    fail "sync: overhead $o µs with a 300 µs stream sync"
# The overhead lengthened the batch: its calls last at least the overhead,
# where the 50 µs default alone gives 28 calls of 1.8 µs.  Not 100x: the
# warm-up's slope (the call's cost) is noisy here, and the whole suite saw
# batches of 918-11542 calls where 100x needed about 19000 (doc/limits.md).
awk -v o="$o" -v b="$b" -v t="$t" 'BEGIN { exit !(b * t >= o) }' ||
    fail "sync: $b calls of $t µs with $o µs of overhead a batch"
echo "ok: known overhead $o µs, $b calls of $t µs a batch"

# The MPI backend with --sync batch follows the same rule; its default
# (window) has no batches.
ct_mpirun 2 -C allreduce -b 8 -e 8 --sync batch --quiet --json "$T/mpi.json" >"$T/mpi.out" \
    2>"$T/mpi.err" || fail "mpi: exit $? ($(cat "$T/mpi.err"))"
[ "$(get mpi results.0.batch)" -ge 20 ] || fail "mpi: batch $(get mpi results.0.batch)"
[ "$(get mpi results.0.batch_overhead_us)" != null ] || fail "mpi: no batch_overhead_us"
[ "$(get mpi timing.batch.rule)" = auto ] || fail "mpi: timing.batch.rule not auto"
ct_mpirun 2 -C allreduce -b 8 -e 8 --quiet --json "$T/win.json" >"$T/win.out" 2>"$T/win.err" ||
    fail "win: exit $? ($(cat "$T/win.err"))"
[ "$(get win timing.sync)" = window ] || fail "win: the MPI default is not window"
[ "$(get win results.0.batch)" -eq 1 ] || fail "win: batch $(get win results.0.batch)"
[ "$(get win results.0.batch_overhead_us)" = null ] || fail "win: an overhead in window mode"
json_get "$T/win.json" timing.batch >/dev/null 2>&1 && fail "win: timing.batch in window mode"
echo "ok: mpi --sync batch, window default"
exit 0
