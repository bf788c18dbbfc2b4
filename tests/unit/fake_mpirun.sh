# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=sh
# shellcheck disable=SC2034 # CT and SPACE are for the sourcing test
# tests/unit/fake_mpirun.sh - shared set-up of the tune tests that launch
# nothing real (sourced): $CT the built colltune, $SPACE a tiny space, $T a
# scratch directory removed on exit, fail(), and $T/bin/mpirun, a fake
# launcher that appends its arguments to $T/argv.log and fails, so that a
# tune it starts stops at the defaults' first trial (exit 3).
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
CT="$top_builddir/tuner/colltune"
SPACE="$top_srcdir/tests/mpi/tune_tiny.ini"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-fake-mpirun.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
mkdir "$T/bin"
cat >"$T/bin/mpirun" <<EOS
#!/bin/sh
echo "\$*" >>"$T/argv.log"
exit 1
EOS
chmod +x "$T/bin/mpirun"
