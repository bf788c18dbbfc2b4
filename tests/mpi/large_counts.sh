#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# Counts above INT_MAX (D5): the MPI backend's count is an int and Open MPI
# 4.1 has no large-count calls, so such sizes are refused with exit 2 and
# a message that says why, before the memory check and before allocating;
# they are never wrapped.  The job runs under a 1.5 GB address-space limit:
# had collbench allocated the 4 GiB buffers, it would fail with exit 3.
. "$top_srcdir/tests/mpi/lib.sh"

# expect_count NP WANT ARGS...: exit 2, the count named, nothing measured.
expect_count() {
    np=$1 want=$2
    shift 2
    start=$(date +%s)
    (ulimit -v 1500000 && ct_mpirun "$np" "$@") >"$T/out" 2>"$T/err"
    rc=$?
    took=$(($(date +%s) - start))
    [ "$rc" -eq 2 ] || fail "$*: exit $rc, want 2 ($(cat "$T/err"))"
    grep -qF "a count of $want elements per call is above the backend's limit of 2147483647" \
        "$T/err" || fail "$*: message: $(cat "$T/err")"
    grep -qF "Open MPI 4.1 has no large-count" "$T/err" || fail "$*: no reason: $(cat "$T/err")"
    grep -v '^#' "$T/out" | grep -q . && fail "$*: printed results"
    # A launch takes about a second; measuring 4 GiB would take far longer.
    [ "$took" -lt 60 ] || fail "$*: took $took s to refuse"
    return 0
}

expect_count 2 4294967296 -C allreduce -b 4G -e 4G -d int8
# 2^32 + 8 bytes: through an int the count would wrap to 8.
expect_count 2 4294967304 -C broadcast -b 4294967304 -e 4294967304 -d int8
# The count is per call: allgather's per-rank block, 8 GiB / 4 ranks = 2^31.
expect_count 4 2147483648 -C allgather -b 8G -e 8G -d uint8

# Just below the limit the plan accepts the size: the job then fails at
# the memory check or at allocation under the limit, never on the count.
(ulimit -v 1500000 && ct_mpirun 2 -C allgather -b 2G -e 2G -d int8 -n 1 -w 0 -c 0 --quiet) \
    >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -ne 0 ] || fail "2G allgather int8 ran under a 1.5 GB limit"
grep -q "elements per call" "$T/err" && fail "2G allgather int8 (count 2^30) refused: $(cat "$T/err")"
exit 0
