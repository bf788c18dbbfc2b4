# SPDX-License-Identifier: BSD-3-Clause
# tests/slurm/slurm.mk - colltune against a real Slurm (Debian's slurmctld,
# slurmd and munge, 22.05), started by each test in its own directory and
# stopped after (tests/slurm/slurm.sh); skipped (77) where it cannot run.
# Included from the top-level Makefile.am.

# colltune sbatch's script, without Slurm: sh -n, shellcheck, the quoting
# round trip, bad input, and contrib/nightly.sbatch is its nightly output.
TESTS += tests/slurm/sbatch_script.sh
# srun as colltune's launcher: a 2-task sweep (-N 1 --ntasks-per-node 2,
# and --np 2) whose variables and MCA parameters reach the ranks; a
# request that pends is killed by --timeout and leaves no job.
TESTS += tests/slurm/srun_sweep.sh
# colltune sbatch sweep, submitted with the real sbatch and polled.
TESTS += tests/slurm/sbatch_sweep.sh
# A tiny tune through srun.
TESTS += tests/slurm/srun_tune.sh
# The JSON's fingerprint under srun: the same digest for two launches.
TESTS += tests/slurm/srun_fingerprint.sh
EXTRA_DIST += tests/slurm/slurm.sh tests/slurm/sbatch_script.sh tests/slurm/srun_sweep.sh \
	tests/slurm/sbatch_sweep.sh tests/slurm/srun_tune.sh tests/slurm/srun_fingerprint.sh
