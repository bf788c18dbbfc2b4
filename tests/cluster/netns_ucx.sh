#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# collbench over pml ucx between emulated hosts (tests/cluster/cluster.sh):
# UCX's TCP transport on each host's veth (UCX_TLS=tcp,self,
# UCX_NET_DEVICES=eth0), pml ucx asked for as Debian's Open MPI needs it
# (pml_ucx_tls and pml_ucx_devices any).  2 hosts x 2 ranks, every
# collective 8 B to 1 MB: #wrong 0 in the table and the CSV, and the JSON
# says the pml that ran was ucx with those UCX settings in force, on 2
# nodes.  Skips (77) where network namespaces cannot be made.
: "${top_srcdir:?run through make check}"
# shellcheck source=tests/mpi/lib.sh
. "$top_srcdir/tests/mpi/lib.sh"
# shellcheck source=tests/cluster/cluster.sh
. "$top_srcdir/tests/cluster/cluster.sh"

ct_cluster_skip_unless_able
command -v ucx_info >/dev/null 2>&1 || { echo "SKIP: no ucx_info (ucx-utils)"; exit 77; }
# shellcheck disable=SC2016,SC2034 # run by cluster.sh's trap
CT_CLUSTER_ON_EXIT='rm -rf "$T"'
# shellcheck disable=SC2034 # read by ct_cluster_up
CT_CLUSTER_SLOTS=2
ct_cluster_up 2 || fail "ct_cluster_up 2"

CT_CLUSTER_TIMEOUT=120 ct_cluster_mpirun 4 --oversubscribe --mca pml ucx \
    --mca pml_ucx_tls any --mca pml_ucx_devices any -x UCX_TLS=tcp,self \
    -x UCX_NET_DEVICES=eth0 "$COLLBENCH" -C all -b 8 -e 1M -f 8 -n 5 -w 1 \
    --csv "$T/r.csv" --json "$T/r.json" >"$T/out" 2>"$T/err" ||
    fail "collbench over pml ucx, tcp between hosts: exit $? ($(tail -5 "$T/err"))"
check_table "$T/out"
bad=$(awk -F, 'NR > 1 && ($9 != 4 || $10 != 2 || $21 != 0)' "$T/r.csv")
[ -z "$bad" ] || fail "rows with wrong ranks, nodes or #wrong: $bad"
[ "$(awk -F, 'NR > 1' "$T/r.csv" | wc -l)" -ge 50 ] || fail "too few rows: $(wc -l <"$T/r.csv")"
[ "$(json_get "$T/r.json" nnodes)" = 2 ] || fail "nnodes"
[ "$(json_get "$T/r.json" transport.pml)" = ucx ] ||
    fail "pml $(json_get "$T/r.json" transport.pml), want ucx"
[ "$(json_get "$T/r.json" transport.ucx_config.UCX_TLS)" = tcp,self ] || fail "UCX_TLS"
[ "$(json_get "$T/r.json" transport.ucx_config.UCX_NET_DEVICES)" = eth0 ] || fail "UCX_NET_DEVICES"
exit 0
