#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# NCCL 2.28's rules for NCCL_ALGO, NCCL_PROTO and the tuner plugin, over the
# libnccl test double (tests/nccl/fake_nccl_mpi.c), which takes from NCCL
# v2.28.9-1's source which algorithm/protocol each function may use, how
# the two variables are parsed, how a call's algorithm is chosen, and
# which calls and inits are refused with which message (its header names
# the files).  The double's log names every call's choice
# (FAKE_NCCL_INIT_LOG: "comm=N ran FUNC/ALGO/PROTO=COUNT ... refused=R").
#
# What this proves: collbench and colltune's plugin meet NCCL's rules as
# read from its source (a value NCCL refuses fails here too, with NCCL's
# text, and the plugin's choices are made through NCCL's cost table).
# What it cannot prove: that the reading is right on a GPU (on NCCL
# 2.28.3, NCCL_ALGO=tree failed every broadcast with this message), nor
# anything about speed.  A refused call costs collbench that collective
# only (exit 4, tests/mpi/nccl_refused.sh).
. "$top_srcdir/tests/mpi/lib.sh"
unset COLLTUNE_NCCL_LIB COLLTUNE_CUDART_LIB STUB_CUDA_DEVICES CUDA_VISIBLE_DEVICES \
    NCCL_ALGO NCCL_PROTO NCCL_TUNER_PLUGIN NCCL_TUNER_CONFIG_FILE NCCL_CONF_FILE NCCL_DEBUG \
    NCCL_DEBUG_SUBSYS NCCL_DEBUG_FILE NCCL_PAT_ENABLE NCCL_HOSTID FAKE_NCCL_SLOW_ALGO \
    FAKE_NCCL_SLOW_PROTO FAKE_NCCL_SLOW_US FAKE_NCCL_SLOW_BYTES FAKE_NCCL_FAIL_FUNC

ct_build_fake_nccl

# run NAME NP "VAR=VALUE ..." ARGS... : collbench --backend nccl on the
# doubles with those variables (no spaces in values); $rc, $T/NAME.out,
# .err, .csv and the double's log $T/NAME.log.0.
run() {
    name=$1 np=$2 vars=$3
    shift 3
    x=
    for v in $vars; do
        x="$x -x $v"
    done
    CT_MPIRUN_ARGS="-x STUB_CUDA_DEVICES=$np -x FAKE_NCCL_INIT_LOG=$T/$name.log$x" \
        ct_mpirun "$np" --backend nccl --nccl-lib "$T/libnccl-fake.so" \
        --cudart-lib "$T/libcudart-stub.so" --csv "$T/$name.csv" "$@" \
        >"$T/$name.out" 2>"$T/$name.err"
    rc=$?
}

# ran NAME WANT : rank 0's choices, "FUNC/ALGO/PROTO ..." sorted, refused
# count last ("refused=R"), from the log line written at destroy.
ran() {
    got=$(sed -n 's/^comm=0 ran //p' "$T/$1.log.0" | tr ' ' '\n' | sed 's/=[0-9]*$//;s/^refused$//' |
        grep . | sort | tr '\n' ' ')
    refused=$(sed -n 's/^comm=0 ran .* \(refused=[0-9]*\)$/\1/p' "$T/$1.log.0")
    [ "$got$refused" = "$2" ] || fail "$1: ran '$got$refused', want '$2': $(cat "$T/$1.log.0")"
}

# refused NAME FUNC TYPE VAR VALUE : exit 4 (collbench skips a refused
# collective), and NCCL's message, from ncclGetLastError, in collbench's
# one refusal line.
refused() {
    [ "$rc" -eq 4 ] || fail "$1: exit $rc, want 4: $(cat "$T/$1.err")"
    want=": refused at 8 B: Error : no algorithm/protocol available for function $2 with datatype $3. $4 was set to $5."
    n=$(grep -cF -- "$want" "$T/$1.err")
    [ "$n" -eq 1 ] || fail "$1: want once: $want; got: $(cat "$T/$1.err")"
}

# init_refused NAME WARN : NCCL fails ncclCommInitRank (ncclInvalidUsage,
# its WARN as the last error), so collbench has no communicator.
init_refused() {
    [ "$rc" -ne 0 ] || fail "$1: exit 0"
    grep -qF -- "ncclCommInitRank failed: invalid usage (run with NCCL_DEBUG=WARN for details) (5): $2" \
        "$T/$1.err" || fail "$1: want '$2': $(cat "$T/$1.err")"
    grep -qxF "comm=0 init failed: 5 $2" "$T/$1.log.0" || fail "$1: log: $(cat "$T/$1.log.0")"
    grep -q '^# Collective test starting' "$T/$1.out" && fail "$1: something was measured"
}

# rows NAME COLL : the CSV rows of one collective.
rows() {
    awk -F, -v c="$2" 'NR > 1 && $4 == c' "$T/$1.csv" | wc -l
}

# 1. Ring: every function has it.
run ring 2 NCCL_ALGO=ring -C all -b 8 -e 64K -f 8 -n 3 -w 1
nccl_all_right ring 5
ran ring "AllGather/Ring/Simple AllReduce/Ring/Simple Broadcast/Ring/Simple ReduceScatter/Ring/Simple refused=0"
echo "ok: NCCL_ALGO=ring, all five"

# 2. Tree is AllReduce's only: Broadcast is refused with NCCL's message
# (a Broadcast counts bytes: ncclInt8 whatever the type), after the
# allreduce rows.  NCCL_DEBUG=WARN prints the WARN where NCCL does: stdout.
run tree 2 "NCCL_ALGO=tree NCCL_DEBUG=WARN" -C allreduce,broadcast -d float -b 8 -e 1K -f 8 \
    -n 3 -w 1
refused tree Broadcast ncclInt8 NCCL_ALGO tree
[ "$(rows tree allreduce)" -eq 6 ] || fail "tree: allreduce rows: $(cat "$T/tree.csv")"
[ "$(rows tree broadcast)" -eq 0 ] || fail "tree: broadcast rows: $(cat "$T/tree.csv")"
n=$(grep -Ec '^\[[0-9-]+ [0-9:]+\] [^ ]+:[0-9]+:[0-9]+ \[[01]\] enqueue\.cc:1859 NCCL WARN Error : no algorithm/protocol available for function Broadcast with datatype ncclInt8\. NCCL_ALGO was set to tree\.$' \
    "$T/tree.out")
[ "$n" -eq 2 ] || fail "tree: want NCCL's WARN line per rank on stdout: $(cat "$T/tree.out")"
# collbench goes on past a refusal: the communicator is still usable and
# destroyed as usual, with the refusal counted.
grep -q '^comm=0 ran AllReduce/Tree/Simple=[0-9]* refused=[1-9]' "$T/tree.log.0" ||
    fail "tree: after the refusal: $(cat "$T/tree.log.0")"

echo "ok: NCCL_ALGO=tree refuses Broadcast"

# 3. Per function (';' between entries), the choice per call: tree for
# AllReduce only, which alone is slowed, and only up to 64 bytes.
run per_func 2 "NCCL_ALGO=allreduce:tree;broadcast:ring FAKE_NCCL_SLOW_ALGO=Tree FAKE_NCCL_SLOW_US=20000 FAKE_NCCL_SLOW_BYTES=0:64" \
    -C allreduce,broadcast -b 8 -e 512 -f 8 -n 3 -w 1
nccl_all_right per_func 2
ran per_func "AllReduce/Tree/Simple Broadcast/Ring/Simple refused=0"
slow=$(awk -F, 'NR > 1 && $14 >= 20000 { print $4 "/" $11 }' "$T/per_func.csv" | sort -u | tr '\n' ' ')
[ "$slow" = "allreduce/64 allreduce/8 " ] || fail "per_func: slow rows '$slow': $(cat "$T/per_func.csv")"
echo "ok: allreduce:tree;broadcast:ring, slowed per selection and size"

# 4. ',' cannot separate entries: NCCL splits "allreduce:tree,broadcast:ring"
# at ':' and finds the element "broadcast" (the rest is dropped).  An
# entry after the first needs a prefix; a prefix must be a function.
run comma 2 "NCCL_ALGO=allreduce:tree,broadcast:ring" -C allreduce -b 8 -e 8 -n 1 -w 0
init_refused comma 'Unrecognized element token "broadcast" when parsing "allreduce:tree,broadcast:ring"'
run no_prefix 2 "NCCL_PROTO=LL;Simple" -C allreduce -b 8 -e 8 -n 1 -w 0
init_refused no_prefix 'All entries except the first must have a prefix: "LL;Simple"'
run bad_prefix 2 "NCCL_ALGO=ring;bcast:ring" -C allreduce -b 8 -e 8 -n 1 -w 0
init_refused bad_prefix 'Unrecognized prefix token "bcast" when parsing "ring;bcast:ring"'
echo "ok: bad NCCL_ALGO/NCCL_PROTO fail the init with NCCL's WARN"

# 5. '^' negates: ring for all, then everything but ring for AllReduce,
# which leaves Tree on this hardware (no NVLS, no CollNet).
run negate 2 "NCCL_ALGO=ring;allreduce:^ring" -C allreduce,broadcast -b 8 -e 1K -f 8 -n 3 -w 1
nccl_all_right negate 2
ran negate "AllReduce/Tree/Simple Broadcast/Ring/Simple refused=0"
echo "ok: ring;allreduce:^ring runs AllReduce on Tree"

# 6. LL128 is Broadcast's on Hopper; LL128 and LL without Simple: LL for
# small sizes, LL128 for large ones (the double's cost model).
run ll128 2 "NCCL_PROTO=LL128" -C broadcast -b 8 -e 64K -f 8 -n 3 -w 1
nccl_all_right ll128 1
ran ll128 "Broadcast/Ring/LL128 refused=0"
run no_simple 2 "NCCL_PROTO=^Simple" -C allreduce -b 8 -e 1M -f 8 -n 2 -w 1
nccl_all_right no_simple 1
ran no_simple "AllReduce/Ring/LL AllReduce/Ring/LL128 refused=0"
echo "ok: NCCL_PROTO"

# 7. PAT needs one rank per node (here both ranks share one) unless
# NCCL_PAT_ENABLE=1, and never does avg for ReduceScatter.
run pat 2 "NCCL_ALGO=pat" -C allgather -b 8 -e 8 -n 1 -w 0
refused pat AllGather ncclInt8 NCCL_ALGO pat
run pat_on 2 "NCCL_ALGO=pat NCCL_PAT_ENABLE=1" -C allgather,reduce_scatter -o avg -b 8 -e 1K -f 8 \
    -n 2 -w 1
refused pat_on ReduceScatter ncclFloat32 NCCL_ALGO pat
[ "$(rows pat_on allgather)" -eq 6 ] || fail "pat_on: allgather rows: $(cat "$T/pat_on.csv")"
echo "ok: PAT"

# 8. One rank: NCCL neither parses NCCL_ALGO nor chooses (it copies).
run one 1 "NCCL_ALGO=bogus" -C broadcast,allreduce -b 8 -e 1K -f 8 -n 2 -w 1
nccl_all_right one 2
ran one "AllReduce/Ring/Simple Broadcast/Ring/Simple refused=0"
echo "ok: one rank"

# 9. bfloat16 and half, every op.
run half 2 "" -C allreduce,reduce_scatter -d bfloat16,half -o sum,prod,max,min,avg -b 8 -e 64K \
    -f 8 -n 2 -w 1
nccl_all_right half 2
# 2 collectives x 2 types x 5 ops x 5 sizes x 2 placements
n=$(awk -F, 'NR > 1 && ($6 == "bfloat16" || $6 == "half") && $21 == 0' "$T/half.csv" | wc -l)
[ "$n" -eq 200 ] || fail "half: $n right CSV rows, want 200"
echo "ok: bfloat16 and half"

# 10. colltune's tuner plugin, loaded by name as NCCL does
# (libnccl-tuner-NAME.so on the library path), chooses through NCCL's cost
# table: Tree/LL up to 1 KiB, Ring/LL128 above; its Broadcast rule names
# Tree, which NCCL ruled out, so NCCL's own Ring/Simple runs.
plugin="$top_builddir/tuner/plugin/.libs/libnccl-tuner-colltune.so"
[ -f "$plugin" ] || fail "no built plugin at $plugin"
printf '%s\n' 'allreduce,0,1024,tree,ll,-1,-1,-1' 'allreduce,1025,-1,ring,ll128,-1,-1,-1' \
    'broadcast,0,-1,tree,simple,-1,-1,-1' >"$T/rules.conf"
run plugin 2 "NCCL_TUNER_PLUGIN=colltune LD_LIBRARY_PATH=$(dirname "$plugin") NCCL_TUNER_CONFIG_FILE=$T/rules.conf NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT" \
    -C allreduce,broadcast -b 8 -e 64K -f 8 -n 2 -w 1
nccl_all_right plugin 2
ran plugin "AllReduce/Ring/LL128 AllReduce/Tree/LL Broadcast/Ring/Simple refused=0"
[ "$(grep -c 'NCCL INFO TUNER/Plugin: Using colltune (v5)$' "$T/plugin.out")" -eq 2 ] ||
    fail "plugin: no 'Using colltune (v5)' per rank: $(cat "$T/plugin.out")"
echo "ok: tuner plugin"
exit 0
