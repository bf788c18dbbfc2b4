#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A known floor under every timing mode: with the delay shim spinning
# 1000 us before every allreduce on every rank (tests/tools/delay_shim.c),
# no 8-byte allreduce can take less than 1000 us, so each mode's median
# must read at least that (noise only adds) and not absurdly more (under
# 20 ms).  Batch mode runs with --batch-us 5000, a handful of calls per
# batch, where a batch that timed one call fewer than it divides by (or
# divided by one more) reads 20-50% under the floor.  With a size budget
# that cannot run out, -n 30 is 30 timed calls in barrier mode (window mode
# discards the calls a rank started late), and only window mode can count
# a late call.
. "$top_srcdir/tests/mpi/lib.sh"

shim="$top_builddir/tests/tools/.libs/libdelay_shim.so"
[ -f "$shim" ] || fail "shim not built: $shim"

for mode in window barrier batch; do
    set -- --sync "$mode"
    [ "$mode" = batch ] && set -- "$@" --batch-us 5000
    CT_MPIRUN_ARGS="-x LD_PRELOAD=$shim -x DELAY_SHIM_US=1000 -x DELAY_SHIM_ONLY=MPI_Allreduce" \
        ct_mpirun 2 -C allreduce -b 8 -e 8 -n 30 --size-budget 60 "$@" --quiet --csv "$T/$mode.csv" \
        >"$T/$mode.out" 2>"$T/$mode.err" || fail "$mode: exit $? ($(cat "$T/$mode.err"))"
    awk -F, -v mode="$mode" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { n++; us = $c["median_us"]; printf "%s %s: %s us\n", mode, $c["placement"], us
          if (!(us >= 1000 && us < 20000)) bad = bad " " $c["placement"] "=" us
          if (mode == "barrier" && $c["iterations"] != 30) bad = bad " iterations=" $c["iterations"]
          if (mode != "window" && $c["late"] != 0) bad = bad " late=" $c["late"] }
        END { if (n != 2 || bad != "") { print "FAIL: " mode ": rows " n ", off the 1000 us floor or the counts:" bad; exit 1 } }' \
        "$T/$mode.csv" || exit 1
done
exit 0
