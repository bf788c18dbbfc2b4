#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# --size-budget bounds every size, the first round of samples included,
# even when --min-samples asks for far more samples than fit (D8).  A
# million 8-byte samples take a minute at any batching; the budget of
# 0.3 s per placement must end the run within seconds.  The margin is
# wide on purpose (start-up on a loaded machine), and the samples column
# shows the budget, not --min-samples, ended the size.  The same bound
# holds against --batch-us.
. "$top_srcdir/tests/mpi/lib.sh"

start=$(date +%s)
ct_mpirun 2 -C allreduce -b 8 -e 8 --size-budget 0.3 --min-time 0.01 \
    --min-samples 1000000 --max-samples 2000000 --quiet >"$T/out" 2>"$T/err" ||
    fail "exit $? ($(cat "$T/err"))"
elapsed=$(($(date +%s) - start))
check_table "$T/out"
[ "$elapsed" -le 15 ] || fail "a 0.3 s budget per placement took $elapsed s"

# Batch mode with batches far longer than the budget: the warm-up probes
# and the batch size yield to the budget (before, 22 s for one 1 MiB size
# with --batch-us 1e7: ten-second batches after seconds of probes).
start=$(date +%s)
ct_mpirun 2 -C allreduce -b 1M -e 1M --sync batch --batch-us 1e7 --size-budget 0.3 \
    --quiet >"$T/out" 2>"$T/err" || fail "batch: exit $? ($(cat "$T/err"))"
elapsed=$(($(date +%s) - start))
check_table "$T/out"
[ "$elapsed" -le 12 ] || fail "--batch-us 1e7 with a 0.3 s budget took $elapsed s"
exit 0
