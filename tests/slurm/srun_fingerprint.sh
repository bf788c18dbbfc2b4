#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The fingerprint under srun (a real Slurm, tests/slurm/slurm.sh), the
# nightly job's launcher: Slurm's per-job and per-task variables (job and
# step ids, ranks, ports, node lists) and PMIx's are not in it, so two
# launches of the same job have the same digest; the settings Slurm passes
# on (SLURM_NTASKS) are.
. "$top_srcdir/tests/mpi/lib.sh"
. "$top_srcdir/tests/slurm/slurm.sh"
ct_colltune_test
ct_slurm_up "$T/slurm"

run() {
    ct_slurm_run 60 srun -t 1 -N 1 --ntasks-per-node 2 "$COLLBENCH" -C allreduce -b 8 -e 8 \
        --size-budget 0.05 --quiet --json "$T/$1.json" >"$T/$1.out" 2>"$T/$1.err" ||
        fail "srun $1: exit $? ($(cat "$T/$1.err"))"
}
fp() { json_get "$T/$1.json" "fingerprint.$2"; }

run a
run b
da=$(fp a digest) db=$(fp b digest)
if [ "$da" != "$db" ]; then
    json_get "$T/a.json" fingerprint.env >&2
    fail "two srun launches of one job, two digests ($da, $db)"
fi
[ "$(fp a env.SLURM_NTASKS)" = 2 ] || fail "SLURM_NTASKS not kept"
[ "$(fp a 'hosts.#')" = 1 ] || fail "hosts: want one"
[ "$(fp a 'other_hosts.#')" = 0 ] || fail "other_hosts: want none"
for v in SLURM_JOB_ID SLURM_JOBID SLURM_STEP_ID SLURM_PROCID SLURM_LOCALID SLURM_TASK_PID \
    SLURM_SRUN_COMM_PORT SLURM_JOB_NODELIST PMIX_RANK PMIX_NAMESPACE PMIX_SERVER_URI2; do
    fp a "env.$v" >/dev/null 2>&1 && fail "volatile $v recorded"
done
exit 0
