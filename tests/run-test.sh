#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tests/run-test.sh - make check's LOG_COMPILER: runs one test under the
# suite's lock, so that `make -j check` never runs a test that measures
# beside another test that loads the 2 cores.
#
# A test that times anything (a tune compares medians, a cluster test
# rate-limits links, a sweep checks a floor) holds the lock exclusively:
# it runs alone, as in a serial `make check`.  A test that decides nothing
# from a timing (a unit test, a table's shape, a refused input) holds it
# shared, so such tests run side by side.  The default is by directory:
# tests/unit/ and tests/fuzz/ shared, the rest (tests/mpi/, tests/cluster/,
# tests/slurm/) alone; a script overrides it with a line of its own,
# `# suite: concurrent` or `# suite: alone`, in its first 30 lines.
#
# `tests/run-test.sh --mode TEST` prints the mode alone (shared or alone):
# make check-parallel runs the shared tests first, so that they pair up.
set -u
print_mode=0
if [ "${1:-}" = --mode ]; then
    print_mode=1
    shift
fi
test=$1

mode=-x
case $test in
*tests/unit/* | *tests/fuzz/*) mode=-s ;;
esac
# A compiled test has no such line (sed prints nothing from an ELF file's
# first 30 lines that starts with '# suite: ').
marker=$(sed -n '1,30s/^# suite: \([a-z]*\).*/\1/p' "$test" 2>/dev/null)
case $marker in
concurrent) mode=-s ;;
alone) mode=-x ;;
esac
if [ "$print_mode" = 1 ]; then
    [ "$mode" = -s ] && echo shared || echo alone
    exit 0
fi
lock=${CT_SUITE_LOCK:?run through make check}
# The test's own time (under the lock, not waiting for it) ends its log:
# what to trim when the suite outgrows its 12 minutes.
# shellcheck disable=SC2016 # expanded by the inner shell
exec flock "$mode" "$lock" sh -c 'start=$(date +%s); "$@"; rc=$?
echo "# run-test: $(($(date +%s) - start)) s" >&2; exit $rc' run-test "$@"
