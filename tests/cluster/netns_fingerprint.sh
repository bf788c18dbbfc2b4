#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The fingerprint across emulated hosts (tests/cluster/cluster.sh): 2 hosts
# x 2 ranks, each host's lowest rank takes its host's fingerprint.
#  - the same machine everywhere: both hosts have rank 0's digest and
#    other_hosts is empty, though host names, ranks, and the launch (mpirun
#    on host 1, an orted on host 2) differ;
#  - a host whose launch agent adds a variable (NCCL_DEBUG=WARN, as a
#    node's own profile might): its digest differs, and other_hosts names it
#    with its whole fingerprint, the variable in it.
# Skips (77) where network namespaces cannot be made (not root, no iproute2).
: "${top_srcdir:?run through make check}"
# shellcheck source=tests/mpi/lib.sh
. "$top_srcdir/tests/mpi/lib.sh"
# shellcheck source=tests/cluster/cluster.sh
. "$top_srcdir/tests/cluster/cluster.sh"

ct_cluster_skip_unless_able
# shellcheck disable=SC2016,SC2034 # run by cluster.sh's trap
CT_CLUSTER_ON_EXIT='rm -rf "$T"'
# shellcheck disable=SC2034 # read by ct_cluster_up
CT_CLUSTER_SLOTS=2
ct_cluster_up 2 || fail "ct_cluster_up 2"
# shellcheck disable=SC2086 # the host names, one word each
set -- $CT_CLUSTER_HOSTS
h1=$1 h2=$2

run() {
    name=$1
    ct_cluster_mpirun 4 "$COLLBENCH" -C allreduce -b 8 -e 8 --size-budget 0.05 --quiet \
        --json "$T/$name.json" >"$T/$name.out" 2>"$T/$name.err" ||
        fail "$name: exit $? ($(cat "$T/$name.err"))"
}
fp() { json_get "$T/$1.json" "fingerprint.$2"; }
# A dot in a host name would split json_get's path.
key() { printf '%s' "$1" | sed 's/\./\\./g'; }

run same
d=$(fp same digest)
[ "$(fp same 'hosts.#')" = 2 ] || fail "hosts: $(fp same 'hosts.#') entries, want 2"
[ "$(fp same "hosts.$(key "$h1")")" = "$d" ] || fail "$h1's digest is not rank 0's"
[ "$(fp same "hosts.$(key "$h2")")" = "$d" ] ||
    fail "$h2's digest $(fp same "hosts.$(key "$h2")") differs from $h1's $d on one machine"
[ "$(fp same 'other_hosts.#')" = 0 ] || fail "other_hosts not empty on one machine"

# Host 2's agent adds a variable its ranks inherit through the orted.
real_agent=$CT_CLUSTER_AGENT
cat >"$T/agent" <<AGENT
#!/bin/sh
for a; do
    case \$a in -*) ;; $h2) export NCCL_DEBUG=WARN; break ;; *) break ;; esac
done
exec "$real_agent" "\$@"
AGENT
chmod +x "$T/agent"
CT_CLUSTER_AGENT=$T/agent
run differs
CT_CLUSTER_AGENT=$real_agent
d1=$(fp differs "hosts.$(key "$h1")") d2=$(fp differs "hosts.$(key "$h2")")
[ "$d1" = "$(fp differs digest)" ] || fail "$h1's digest is not rank 0's"
[ -n "$d2" ] || fail "no digest for $h2"
[ "$d2" != "$d1" ] || fail "$h2's NCCL_DEBUG did not change its digest"
[ "$d1" = "$d" ] || fail "$h1 changed though only $h2's agent did"
[ "$(fp differs 'other_hosts.#')" = 1 ] || fail "other_hosts: want $h2 alone"
o="other_hosts.$(key "$h2")"
[ "$(fp differs "$o.env.NCCL_DEBUG")" = WARN ] || fail "$h2's fingerprint lacks NCCL_DEBUG"
[ "$(fp differs "$o.digest")" = "$d2" ] || fail "$h2's own digest"
fp differs "$o.libraries.collbench.build_id" | grep -Eq '^[0-9a-f]{40}$' ||
    fail "$h2's fingerprint lacks its libraries"
fp differs "$o.mpi_t.coll_tuned_use_dynamic_rules" >/dev/null || fail "$h2's mpi_t"
fp differs env.NCCL_DEBUG >/dev/null 2>&1 && fail "rank 0's host got $h2's variable"
exit 0
