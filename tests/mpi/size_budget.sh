#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# --size-budget bounds every size, the first round of samples included,
# even when --min-samples asks for far more samples than fit (D8).  A
# million 8-byte samples take a minute at any batching; the budget of
# 0.3 s per placement must end the run within seconds.  The margin is
# wide on purpose (start-up on a loaded machine), and the samples column
# shows the budget, not --min-samples, ended the size.  The same bound
# holds against --batch-us and window mode's calibration.
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
# Window mode's calibration is bounded too: calls of 100 ms each (the
# delay shim spins before every 1 KiB broadcast, a stand-in for calls that
# each wait for a scheduler slice) against a 0.4 s budget.  Its 9 windows
# of 4 estimated calls once took 4 s a placement, 9 s this run; now as
# many as fit in a quarter of the budget, at least one: about 1 s a
# placement.  The shim's spins keep wall time, whatever the load.
shim="$top_builddir/tests/tools/.libs/libdelay_shim.so"
[ -f "$shim" ] || fail "shim not built: $shim"
start=$(date +%s)
CT_MPIRUN_ARGS="-x LD_PRELOAD=$shim -x DELAY_SHIM_US=100000 -x DELAY_SHIM_ONLY=MPI_Bcast \
    -x DELAY_SHIM_BYTES=1024" ct_mpirun 2 -C broadcast -b 1K -e 1K -w 1 -c 0 --size-budget 0.4 \
    --quiet >"$T/out" 2>"$T/err" || fail "calibration: exit $? ($(cat "$T/err"))"
elapsed=$(($(date +%s) - start))
grep -q '^ *1024 ' "$T/out" || fail "calibration: no 1 KiB row in $(cat "$T/out")"
[ "$elapsed" -le 5 ] || fail "calls of 100 ms with a 0.4 s budget took $elapsed s"

# --max-samples ends a size too, before --min-time: 50 samples of an
# 8-byte allreduce take well under a second, where --min-time asks 5 s a
# placement (a stop that waited for it took 10 s).
start=$(date +%s)
ct_mpirun 2 -C allreduce -b 8 -e 8 --sync barrier --max-samples 50 --min-time 5 --size-budget 20 \
    --quiet --csv "$T/max.csv" >"$T/out" 2>"$T/err" || fail "max-samples: exit $? ($(cat "$T/err"))"
elapsed=$(($(date +%s) - start))
[ "$elapsed" -le 5 ] || fail "--max-samples 50 with --min-time 5 took $elapsed s"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { n++; if ($c["samples"] != 50) bad = bad " " $c["placement"] "=" $c["samples"] }
    END { if (n != 2 || bad != "") { print "FAIL: --max-samples 50, samples:" bad; exit 1 } }' \
    "$T/max.csv" || exit 1

# And the other way round: a budget that cannot run out leaves the
# adaptive count to --min-samples, which must be met (a run that stopped
# after its first sample once passed every other test).  Barrier mode:
# no sample is dropped as late.
ct_mpirun 2 -C allreduce -b 8 -e 8 --sync barrier --size-budget 20 --min-samples 25 \
    --quiet --csv "$T/adaptive.csv" >"$T/out" 2>"$T/err" || fail "adaptive: exit $? ($(cat "$T/err"))"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { n++; if ($c["samples"] < 25) bad = bad " " $c["placement"] "=" $c["samples"] }
    END { if (n != 2 || bad != "") { print "FAIL: --min-samples 25, samples:" bad; exit 1 } }' \
    "$T/adaptive.csv" || exit 1
exit 0
