#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# Several datatypes and every op MPI can do, at 2 and 4 ranks: all results
# exactly as predicted (#wrong 0), integer overflow included.
. "$top_srcdir/tests/mpi/lib.sh"

for np in 2 4; do
    ct_mpirun "$np" -C allreduce,reduce_scatter -d int8,uint8,int32,uint64,float,double \
        -o sum,prod,min,max -b 64 -e 4K -f 8 -n 10 -w 1 --quiet >"$T/red$np" 2>"$T/err" ||
        fail "reductions np=$np: exit $? ($(cat "$T/err"))"
    check_table "$T/red$np"
    rows=$(grep -vc '^#' "$T/red$np")
    # 2 collectives x 6 types x 4 ops x 3 sizes
    [ "$rows" -eq 144 ] || fail "np=$np: expected 144 reduction rows, got $rows"

    ct_mpirun "$np" -C allgather,alltoall,broadcast -d int8,int64,double -r 1 \
        -b 64 -e 4K -f 8 -n 10 -w 1 --quiet >"$T/mov$np" 2>"$T/err" ||
        fail "data movement np=$np: exit $? ($(cat "$T/err"))"
    check_table "$T/mov$np"
done
# "-d all -o all" skips what MPI cannot do (half, bfloat16, avg) instead of failing.
ct_mpirun 2 -C allreduce -d all -o all -b 64 -e 64 -n 5 -w 1 --quiet >"$T/all" 2>"$T/err" ||
    fail "-d all -o all: exit $? ($(cat "$T/err"))"
check_table "$T/all"
rows=$(grep -vc '^#' "$T/all")
[ "$rows" -eq 32 ] || fail "-d all -o all: expected 8 types x 4 ops = 32 rows, got $rows"
grep -q ' half ' "$T/all" && fail "half listed on the MPI backend"
# "-d all" alone skips them too, whatever -o is (here sum, and a
# collective with no op): -d all asks for what the backend has.  Not
# --quiet: nothing was rounded, so no rounding note either.
ct_mpirun 2 -C allgather,allreduce -d all -b 64 -e 64 -n 5 -w 1 >"$T/dall" 2>"$T/err" ||
    fail "-d all: exit $? ($(cat "$T/err"))"
check_table "$T/dall"
rows=$(grep -vc '^#' "$T/dall")
[ "$rows" -eq 16 ] || fail "-d all: expected 8 types x 2 collectives = 16 rows, got $rows"
! grep -q 'rounded' "$T/err" || fail "a rounding note with nothing rounded: $(cat "$T/err")"
exit 0
