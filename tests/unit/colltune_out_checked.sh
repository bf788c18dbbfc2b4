#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune tune checks --out before any launch (issue 26, items 2 and 6):
#  - a comma in --out's path, for a space with MCA settings: Open MPI splits
#    mca_base_param_files at commas, so the A/B's tuned side would read no
#    candidate file (an A/A) and the header's install line would be broken:
#    exit 2 naming --out, the comma and mca_base_param_files, nothing launched;
#  - a file colltune may write there that is a directory: exit 2 naming it,
#    nothing launched (before, the emit failed after the search, exit 3,
#    with the rules file already replaced).
# The launcher is a fake mpirun that writes its arguments down and fails,
# so an accepted tune stops at the defaults' first trial (exit 3).
. "$top_srcdir/tests/unit/fake_mpirun.sh"

tune() {
    : >"$T/argv.log"
    timeout 60 "$CT" tune --space "$SPACE" --out "$1" --launcher "$T/bin/mpirun -np 2" \
        --strategy exhaustive --launches 2 -- -b 64K -e 64K >/dev/null 2>"$T/err"
}
# refused WORD...: the last tune exited 2 saying every WORD and launched nothing.
refused() {
    [ "$rc" -eq 2 ] || fail "exit $rc, want 2 ($(cat "$T/err"))"
    for w in "$@"; do
        grep -qF -- "$w" "$T/err" || fail "stderr lacks '$w': $(cat "$T/err")"
    done
    [ ! -s "$T/argv.log" ] || fail "launched: $(cat "$T/argv.log")"
}

# 1. A comma in --out.
tune "$T/c,omma"
rc=$?
refused "--out" "comma" "mca_base_param_files"

# 2. mca-params.conf a directory in --out; the old rules file stays.
mkdir -p "$T/rn/mca-params.conf"
echo "OLD RULES" >"$T/rn/coll-tuned-rules.conf"
tune "$T/rn"
rc=$?
refused "--out" "mca-params.conf" "not a regular file"
[ "$(cat "$T/rn/coll-tuned-rules.conf")" = "OLD RULES" ] || fail "rules file replaced"

# 3. A plain --out is accepted: the fake launcher runs and fails (exit 3).
tune "$T/plain"
rc=$?
[ "$rc" -eq 3 ] || fail "plain: exit $rc, want 3 ($(cat "$T/err"))"
[ -s "$T/argv.log" ] || fail "plain: nothing launched ($(cat "$T/err"))"
echo "PASS: --out with a comma or a directory target refused before any launch"
