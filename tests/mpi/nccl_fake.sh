#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# The nccl backend end to end without a GPU: collbench --backend nccl over
# a test double of libnccl (tests/nccl/fake_nccl_mpi.c: NCCL's API over
# MPI on host memory) and of libcudart (tests/nccl/stub_cudart.c).
#
# What this proves: open()'s agreement succeeds and ships the unique id,
# each collective gets the counts and the (in-place and out-of-place)
# pointers NCCL's documentation asks for, alltoall (ncclAlltoAll) is
# right, errors are converted with call and file:line, describe() writes
# its metadata, close() runs, and several ranks share one device exactly
# where NCCL would let them (NCCL_HOSTID).  What it cannot prove: anything about
# NCCL itself, streams or GPUs; that needs a machine with one.
. "$top_srcdir/tests/mpi/lib.sh"
unset COLLTUNE_NCCL_LIB COLLTUNE_CUDART_LIB STUB_CUDA_DEVICES CUDA_VISIBLE_DEVICES NCCL_HOSTID \
    NCCL_CONF_FILE

ct_build_fake_nccl

# run NAME NP ARGS... : collbench --backend nccl on the doubles, one
# device per rank; $rc, $T/NAME.out, $T/NAME.err.
run() {
    name=$1 np=$2
    shift 2
    CT_MPIRUN_ARGS="-x STUB_CUDA_DEVICES=$np" ct_mpirun "$np" --backend nccl \
        --nccl-lib "$T/libnccl-fake.so" --cudart-lib "$T/libcudart-stub.so" "$@" \
        >"$T/$name.out" 2>"$T/$name.err"
    rc=$?
}


run np2 2 -C all -b 8 -e 64K -f 8 --json "$T/np2.json"
nccl_all_right np2 5
for want in '"name": "nccl"' '"nccl_version": "2.28.9"' '"nccl_min_version": "2.12.0"' \
    "\"nccl_library\": \"$T/libnccl-fake.so\"" '"cuda_runtime_version": 13000' \
    '"pci_bus_id": "0000:01:00.0"' '"pci_bus_id": "0000:02:00.0"' \
    '"timing": "host clock after cudaStreamSynchronize (no CUDA events)"' \
    '"algorithm_capture": "unverified: needs a GPU'; do
    grep -qF -- "$want" "$T/np2.json" || fail "np2.json lacks $want"
done
# The preamble names each rank's device as nccl-tests does.
grep -Eq '^#  Rank  1 Group  0 Pid +[0-9]+ on +[^ ]+ device  1 \[0000:02:00\.0\] cpus ' "$T/np2.out" ||
    fail "np2: no device line for rank 1: $(grep '#  Rank' "$T/np2.out")"
echo "ok: np2 metadata"

run np4 4 -C all -d int8,uint8,int32,uint32,int64,uint64,float,double -o sum,prod,max,min \
    -r 1 -b 64 -e 4K -f 8 -n 5 -w 1
nccl_all_right np4 5

run avg 2 -C allreduce,reduce_scatter -d float,double -o avg -b 64 -e 4K -f 8 -n 5 -w 1
nccl_all_right avg 2

# A failing call: converted at the boundary, with NCCL's last error, named
# with file:line, exit 3.  NCCL refuses nothing collbench can ask with
# ncclInvalidArgument, so the double fails every AllReduce on request
# (FAKE_NCCL_FAIL_FUNC; mpirun's local ranks inherit its environment).
FAKE_NCCL_FAIL_FUNC=AllReduce
export FAKE_NCCL_FAIL_FUNC
run error 2 -C allreduce -b 64 -e 64 -n 5 -w 1
unset FAKE_NCCL_FAIL_FUNC
[ "$rc" -eq 3 ] || fail "error: exit $rc, want 3: $(cat "$T/error.err")"
n=$(grep -c '^collbench: rank [01]: ncclAllReduce failed: invalid argument .* (4): fake: FAKE_NCCL_FAIL_FUNC=AllReduce at .*backend_nccl\.c:[0-9][0-9]*$' \
    "$T/error.err")
[ "$n" -eq 2 ] || fail "error: want one converted error per rank: $(cat "$T/error.err")"
echo "ok: error"

# Several ranks on one device (STUB_CUDA_DEVICES=1): NCCL refuses two ranks
# of one host on one GPU, and tells hosts apart as getHostHash does: by
# NCCL_HOSTID where set (in the environment or NCCL's config file), else
# by hostname and boot id.  collbench's own check, before NCCL's init,
# judges the same way.  A wrapper gives each rank its setting
# (HOSTID_MODE): its own NCCL_HOSTID, one shared by both, or its own
# NCCL_CONF_FILE that sets one.
printf '%s\n' '#!/bin/sh' 'r=$OMPI_COMM_WORLD_RANK' 'case $HOSTID_MODE in' \
    'own) export NCCL_HOSTID="h$r" ;;' 'same) export NCCL_HOSTID=h ;;' \
    'conf) export NCCL_CONF_FILE="$HOSTID_DIR/nccl.conf.$r" ;;' 'esac' \
    "exec \"$COLLBENCH\" \"\$@\"" >"$T/hostid"
chmod +x "$T/hostid"
for r in 0 1; do printf '# rank %s\nNCCL_HOSTID=c%s\n' "$r" "$r" >"$T/nccl.conf.$r"; done
collbench=$COLLBENCH
COLLBENCH=$T/hostid
# one_gpu NAME MODE : 2 ranks, one device, allreduce; $rc, $T/NAME.out/.err.
one_gpu() {
    CT_MPIRUN_ARGS="-x STUB_CUDA_DEVICES=1 -x HOSTID_MODE=$2 -x HOSTID_DIR=$T" ct_mpirun 2 \
        --backend nccl --nccl-lib "$T/libnccl-fake.so" --cudart-lib "$T/libcudart-stub.so" \
        -C allreduce -b 64 -e 64 -n 3 -w 1 --json "$T/$1.json" >"$T/$1.out" 2>"$T/$1.err"
    rc=$?
}
one_gpu gpu_host none
[ "$rc" -eq 77 ] || fail "gpu_host: exit $rc, want 77: $(cat "$T/gpu_host.err")"
line="NCCL backend unavailable: rank 0,1: all on CUDA device 0000:01:00.0 of host $(hostname); NCCL needs one device per rank (set CUDA_VISIBLE_DEVICES or start fewer ranks per host; to share a device on purpose, give each rank its own NCCL_HOSTID)"
[ "$(grep -cxF -- "$line" "$T/gpu_host.err")" -eq 2 ] ||
    fail "gpu_host: want from both ranks: $line; got: $(cat "$T/gpu_host.err")"
one_gpu gpu_same same
[ "$rc" -eq 77 ] || fail "gpu_same: exit $rc, want 77: $(cat "$T/gpu_same.err")"
line="NCCL backend unavailable: rank 0,1: all on CUDA device 0000:01:00.0 of NCCL_HOSTID=h; NCCL needs one device per rank of a host (give each rank its own NCCL_HOSTID)"
[ "$(grep -cxF -- "$line" "$T/gpu_same.err")" -eq 2 ] ||
    fail "gpu_same: want from both ranks: $line; got: $(cat "$T/gpu_same.err")"
one_gpu gpu_own own
nccl_all_right gpu_own 1
[ "$(json_get "$T/gpu_own.json" backend.devices.1.nccl_hostid)" = h1 ] ||
    fail "gpu_own: nccl_hostid not recorded"
# Two NCCL nodes, as NCCL counts them: the scale a tuned rule is written for.
[ "$(json_get "$T/gpu_own.json" nnodes)" = 2 ] || fail "gpu_own: nnodes $(json_get "$T/gpu_own.json" nnodes)"
[ "$(json_get "$T/gpu_own.json" results.0.nnodes)" = 2 ] || fail "gpu_own: a row's nnodes"
grep -q 'backend nccl, 2 ranks on 2 nodes' "$T/gpu_own.out" || fail "gpu_own: table header"
one_gpu gpu_conf conf
nccl_all_right gpu_conf 1
[ "$(json_get "$T/gpu_conf.json" backend.devices.0.nccl_hostid)" = c0 ] ||
    fail "gpu_conf: nccl_hostid from NCCL_CONF_FILE not recorded"
COLLBENCH=$collbench
exit 0
