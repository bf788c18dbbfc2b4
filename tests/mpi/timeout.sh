#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# -T: a collective that never completes (a PMPI shim hangs rank 1's
# allreduce, standing in for a stuck link) ends the run with exit 124 and
# a message naming what hung, instead of hanging the job.
. "$top_srcdir/tests/mpi/lib.sh"

shim="$top_builddir/tests/tools/.libs/libfault_shim.so"
[ -f "$shim" ] || fail "shim not built: $shim"

start=$(date +%s)
CT_MPIRUN_ARGS="-x LD_PRELOAD=$shim -x FAULT_SHIM_MODE=hang" \
    ct_mpirun 2 -C allreduce -b 1K -e 1K -T 2 --quiet >"$T/out" 2>"$T/err"
rc=$?
elapsed=$(($(date +%s) - start))
[ "$rc" -eq 124 ] || fail "exit $rc, want 124 ($(cat "$T/err"))"
grep -q "collbench: timeout: allreduce float sum at 1024 B took longer than -T 2 s" "$T/err" ||
    fail "timeout message: $(cat "$T/err")"
[ "$elapsed" -lt 30 ] || fail "took ${elapsed}s to time out"
exit 0
