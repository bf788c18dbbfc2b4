#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Every row of the library table (src/lib/ct_library_files.c) reaches
# every consumer that lists files, with no MPI: a new row with no other
# edit makes its file appear in
#  - `colltune tune --help` and `colltune install --help`;
#  - install: a TUNE_DIR holding every row's file is installed whole,
#    each named on install's line and copied;
#  - verify-install: a DIR holding only that row's file is one of its
#    files (never "none of the files colltune install writes"), and
#    nothing is launched for it (a file read back that sets nothing is
#    refused as such, before any launch).
# A consumer that kept its own list of files would miss the new row.
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
CT="$top_builddir/tuner/colltune"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-rows.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# The rows, from the table itself: each opens with {"NAME", on its line.
rows=$(sed -n 's/^ *{"\([^"]*\)",.*$/\1/p' "$top_srcdir/src/lib/ct_library_files.c")
n=$(printf '%s\n' "$rows" | grep -c .)
[ "$n" -ge 10 ] || fail "read $n rows from ct_library_files.c: $rows"

# Help.
"$CT" tune --help >"$T/tune-help" 2>&1 || fail "tune --help: exit $?"
"$CT" install --help 2>&1 | tr '\n' ' ' >"$T/install-help" || fail "install --help: exit $?"
for f in $rows; do
    grep -q "^  $f  " "$T/tune-help" || fail "tune --help does not list $f"
    grep -Eq "[( ]$f[,:]" "$T/install-help" || fail "install --help does not list $f"
done

# install: every row's file (a comment: every reader's syntax skips it).
mkdir -p "$T/tune/verify"
printf '%s\n' '{"verified": true, "choices": [{"name": "X", "value": "1", "written": true}]}' \
    >"$T/tune/report.json"
for f in $rows; do printf '# %s\n' "$f" >"$T/tune/$f"; done
"$CT" install "$T/tune" --to "$T/site" >"$T/out" 2>"$T/err" ||
    fail "install: exit $? ($(cat "$T/err"))"
line=$(grep '^colltune install: ' "$T/out")
case "$line" in *" $n files from "*) ;; *) fail "install did not copy $n files: $line" ;; esac
for f in $rows; do
    case "$line " in *" $f "*) ;; *) fail "install's line does not name $f: $line" ;; esac
    cmp -s "$T/tune/$f" "$T/site/$f" || fail "install did not copy $f"
done

# verify-install: one row's file at a time; none launches (a file read
# back holds no setting, refused before any launch).
for f in $rows; do
    d="$T/one-$f"
    mkdir "$d"
    printf '# %s\n' "$f" >"$d/$f"
    timeout 20 "$CT" verify-install "$d" --np 2 >"$T/out" 2>"$T/err"
    rc=$?
    ! grep -q 'none of the files' "$T/err" || fail "verify-install does not know $f"
    if [ "$rc" -eq 0 ]; then
        grep -q '1 file, readable' "$T/out" || fail "verify-install, $f alone: $(cat "$T/out")"
    elif [ "$rc" -eq 2 ]; then
        grep -q "$d/$f sets nothing" "$T/err" || fail "verify-install, $f alone: $(cat "$T/err")"
    else
        fail "verify-install, $f alone: exit $rc ($(cat "$T/out" "$T/err"))"
    fi
done

# The check above can fail: a file no row names is none of them.
mkdir "$T/none"
echo '# x' >"$T/none/not-a-row.conf"
"$CT" verify-install "$T/none" --np 2 >"$T/out" 2>"$T/err" && fail "verify-install: no row's file"
grep -q 'none of the files' "$T/err" || fail "verify-install, no row's file: $(cat "$T/err")"
exit 0
