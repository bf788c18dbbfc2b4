#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The rate limits of the emulated cluster are real (a smoke test), on 4
# hosts at 1 Gbit with alltoall of 1 MB, where host 2 sends 3 x 256 KB and
# receives as much:
#  - with host 2 cut to 50 Mbit, no run beats the wire: 768 KB at 50 Mbit is
#    123 ms (noise only ever adds to that, so this cannot flake);
#  - every such run is at least 2x slower than the slowest run at 1 Gbit
#    (measured 3-5x; the fast side is mostly CPU on this 2-core machine,
#    hence the wide margin and a 20x rate cut, not 10x).
# The limit is switched on the live cluster, A B A B.
# Skips (77) where network namespaces cannot be made.
: "${top_srcdir:?run through make check}"
# shellcheck source=tests/mpi/lib.sh
. "$top_srcdir/tests/mpi/lib.sh"
# shellcheck source=tests/cluster/cluster.sh
. "$top_srcdir/tests/cluster/cluster.sh"

ct_cluster_skip_unless_able
# shellcheck disable=SC2016,SC2034 # run by cluster.sh's trap
CT_CLUSTER_ON_EXIT='rm -rf "$T"'
ct_cluster_up 4 1gbit || fail "ct_cluster_up 4 1gbit"

# one LABEL: alltoall 1M, out-of-place median in us.
one() {
    rm -f "$T/r.csv"
    CT_CLUSTER_TIMEOUT=100 ct_cluster_mpirun 4 "$COLLBENCH" -C alltoall -b 1M -e 1M -n 4 -w 1 --sync barrier --quiet \
        --csv "$T/r.csv" >"$T/out" 2>"$T/err" || fail "$1: collbench failed ($(cat "$T/err"))"
    check_table "$T/out"
    t=$(awk -F, 'NR > 1 && $5 == "out-of-place" { print $14 }' "$T/r.csv")
    [ -n "$t" ] || fail "$1: no time in $T/r.csv"
    echo "$1 $t"
}
for round in 1 2; do
    ct_cluster_rate 2 1gbit || fail "rate 1gbit"
    one "fast$round" >>"$T/times"
    ct_cluster_rate 2 50mbit || fail "rate 50mbit"
    one "slow$round" >>"$T/times"
done
cat "$T/times"
awk '/^fast/ && $2 > f { f = $2 } /^slow/ && (s == "" || $2 < s) { s = $2 }
     END { printf "slowest fast %s us, fastest slow %s us: %.1fx\n", f, s, s / f; exit !(s >= 0.95 * 786432 * 8 / 50) }' \
    "$T/times" || fail "host 2 at 50 Mbit sent 768 KB faster than its wire allows"
awk '/^fast/ && $2 > f { f = $2 } /^slow/ && (s == "" || $2 < s) { s = $2 } END { exit !(s >= 2 * f) }' \
    "$T/times" || fail "host 2 at 50 Mbit is not 2x slower than at 1 Gbit"
exit 0
