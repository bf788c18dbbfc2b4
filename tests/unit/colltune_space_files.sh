#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Refused up front, exit 2, before any launch (issue 26):
#  - item 7 (S4, S5): a space value that no emitted file could carry (';'
#    or '#' in a UCX_* value, which ucx.conf cannot hold; a CR byte in an
#    MCA value, which mca-params.conf cannot) is refused when the space is
#    loaded, with file:line, not after the whole search;
#  - E8: a rank count above colltune's maximum in --np or in the launcher
#    line (mpirun -np N, srun -n N), naming the option and the range.
# Each launch would fail at once (tests/unit/fake_mpirun.sh), so a case
# that is not refused shows as exit 3 and a trials/ directory.
set -u
: "${top_builddir:?run through make check}"
CT="$top_builddir/tuner/colltune"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-space-files.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
mkdir "$T/bin"
printf '#!/bin/sh\nexit 3\n' >"$T/bin/mpirun"
chmod +x "$T/bin/mpirun"
# refused NAME WORD ARGS...: tune exits 2 saying WORD, launching nothing.
refused() {
    name=$1 word=$2
    shift 2
    timeout 30 "$CT" tune --out "$T/$name" --strategy exhaustive "$@" -- -b 1K -e 1K \
        >/dev/null 2>"$T/err"
    rc=$?
    [ "$rc" -eq 2 ] || fail "$name: exit $rc, want 2 ($(cat "$T/err"))"
    grep -qF -- "$word" "$T/err" || fail "$name: stderr lacks '$word': $(cat "$T/err")"
    [ ! -d "$T/$name/trials" ] || fail "$name: a trial was launched"
}
FAKE="--launcher $T/bin/mpirun --np 2"

printf '[space]\nname = s\nvia = mca\n[var UCX_TLS]\nvia = env\nvalues = all, "tcp;self"\n' >"$T/s4.ini"
# shellcheck disable=SC2086 # FAKE is words
refused s4 "s4.ini:6: UCX_TLS: ucx.conf: the value of UCX_TLS contains ';' or '#'" \
    --space "$T/s4.ini" $FAKE
printf '[space]\nname = s\n[var UCX_TLS]\nvalues = all,\n  "tcp#x"\n' >"$T/hash.ini"
# shellcheck disable=SC2086
refused hash "hash.ini:5: UCX_TLS: ucx.conf:" --space "$T/hash.ini" $FAKE
printf '[space]\nname = s\nvia = mca\n[var btl_tcp_eager_limit]\nvalues = 1, a\rb\n' >"$T/s5.ini"
# shellcheck disable=SC2086
refused s5 "s5.ini:5: btl_tcp_eager_limit: mca-params.conf: the value of btl_tcp_eager_limit contains a newline or carriage return" \
    --space "$T/s5.ini" $FAKE
# The same values are fine where no file carries them: another variable
# set in the environment.
printf '[space]\nname = s\n[var MY_OWN_VAR]\nvalues = a, "b;c#d"\n' >"$T/own.ini"
# shellcheck disable=SC2086
timeout 30 "$CT" tune --out "$T/own" --strategy exhaustive --space "$T/own.ini" $FAKE \
    -- -b 1K -e 1K >/dev/null 2>"$T/err"
[ $? -eq 3 ] || fail "own: want the fake launch's exit 3: $(cat "$T/err")"

# --- E8 ---
printf '[space]\nname = s\n[var UCX_TLS]\nvalues = all, tcp\n' >"$T/ok.ini"
range="want 1 to 16777216"
refused np1 "--launcher: the launcher line's rank count (-np, -n, --ntasks) 99999999999 is out of range: $range" \
    --space "$T/ok.ini" --launcher "$T/bin/mpirun -np 99999999999"
refused np2 "rank count (-np, -n, --ntasks) 99999999999 is out of range: $range" \
    --space "$T/ok.ini" --launcher "srun -n 99999999999"
refused np3 "--np '99999999999': want a whole number from 1 to 16777216" --space "$T/ok.ini" --launcher "$T/bin/mpirun" \
    --np 99999999999
refused np4 "is out of range: $range" --space "$T/ok.ini" \
    --launcher "srun --ntasks=99999999999999999999999"
echo "space values and rank counts refused up front"
