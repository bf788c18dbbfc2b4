#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# ct_outdir_realpath, case by case, with no MPI: the real path a directory
# will have once made (its deepest existing part through realpath, then the
# rest: "." stays, ".." goes up, never above the root, repeated slashes are
# one), which colltune install --to checks for a comma or newline before it
# creates anything.  Its exact form is what the refusal prints, so each
# refused case asserts that path, exit 2 and nothing created; each accepted
# one, exit 0 and the exact directory made.  A resolved path of 4095 bytes
# fits PATH_MAX, one of 4096 is too long.  Then ct_outdir_lock's failures
# (colltune plot --out): a .lock that is a directory, an lstat or fstat of
# the lock that fails (an LD_PRELOAD shim, when a C compiler is there), and
# with stdin closed the lock is taken on the one descriptor it opened.
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
CT="$top_builddir/tuner/colltune"
CSV="$top_srcdir/tests/unit/plot_results.csv"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-paths.XXXXXX")
# The paths printed are real paths: $T's own, without links.
T=$(cd "$T" && pwd -P)
ROOTNAME="colltune-outdir-paths-$$"
trap 'rm -rf "$T"; rmdir "/$ROOTNAME,x" "/$ROOTNAME,y" 2>/dev/null' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
[ -x "$CT" ] || { echo "SKIP: no $CT"; exit 77; }

# A TUNE_DIR install takes: a verified report and its mca-params.conf.
TUNE="$T/tune"
mkdir "$TUNE"
printf '%s\n' '{"verified": true, "choices": [
 {"name": "coll_tuned_bcast_algorithm", "value": "6", "written": true}]}' >"$TUNE/report.json"
printf '%s\n' 'coll_tuned_bcast_algorithm = 6' >"$TUNE/mca-params.conf"

# installed NAME TO MADE: install --to TO exits 0 and MADE (a real path)
# holds the installed mca-params.conf.
installed() {
    "$CT" install "$TUNE" --to "$2" >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq 0 ] || fail "$1: --to $2: exit $rc, want 0 ($(cat "$T/err"))"
    cmp -s "$TUNE/mca-params.conf" "$3/mca-params.conf" || fail "$1: --to $2: not installed in $3"
}
# refused NAME TO MESSAGE GONE...: install --to TO exits 2 with MESSAGE
# (fixed text) in its stderr, and none of GONE... exists after.
refused() {
    _n=$1 _to=$2 _msg=$3
    shift 3
    "$CT" install "$TUNE" --to "$_to" >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq 2 ] || fail "$_n: --to $_to: exit $rc, want 2 ($(cat "$T/err"))"
    grep -qF -- "$_msg" "$T/err" || fail "$_n: no '$_msg' in: $(cat "$T/err")"
    for _g in "$@"; do
        [ ! -e "$_g" ] && [ ! -L "$_g" ] || fail "$_n: --to $_to: refused, yet $_g was made"
    done
}
comma() { # comma ARG REAL: the refusal of a comma in ARG's real path REAL
    printf 'colltune install: --to %s: its path %s has a comma' "$1" "$2"
}

# ".." goes up: a comma only in a component that ".." leaves is no comma
# in the real path (mkdir -p still makes that component on the way).
installed "a,b/.." "$T/s1/a,b/../c" "$T/s1/c"
[ -d "$T/s1/a,b" ] || fail "a,b/..: mkdir -p made no $T/s1/a,b"
# ... and only "..": "..z" is a name like any other.
refused "..z" "$T/s2/n,/..z" "$(comma "$T/s2/n,/..z" "$T/s2/n,/..z")" "$T/s2"
# One level up from a made directory is its parent, with no slash left.
refused "nx/../y,z" "$T/s3/nx/../y,z" "$(comma "$T/s3/nx/../y,z" "$T/s3/y,z")" "$T/s3"
refused "nx/../.." "$T/s3/nx/../../s3,q" "$(comma "$T/s3/nx/../../s3,q" "$T/s3,q")" "$T/s3" "$T/s3,q"
# Up past the root stays at the root: /NAME, never NAME or //NAME.
UP=..
i=0
while [ "$i" -lt 40 ]; do
    UP="$UP/.."
    i=$((i + 1))
done
refused "up past /" "$T/s4/$UP/$ROOTNAME,x" "$(comma "$T/s4/$UP/$ROOTNAME,x" "/$ROOTNAME,x")" \
    "$T/s4" "/$ROOTNAME,x"
# Right under the root: one slash.
refused "/NAME" "/$ROOTNAME,y" "$(comma "/$ROOTNAME,y" "/$ROOTNAME,y")" "/$ROOTNAME,y"
refused "//NAME" "//$ROOTNAME,y/" "$(comma "//$ROOTNAME,y/" "/$ROOTNAME,y")" "/$ROOTNAME,y"

# Repeated slashes, in the part that exists and the part made, are one;
# the existing part goes through realpath, links and all.
mkdir "$T/c,d" "$T/plain"
ln -s "$T/c,d" "$T/lnk"
refused "a link to c,d" "$T/lnk//new///x" "$(comma "$T/lnk//new///x" "$T/c,d/new/x")" \
    "$T/c,d/new" "$T/lnk/new"
refused "a link to c,d, ends in /" "$T//lnk///new//" "$(comma "$T//lnk///new//" "$T/c,d/new")" \
    "$T/c,d/new"
ln -s "$T/plain" "$T/lnk2"
installed "//x///y" "$T//lnk2///x//y///" "$T/plain/x/y"

# Relative paths: from the working directory, two levels deep.
mkdir -p "$T/w1/w2"
(
    cd "$T/w1/w2" || exit 1
    installed "./x/" "./x/" "$T/w1/w2/x"
    refused "../../" "../../nn/../q,r" "$(comma "../../nn/../q,r" "$T/q,r")" "$T/nn" "$T/q,r"
    refused "nx/../../.." "nx/../../../q,r" "$(comma "nx/../../../q,r" "$T/q,r")" \
        "$T/w1/w2/nx" "$T/q,r"
    installed ".." ".." "$T/w1"
    installed "a/../b" "a/../b" "$T/w1/w2/b"
    [ -d "$T/w1/w2/a" ] || fail "a/../b: mkdir -p made no a"
) || exit 1

# A newline, wherever it is, is refused; nothing made.
NL='
'
refused "newline" "$T/s5/n${NL}l" "has a comma or newline" "$T/s5"

# PATH_MAX: from a working directory deep enough, a relative --to whose
# real path is 4095 bytes fits (it is made), one of 4096 does not (said
# so, nothing made), however short the argument itself.
DEEP="$T/deep"
while [ $((${#DEEP} + 201)) -lt 3000 ]; do
    DEEP="$DEEP/$(printf '%0200d' 0)"
done
mkdir -p "$DEEP" || fail "mkdir -p $DEEP"
# rel N: a relative path of components of at most 200 bytes that makes
# $DEEP/REL exactly N bytes long.
rel() {
    _want=$(($1 - ${#DEEP} - 1)) _r=
    while [ $((${#_r} + 201)) -lt "$_want" ]; do
        _r="$_r$(printf '%0200d' 1)/"
    done
    printf '%s%0*d' "$_r" $((_want - ${#_r})) 2
}
R95=$(rel 4095)
R96=$(rel 4096)
[ $((${#DEEP} + 1 + ${#R95})) -eq 4095 ] || fail "rel 4095: ${#R95}"
[ $((${#DEEP} + 1 + ${#R96})) -eq 4096 ] || fail "rel 4096: ${#R96}"
(
    cd "$DEEP" || exit 1
    "$CT" install "$TUNE" --to "$R96" >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq 2 ] || fail "4096 bytes: exit $rc, want 2 ($(cat "$T/err"))"
    grep -qxF "colltune install: --to $R96: path is too long" "$T/err" ||
        fail "4096 bytes: $(cat "$T/err")"
    [ -z "$(ls -A)" ] || fail "4096 bytes: made $(ls -A)"
    "$CT" install "$TUNE" --to "$R95" >"$T/out" 2>"$T/err"
    grep -qF -- "--to $R95: path is too long" "$T/err" && fail "4095 bytes: refused as too long"
    [ -d "$R95" ] || fail "4095 bytes: not made ($(cat "$T/err"))"
) || exit 1
rm -rf "$T/deep"

# ct_outdir_lock: a .lock that is a directory is refused, nothing drawn.
mkdir -p "$T/ldir/.lock"
"$CT" plot --gnuplot /bin/true --out "$T/ldir" "$CSV" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail ".lock a directory: exit $rc, want 2 ($(cat "$T/err"))"
grep -qF "cannot lock $T/ldir/.lock: it is a directory, not a regular file" "$T/err" ||
    fail ".lock a directory: $(cat "$T/err")"
[ "$(ls -A "$T/ldir")" = .lock ] || fail ".lock a directory: wrote $(ls -A "$T/ldir")"

# With stdin closed the lock's descriptor may be 0: it is the one that
# holds the lock, and the only one open on .lock.  A gnuplot that lists
# colltune's descriptors tells.
cat >"$T/gp" <<EOF
#!/bin/sh
ls -l /proc/\$PPID/fd >"$T/fds" 2>&1
EOF
chmod +x "$T/gp"
"$CT" plot --gnuplot "$T/gp" --out "$T/fd0" "$CSV" <&- >"$T/out" 2>"$T/err"
[ -f "$T/fd0/.lock" ] || fail "stdin closed: no lock ($(cat "$T/err"))"
if [ -f "$T/fds" ]; then
    n=$(grep -c "$T/fd0/.lock\$" "$T/fds")
    [ "$n" -eq 1 ] || fail "stdin closed: $n descriptors on .lock: $(cat "$T/fds")"
    grep -q " 0 -> $T/fd0/.lock\$" "$T/fds" || fail "stdin closed: .lock is not on 0: $(cat "$T/fds")"
else
    fail "stdin closed: the gnuplot never ran ($(cat "$T/err"))"
fi

# An lstat or fstat of .lock that fails: exit 2 naming it, nothing drawn
# (the failures come from a shim; skipped without a C compiler).
CC_=${CC:-cc}
if command -v "$CC_" >/dev/null 2>&1; then
    cat >"$T/shim.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
static int ends_lock(const char *p)
{
    size_t n = strlen(p);
    return n >= 6 && strcmp(p + n - 6, "/.lock") == 0;
}
static int failing(const char *call)
{
    const char *f = getenv("CT_SHIM_FAIL");
    return f != NULL && strcmp(f, call) == 0;
}
int fstat(int fd, struct stat *st)
{
    char p[64], t[4096];
    snprintf(p, sizeof p, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(p, t, sizeof t - 1);
    if (n > 0 && failing("fstat")) {
        t[n] = '\0';
        if (ends_lock(t)) {
            errno = EIO;
            return -1;
        }
    }
    int (*real)(int, struct stat *) = (int (*)(int, struct stat *))dlsym(RTLD_NEXT, "fstat");
    return real(fd, st);
}
int lstat(const char *path, struct stat *st)
{
    if (failing("lstat") && ends_lock(path)) {
        errno = EIO;
        return -1;
    }
    int (*real)(const char *, struct stat *) =
        (int (*)(const char *, struct stat *))dlsym(RTLD_NEXT, "lstat");
    return real(path, st);
}
EOF
    if "$CC_" -shared -fPIC -o "$T/shim.so" "$T/shim.c" -ldl 2>"$T/cc.err"; then
        # shim_fails CALL DIR: plot --out DIR with CALL failing on .lock.
        shim_fails() {
            CT_SHIM_FAIL=$1 LD_PRELOAD="$T/shim.so" \
                "$CT" plot --gnuplot /bin/true --out "$2" "$CSV" >"$T/out" 2>"$T/err"
            rc=$?
            [ "$rc" -eq 2 ] || fail "$1 fails: exit $rc, want 2 ($(cat "$T/err"))"
            grep -qxF "colltune plot: cannot lock $2/.lock: Input/output error" "$T/err" ||
                fail "$1 fails: $(cat "$T/err")"
            [ -z "$(ls -A "$2" | grep -v '^\.lock$')" ] || fail "$1 fails: wrote $(ls -A "$2")"
        }
        shim_fails fstat "$T/fst"
        mkdir "$T/lst"
        : >"$T/lst/.lock"
        shim_fails lstat "$T/lst"
    else
        echo "note: no shim ($(cat "$T/cc.err")): lstat and fstat failures not checked"
    fi
fi
echo "an output directory's real path is resolved as mkdir -p makes it; a lock that cannot be taken fails the run"
