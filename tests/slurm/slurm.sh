# SPDX-License-Identifier: BSD-3-Clause
# tests/slurm/slurm.sh - a private, real Slurm for one test (sourced).
#
# ct_slurm_up starts Debian's munged, slurmctld and slurmd (22.05) as this
# test's own daemons, with everything they write under one directory
# ($CT_SLURM_DIR: munge key, socket, pid, log and seed; slurm.conf; state,
# spool, log and TmpFS directories), on two free TCP ports picked at
# start, so that tests running side by side do not meet.  It exports
# SLURM_CONF and TMPDIR and waits until the node is idle.  ct_slurm_down,
# run from a trap on EXIT, INT and TERM, waits for the queue to drain
# (cancelling what is left after 5 s), TERMs the daemons it started,
# KILLs them after 5 s, and leaves nothing running.  The recipe and its
# traps are DESIGN.md's "Real Slurm on this machine".
#
# Where it cannot run (not root, a package missing, a daemon that does not
# start), the test is skipped: exit 77 with the reason.
#
#   . "$top_srcdir/tests/slurm/slurm.sh"
#   ct_slurm_up "$T/slurm"        # then srun/sbatch/squeue/scontrol work
#   ct_slurm_run SECONDS srun ... # srun/sbatch under a timeout
#
# Every srun in a test carries a limit twice: `timeout` around it, and
# srun's own --time, because a request larger than the node pends forever.

CT_SLURM_DIR=
CT_SLURM_PIDS=

ct_slurm_skip() {
    echo "SKIP: Slurm: $*" >&2
    ct_slurm_down
    exit 77
}

# A TCP port nothing listens on: from a range seeded by this shell's pid,
# checked against the listening sockets in /proc/net/tcp{,6}.
ct_slurm_free_port() {
    p=$((20000 + ($$ * 7 + ${1:-0} * 131) % 30000))
    i=0
    while [ $i -lt 200 ]; do
        hex=$(printf '%04X' "$p")
        # state 0A is LISTEN; local address is "ADDR:PORT" in hex
        if ! awk -v h=":$hex" '$4 == "0A" && substr($2, length($2) - 4) == h { f = 1 } END { exit !f }' \
            /proc/net/tcp /proc/net/tcp6 2>/dev/null; then
            echo "$p"
            return 0
        fi
        p=$((p + 1))
        i=$((i + 1))
    done
    return 1
}

# ct_slurm_wait_gone PID TENTHS: whether PID exits within TENTHS/10 s.
ct_slurm_wait_gone() {
    i=0
    while kill -0 "$1" 2>/dev/null && [ $i -lt "$2" ]; do
        sleep 0.1
        i=$((i + 1))
    done
    ! kill -0 "$1" 2>/dev/null
}

ct_slurm_up() {
    CT_SLURM_DIR=$1
    trap 'ct_slurm_down; ct_slurm_exit_hook' EXIT
    trap 'ct_slurm_down; exit 130' INT
    trap 'ct_slurm_down; exit 143' TERM
    [ "$(id -u)" -eq 0 ] || ct_slurm_skip "needs root (slurmd starts job steps as their user)"
    for c in munged slurmctld slurmd srun sbatch sinfo squeue scontrol scancel; do
        command -v "$c" >/dev/null 2>&1 ||
            ct_slurm_skip "'$c' not found (apt-get install slurmctld slurmd slurm-client munge)"
    done
    # A job of the environment this runs in (make check under sbatch)
    # must not leak into ours.
    for v in $(env | sed -n 's/^\(SLURM_[A-Za-z0-9_]*\|SBATCH_[A-Za-z0-9_]*\|SRUN_[A-Za-z0-9_]*\|SALLOC_[A-Za-z0-9_]*\)=.*/\1/p'); do
        unset "$v"
    done

    d=$CT_SLURM_DIR
    mkdir -p "$d/munge" "$d/state" "$d/spool" "$d/log" "$d/run" "$d/tmp" || ct_slurm_skip "cannot create $d"
    # munged checks its files: the key the user's own and 0400, every
    # directory on the socket's path searchable by all (mktemp -d makes
    # 0700 ones: they get o+x, search only, not listing).
    chmod 755 "$d" "$d/munge"
    a=$(cd "$d/.." && pwd)
    while [ "$a" != / ] && [ -O "$a" ]; do
        chmod a+x "$a" || break
        a=$(dirname "$a")
    done
    dd if=/dev/urandom of="$d/munge/munge.key" bs=1024 count=1 2>/dev/null
    chmod 400 "$d/munge/munge.key"
    sock=$d/munge/munge.socket
    munged -F --key-file="$d/munge/munge.key" --socket="$sock" --pid-file="$d/munge/munged.pid" \
        --log-file="$d/munge/munged.log" --seed-file="$d/munge/munged.seed" \
        >"$d/log/munged.out" 2>&1 &
    CT_SLURM_PIDS="$!"
    i=0
    while [ ! -S "$sock" ] && [ $i -lt 50 ]; do
        kill -0 "$!" 2>/dev/null || break
        sleep 0.1
        i=$((i + 1))
    done
    [ -S "$sock" ] || ct_slurm_skip "munged did not start: $(tail -3 "$d/munge/munged.log" "$d/log/munged.out" 2>/dev/null)"

    host=$(hostname -s)
    ctld_port=$(ct_slurm_free_port 0) && slurmd_port=$(ct_slurm_free_port 1) ||
        ct_slurm_skip "no free TCP port"
    [ "$ctld_port" != "$slurmd_port" ] || slurmd_port=$((slurmd_port + 1))
    cat >"$d/slurm.conf" <<CONF
# slurm.conf of one test (tests/slurm/slurm.sh); DESIGN.md's recipe.
ClusterName=colltune-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/run/slurmctld.pid
SlurmdPidFile=$d/run/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
TmpFS=$d/tmp
# Neither cgroups nor systemd: plain process tracking, no task plugin.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=pmix
ReturnToService=2
SchedulerType=sched/builtin
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=2
MinJobAge=2
# 8 CPUs on 2 cores: config_overrides lets the node claim them.
SlurmdParameters=config_overrides
NodeName=$host NodeAddr=127.0.0.1 CPUs=8 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=10 State=UP
CONF
    SLURM_CONF=$d/slurm.conf
    export SLURM_CONF
    slurmctld -D -i -f "$SLURM_CONF" >"$d/log/slurmctld.out" 2>&1 &
    CT_SLURM_PIDS="$CT_SLURM_PIDS $!"
    slurmd -D -f "$SLURM_CONF" >"$d/log/slurmd.out" 2>&1 &
    CT_SLURM_PIDS="$CT_SLURM_PIDS $!"

    # About 1 s here; 30 s at most.
    i=0
    until [ "$(sinfo -h -N -o %T 2>/dev/null)" = idle ]; do
        for p in $CT_SLURM_PIDS; do
            kill -0 "$p" 2>/dev/null ||
                ct_slurm_skip "a daemon exited: $(tail -3 "$d"/log/*.out "$d"/log/*.log 2>/dev/null)"
        done
        i=$((i + 1))
        [ $i -lt 300 ] || ct_slurm_skip "the node is not idle after 30 s: $(sinfo -N 2>&1 | tail -2)"
        sleep 0.1
    done
    # Job steps (srun's MPI ranks, Open MPI's session files) write here.
    TMPDIR=$d/tmp
    export TMPDIR
}

# After ct_slurm_down on exit: tests/mpi/lib.sh's clean-up of $T (kill
# what a failed check left running there, remove it), when $T is set.
ct_slurm_exit_hook() {
    [ -n "${T:-}" ] || return 0
    for p in $(pgrep -f "$T/" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
    rm -rf "$T"
}

ct_slurm_down() {
    # A command still running (interrupted test): its timeout passes the
    # TERM on (colltune ends srun, srun's job is revoked).
    if [ -n "${CT_SLURM_CHILD:-}" ]; then
        kill -TERM "$CT_SLURM_CHILD" 2>/dev/null
        ct_slurm_wait_gone "$CT_SLURM_CHILD" 100 || kill -KILL "$CT_SLURM_CHILD" 2>/dev/null
        CT_SLURM_CHILD=
    fi
    [ -n "$CT_SLURM_PIDS" ] || return 0
    # The queue first: a step still running holds slurmstepd processes.
    if [ -n "$SLURM_CONF" ] && squeue -h >/dev/null 2>&1; then
        i=0
        while [ -n "$(squeue -h -o %i 2>/dev/null)" ] && [ $i -lt 100 ]; do
            [ $i -ne 50 ] || scancel --full "$(squeue -h -o %i | tr '\n' ' ')" 2>/dev/null
            sleep 0.1
            i=$((i + 1))
        done
    fi
    # slurmd before slurmctld before munged: each needs the next to shut down.
    for p in $(echo "$CT_SLURM_PIDS" | awk '{ for (i = NF; i > 0; i--) print $i }'); do
        kill -TERM "$p" 2>/dev/null
        ct_slurm_wait_gone "$p" 50 || kill -KILL "$p" 2>/dev/null
        wait "$p" 2>/dev/null
    done
    CT_SLURM_PIDS=
}

# ct_slurm_left: the processes still running that belong to this Slurm
# (their command line or working directory under $CT_SLURM_DIR, or their
# slurm.conf); empty after ct_slurm_down.
ct_slurm_left() {
    for p in $(pgrep -x 'munged|slurmctld|slurmd|slurmstepd' 2>/dev/null); do
        {
            # a zombie (its parent not yet told) runs nothing
            [ "$(awk '{ print $3 }' "/proc/$p/stat")" != Z ] || continue
            if tr '\0' ' ' <"/proc/$p/cmdline" | grep -qF "$CT_SLURM_DIR" ||
                [ "$(readlink "/proc/$p/cwd")" = "$CT_SLURM_DIR/spool" ] ||
                tr '\0' '\n' <"/proc/$p/environ" | grep -qxF "SLURM_CONF=$CT_SLURM_DIR/slurm.conf"; then
                echo "$p $(tr '\0' ' ' <"/proc/$p/cmdline")"
            fi
        } 2>/dev/null
    done
}

# ct_slurm_run SECONDS CMD ARGS...: srun, sbatch or colltune under
# `timeout` (TERM, then KILL 5 s later); srun's own --time belongs in ARGS.
# It runs in the background and is waited for, because sh runs a trap only
# after the foreground command ends: so INT or TERM to the test stops it
# (ct_slurm_down TERMs it first) and tears Slurm down at once.
CT_SLURM_CHILD=
ct_slurm_run() {
    s=$1
    shift
    timeout -k 5 "$s" "$@" &
    CT_SLURM_CHILD=$!
    wait "$CT_SLURM_CHILD"
    rc=$?
    CT_SLURM_CHILD=
    return $rc
}
