#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Layering of tuner/: each folder is a link unit, and a folder includes its
# own headers and those of the folders below it, never one above.  The
# order is tuner/local.mk's own: the order of its folders' includes, read
# here, so that a folder added there is checked with no edit to this test.
# The build enforces it through each folder's include path; this test
# reads the sources, so that a wrong include is named even where a header
# of the same name would be found elsewhere.  It also proves it can fail:
# a planted upward include must be caught.
set -u
: "${top_srcdir:?run through make check}"

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

order=$(sed -n 's|^include \$(srcdir)/tuner/\([a-z_]*\)/local\.mk$|\1|p' \
    "$top_srcdir/tuner/local.mk" | tr '\n' ' ')
order=${order% }
[ "$(echo "$order" | wc -w)" -ge 2 ] || fail "no layer order in tuner/local.mk ('$order')"

rank_of() { # folder -> its place in $order (1-based), 0 when not a layer
    i=1
    for d in $order; do
        [ "$d" = "$1" ] && { echo "$i"; return; }
        i=$((i + 1))
    done
    echo 0
}

# check FILE FOLDER: every quoted include of FILE is found in FOLDER or a
# folder below it; prints the offending include otherwise.
check() {
    own=$(rank_of "$2")
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$1" | while read -r h; do
        for d in $order; do
            [ -f "$top_srcdir/tuner/$d/$h" ] || continue
            r=$(rank_of "$d")
            [ "$r" -le "$own" ] || echo "$1 includes $d/$h, a folder above $2"
        done
    done
}

bad=
for d in $order; do
    [ -d "$top_srcdir/tuner/$d" ] || fail "no folder tuner/$d"
    for f in "$top_srcdir/tuner/$d"/*.c "$top_srcdir/tuner/$d"/*.h; do
        [ -f "$f" ] || continue
        out=$(check "$f" "$d")
        [ -z "$out" ] || bad="$bad
$out"
    done
done
[ -z "$bad" ] || fail "$bad"

# No tuner .c file outside the layers, except main() and the command table.
for f in "$top_srcdir"/tuner/*.c; do
    case $(basename "$f") in
    colltune.c | commands.c) ;;
    *) fail "$f: a tuner source outside the layer folders" ;;
    esac
done

# The check itself can fail: the lowest layer including a header of the
# highest is named.
low=${order%% *}
high=${order##* }
planted=$(cd "$top_srcdir/tuner/$high" && ls -- *.h | head -n 1)
[ -n "$planted" ] || fail "tuner/$high has no header to plant"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
printf '#include "%s"\n' "$planted" >"$tmp/planted.c"
[ -n "$(check "$tmp/planted.c" "$low")" ] ||
    fail "a planted upward include ($low -> $high/$planted) went unnoticed"
echo "tuner layers: $order, no upward include"
