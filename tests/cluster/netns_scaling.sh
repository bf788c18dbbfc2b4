#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune sweep --scales 1,2,4 by nodes on the emulated cluster (4 hosts,
# every link limited to 1 Gbit/s both ways, 2 ranks per host): one sweep
# per scale on the first N hosts of the hostfile, results.csv with
# nnodes 1, 2, 4 and nranks 2, 4, 8, the efficiency table (stdout and
# scaling.md, 100% at 1 node) and the scaling plot.  And a physical check:
# across hosts no algbw of 1 MiB or more can beat the 1 Gbit/s link
# (0.125 GB/s; 10% for tbf's burst and rounding): every byte of a
# broadcast, and of an allreduce's contribution, must cross into the
# other hosts at least once.  Not busbw: with 2 ranks per host an
# allreduce that reduces within the host first moves less over the link
# than busbw's 2(n-1)/n counts (read here: busbw 0.142-0.154 GB/s, algbw
# 0.095-0.103, for 1-4 MiB at 2 nodes).
: "${top_srcdir:?run through make check}"
. "$top_srcdir/tests/mpi/lib.sh"
. "$top_srcdir/tests/cluster/cluster.sh"

ct_cluster_skip_unless_able
ct_colltune_test
CT_CLUSTER_ON_EXIT='rm -rf "$T"'

CT_CLUSTER_SLOTS=2
ct_cluster_up 4 1gbit || fail "ct_cluster_up 4"
start=$(date +%s)
ct_cluster_exec 1 timeout 240 "$CT" sweep --out "$T/s" --scales 1,2,4 --ranks-per-node 2 \
    --hostfile "$CT_CLUSTER_HOSTFILE" --launcher-arg --bind-to --launcher-arg none \
    --launcher-arg --mca --launcher-arg orte_tmpdir_base --launcher-arg "$T" \
    --mca mpi_yield_when_idle=1 --mca "plm_rsh_agent=$CT_CLUSTER_AGENT" \
    --mca "oob_tcp_if_include=$CT_CLUSTER_SUBNET" --mca "btl_tcp_if_include=$CT_CLUSTER_SUBNET" \
    --mca btl=tcp,vader,self --timeout 120 \
    -- -C allreduce,broadcast -b 64K -e 4M -f 4 --sync barrier --quiet >"$T/out" 2>"$T/err"
rc=$?
echo "sweep --scales 1,2,4 (nodes, 2 ranks each): exit $rc in $(($(date +%s) - start)) s"
[ "$rc" -eq 0 ] || fail "sweep --scales: exit $rc ($(cat "$T/err"))"
for s in 1 2 4; do
    check_table "$T/s/scale-$s/collbench.txt"
    # The hostfile of scale s: its first s hosts, 2 slots each.
    [ "$(grep -v '^#' "$T/s/scale-$s/hostfile" | awk '{ print $1 }' | tr '\n' ' ')" = \
        "$(echo "$CT_CLUSTER_HOSTS" | tr ' ' '\n' | head -n "$s" | tr '\n' ' ')" ] ||
        fail "scale $s hostfile: $(cat "$T/s/scale-$s/hostfile")"
    n=$(awk -F, -v s=$s 'NR > 1 && $10 == s && $9 == 2 * s && $21 == 0' "$T/s/results.csv" | wc -l)
    [ "$n" -eq 16 ] || fail "results.csv: $n right rows on $s nodes, want 16: $(cat "$T/s/results.csv")"
done
awk -F, 'NR > 1 && $10 > 1 && $11 >= 1048576 && $19 > 0.1375 { print; bad = 1 } END { exit bad }' \
    "$T/s/results.csv" || fail "an algbw beats the 1 Gbit/s link (above)"
grep -q '^| series | size | 1 node | 2 nodes | 4 nodes |$' "$T/s/scaling.md" ||
    fail "scaling.md header: $(cat "$T/s/scaling.md")"
rows=$(grep -c '^| mpi, .* (100%) | .* GB/s ([0-9]*%) | .* GB/s ([0-9]*%) |$' "$T/s/scaling.md")
[ "$rows" -eq 16 ] || fail "scaling.md: $rows rows with 100% at 1 node and 2 more scales, want 16: $(cat "$T/s/scaling.md")"
grep -q '^broadcast: busbw (GB/s) by nodes' "$T/out" || fail "no table on stdout"
[ -s "$T/s/plots/allreduce_scaling.png" ] && [ -s "$T/s/plots/broadcast_scaling.png" ] ||
    fail "no scaling plots: $(ls "$T/s/plots")"
awk '/^[0-9]/ && $1 != 1 && $1 != 2 && $1 != 4 { exit 1 }' "$T/s/plots/allreduce_scaling.dat" ||
    fail "scaling plot's x is not 1, 2, 4 nodes"
sed -n '/^allreduce/,/^$/p' "$T/out"
ct_cluster_down
left=$(ct_cluster_left)
[ -z "$left" ] || fail "left behind: $left"
echo "PASS: sweep --scales on the emulated cluster"
