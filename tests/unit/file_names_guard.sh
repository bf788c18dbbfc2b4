#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# One list of files (issue 36): the name of a file colltune writes is
# written in the source only where the file itself is the subject: its row
# (src/lib/ct_library_files.c), the emitter that writes it (tuner/emit),
# what outranks it on a site or reads the site's own copy of it
# (tuner/core/site*), the NCCL plugin that reads its rules, and the value
# rules whose messages name it (tuner/space/file_values.c).  install,
# verify-install, merge, tune, regress, collbench and the rest iterate the
# rows (doc/ARCHITECTURE.md's recipes), so a row added there reaches them
# with no edit.  It proves it can fail: a planted name must be caught.
set -u
: "${top_srcdir:?run through make check}"

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

rows="$top_srcdir/src/lib/ct_library_files.c"
names=$(sed -n 's/^ *{"\([A-Za-z0-9_.-]*\)",.*/\1/p' "$rows")
[ "$(echo "$names" | wc -w)" -ge 10 ] || fail "cannot read the rows of $rows ('$names')"

allowed() { # PATH (relative): whether it may name a file
    case $1 in
    src/lib/ct_library_files.c | tuner/emit/* | tuner/core/site*.[ch] | tuner/plugin/* | \
        tuner/space/file_values.[ch]) return 0 ;;
    esac
    return 1
}

# scan DIR: every quoted row name in DIR's C sources outside the allowed
# places, as PATH:LINE: NAME.
scan() {
    (cd "$1" && find src tuner -name '*.[ch]' | LC_ALL=C sort) | while read -r f; do
        allowed "$f" && continue
        for n in $names; do
            grep -nF "\"$n\"" "$1/$f" | sed "s|^\([0-9]*\):.*|$f:\1: $n|"
        done
    done
}

bad=$(scan "$top_srcdir")
[ -z "$bad" ] || fail "file names outside the rows (iterate ct_library_file_at instead):
$bad"

# The planted case: a copy of install.c naming mpich.env must be caught.
T=$(mktemp -d "${TMPDIR:-/tmp}/ct_fnames.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/src/lib" "$T/tuner/install"
cp "$rows" "$T/src/lib/"
printf 'static const char *f = "mpich.env";\n' >"$T/tuner/install/planted.c"
planted=$(scan "$T")
case $planted in
*"tuner/install/planted.c:1: mpich.env"*) ;;
*) fail "a planted file name was not caught ('$planted')" ;;
esac
echo "ok: $(echo "$names" | wc -w) rows, named only where the file is the subject"
