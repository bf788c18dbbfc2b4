#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Every fuzz target once over its seed corpus (tests/fuzz/corpus/NAME/),
# built with the plain compiler: a parser that crashes on a seed fails
# make check without clang.  `make fuzz` runs the same targets under
# libFuzzer and the sanitizers.
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-fuzz.XXXXXX")
trap 'rm -rf "$T"' EXIT
export TMPDIR="$T"
for name in space weights journal results import; do
    "$top_builddir/tests/fuzz/replay_$name" "$top_srcdir/tests/fuzz/corpus/$name" 2>"$T/err" >"$T/out" || {
        tail -n 20 "$T/err" >&2
        echo "FAIL: the $name target failed on its corpus" >&2
        exit 1
    }
    cat "$T/out"
done
