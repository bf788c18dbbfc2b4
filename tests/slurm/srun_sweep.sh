#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# srun as colltune's launcher, against a real Slurm (tests/slurm/slurm.sh):
#  - colltune sweep --launcher 'srun -N 1 --ntasks-per-node 2': every row of
#    results.csv has 2 ranks and #wrong 0, and what --mca and --env set
#    reaches the ranks (collbench records OMPI_MCA_*, UCX_* and NCCL_* in
#    results.json): an MCA parameter whose OMPI_MCA_ variable is already set
#    differently in colltune's own environment (srun's own environment
#    would win over --export), a value with a comma (--export cannot carry
#    it), and one with a space and a '$';
#  - the same with --np 2 (srun's --ntasks);
#  - a request larger than the node pends forever: colltune's --timeout
#    ends it (exit 124) and the job leaves the queue.
# Every srun has srun's own -t and colltune's --timeout, under `timeout`.
# Prints how long Slurm took to start and stop.
. "$top_srcdir/tests/mpi/lib.sh"
. "$top_srcdir/tests/slurm/slurm.sh"
ct_colltune_test

t0=$(date +%s.%N)
ct_slurm_up "$T/slurm"
t1=$(date +%s.%N)
echo "slurm up: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"

# check_csv FILE: at least one row, every row at 2 ranks with #wrong 0.
check_csv() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
             { rows++; if ($col["nranks"] != 2 || $col["wrong"] != 0) bad++ }
             END { exit !(rows > 0 && bad == 0) }' "$1" || fail "$1: $(cat "$1")"
}

# 1. -N 1 --ntasks-per-node 2, settings through --mca and --env.
ct_slurm_run 60 env OMPI_MCA_mpi_yield_when_idle=0 "$CT" sweep --out "$T/a" \
    --launcher 'srun -t 1 -N 1 --ntasks-per-node 2' --timeout 45 \
    --mca mpi_yield_when_idle=1 --env UCX_TLS=self,sm --env 'NCCL_DEBUG=a b$c' \
    -- -C allreduce,bcast -b 8 -e 64K -f 8 >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] || fail "srun sweep: exit $rc ($(cat "$T/err"))"
check_csv "$T/a/results.csv"
[ "$(json_get "$T/a/launch.json" launcher)" = srun ] || fail "launch.json launcher"
[ "$(json_get "$T/a/results.json" environment.OMPI_MCA_mpi_yield_when_idle)" = 1 ] ||
    fail "--mca lost to srun's environment: $(json_get "$T/a/results.json" environment)"
[ "$(json_get "$T/a/results.json" environment.UCX_TLS)" = self,sm ] || fail "UCX_TLS with a comma"
[ "$(json_get "$T/a/results.json" environment.NCCL_DEBUG)" = 'a b$c' ] || fail "NCCL_DEBUG"
[ "$(json_get "$T/a/results.json" hosts.0.ranks_per_node)" -eq 2 ] || fail "ranks per node"

# 2. --np 2: srun --ntasks=2.
ct_slurm_run 60 "$CT" sweep --out "$T/b" --launcher 'srun -t 1' --np 2 --timeout 45 \
    --mca mpi_yield_when_idle=1 -- -C allreduce -b 8 -e 64K -f 8 >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] || fail "srun --np 2 sweep: exit $rc ($(cat "$T/err"))"
check_csv "$T/b/results.csv"
grep -q '"--ntasks=2"' "$T/b/launch.json" || fail "no --ntasks=2: $(cat "$T/b/launch.json")"

# 3. 16 tasks on an 8-CPU node pend: --timeout ends them, the job goes.
ct_slurm_run 30 "$CT" sweep --out "$T/c" --launcher 'srun -t 1 -N 1 --ntasks-per-node 16' \
    --timeout 3 -- -C allreduce -b 8 -e 8 >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 124 ] || fail "pending srun: exit $rc, want 124 ($(cat "$T/err"))"
i=0
while [ -n "$(squeue -h -o %i)" ] && [ $i -lt 50 ]; do
    sleep 0.1
    i=$((i + 1))
done
[ -z "$(squeue -h -o %i)" ] || fail "the pending job stayed: $(squeue)"

t2=$(date +%s.%N)
ct_slurm_down
t3=$(date +%s.%N)
echo "slurm down: $(awk -v a="$t2" -v b="$t3" 'BEGIN { printf "%.1f", b - a }') s"
left=$(ct_slurm_left)
[ -z "$left" ] || fail "left running: $left"
exit 0
