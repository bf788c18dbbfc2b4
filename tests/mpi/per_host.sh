#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# Per-host timings and placement metadata (issue 9, "Stragglers and
# health"): each result's per_host and rank_medians_us agree with its
# rank_median_us; every rank has its NUMA nodes, cores and binding from
# hwloc, the host its topology; --bind-to none gives no placement warning
# and two ranks bound to one core do; --pairs on one host is refused.
. "$top_srcdir/tests/mpi/lib.sh"

# close A B: |A - B| <= 1e-9 relative (the same double, printed twice).
close() {
    awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b
        exit d <= 1e-9 * m + 1e-12 ? 0 : 1 }'
}

for np in 2 4; do
    j="$T/np$np.json"
    ct_mpirun $np -C allreduce,broadcast -b 1K -e 4K -f 4 --size-budget 0.05 --json "$j" \
        --quiet >"$T/out" 2>"$T/err" || fail "np=$np: exit $?: $(cat "$T/err")"
    nres=$(json_get "$j" results.#)
    [ "$nres" -eq 8 ] || fail "np=$np: $nres results"
    i=0
    while [ $i -lt "$nres" ]; do
        r="results.$i"
        [ "$(json_get "$j" $r.per_host.#)" = 1 ] || fail "np=$np $r: per_host is not one host"
        [ "$(json_get "$j" $r.per_host.0.hostname)" = "$(json_get "$j" hosts.0.hostname)" ] ||
            fail "np=$np $r: per_host hostname"
        [ "$(json_get "$j" $r.per_host.0.ranks.#)" = $np ] || fail "np=$np $r: per_host ranks"
        [ "$(json_get "$j" $r.rank_medians_us.#)" = $np ] || fail "np=$np $r: rank_medians_us"
        lo=$(json_get "$j" $r.rank_median_us.min)
        hi=$(json_get "$j" $r.rank_median_us.max)
        # One host: its max is the slowest rank's median; its median lies
        # between the fastest and the slowest rank's.
        close "$(json_get "$j" $r.per_host.0.max_us)" "$hi" || fail "np=$np $r: max_us vs max"
        close "$(json_get "$j" $r.slowest_rank_median_us)" "$hi" || fail "np=$np $r: slowest"
        med=$(json_get "$j" $r.per_host.0.median_us)
        awk -v m="$med" -v a="$lo" -v b="$hi" 'BEGIN { exit m >= a * (1 - 1e-9) && m <= b * (1 + 1e-9) ? 0 : 1 }' ||
            fail "np=$np $r: host median $med outside [$lo, $hi]"
        # The list is the ranks' own medians: its min and max are the
        # rank_median_us min and max.
        k=0 mn= mx=
        while [ $k -lt $np ]; do
            v=$(json_get "$j" $r.rank_medians_us.$k)
            mn=$(awk -v a="${mn:-$v}" -v b="$v" 'BEGIN { print (b < a ? b : a) }')
            mx=$(awk -v a="${mx:-$v}" -v b="$v" 'BEGIN { print (b > a ? b : a) }')
            k=$((k + 1))
        done
        close "$mn" "$lo" || fail "np=$np $r: min of rank_medians_us $mn vs $lo"
        close "$mx" "$hi" || fail "np=$np $r: max of rank_medians_us $mx vs $hi"
        i=$((i + 1))
    done
    # Placement, from hwloc.
    json_get "$j" topology.source | grep -q '^hwloc [0-9]' || fail "np=$np: topology source"
    pus=$(json_get "$j" topology.pus)
    [ "$pus" -ge 1 ] && [ "$(json_get "$j" topology.cores)" -ge 1 ] &&
        [ "$(json_get "$j" topology.numa_nodes)" -ge 1 ] || fail "np=$np: topology sizes"
    [ "$(json_get "$j" hosts.0.topology.pus)" = "$pus" ] || fail "np=$np: hosts.0.topology"
    k=0
    while [ $k -lt $np ]; do
        [ "$(json_get "$j" ranks.$k.numa_nodes.#)" -ge 1 ] || fail "np=$np: rank $k numa_nodes"
        [ "$(json_get "$j" ranks.$k.cores)" -ge 1 ] || fail "np=$np: rank $k cores"
        # --bind-to none: each rank may run anywhere.
        [ "$(json_get "$j" ranks.$k.bound)" = false ] || fail "np=$np: rank $k bound"
        json_get "$j" ranks.$k.gpu >/dev/null 2>&1 && fail "np=$np: a gpu without the nccl backend"
        k=$((k + 1))
    done
    [ "$(json_get "$j" placement_warnings.#)" = 0 ] || fail "np=$np: placement warnings unbound"
done

# Two ranks bound to one core overlap: a warning names them.  Needs two
# PUs (bound to the only PU is bound to the whole machine).
if [ "$(nproc)" -ge 2 ]; then
    CT_MPIRUN_ARGS="--cpu-set 0 --bind-to core:overload-allowed" \
        ct_mpirun 2 -C allreduce -b 1K -e 1K --size-budget 0.05 --json "$T/bound.json" \
        --quiet >"$T/out" 2>"$T/err" || fail "bound: exit $?: $(cat "$T/err")"
    [ "$(json_get "$T/bound.json" ranks.0.bound)" = true ] || fail "bound: rank 0 not bound"
    [ "$(json_get "$T/bound.json" ranks.0.cores)" = 1 ] || fail "bound: rank 0 cores"
    json_get "$T/bound.json" placement_warnings.0 |
        grep -q '^ranks 0 and 1 on host .* are bound to overlapping cores' ||
        fail "bound: no overlap warning: $(json_get "$T/bound.json" placement_warnings.0)"
    grep -q '^# Placement warning: ranks 0 and 1 on host .* are bound to overlapping cores' "$T/out" ||
        fail "bound: the table's preamble lacks the warning: $(head -12 "$T/out")"
fi

# --pairs needs two hosts; this job has one.
ct_mpirun 2 --pairs -C allreduce --quiet >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 2 ] || fail "--pairs on one host: exit $rc"
grep -q 'needs 2 hosts or more' "$T/err" || fail "--pairs message: $(cat "$T/err")"
exit 0
