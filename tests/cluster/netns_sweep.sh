#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune sweep across emulated hosts (tests/cluster/cluster.sh): network
# namespaces on a bridge, mpirun in host 1, the orteds launched into the
# other hosts by ct-netns-agent, TCP only on the cluster's subnet.
#  - 2 hosts x 2 ranks (tcp between hosts, vader within) and 4 hosts x 1
#    rank: every collective, 8 B to 1 MB, #wrong 0 in the table;
#  - results.csv records nnodes = hosts, and the JSON's hosts are the
#    namespaces' host names, one rank per host slot;
#  - the agent: ssh's semantics (the words joined, run by sh -c once, on the
#    host: its hostname, its address for its name), the --argv form keeps
#    words literal, a host outside the cluster is refused (255);
#  - after each cluster's teardown no namespace, interface or process of it
#    is left, and a cluster whose script is killed (TERM) is taken down by
#    the trap just the same.
# Skips (77) where network namespaces cannot be made (not root, no iproute2).
: "${top_srcdir:?run through make check}"
# shellcheck source=tests/mpi/lib.sh
. "$top_srcdir/tests/mpi/lib.sh"
# shellcheck source=tests/cluster/cluster.sh
. "$top_srcdir/tests/cluster/cluster.sh"

ct_cluster_skip_unless_able
ct_colltune_test
# shellcheck disable=SC2016,SC2034 # run by cluster.sh's trap
CT_CLUSTER_ON_EXIT='rm -rf "$T"'
links_before=$(ip -o link | cut -d: -f2 | sort)

# check_gone: nothing of the last cluster remains, in the root namespace
# either (it never gains an interface).
check_gone() {
    left=$(ct_cluster_left)
    [ -z "$left" ] || fail "left behind by cluster $CT_CLUSTER_ID: $left"
    [ "$(ip -o link | cut -d: -f2 | sort)" = "$links_before" ] ||
        fail "root namespace interfaces changed: $(ip -o link)"
}

# sweep HOSTS SLOTS: one colltune sweep on a fresh cluster, checked.
sweep() {
    hosts=$1
    slots=$2
    np=$((hosts * slots))
    out="$T/run$hosts"
    # shellcheck disable=SC2034 # read by ct_cluster_up
    CT_CLUSTER_SLOTS=$slots
    ct_cluster_up "$hosts" || fail "ct_cluster_up $hosts"
    start=$(date +%s)
    ct_cluster_exec 1 timeout 100 "$CT" sweep --out "$out" --np "$np" \
        --hostfile "$CT_CLUSTER_HOSTFILE" --launcher-arg --bind-to --launcher-arg none \
        --launcher-arg --mca --launcher-arg orte_tmpdir_base --launcher-arg "$T" \
        --mca mpi_yield_when_idle=1 --mca "plm_rsh_agent=$CT_CLUSTER_AGENT" \
        --mca "oob_tcp_if_include=$CT_CLUSTER_SUBNET" --mca "btl_tcp_if_include=$CT_CLUSTER_SUBNET" \
        --mca btl=tcp,vader,self --timeout 90 \
        -- -b 8 -e 1M -f 4 -n 5 -w 1 --quiet >"$T/out" 2>"$T/err"
    rc=$?
    echo "$hosts hosts x $slots ranks: sweep exit $rc in $(($(date +%s) - start)) s"
    [ "$rc" -eq 0 ] || fail "$hosts-host sweep: exit $rc ($(cat "$T/err"))"
    check_table "$out/collbench.txt"
    # Every row on all hosts and ranks, right; every collective up to 512K
    # (the last size of -b 8 -e 1M -f 4), both placements.
    bad=$(awk -F, -v np="$np" -v n="$hosts" 'NR > 1 && ($9 != np || $10 != n || $21 != 0)' "$out/results.csv")
    [ -z "$bad" ] || fail "rows not on $np ranks and $hosts nodes, or wrong: $bad"
    for c in allreduce allgather alltoall broadcast reduce_scatter; do
        rows=$(awk -F, -v c="$c" 'NR > 1 && $4 == c && $11 == 524288' "$out/results.csv" | wc -l)
        [ "$rows" -eq 2 ] || fail "$c: $rows rows of 512K, want 2: $(cat "$out/results.csv")"
    done
    [ "$(json_get "$out/results.json" nnodes)" = "$hosts" ] || fail "JSON nnodes"
    i=0
    for h in $CT_CLUSTER_HOSTS; do
        got=$(json_get "$out/results.json" "hosts.$i.hostname") || fail "no hosts.$i in JSON"
        [ "$got" = "$h" ] || fail "JSON host $i is '$got', want '$h'"
        [ "$(json_get "$out/results.json" "hosts.$i.ranks_per_node")" = "$slots" ] ||
            fail "host $h: ranks_per_node, want $slots"
        i=$((i + 1))
    done
    ct_cluster_down
    check_gone
}

ct_cluster_up 2 || fail "ct_cluster_up 2"
# shellcheck disable=SC2086 # the host names, one word each
set -- $CT_CLUSTER_HOSTS
agent=$CT_CLUSTER_AGENT
# shellcheck disable=SC2016 # literal on purpose
got=$("$agent" -x "$2" echo '$(hostname)' '"a;b"' 'c;' echo d) || fail "agent: exit $?"
[ "$got" = "$2 a;b c
d" ] || fail "agent (ssh form) ran: '$got'"
# shellcheck disable=SC2016 # literal on purpose
got=$("$agent" --argv "$2" echo '$(hostname)' 'c;' "$2") || fail "agent --argv: exit $?"
[ "$got" = "\$(hostname) c; $2" ] || fail "agent --argv ran: '$got'"
got=$("$agent" "$1" getent hosts "$2") || fail "getent on $1"
[ "$(echo "$got" | awk '{ print $1 }')" = "$(awk -v h="$2" '$2 == h { print $1 }' "$CT_CLUSTER_HOSTSMAP")" ] ||
    fail "$2 resolves on $1 to '$got'"
"$agent" nosuchhost true 2>"$T/err"
[ $? -eq 255 ] || fail "agent: an unknown host not refused"
ct_cluster_down
check_gone

sweep 2 2
sweep 4 1

# Killed mid-run: the trap takes the cluster down, with what ran in it.
# (`sleep & wait`: a trapped TERM interrupts wait, not a foreground sleep.)
# shellcheck disable=SC2016 # the child shell's text
top_srcdir=$top_srcdir sh -c '. "$top_srcdir/tests/cluster/cluster.sh"
    ct_cluster_up 2 100mbit || exit 3
    echo "$CT_CLUSTER_ID" >"$1"
    ct_cluster_exec 2 sleep 300 &
    wait' killed "$T/id" 2>"$T/killed.err" &
child=$!
i=0
while [ ! -s "$T/id" ] && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
CT_CLUSTER_ID=$(cat "$T/id") || fail "the killed cluster did not come up"
sleep 0.5
kill -TERM "$child"
wait "$child"
rc=$?
[ "$rc" -eq 143 ] || fail "killed cluster script: exit $rc, want 143"
check_gone
exit 0
