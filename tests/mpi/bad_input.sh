#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# Bad input: exit 2 and one clear message naming the flag or value, from
# rank 0 only, never a crash or a hang.  Cases that depend on the job
# (root, rank multiples, MPI's abilities, memory) are checked under mpirun.
. "$top_srcdir/tests/mpi/lib.sh"

# expect_usage NP "MESSAGE" ARGS...
expect_usage() {
    np=$1 msg=$2
    shift 2
    ct_mpirun "$np" "$@" >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq 2 ] || fail "$*: exit $rc, want 2 ($(cat "$T/err"))"
    grep -qF -- "$msg" "$T/err" || fail "$*: message lacks '$msg': $(cat "$T/err")"
    n=$(grep -c 'collbench: error' "$T/err")
    [ "$n" -eq 1 ] || fail "$*: $n error lines, want 1 (rank 0 only)"
    grep -v '^#' "$T/out" | grep -q . && fail "$*: printed results"
    return 0
}

expect_usage 2 "-b: '12Q' is not a size" -b 12Q
expect_usage 2 "-e: 'lots' is not a size" -e lots
expect_usage 2 "-b 2048 is greater than -e 1024" -b 2K -e 1K
expect_usage 2 "allreduce on 2 ranks: every size is below 4 bytes, one int32 per rank" -C allreduce -d int32 -b 3 -e 3
expect_usage 4 "allgather on 4 ranks: every size is below 16 bytes, one float per rank" -C allgather -b 8 -e 12
# --sizes: the item is named (issue: an explicit list for the tuner).
expect_usage 2 "--sizes '8,,1K': item 2 is empty" --sizes 8,,1K
expect_usage 2 "--sizes '8,': item 2 is empty" --sizes 8,
expect_usage 2 "--sizes '': item 1 is empty" --sizes ''
expect_usage 2 "--sizes: item 3 '12X' is not a size" --sizes 8,1K,12X
expect_usage 2 "--sizes: item 1 '0': a size must be at least 1 byte" --sizes 0,8
expect_usage 2 "allreduce on 2 ranks: every size is below 4 bytes" -C allreduce --sizes 1,3
expect_usage 2 "-C: unknown collective 'allreduse'" -C allreduse
expect_usage 2 "-o: unknown op 'mean'" -o mean
expect_usage 2 "-d: unknown datatype 'float128'" -d float128
expect_usage 2 "allreduce half sum: MPI has no datatype for half" -C allreduce -d half -b 8 -e 8
expect_usage 2 "allreduce float avg: MPI cannot reduce with op avg" -C allreduce -o avg -b 8 -e 8
expect_usage 2 "-r 2: the root must be a rank below 2" -C broadcast -r 2 -b 8 -e 8
expect_usage 2 "-a: '7' is not an integer in [0, 3]" -a 7
expect_usage 2 "unknown option '--bogus'" --bogus
expect_usage 2 "--target-ci: '0' must be above zero" --target-ci 0
# A run id becomes a CSV field and a series label (issue 15, E18).
expect_usage 2 "--run-id 'a,b': 1 to 63 of [A-Za-z0-9._:-]" --run-id a,b
expect_usage 2 "--run-id 'q\"': 1 to 63" --run-id 'q"'
nl='
'
expect_usage 2 "1 to 63 of [A-Za-z0-9._:-]" --run-id "a${nl}b"

# Too large for memory: found before allocating, reported per host.  The
# size fits MPI's int count (60G / 8 B / 4 ranks < 2^31), so it is the
# memory check that refuses it (tests/mpi/large_counts.sh has the count).
ct_mpirun 4 -C alltoall -d int64 -b 60G -e 60G >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "60G: exit $rc, want 2"
grep -q "collbench: error: -e: the largest size needs 120 GiB per rank, 4 ranks on this host" "$T/err" ||
    fail "memory message: $(cat "$T/err")"
exit 0
