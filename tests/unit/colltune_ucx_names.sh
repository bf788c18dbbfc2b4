#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A space's UCX_* names are checked against the installed UCX (ucx_info -c)
# before anything runs: UCX itself only warns about a name it does not
# know and runs on, so a misspelt or other-version name would be "tuned"
# without effect.  UCX 1.13 has UCX_MAX_RNDV_RAILS; UCX_MAX_RNDV_LANES is
# not a name of it.
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
CT="$top_builddir/tuner/colltune"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-ucxnames.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
command -v ucx_info >/dev/null 2>&1 || { echo "SKIP: no ucx_info (ucx-utils)"; exit 77; }

space() { # FILE NAME
    printf '[space]\nname = ucx-names\n\n[var pml]\nvalues = ob1, ucx\n\n[var %s]\nvia = env\nwhen = pml=ucx\nvalues = 1, 2\n' \
        "$2" >"$1"
}
space "$T/bad.ini" UCX_MAX_RNDV_LANES
timeout 60 "$CT" tune --space "$T/bad.ini" --out "$T/t" --np 2 >/dev/null 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "unknown UCX name: exit $rc, want 2 ($(cat "$T/err"))"
grep -qF "$T/bad.ini:7: UCX_MAX_RNDV_LANES: not a variable of the installed UCX" "$T/err" ||
    fail "unknown UCX name: $(cat "$T/err")"
[ ! -e "$T/t" ] || fail "the refused tune made its output directory"

# A name UCX has passes, and the tune goes on to its next check (here the
# launcher, which does not exist).
space "$T/good.ini" UCX_MAX_RNDV_RAILS
timeout 60 "$CT" tune --space "$T/good.ini" --out "$T/t" --np 2 --launcher "$T/no-mpirun" \
    >/dev/null 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "known UCX name: exit $rc, want 2 from the launcher ($(cat "$T/err"))"
grep -q "UCX_MAX_RNDV_RAILS" "$T/err" && fail "known UCX name refused: $(cat "$T/err")"
grep -qF "$T/no-mpirun" "$T/err" || fail "known UCX name: did not reach the launcher check: $(cat "$T/err")"

# The shipped spaces' UCX names are all UCX 1.13's.
for sp in openmpi-transport ucx; do
    timeout 60 "$CT" tune --space "$top_srcdir/tuner/spaces/$sp.ini" --out "$T/t" \
        --np 2 --launcher "$T/no-mpirun" >/dev/null 2>"$T/err"
    grep -qF "$T/no-mpirun" "$T/err" || fail "$sp.ini did not reach the launcher check: $(cat "$T/err")"
done
exit 0
