#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Layering of tuner/: each folder is a link unit, and a folder includes its
# own headers and those of the folders below it, never one above (the
# order is tuner/local.mk's).  The build enforces it through each folder's
# include path; this test reads the sources, so that a wrong include is
# named even where a header of the same name would be found elsewhere.
# It also proves it can fail: a planted upward include must be caught.
set -u
: "${top_srcdir:?run through make check}"

order="core space emit tune import plot regress sweep health sbatch install"

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

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
        bad="$bad$(check "$f" "$d")"
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

# The check itself can fail: core including a tune header is named.
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
printf '#include "tune.h"\n' >"$tmp/planted.c"
[ -n "$(check "$tmp/planted.c" core)" ] || fail "a planted upward include (core -> tune) went unnoticed"
echo "tuner layers: $order, no upward include"
