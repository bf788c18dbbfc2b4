#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tune's progress lines count the search's trials: "trial K/N" with N the
# trials the search plans (the budget under --strategy random), K from 1
# to N, also where a failed shared launch of the in-process search runs
# its configurations one per launch (issue 38, item 15: they read
# "trial 1/0").  The launcher runs collbench as a singleton, one rank, and
# fails every shared launch (one with --config), so that every trial runs
# alone and writes its line.  Nothing here depends on a timing.
: "${top_srcdir:?run through make check}"
# shellcheck source=tests/unit/fake_mpirun.sh
. "$top_srcdir/tests/unit/fake_mpirun.sh"
CB="$top_builddir/src/collbench"
"$CB" --help >/dev/null 2>&1 || { echo "SKIP: collbench does not run as a singleton"; exit 77; }
cat >"$T/bin/mpirun" <<'EOS'
#!/bin/sh
for a in "$@"; do
    [ "$a" != --config ] || exit 1
done
while [ $# -gt 0 ] && [ "${1##*/}" != collbench ]; do shift; done
exec "$@"
EOS
chmod +x "$T/bin/mpirun"

# progress N DIR ARGS...: a tune of $SPACE with ARGS succeeds, and its
# progress lines are exactly "trial 1/N" ... "trial N/N", in order.
progress() {
    want=$1 dir=$2
    shift 2
    timeout 120 "$CT" tune --space "$SPACE" --out "$dir" --launcher "$T/bin/mpirun" --np 2 \
        "$@" -- -b 1K -e 1K >/dev/null 2>"$T/err" || fail "tune $*: exit $? ($(cat "$T/err"))"
    grep -q 'its configurations run one per launch' "$T/err" ||
        fail "tune $*: no shared launch failed, so no trial ran alone ($(cat "$T/err"))"
    got=$(sed -n 's/^colltune tune: trial \([0-9]*\/[0-9]*\) .*/\1/p' "$T/err" | tr '\n' ' ')
    exp=$(i=1; while [ "$i" -le "$want" ]; do printf '%s/%s ' "$i" "$want"; i=$((i + 1)); done)
    [ "$got" = "$exp" ] || fail "tune $*: progress '$got', want '$exp' ($(cat "$T/err"))"
}

# random: the budget, 6 trials (the defaults and one candidate, 3 launches each)
progress 6 "$T/random" --strategy random --budget 6
# exhaustive: 4 configurations x 1 launch
progress 4 "$T/exhaustive" --strategy exhaustive --launches 1
echo "PASS: progress lines count the planned trials"
