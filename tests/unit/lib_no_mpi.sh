#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Layering: src/lib (libcolltune and the name tables) and the NCCL tuner
# plugin are plain C with no MPI.  They are compiled with the plain C
# compiler without MPI's flags (configure's MPI_CFLAGS/MPI_LIBS go to the
# MPI targets only); this test proves the result: no MPI symbol, defined or
# needed, in their objects, and the plugin .so neither needs libmpi nor
# exports anything but ncclTunerPlugin_v*.  The same nm check must find
# MPI in collbench's library, or it proves nothing.
set -u
: "${top_builddir:?run through make check}"

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
command -v nm >/dev/null 2>&1 || { echo "SKIP: no nm"; exit 77; }

# MPI's C API, its profiling layer and Open MPI's / MPICH's internals.
mpi_syms='^(P?MPI_|ompi_|opal_|orte_|MPIR_|MPL_)'

# syms FILE: every symbol name (defined or undefined) in an archive or object.
syms() {
    nm -A "$1" 2>/dev/null | awk 'NF >= 2 { print $NF }'
}

for lib in src/lib/.libs/libcolltune.a src/lib/.libs/libctnames.a; do
    f="$top_builddir/$lib"
    [ -f "$f" ] || fail "not built: $f"
    syms "$f" | grep -q '^ct_' || fail "$lib: nm found no ct_ symbols; the check would prove nothing"
    found=$(syms "$f" | grep -E "$mpi_syms" | sort -u | head -5)
    [ -z "$found" ] || fail "$lib uses MPI: $found"
done

coll="$top_builddir/src/.libs/libcollbench.a"
[ -f "$coll" ] || fail "not built: $coll"
syms "$coll" | grep -q '^MPI_Bcast$' || fail "nm does not see MPI_Bcast in $coll: the check is blind"

so="$top_builddir/tuner/plugin/.libs/libnccl-tuner-colltune.so"
[ -f "$so" ] || fail "not built: $so"
found=$(nm -D "$so" | awk '{ print $NF }' | grep -E "$mpi_syms" | head -5)
[ -z "$found" ] || fail "plugin uses MPI: $found"
exported=$(nm -D --defined-only "$so" | awk '{ print $NF }' | grep -Ev '^ncclTunerPlugin_v[0-9]+$')
[ -z "$exported" ] || fail "plugin exports more than ncclTunerPlugin_v*: $exported"
nm -D --defined-only "$so" | grep -q ' ncclTunerPlugin_v' || fail "plugin exports no ncclTunerPlugin_v*"
if command -v objdump >/dev/null 2>&1; then
    needed=$(objdump -p "$so" | awk '$1 == "NEEDED" { print $2 }')
    echo "$needed" | grep -qi 'mpi' && fail "plugin needs an MPI library: $needed"
fi
# The plugin's words come from src/lib, linked in, not a second copy.
nm "$so" 2>/dev/null | grep -q ' ct_coll_name_find$' || fail "plugin does not link ct_names"
exit 0
