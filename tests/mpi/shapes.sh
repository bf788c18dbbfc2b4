#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# --shapes (issue 37): one launch measures every shape on a
# sub-communicator, each row tagged by its shape; shapes beyond the launch,
# out of order or malformed are exit 2 before any work.  (b) makes two
# hosts on this machine: each rank's own UTS namespace names its host, and
# collbench tells hosts apart by name.
. "$top_srcdir/tests/mpi/lib.sh"

# (a) np 4 on one host: 1x2 then 1x4, rows in that order.
ct_mpirun 4 -C allreduce,broadcast -b 8 -e 1K -f 32 --size-budget 0.02 --quiet \
    --shapes 1x2,1x4 --csv "$T/a.csv" --json "$T/a.json" >"$T/a.out" 2>"$T/a.err" ||
    fail "(a) exit $? ($(cat "$T/a.err"))"
check_table "$T/a.out"
[ "$(grep -c '^# Shape ' "$T/a.out")" -eq 2 ] || fail "(a) two shape lines"
grep -q '^# Shape 1x2 (nodes x ranks per node): 2 ranks on 1 node$' "$T/a.out" ||
    fail "(a) the 1x2 line"
# 2 collectives x 2 sizes x 2 placements per shape; nranks column 9, nnodes 10.
got=$(awk -F, 'NR > 1 { print $9 "x" $10 }' "$T/a.csv" | uniq -c | awk '{ print $1 ":" $2 }' |
    tr '\n' ' ')
[ "$got" = "8:2x1 8:4x1 " ] || fail "(a) CSV rows by shape: $got"
[ "$(json_get "$T/a.json" shapes.#)" = 2 ] || fail "(a) JSON shapes"
[ "$(json_get "$T/a.json" shapes.0.ranks_per_node)" = 2 ] || fail "(a) shapes.0"
[ "$(json_get "$T/a.json" shapes.1.ranks.3)" = 3 ] || fail "(a) shapes.1.ranks"
[ "$(json_get "$T/a.json" results.0.ranks_per_node)" = 2 ] || fail "(a) results.0.ranks_per_node"
[ "$(json_get "$T/a.json" results.0.rank_medians_us.#)" = 2 ] || fail "(a) results.0 medians"
[ "$(json_get "$T/a.json" results.8.nranks)" = 4 ] || fail "(a) results.8.nranks"
[ "$(json_get "$T/a.json" results.8.ranks_per_node)" = 4 ] || fail "(a) results.8.ranks_per_node"

# (b) two hosts of two ranks: 2x1 is ranks 0 and 2, one per host.
if unshare -u true 2>/dev/null; then
    CB="$COLLBENCH"
    A="-C allreduce -b 8 -e 8 --size-budget 0.02 --quiet --shapes 1x1,2x1,2x2 --json $T/b.json"
    # shellcheck disable=SC2086
    timeout 120 "$MPIRUN" --allow-run-as-root --oversubscribe --bind-to none \
        --mca mpi_yield_when_idle 1 --mca orte_tmpdir_base "$T" \
        -np 2 unshare -u sh -c "hostname hostA && exec $CB $A" : \
        -np 2 unshare -u sh -c "hostname hostB && exec $CB $A" >"$T/b.out" 2>"$T/b.err" ||
        fail "(b) exit $? ($(cat "$T/b.err"))"
    [ "$(json_get "$T/b.json" shapes.1.ranks.1)" = 2 ] || fail "(b) 2x1 is not ranks 0 and 2"
    [ "$(json_get "$T/b.json" results.2.nnodes)" = 2 ] || fail "(b) 2x1's nnodes"
    [ "$(json_get "$T/b.json" results.2.ranks_per_node)" = 1 ] || fail "(b) 2x1's ranks_per_node"
    [ "$(json_get "$T/b.json" results.2.per_host.#)" = 2 ] || fail "(b) 2x1's per_host"
    [ "$(json_get "$T/b.json" results.4.nranks)" = 4 ] || fail "(b) 2x2's nranks"
else
    echo "note: (b) skipped: unshare -u is not allowed here"
fi

# (f) the tuner's shared launch (colltune tune --shapes): every collective
# with its own --config-for, at three shapes, each configuration's start-up
# values written back and read again after it.  (bench/tune-shapes found
# that read comparing a field MPI_T never set, uninitialised: exit 3 in a
# full openmpi-coll launch; this smaller launch did not show it.)
ct_mpirun 4 -C all -b 1K -e 1K --size-budget 0.01 --quiet --shapes 1x2,1x3,1x4 \
    --config-for allreduce:coll_tuned_allreduce_algorithm=2 \
    --config-for allgather:coll_tuned_allgather_algorithm=2 \
    --config-for alltoall:coll_tuned_alltoall_algorithm=2 \
    --config-for broadcast:coll_tuned_bcast_algorithm=6,coll_tuned_bcast_algorithm_segmentsize=0 \
    --config-for broadcast:coll_tuned_bcast_algorithm=9,coll_tuned_bcast_algorithm_knomial_radix=4 \
    --config-for reduce_scatter:coll_tuned_reduce_scatter_block_algorithm=2 \
    --csv "$T/f.csv" >"$T/f.out" 2>"$T/f.err" || fail "(f) exit $? ($(cat "$T/f.err"))"
# Per shape: 5 collectives x 2 placements at the start-up values, and 2 rows
# per configuration (6).
got=$(awk -F, 'NR > 1 { print $9 }' "$T/f.csv" | sort | uniq -c | awk '{ print $1 ":" $2 }' |
    tr '\n' ' ')
[ "$got" = "22:2 22:3 22:4 " ] || fail "(f) rows per shape: $got"

# (c) refusals, exit 2 with the reason.
ct_mpirun 4 -C allreduce -b 8 -e 8 --shapes 1x2,1x8 >"$T/c.out" 2>"$T/c.err"
[ $? -eq 2 ] || fail "(c) 1x8 on 4 ranks: not exit 2"
grep -q 'shapes 1x8: needs 8 ranks on each of the first 1 host(s); host 0 (.*) runs 4' \
    "$T/c.err" || fail "(c) message: $(cat "$T/c.err")"
ct_mpirun 2 -C allreduce -b 8 -e 8 --shapes 1x2,1x1 >"$T/d.out" 2>"$T/d.err"
[ $? -eq 2 ] || fail "(d) descending shapes: not exit 2"
grep -q 'shapes must ascend' "$T/d.err" || fail "(d) message: $(cat "$T/d.err")"
# (e) the nccl backend over its test double: a communicator per shape
# (ncclCommInitRank over the shape's ranks), with --config's too.
unset COLLTUNE_NCCL_LIB COLLTUNE_CUDART_LIB CUDA_VISIBLE_DEVICES NCCL_ALGO NCCL_PROTO \
    NCCL_TUNER_CONFIG_FILE NCCL_CONF_FILE
ct_build_fake_nccl
CT_MPIRUN_ARGS="-x STUB_CUDA_DEVICES=4" ct_mpirun 4 --backend nccl \
    --nccl-lib "$T/libnccl-fake.so" --cudart-lib "$T/libcudart-stub.so" -C allreduce -b 1K -e 1K \
    -n 3 -w 1 --config NCCL_ALGO=Ring --shapes 1x2,1x4 --csv "$T/e.csv" >"$T/e.out" 2>"$T/e.err" ||
    fail "(e) exit $? ($(cat "$T/e.err"))"
got=$(awk -F, 'NR > 1 { print $9 }' "$T/e.csv" | uniq -c | awk '{ print $1 ":" $2 }' | tr '\n' ' ')
[ "$got" = "4:2 4:4 " ] || fail "(e) nccl CSV rows by shape: $got"
exit 0
