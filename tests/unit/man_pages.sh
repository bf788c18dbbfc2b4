#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The built man pages (man/local.mk, help2man) each have EXAMPLES, FILES and
# ENVIRONMENT sections (man/*.h2m), and render without a warning (groff's
# default set: a long option line that cannot be adjusted is no fault) through
# groff and man -l, where those are installed.
set -u
: "${top_builddir:?run through make check}"
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
pages="collbench colltune colltune-sweep colltune-tune colltune-import colltune-plot
       colltune-regress colltune-health colltune-sbatch"
for p in $pages; do
    f=$top_builddir/man/$p.1
    [ -f "$f" ] || fail "$f: not built"
    for s in EXAMPLES FILES ENVIRONMENT 'SEE ALSO'; do
        grep -q "^\.SH \"\{0,1\}$s\"\{0,1\}\$" "$f" || fail "$p.1: no $s section"
    done
    if command -v groff >/dev/null 2>&1; then
        w=$(groff -man -Tutf8 -Wbreak -z "$f" 2>&1) || fail "$p.1: groff failed: $w"
        [ -z "$w" ] || fail "$p.1: groff warns: $w"
    fi
    if command -v man >/dev/null 2>&1; then
        w=$(MANWIDTH=80 man -l "$f" 2>&1 >/dev/null | grep -v "cannot adjust line")
        [ -z "$w" ] || fail "$p.1: man -l warns: $w"
    fi
done
# The examples of a subcommand's page are its own.
grep -q 'colltune tune \\-\\-space' "$top_builddir/man/colltune-tune.1" || fail "colltune-tune.1: no tune example"
exit 0
