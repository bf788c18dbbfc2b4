#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune sbatch sweep, submitted to a real Slurm (tests/slurm/slurm.sh)
# with the real sbatch: the script colltune writes for one node and 2 tasks
# per node runs a sweep through srun inside its allocation; the job is
# polled with scontrol (sbatch --wait polls every ~10 s), ends COMPLETED
# with exit 0:0, and its results (a directory whose name has a space and a
# quote) hold 2-rank rows with #wrong 0.  sbatch runs under `timeout`, the
# job under its own --time and a 50 s deadline here (then scancel).
. "$top_srcdir/tests/mpi/lib.sh"
. "$top_srcdir/tests/slurm/slurm.sh"
ct_colltune_test
ct_slurm_up "$T/slurm"

out="$T/run dir's"
"$CT" sbatch --out "$T/job.sbatch" --nodes 1 --ntasks-per-node 2 --time 2 \
    --output "$T/job-%j.out" sweep -- --out "$out" --timeout 45 --mca mpi_yield_when_idle=1 \
    -- -C allreduce,bcast -b 8 -e 64K -f 8 2>"$T/err" || fail "colltune sbatch: $(cat "$T/err")"
id=$(cd "$T" && ct_slurm_run 20 sbatch --parsable "$T/job.sbatch" 2>"$T/err") ||
    fail "sbatch: $(cat "$T/err")"
id=${id%%;*}
case $id in '' | *[!0-9]*) fail "sbatch gave no job id: '$id'" ;; esac

# state ID: the job's JobState (empty once Slurm has forgotten it).
state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }
i=0
while :; do
    s=$(state "$id")
    case $s in PENDING | RUNNING | CONFIGURING | COMPLETING | '') ;; *) break ;; esac
    i=$((i + 1))
    if [ $i -gt 250 ]; then
        scancel "$id"
        fail "job $id still $s after 50 s: $(scontrol show job "$id")"
    fi
    sleep 0.2
done
[ "$s" = COMPLETED ] || fail "job $id: $s: $(cat "$T"/job-"$id".out)"
scontrol show job "$id" | grep -q 'ExitCode=0:0' || fail "job $id exit: $(scontrol show job "$id")"
grep -q 'colltune sweep: ok' "$T/job-$id.out" || fail "job log: $(cat "$T/job-$id.out")"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
         { rows++; if ($col["nranks"] != 2 || $col["wrong"] != 0) bad++ }
         END { exit !(rows > 0 && bad == 0) }' "$out/results.csv" ||
    fail "results: $(cat "$out/results.csv")"
grep -q '"srun"' "$out/launch.json" && grep -q '"--mpi=pmix"' "$out/launch.json" ||
    fail "not launched by srun --mpi=pmix: $(cat "$out/launch.json")"
[ "$(json_get "$out/results.json" environment.OMPI_MCA_mpi_yield_when_idle)" = 1 ] ||
    fail "--mca did not reach the ranks"

ct_slurm_down
left=$(ct_slurm_left)
[ -z "$left" ] || fail "left running: $left"
exit 0
