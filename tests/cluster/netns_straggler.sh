#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune health on the emulated cluster: 4 hosts, every link at 1 Gbit/s
# both ways except host 2's at 100 Mbit/s (a tenth).  The whole-job run
# gives each host's own median (collbench's per_host); --pairs runs the
# collectives on the 6 host pairs (3 rounds of 2 pairs at once).  The
# report must name host 2 and no other host or link; exit 1 (suspects).
# The whole-job section may name host 2 or nobody, but never another host:
# a slow link gates every rank of a ring or tree, which is why pairs exist.
# Also: --report on the runs' files says the same; bad input exits 2.
: "${top_srcdir:?run through make check}"
. "$top_srcdir/tests/mpi/lib.sh"
. "$top_srcdir/tests/cluster/cluster.sh"

ct_cluster_skip_unless_able
ct_colltune_test
CT_CLUSTER_ON_EXIT='rm -rf "$T"'

ct_cluster_up 4 1gbit 2 100mbit || fail "ct_cluster_up 4"
slow=$(echo "$CT_CLUSTER_HOSTS" | awk '{ print $2 }')
start=$(date +%s)
ct_cluster_exec 1 timeout 300 "$CT" health --out "$T/h" --np 4 \
    --hostfile "$CT_CLUSTER_HOSTFILE" --launcher-arg --bind-to --launcher-arg none \
    --launcher-arg --mca --launcher-arg orte_tmpdir_base --launcher-arg "$T" \
    --mca mpi_yield_when_idle=1 --mca "plm_rsh_agent=$CT_CLUSTER_AGENT" \
    --mca "oob_tcp_if_include=$CT_CLUSTER_SUBNET" --mca "btl_tcp_if_include=$CT_CLUSTER_SUBNET" \
    --mca btl=tcp,vader,self --timeout 200 \
    -- -C allreduce,alltoall,broadcast -b 256K -e 1M -f 4 --sync barrier --quiet >"$T/out" 2>"$T/err"
rc=$?
echo "colltune health, 4 hosts, $slow at 100 Mbit/s: exit $rc in $(($(date +%s) - start)) s"
cat "$T/out"
[ "$rc" -eq 1 ] || fail "health: exit $rc, want 1 (suspects) ($(cat "$T/err"))"
for run in job pairs; do
    [ "$(json_get "$T/h/$run/launch.json" outcome)" = ok ] || fail "$run run did not finish"
    check_table "$T/h/$run/collbench.txt"
done
# 6 pairs x 3 collectives x 2 sizes x 2 placements, every pair once.
[ "$(json_get "$T/h/pairs/results.json" pairs.#)" -eq 72 ] || fail "pairs: want 72 entries"
[ "$(grep -c '^# pairs round' "$T/h/pairs/collbench.txt")" -eq 3 ] ||
    fail "pairs: want 3 rounds in the table"
[ "$(grep '^# pair ' "$T/h/pairs/collbench.txt" | awk '{ print $3 }' | sort -u | wc -l)" -eq 6 ] ||
    fail "pairs: want the 6 pairs of 4 hosts: $(grep '^# pair ' "$T/h/pairs/collbench.txt")"
# The pairs name the slow host first, and no other host or link.
[ "$(json_get "$T/h/health.json" pairs.hosts.0.host)" = "$slow" ] || fail "pairs: $slow not ranked first"
[ "$(json_get "$T/h/health.json" pairs.hosts.0.named)" = true ] || fail "pairs: $slow not named"
for i in 1 2 3; do
    [ "$(json_get "$T/h/health.json" "pairs.hosts.$i.named")" = false ] ||
        fail "pairs: $(json_get "$T/h/health.json" "pairs.hosts.$i.host") named too"
done
[ "$(json_get "$T/h/health.json" pairs.links.#)" -eq 0 ] || fail "pairs: a link named"
# The pairs decide; the whole job's section is there, for information (a
# slow link slows its ring neighbours there too).
[ "$(json_get "$T/h/health.json" decided_by)" = pairs ] || fail "health.json: not decided by pairs"
[ "$(json_get "$T/h/health.json" job.hosts.#)" -eq 4 ] || fail "health.json: whole job lacks hosts"
# Both runs chased each size's CI to its budget (verdicts, like a tune's
# choices, want it; a sweep stops at the least).
for r in job pairs; do
    [ "$(json_get "$T/h/$r/results.json" options.ci_patience)" = 1000000 ] ||
        fail "health $r run: --ci-patience $(json_get "$T/h/$r/results.json" options.ci_patience)"
done
grep -A5 '^## Pairs' "$T/h/health.md" | grep -q "^| 1 | $slow | SLOW |" ||
    fail "health.md: $slow not SLOW first among the pairs"
# The same files judged again: the same verdict.
"$CT" health --report "$T/h/job/results.json" "$T/h/pairs/results.json" >"$T/again" 2>&1
[ $? -eq 1 ] || fail "--report: exit, want 1"
grep -q "$slow  *SLOW" "$T/again" || fail "--report does not name $slow: $(cat "$T/again")"
ct_cluster_down
left=$(ct_cluster_left)
[ -z "$left" ] || fail "left behind: $left"

# Bad input: not results, a pairs entry without hosts, --report with nothing.
echo '{"schema": "other"}' >"$T/x.json"
"$CT" health --report "$T/x.json" 2>"$T/err"
[ $? -eq 2 ] && grep -q 'x.json:1: not collbench results' "$T/err" || fail "not results: $(cat "$T/err")"
echo '{"schema": "colltune-results/2", "results": [], "pairs": [{"collective": "allreduce", "placement": "in-place", "bytes": 8, "median_us": 1}]}' >"$T/y.json"
"$CT" health --report "$T/y.json" 2>"$T/err"
[ $? -eq 2 ] && grep -q 'y.json: pairs\[0\]: needs' "$T/err" || fail "pairs without hosts: $(cat "$T/err")"
"$CT" health --report 2>"$T/err"
[ $? -eq 2 ] || fail "--report without files"
"$CT" health --out "$T/z" --np 2 -- --pairs 2>"$T/err"
[ $? -eq 2 ] && grep -q 'health sets it itself' "$T/err" || fail "--pairs in collbench args: $(cat "$T/err")"
echo "PASS: colltune health names the slow host"
