# SPDX-License-Identifier: BSD-3-Clause
# tests/cluster/cluster.sh - an emulated cluster of N hosts on one machine
# (sourced by tests and bench scripts; POSIX sh).
#
# Each host is a network namespace named after the host, with one veth
# (eth0) to a bridge that lives in a namespace of its own.  The addresses, a
# private /24 picked per run, exist only inside those namespaces: the root
# namespace gains no interface, address or route.  Names carry a run id, so
# parallel runs never collide.  ../shared/DESIGN.md "Emulated cluster".
#
#   ct_cluster_check              prints why no cluster can be made; 1 then
#   ct_cluster_skip_unless_able   exit 77 with that reason (tests)
#   ct_cluster_up N [RATE [SLOW_HOST SLOW_RATE]]
#       N hosts (1..250); RATE (tc's syntax: 1gbit, 100mbit) limits every
#       host both ways with tbf; SLOW_HOST (1..N) gets SLOW_RATE instead.
#       Installs the EXIT/INT/TERM traps that take it all down again.
#   ct_cluster_down               kills every process in the namespaces,
#                                 deletes them (veths and bridge go with them)
#   ct_cluster_rate I RATE        changes host I's limit (empty: none)
#   ct_cluster_exec I CMD ARGS... runs CMD on host I (1..N), argv unchanged
#   ct_cluster_mpirun NP PROG ARGS... mpirun in host 1 across the hosts
#   ct_cluster_left               prints what of the last run is still there
#                                 (namespaces, processes): nothing after down
#
# After ct_cluster_up:
#   CT_CLUSTER_HOSTS     host names, space-separated (host I is the I-th)
#   CT_CLUSTER_HOSTFILE  mpirun's hostfile: "NAME slots=K" (K: CT_CLUSTER_SLOTS, 1)
#   CT_CLUSTER_HOSTSMAP  /etc/hosts-style map (exported: the agent reads it)
#   CT_CLUSTER_SUBNET    the CIDR, for oob_tcp_if_include / btl_tcp_if_include
#   CT_CLUSTER_AGENT     the launch agent, for plm_rsh_agent
#
# The traps replace the caller's EXIT trap: set CT_CLUSTER_ON_EXIT to shell
# text to run after the teardown (e.g. 'rm -rf "$T"').

# The agent beside this file: sourcing scripts set top_srcdir (make check)
# or CT_CLUSTER_AGENT (bench).
: "${CT_CLUSTER_AGENT:=${top_srcdir:-.}/tests/cluster/ct-netns-agent}"
case $CT_CLUSTER_AGENT in /*) ;; *) CT_CLUSTER_AGENT=$(pwd)/$CT_CLUSTER_AGENT ;; esac
CT_CLUSTER_DIR=
CT_CLUSTER_ID=
CT_CLUSTER_HOSTS=
CT_CLUSTER_NS=

ct_cluster__log() {
    echo "cluster: $*" >&2
}

ct_cluster_check() {
    if [ "$(id -u)" != 0 ]; then
        echo "network namespaces need root (uid $(id -u))"
        return 1
    fi
    for c in ip tc unshare hostname mount awk; do
        command -v "$c" >/dev/null 2>&1 || {
            echo "no $c (iproute2 and util-linux are needed)"
            return 1
        }
    done
    probe="ctprobe$$"
    if ! err=$(ip netns add "$probe" 2>&1); then
        echo "cannot create a network namespace: $err"
        return 1
    fi
    ok=1
    ip netns exec "$probe" ip link add b0 type bridge 2>/dev/null || ok=0
    ip netns exec "$probe" unshare --uts -- hostname "$probe" 2>/dev/null || ok=0
    ip netns del "$probe" 2>/dev/null
    [ "$ok" = 1 ] || {
        echo "namespaces exist, but a bridge or a UTS namespace cannot be made in one"
        return 1
    }
    return 0
}

ct_cluster_skip_unless_able() {
    why=$(ct_cluster_check) || {
        echo "SKIP: $why"
        exit 77
    }
}

# ct_cluster__ns I: the namespace (and host name) of host I; "br" the bridge's.
ct_cluster__ns() {
    echo "$CT_CLUSTER_ID-$1"
}

ct_cluster__tbf() { # NS DEV RATE: tbf on DEV's egress; no RATE: none
    if [ -z "$3" ]; then
        ip netns exec "$1" tc qdisc del dev "$2" root 2>/dev/null
        return 0
    fi
    # 64 KB burst: one GSO packet, and short at either rate (0.5 ms at 1 Gbit).
    ip netns exec "$1" tc qdisc replace dev "$2" root tbf rate "$3" burst 64kb latency 50ms
}

# ct_cluster_rate I RATE: host I's link limited to RATE both ways (its
# eth0, and the bridge port towards it); an empty RATE lifts the limit.
ct_cluster_rate() {
    ct_cluster__tbf "$(ct_cluster__ns "h$1")" eth0 "$2" &&
        ct_cluster__tbf "$(ct_cluster__ns br)" "p$1" "$2"
}

ct_cluster_up() {
    n=$1
    rate=${2:-}
    slow=${3:-}
    slow_rate=${4:-}
    case $n in '' | *[!0-9]*) ct_cluster__log "N must be a number: '$n'" && return 2 ;; esac
    if [ "$n" -lt 1 ] || [ "$n" -gt 250 ]; then
        ct_cluster__log "N must be 1..250"
        return 2
    fi
    if [ -n "$slow" ]; then
        case $slow in *[!0-9]*) slow=0 ;; esac
        if [ "$slow" -lt 1 ] || [ "$slow" -gt "$n" ] || [ -z "$slow_rate" ]; then
            ct_cluster__log "SLOW_HOST must be 1..$n, with a SLOW_RATE"
            return 2
        fi
    fi
    [ -x "$CT_CLUSTER_AGENT" ] || { ct_cluster__log "no agent $CT_CLUSTER_AGENT" && return 2; }

    # A run id (6 hex digits) and a /24 in 10.128-255.x.
    rnd=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
    CT_CLUSTER_ID=ct$(printf '%06x' $((rnd % 16777216)))
    net="10.$((128 + rnd / 16777216 % 128)).$((rnd / 256 % 256))"
    CT_CLUSTER_SUBNET="$net.0/24"
    CT_CLUSTER_DIR=$(mktemp -d "${TMPDIR:-/tmp}/$CT_CLUSTER_ID.XXXXXX") || return 3
    CT_CLUSTER_HOSTFILE=$CT_CLUSTER_DIR/hostfile
    CT_CLUSTER_HOSTSMAP=$CT_CLUSTER_DIR/hosts
    export CT_CLUSTER_HOSTSMAP
    # shellcheck disable=SC2016 # expanded when the trap runs
    trap 'ct_cluster_down; eval "${CT_CLUSTER_ON_EXIT:-}"' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM

    br=$(ct_cluster__ns br)
    CT_CLUSTER_NS=$br
    ip netns add "$br" || return 3
    ip netns exec "$br" ip link add b0 type bridge &&
        ip netns exec "$br" ip link set b0 up || return 3
    printf '127.0.0.1 localhost\n' >"$CT_CLUSTER_HOSTSMAP"
    : >"$CT_CLUSTER_HOSTFILE"
    i=1
    while [ "$i" -le "$n" ]; do
        h=$(ct_cluster__ns "h$i")
        CT_CLUSTER_NS="$CT_CLUSTER_NS $h"
        ip netns add "$h" || return 3
        # Made inside the bridge's namespace, its peer straight in the
        # host's: no name ever appears in the root namespace.
        ip netns exec "$br" ip link add "p$i" type veth peer name eth0 netns "$h" &&
            ip netns exec "$br" ip link set "p$i" master b0 up &&
            ip netns exec "$h" ip addr add "$net.$i/24" dev eth0 &&
            ip netns exec "$h" ip link set eth0 up &&
            ip netns exec "$h" ip link set lo up || return 3
        r=$rate
        [ "$i" = "$slow" ] && r=$slow_rate
        if [ -n "$r" ]; then
            ct_cluster_rate "$i" "$r" || return 3
        fi
        printf '%s %s\n' "$net.$i" "$h" >>"$CT_CLUSTER_HOSTSMAP"
        printf '%s slots=%s\n' "$h" "${CT_CLUSTER_SLOTS:-1}" >>"$CT_CLUSTER_HOSTFILE"
        CT_CLUSTER_HOSTS="${CT_CLUSTER_HOSTS:+$CT_CLUSTER_HOSTS }$h"
        i=$((i + 1))
    done
}

# ct_cluster_left: what of the last run is still there, one per line:
# its namespaces (by the run id), and processes that carry its hosts map in
# their environment (everything launched into the cluster does, even in a
# namespace already deleted).
ct_cluster_left() {
    [ -n "$CT_CLUSTER_ID" ] || return 0
    ip netns list 2>/dev/null | awk -v id="$CT_CLUSTER_ID-" 'index($1, id) == 1 { print "namespace " $1 }'
    for f in /proc/[0-9]*/environ; do
        { tr '\0' '\n' <"$f"; } 2>/dev/null | grep -q "^CT_CLUSTER_HOSTSMAP=.*/$CT_CLUSTER_ID\." &&
            p=${f%/environ} && echo "process ${p#/proc/}"
    done
    return 0
}

ct_cluster_down() {
    [ -n "$CT_CLUSTER_NS" ] || return 0
    for sig in TERM KILL; do
        left=
        for ns in $CT_CLUSTER_NS; do
            for p in $(ip netns pids "$ns" 2>/dev/null); do
                kill "-$sig" "$p" 2>/dev/null && left=1
            done
        done
        [ -z "$left" ] && break
        # Give TERM half a second (mpirun and orted forward it to ranks).
        [ "$sig" = TERM ] && sleep 0.5
    done
    for ns in $CT_CLUSTER_NS; do
        # A namespace with processes in it would outlive the delete.
        ip netns del "$ns" 2>/dev/null
    done
    [ -n "$CT_CLUSTER_DIR" ] && rm -rf "$CT_CLUSTER_DIR"
    CT_CLUSTER_DIR=
    CT_CLUSTER_NS=
    CT_CLUSTER_HOSTS=
    # Or every program this shell starts would look like a leftover.
    unset CT_CLUSTER_HOSTSMAP
}

ct_cluster_exec() {
    i=$1
    shift
    "$CT_CLUSTER_AGENT" --argv "$(ct_cluster__ns "h$i")" "$@"
}

# ct_cluster_mpirun NP PROGRAM ARGS...: mpirun in host 1 across the cluster,
# with the settings it needs: the agent, TCP on the cluster's subnet only
# (out-of-band and MPI traffic), no binding, yield when idle, and the
# session files in the cluster's directory.  MPIRUN picks the mpirun;
# CT_CLUSTER_TIMEOUT (seconds, 300) bounds it, so a hang fails (124).
ct_cluster_mpirun() {
    np=$1
    shift
    ct_cluster_exec 1 timeout "${CT_CLUSTER_TIMEOUT:-300}" "${MPIRUN:-mpirun}" --allow-run-as-root -np "$np" \
        --hostfile "$CT_CLUSTER_HOSTFILE" --bind-to none --mca mpi_yield_when_idle 1 \
        --mca plm_rsh_agent "$CT_CLUSTER_AGENT" --mca oob_tcp_if_include "$CT_CLUSTER_SUBNET" \
        --mca btl_tcp_if_include "$CT_CLUSTER_SUBNET" --mca btl tcp,vader,self \
        --mca orte_tmpdir_base "$CT_CLUSTER_DIR" "$@"
}
