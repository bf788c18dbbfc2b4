# SPDX-License-Identifier: BSD-3-Clause
# bench/cluster-common.sh - the emulated cluster for the bench scripts
# (sourced, bash): tests/cluster/cluster.sh, and the launcher words that
# run Open MPI across its hosts.  Expects $root and $me set.
#
# ct_bench_cluster_up N RATE : N hosts, every link at RATE (tc syntax);
#   sets ct_cluster_words (mpirun options: the hostfile first, as its 2
#   first words, then the launch agent, TCP on the cluster's subnet only) for `colltune --launcher-arg` or a
#   hand-run mpirun.  Run colltune from host 1: ct_cluster_exec 1 CMD...
#   The cluster goes down on exit (cluster.sh's traps).

CT_CLUSTER_AGENT=$root/tests/cluster/ct-netns-agent
# shellcheck source=tests/cluster/cluster.sh
. "$root/tests/cluster/cluster.sh"

ct_bench_cluster_up() {
    if ! why=$(ct_cluster_check); then
        echo "$me: no emulated cluster here: $why" >&2
        exit 77
    fi
    ct_cluster_up "$1" "$2" || { echo "$me: ct_cluster_up $1 $2 failed" >&2; exit 1; }
    ct_cluster_words=(--hostfile "$CT_CLUSTER_HOSTFILE" --mca plm_rsh_agent "$CT_CLUSTER_AGENT"
                      --mca oob_tcp_if_include "$CT_CLUSTER_SUBNET"
                      --mca btl_tcp_if_include "$CT_CLUSTER_SUBNET" --mca btl tcp,vader,self)
}
