#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune tune --shapes on 4 emulated hosts (tests/cluster/cluster.sh), one
# rank each: one tune measures the shapes 2x1, 3x1 and 4x1 in every launch
# (collbench --shapes: the first 2, 3, 4 hosts' ranks on sub-communicators)
# and writes files keyed by shape, each shape's choices verified at its own
# shape, in the launches of a one-shape tune.
#  1. Open MPI: the site forces a slow broadcast (pipeline, 1 KiB segments,
#     as tests/mpi/colltune_verify.sh) and the space offers binomial; the
#     rules file holds a block per communicator size 2, 3 and 4 with
#     binomial over the measured span, the library's own decision at every
#     other size; every choice is verified at its shape; and the tune made
#     no more launches than the same tune at 4x1 alone.
#  2. NCCL (the test double over MPI, tests/nccl/fake_nccl_mpi.c, its Ring
#     2 ms slower a call: a planted timing, wide enough that a shape of two
#     ranks cannot lose it to noise): the plugin's rules hold tree for
#     allreduce at nNodes/nRanks 2/2, 3/3 and 4/4, each verified.
# Skips (77) where network namespaces cannot be made (not root, no iproute2).
: "${top_srcdir:?run through make check}"
# shellcheck source=tests/mpi/lib.sh
. "$top_srcdir/tests/mpi/lib.sh"
# shellcheck source=tests/cluster/cluster.sh
. "$top_srcdir/tests/cluster/cluster.sh"

ct_cluster_skip_unless_able
ct_colltune_test
unset COLLTUNE_NCCL_LIB COLLTUNE_CUDART_LIB STUB_CUDA_DEVICES CUDA_VISIBLE_DEVICES \
    NCCL_ALGO NCCL_PROTO NCCL_TUNER_CONFIG_FILE NCCL_TUNER_PLUGIN NCCL_CONF_FILE
# shellcheck disable=SC2016,SC2034 # run by cluster.sh's trap
CT_CLUSTER_ON_EXIT='rm -rf "$T"'
ct_build_fake_nccl
plugin="$top_builddir/tuner/plugin/.libs/libnccl-tuner-colltune.so"
[ -f "$plugin" ] || fail "plugin not built: $plugin"
mkdir -p "$T/tmp"
site="$T/site-mca-params.conf"
printf '%s\n' 'coll_tuned_use_dynamic_rules = 1' 'coll_tuned_bcast_algorithm = 3' \
    'coll_tuned_bcast_algorithm_segmentsize = 1024' >"$site"
ct_cluster_up 4 || fail "ct_cluster_up 4"

# tune_rc OUT TUNE-ARGS... [-- COLLBENCH-ARGS]: one tune on the cluster, 4
# ranks; its exit status.
tune_rc() {
    out=$1
    shift
    ct_cluster_exec 1 timeout 400 "$CT" tune --out "$out" --np 4 \
        --hostfile "$CT_CLUSTER_HOSTFILE" --launcher-arg --oversubscribe \
        --launcher-arg --bind-to --launcher-arg none --launcher-arg --mca \
        --launcher-arg orte_tmpdir_base --launcher-arg "$T/tmp" \
        --mca mpi_yield_when_idle=1 --mca "plm_rsh_agent=$CT_CLUSTER_AGENT" \
        --mca "oob_tcp_if_include=$CT_CLUSTER_SUBNET" \
        --mca "btl_tcp_if_include=$CT_CLUSTER_SUBNET" --mca btl=tcp,vader,self \
        --strategy exhaustive --launches 2 --timeout 120 "$@" >"$out.out" 2>"$out.err"
}

# tune OUT TUNE-ARGS...: the same, which must succeed.
tune() {
    start=$(date +%s)
    tune_rc "$@"
    rc=$?
    echo "tune $1: exit $rc in $(($(date +%s) - start)) s"
    grep 'note:\|A/B launch' "$1.err"
    [ "$rc" -eq 0 ] || fail "tune $1: exit $rc ($(tail -5 "$1.err"))"
}

# launches DIR: the launches a tune made (a shared launch or a turns
# launch is one group in its journal; a trial without a group had its own).
launches() {
    awk '{ if (match($0, /"group": *"[^"]*"/)) g[substr($0, RSTART, RLENGTH)] = 1; else n++ }
        END { for (k in g) n++; print n + 0 }' "$1/journal.jsonl"
}

# every_verified DIR SHAPES: each choice verified, and its shapes (nodes x
# ranks per node, sorted) are SHAPES.
every_verified() {
    r="$1/report.json"
    nc=$(json_get "$r" choices.#)
    [ "$nc" -ge 3 ] || fail "$1: $nc choices: $(cat "$1/report.md")"
    i=0
    got=
    while [ $i -lt "$nc" ]; do
        [ "$(json_get "$r" choices.$i.verified)" = true ] ||
            fail "$1: choice $i not verified: $(cat "$1/report.md")"
        got="$got $(json_get "$r" choices.$i.nodes)x$(json_get "$r" choices.$i.ranks_per_node)"
        i=$((i + 1))
    done
    got=$(echo "$got" | tr ' ' '\n' | sed '/^$/d' | sort -u | tr '\n' ' ')
    [ "$got" = "$2" ] || fail "$1: choices at shapes '$got', want '$2'"
}

# 1. Open MPI's rules file, a block per shape.
set -- --mca "mca_base_param_files=$site" --space "$top_srcdir/tests/mpi/tune_verify.ini" \
    -- -b 256K -e 1M -f 4 --size-budget 0.02
tune "$T/ompi" --shapes 2x1,3x1,4x1 "$@"
every_verified "$T/ompi" "2x1 3x1 4x1 "
rules="$T/ompi/coll-tuned-rules.conf"
[ -f "$rules" ] || fail "no rules file: $(ls "$T/ompi")"
# bcast_from N: the smallest size of broadcast's choice at N nodes, from
# report.json (256 KiB, or 1 MiB where 256 KiB's gain did not beat the
# noise at that shape: the planted slowdown is surest at 1 MiB).
bcast_from() {
    i=0
    while [ $i -lt "$(json_get "$T/ompi/report.json" choices.#)" ]; do
        if [ "$(json_get "$T/ompi/report.json" choices.$i.name)" = coll_tuned_bcast_algorithm ] &&
            [ "$(json_get "$T/ompi/report.json" choices.$i.nodes)" = "$1" ]; then
            json_get "$T/ompi/report.json" choices.$i.min_bytes
            return
        fi
        i=$((i + 1))
    done
}
# Comm sizes 2, 3 and 4: binomial (6) over its choice's span up to 1 MiB,
# Open MPI's own decision (0) below and above it; 1 and 5 up: Open MPI's own.
for n in 2 3 4; do
    from=$(bcast_from "$n")
    case "$from" in 262144 | 1048576) ;; *) fail "broadcast at ${n}x1 from '$from': $(cat "$T/ompi/report.md")" ;; esac
    blk=$(awk -v n="$n" '$1 == n && $2 == 3 && /comm size, rules/ { on = 1; next }
        on && /^[0-9]/ { print $1 ":" $2; if (++k == 3) exit }' "$rules" | tr '\n' ' ')
    [ "$blk" = "0:0 $from:6 1048577:0 " ] || fail "comm size $n: '$blk' in $(cat "$rules")"
done
grep -q '^1 1 # comm sizes 1-1' "$rules" || fail "comm size 1 not the library's: $(cat "$rules")"
grep -q '^5 1 # comm sizes 5 up' "$rules" || fail "5 up not the library's: $(cat "$rules")"
# The A/B judged each shape's cells: broadcast at 2x1, 3x1 and 4x1 held.
for s in 2 3 4; do
    grep -q "^| broadcast at ${s}x1 | 1M | .* | yes |$" "$T/ompi/report.md" ||
        fail "no A/B cell of broadcast at ${s}x1: $(cat "$T/ompi/report.md")"
done
# --resume at other shapes is refused before anything runs: its journal's
# rows are of the shapes it was started with.
lines=$(wc -l <"$T/ompi/journal.jsonl")
tune_rc "$T/ompi" --resume --shapes 2x1,4x1 "$@"
rc=$?
[ "$rc" -eq 2 ] || fail "--resume at other shapes: exit $rc ($(cat "$T/ompi.err"))"
grep -q 'another tune.s: its collbench_args is .*2x1,3x1,4x1.*2x1,4x1' "$T/ompi.err" ||
    fail "--resume: the shapes not named: $(cat "$T/ompi.err")"
[ "$(wc -l <"$T/ompi/journal.jsonl")" -eq "$lines" ] || fail "--resume at other shapes ran trials"
# The same tune at one shape: no fewer launches.
tune "$T/one" "$@"
one=$(launches "$T/one")
three=$(launches "$T/ompi")
echo "launches: one shape $one, three shapes $three"
[ "$three" -le "$one" ] || fail "three shapes took $three launches, one shape $one"

# 2. NCCL's plugin rules, a row per shape.
nccl="--backend nccl --nccl-lib $T/libnccl-fake.so --cudart-lib $T/libcudart-stub.so"
# shellcheck disable=SC2086 # the collbench words
tune "$T/nccl" --space "$top_srcdir/tests/mpi/tune_nccl_algo.ini" --shapes 2x1,3x1,4x1 \
    --env STUB_CUDA_DEVICES=1 --env FAKE_NCCL_SLOW_ALGO=ring --env FAKE_NCCL_SLOW_US=2000 \
    --env "NCCL_TUNER_PLUGIN=$plugin" --collectives allreduce \
    -- $nccl -b 16K -e 64K -f 4 -w 1 --size-budget 0.01
conf="$T/nccl/nccl_tuner.conf"
[ -f "$conf" ] || fail "no nccl_tuner.conf: $(ls "$T/nccl"; cat "$T/nccl/report.md")"
# collective,min,max,algorithm,protocol,channels,nNodes,nRanks
got=$(grep -v '^#' "$conf" | sed '/^$/d' | awk -F, '{ print $1 ":" $4 ":" $7 "/" $8 }' |
    sort | tr '\n' ' ')
[ "$got" = "allreduce:tree:2/2 allreduce:tree:3/3 allreduce:tree:4/4 " ] ||
    fail "plugin rules '$got': $(cat "$conf") $(grep '^- ' "$T/nccl/report.md")"
nc=$(json_get "$T/nccl/report.json" choices.#)
i=0
while [ $i -lt "$nc" ]; do
    [ "$(json_get "$T/nccl/report.json" choices.$i.verified)" = true ] ||
        fail "nccl choice $i not verified: $(cat "$T/nccl/report.md")"
    i=$((i + 1))
done
[ "$nc" -eq 3 ] || fail "nccl: $nc choices: $(cat "$T/nccl/report.md")"
ct_cluster_down
exit 0
