#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# MPICH's collbench (build-mpich/collbench) through mpiexec.hydra across 4
# emulated hosts (tests/cluster/cluster.sh): Hydra's ssh launcher with
# ct-netns-agent as its ssh, run from host 1, 1 rank per host.  Four short
# launches, the hostfile rotated so each host in turn holds rank 0 (which
# reads --cvars through MPI_T): each launch exits 0 within its timeout,
# its header says 4 ranks on 4 nodes, #wrong is 0 in the table and the
# CSV, rank 0 ran on that launch's first host, and
# MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=recursive_doubling set in the
# environment reads back as in force there (3, scope all_eq).
# UCX_TLS=sm,self: over tcp,self MPICH 4.0.2's MPI_Finalize never returns
# on about 1 launch in 3 (doc/tests.md "MPICH on the emulated cluster").
# Skips (77) without namespaces or without MPICH.
: "${top_srcdir:?run through make check}"
# shellcheck source=tests/mpi/lib.sh
. "$top_srcdir/tests/mpi/lib.sh"
# shellcheck source=tests/cluster/cluster.sh
. "$top_srcdir/tests/cluster/cluster.sh"

ct_cluster_skip_unless_able
ct_mpich_collbench
# shellcheck disable=SC2016,SC2034 # run by cluster.sh's trap
CT_CLUSTER_ON_EXIT='rm -rf "$T"'
ct_cluster_up 4 || fail "ct_cluster_up 4"

cv=MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM
n=1
while [ "$n" -le 4 ]; do
    # Hydra's host:slots form, starting at host n: rank 0 runs there.
    # (n, not i: ct_cluster_exec sets i.)
    hf=$T/hosts$n
    awk -v i="$n" '{ sub(/^slots=/, "", $2); h[NR] = $1 ":" $2 }
        END { for (k = 0; k < NR; k++) print h[(i - 1 + k) % NR + 1] }' "$CT_CLUSTER_HOSTFILE" >"$hf"
    first=$(awk -F: 'NR == 1 { print $1 }' "$hf")
    rc=0
    ct_cluster_exec 1 env UCX_TLS=sm,self "$cv=recursive_doubling" \
        MPIR_CVAR_ALLREDUCE_DEVICE_COLLECTIVE=0 timeout 60 "$MPIEXEC_HYDRA" -launcher ssh \
        -launcher-exec "$CT_CLUSTER_AGENT" -f "$hf" -np 4 "$MPICH_COLLBENCH" -C allreduce \
        -b 8 -e 64K -f 64 --sync barrier -n 3 -w 1 --cvars "$cv" --csv "$T/r$n.csv" \
        --json "$T/r$n.json" >"$T/out$n" 2>"$T/err$n" || rc=$?
    [ "$rc" = 0 ] || fail "launch $n (rank 0 on $first): exit $rc (124: it never exited) ($(tail -3 "$T/err$n"))"
    grep -q '^# collbench .* 4 ranks on 4 nodes$' "$T/out$n" ||
        fail "launch $n: header: $(head -1 "$T/out$n")"
    check_table "$T/out$n"
    bad=$(awk -F, 'NR > 1 && ($9 != 4 || $10 != 4 || $21 != 0)' "$T/r$n.csv")
    [ -z "$bad" ] || fail "launch $n: rows with wrong ranks, nodes or #wrong: $bad"
    [ "$(awk -F, 'NR > 1' "$T/r$n.csv" | wc -l)" = 6 ] || fail "launch $n: $(wc -l <"$T/r$n.csv") CSV lines, want 6 rows and a header"
    [ "$(json_get "$T/r$n.json" ranks.0.hostname)" = "$first" ] ||
        fail "launch $n: rank 0 on $(json_get "$T/r$n.json" ranks.0.hostname), want $first"
    [ "$(json_get "$T/r$n.json" "cvars.$cv.value")" = 3 ] ||
        fail "launch $n: $cv on $first reads $(json_get "$T/r$n.json" "cvars.$cv.value"), want 3 (recursive_doubling)"
    [ "$(json_get "$T/r$n.json" "cvars.$cv.scope")" = all_eq ] || fail "launch $n: scope"
    n=$((n + 1))
done
exit 0
