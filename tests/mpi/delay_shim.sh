#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The delay shim (tests/tools/delay_shim.c, a stand-in for a slow driver,
# not a real one) adds what it says: collbench's 8-byte allreduce at np=2
# with DELAY_SHIM_US=200 reads at least 150 us more than without it, and
# the shim loaded with the variable unset adds less than that.
. "$top_srcdir/tests/mpi/lib.sh"

shim="$top_builddir/tests/tools/.libs/libdelay_shim.so"
[ -f "$shim" ] || fail "shim not built: $shim"

# median_us of the out-of-place 8-byte allreduce row of a collbench CSV.
median_us() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["collective"] == "allreduce" && $c["bytes"] == 8 && $c["placement"] == "out-of-place" {
            print $c["median_us"] }' "$1"
}

# $1 name, then extra mpirun words: one launch, its median into $T/$1.us.
run() {
    name=$1
    shift
    CT_MPIRUN_ARGS="$*" ct_mpirun 2 -C allreduce -b 8 -e 8 -n 200 --quiet --csv "$T/$name.csv" \
        >"$T/$name.out" 2>"$T/$name.err" || fail "$name: exit $? ($(cat "$T/$name.err"))"
    us=$(median_us "$T/$name.csv")
    [ -n "$us" ] || fail "$name: no 8-byte allreduce row in $(cat "$T/$name.csv")"
    echo "$us" >"$T/$name.us"
}

# Noise only adds time (another job on this 2-core machine can make one
# launch read 100-300 us): three interleaved rounds, and each side keeps
# its smallest median.
for round in 1 2 3; do
    run "plain$round"
    run "zero$round" -x "LD_PRELOAD=$shim"
    run "slow$round" -x "LD_PRELOAD=$shim" -x DELAY_SHIM_US=200
done
least() {
    cat "$T/${1}1.us" "$T/${1}2.us" "$T/${1}3.us" | sort -g | head -1
}
plain=$(least plain) zero=$(least zero) slow=$(least slow)
echo "8 B allreduce median: plain $plain us, shim at 0 $zero us, shim at 200 $slow us"
awk -v a="$plain" -v b="$slow" 'BEGIN { exit !(b - a >= 150) }' ||
    fail "DELAY_SHIM_US=200 added $(awk -v a="$plain" -v b="$slow" 'BEGIN { print b - a }') us, want >= 150"
awk -v a="$plain" -v b="$zero" 'BEGIN { exit !(b - a < 150) }' ||
    fail "the shim at delay 0 added $(awk -v a="$plain" -v b="$zero" 'BEGIN { print b - a }') us"
exit 0
