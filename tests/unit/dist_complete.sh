#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: alone (runs make distdir in the build tree)
# The release tarball holds every file git tracks (but git's own), so that
# a build or a test from it never misses a fixture (two test spaces were
# once left out, found only by make distcheck): make distdir, then each
# `git ls-files` path must be in it.  Skipped outside a git checkout (a
# tarball's own build, distcheck).
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
command -v git >/dev/null 2>&1 && git -C "$top_srcdir" rev-parse --git-dir >/dev/null 2>&1 || {
    echo "SKIP: not a git checkout"
    exit 77
}
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-dist.XXXXXX")
trap 'rm -rf "$T"' EXIT
make -C "$top_builddir" distdir distdir="$T/d" >"$T/log" 2>&1 || {
    echo "FAIL: make distdir: $(tail -20 "$T/log")" >&2
    exit 1
}
missing=$(git -C "$top_srcdir" ls-files | grep -v '^\.gitignore$\|/\.gitignore$' | while IFS= read -r f; do
    [ -e "$T/d/$f" ] || echo "$f"
done)
[ -z "$missing" ] || {
    echo "FAIL: not in the tarball (add to EXTRA_DIST):" >&2
    echo "$missing" >&2
    exit 1
}
exit 0
