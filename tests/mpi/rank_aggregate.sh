#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# -a picks whose time a row reports, by the number and not only the
# header's label: at np=2 rank 1 alone is made 2 ms slower in every
# broadcast (the delay shim, tests/tools/delay_shim.c, armed by a variable
# only rank 1 has), while the root, rank 0, returns at once (an 8-byte
# broadcast is eager).  So -a 3 (max, the default) must read the slow rank,
# -a 2 (min) and -a 0 (rank 0) the fast one, and -a 1 (average) half way;
# without -a, the max.
. "$top_srcdir/tests/mpi/lib.sh"

shim="$top_builddir/tests/tools/.libs/libdelay_shim.so"
[ -f "$shim" ] || fail "shim not built: $shim"

# collbench with AGG_SLOW set on rank 1 only (the shim's DELAY_SHIM_IF).
cat >"$T/slow1" <<EOS
#!/bin/sh
[ "\$OMPI_COMM_WORLD_RANK" = 1 ] && export AGG_SLOW=1
exec "$COLLBENCH" "\$@"
EOS
chmod +x "$T/slow1"

median_us() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["placement"] == "out-of-place" { print $c["median_us"] }' "$1"
}

# Noise only adds time: two rounds, each -a keeps its smaller median.
for round in 1 2; do
    for a in 0 1 2 3 default; do
        agg="-a $a"
        [ "$a" = default ] && agg=
        # shellcheck disable=SC2086 # $agg: no words, or -a and its value
        COLLBENCH="$T/slow1" CT_MPIRUN_ARGS="-x LD_PRELOAD=$shim -x DELAY_SHIM_US=2000 \
-x DELAY_SHIM_ONLY=MPI_Bcast -x DELAY_SHIM_IF=AGG_SLOW" \
            ct_mpirun 2 -C broadcast -b 8 -e 8 -n 40 $agg --quiet --csv "$T/a$a.$round.csv" \
            >"$T/a$a.out" 2>"$T/a$a.err" || fail "-a $a: exit $? ($(cat "$T/a$a.err"))"
        median_us "$T/a$a.$round.csv" >>"$T/a$a.us"
    done
done
least() { sort -g "$T/a$1.us" | head -1; }
r0=$(least 0) avg=$(least 1) min=$(least 2) max=$(least 3) dflt=$(least default)
echo "8 B broadcast, rank 1 2 ms slow: -a 0 $r0, -a 1 $avg, -a 2 $min, -a 3 $max, no -a $dflt us"
# The slow rank's 2 ms is a floor (noise only adds); the rest are read
# against the max, so that a loaded machine, which slows every launch,
# moves both sides of each comparison.
above() { awk -v v="$1" -v lo="$2" 'BEGIN { exit !(v >= lo) }'; }
below() { awk -v v="$1" -v hi="$2" 'BEGIN { exit !(v < hi) }'; }
above "$max" 1700 || fail "-a 3 (max) read $max us: not the slow rank's 2000"
above "$dflt" 1700 || fail "no -a read $dflt us: the default is not the slowest rank"
half=$(awk -v m="$max" 'BEGIN { print m / 2 }')
below "$min" "$half" || fail "-a 2 (min) read $min us against max $max: not the fast root's"
below "$r0" "$half" || fail "-a 0 (rank 0) read $r0 us against max $max: not the root's"
above "$avg" "$(awk -v m="$max" 'BEGIN { print m * 0.35 }')" &&
    below "$avg" "$(awk -v m="$max" 'BEGIN { print m * 0.85 }')" ||
    fail "-a 1 (average) read $avg us against max $max: not half way"
exit 0
