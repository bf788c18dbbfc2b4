#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# --ci-patience bounds how long a size chases --target-ci past the least
# (--min-time, --min-samples): a CI target no run can meet (1e-9 of the
# median, of calls the delay shim spreads over 20-120 us: a run of many
# equal times could close the CI), a budget of 20 s a placement and 50 ms
# of least measuring.
# Chased to the budget, the two placements take 40 s; with patience 1 each
# stops at twice its least, about 0.1 s, and says it did not converge.
# With patience 0 a size stops at its least, and patience 19, twenty times
# as long (or --max-samples' 10000), holds at least twice its samples (the
# least is as long as its last round made it: up to 3x --min-time here,
# from a first estimate of the calls' cost; a stall in patience 0's least
# would have to make it 10x patience 19's to fail this).  The margins are
# wide on purpose (start-up on a loaded machine).
. "$top_srcdir/tests/mpi/lib.sh"

shim="$top_builddir/tests/tools/.libs/libdelay_shim.so"
[ -f "$shim" ] || fail "shim not built: $shim"
CT_MPIRUN_ARGS="-x LD_PRELOAD=$shim -x DELAY_SHIM_US=20 -x DELAY_SHIM_JITTER_US=100 \
    -x DELAY_SHIM_ONLY=MPI_Allreduce -x DELAY_SHIM_BYTES=1024"
export CT_MPIRUN_ARGS

# run PATIENCE: the run's CSV in $T/p.PATIENCE.csv; prints its seconds.
run() {
    start=$(date +%s)
    ct_mpirun 2 -C allreduce -b 1K -e 1K --sync barrier --target-ci 1e-9 --size-budget 20 \
        --min-time 0.05 --ci-patience "$1" --quiet --csv "$T/p.$1.csv" --json "$T/p.$1.json" \
        >"$T/out" 2>"$T/err" || fail "--ci-patience $1: exit $? ($(cat "$T/err"))"
    echo $(($(date +%s) - start))
}

# samples PATIENCE: the placements' samples, "in out"; fails unless both
# rows say not converged.
samples() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["converged"] != 0 { print "FAIL: converged at a CI of 1e-9"; exit 1 }
        { s[$c["placement"]] = $c["samples"] }
        END { print s["in-place"] + 0, s["out-of-place"] + 0 }' "$T/p.$1.csv"
}

elapsed=$(run 1)
[ "$elapsed" -le 10 ] || fail "--ci-patience 1 with a 20 s budget took $elapsed s"
s1=$(samples 1) || fail "$s1"
[ "$(json_get "$T/p.1.json" options.ci_patience)" = 1 ] || fail "results.json options.ci_patience"

elapsed=$(run 0)
[ "$elapsed" -le 10 ] || fail "--ci-patience 0 with a 20 s budget took $elapsed s"
s0=$(samples 0) || fail "$s0"
elapsed=$(run 19)
[ "$elapsed" -le 25 ] || fail "--ci-patience 19 with a 20 s budget took $elapsed s"
s9=$(samples 19) || fail "$s9"
# shellcheck disable=SC2086 # two numbers each
set -- $s0 $s9
for k in 1 2; do
    eval "p0=\${$k} p9=\${$((k + 2))}"
    # The least is --min-time's 50 ms, not the first round's 10 samples
    # (--min-samples): calls of 20-120 us fill it with hundreds.
    [ "$p0" -ge 50 ] || fail "patience 0: $p0 samples, not 50 ms of them"
    [ "$p9" -ge $((2 * p0)) ] || fail "patience 19: $p9 samples against patience 0's $p0 ($s9; $s0)"
done
exit 0
