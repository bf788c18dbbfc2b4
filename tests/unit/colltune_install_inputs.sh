#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune install and verify-install against what they read and where
# they write (issue 38), with no MPI:
#  - a FIFO as report.json, mca-params.conf, nccl.env or mpich.env is
#    refused (exit 2, "FIFO"), never waited on; a report.json over 16 MiB
#    is refused, not read whole;
#  - --to 'new,dir' or a newline in --to, and tune --out 'c,omma', are
#    refused before the directory is made: nothing is left behind;
#  - --force with a file of a tune's set in DIR that the new set lacks is
#    refused, each named, nothing written (the mix verify-install passed);
#  - --to inside TUNE_DIR (its verify/) is refused like TUNE_DIR itself.
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
CT="$top_builddir/tuner/colltune"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-instin.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
cd "$T" || exit 1

REPORT='{"verified": true, "choices": [
 {"name": "coll_tuned_bcast_algorithm", "value": "6", "written": true}]}'
# tune DIR [FILE...]: a tune's directory with report.json, mca-params.conf
# and an empty verify/, plus each FILE (empty).
tune() {
    d=$1
    shift
    mkdir -p "$d/verify"
    printf '%s\n' "$REPORT" >"$d/report.json"
    printf 'coll_tuned_bcast_algorithm = 6\n' >"$d/mca-params.conf"
    for f in "$@"; do : >"$d/$f"; done
}
# run WANT_RC WANT_MESSAGE WHAT ARGS...: colltune ARGS (20 s at most) must
# exit WANT_RC with WANT_MESSAGE on its stderr.
run() {
    want=$1 msg=$2 what=$3
    shift 3
    timeout 20 "$CT" "$@" </dev/null >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -ne 124 ] || fail "$what: hung (killed after 20 s)"
    [ "$rc" -eq "$want" ] || fail "$what: exit $rc, want $want ($(cat "$T/err"))"
    grep -qF -- "$msg" "$T/err" || fail "$what: no '$msg' in: $(cat "$T/err")"
}

# --- a FIFO where a file is read, a report too large -------------------
for f in report.json mca-params.conf nccl.env mpich.env; do
    tune "fifo-$f"
    rm -f "fifo-$f/$f"
    mkfifo "fifo-$f/$f"
    run 2 "$f: is a FIFO" "install, $f a FIFO" install "fifo-$f" --to "site-$f"
    [ ! -e "site-$f/mca-params.conf" ] || fail "install, $f a FIFO: installed"
done
mkdir vfifo vfifo2
mkfifo vfifo/mca-params.conf vfifo2/mpich.env
run 2 "mca-params.conf: is a FIFO" "verify-install, mca-params.conf a FIFO" \
    verify-install vfifo --np 2
run 2 "mpich.env: is a FIFO" "verify-install, mpich.env a FIFO" \
    verify-install vfifo2 --launcher "$T/mpiexec.hydra -launcher fork"
tune big
{
    printf '{"verified": true, "pad": "'
    dd if=/dev/zero bs=1048576 count=17 2>/dev/null | tr '\0' x
    printf '", "choices": [{"name": "coll_tuned_bcast_algorithm", "value": "6", "written": true}]}\n'
} >big/report.json
run 2 "colltune reads at most" "install, a 17 MiB report.json" install big --to site-big
rm -f big/report.json

# --- a refused DIR is not made --------------------------------------------
tune t
run 2 "has a comma or newline" "install --to a comma" install t --to 'new,dir'
[ ! -e 'new,dir' ] || fail "install --to 'new,dir' left the directory behind"
run 2 "has a comma or newline" "install --to a newline" install t --to 'nl
dir'
[ ! -e 'nl
dir' ] || fail "install --to with a newline left the directory behind"
run 2 "has a comma or newline" "install --to under a new comma" install t --to 'a/b,c/d'
[ ! -e a ] || fail "install --to a/b,c/d left a/ behind"
run 2 "has a comma" "tune --out a comma" tune --space "$top_srcdir/tests/mpi/tune_tiny.ini" \
    --out 'c,omma' --np 2
[ ! -e 'c,omma' ] || fail "tune --out 'c,omma' left the directory behind"

# --- inside TUNE_DIR --------------------------------------------------------
run 2 "is inside TUNE_DIR" "install --to TUNE_DIR/verify" install t --to t/verify --force
[ ! -e t/verify/mca-params.conf ] || fail "installed into TUNE_DIR/verify"
run 2 "is inside TUNE_DIR" "install --to TUNE_DIR/new" install t --to t/verify/../new
[ ! -e t/new ] || fail "install --to TUNE_DIR/new left the directory behind"

# --- --force does not mix two tunes ---------------------------------------
tune full nccl.env ucx.conf
"$CT" install full --to site >/dev/null 2>"$T/err" || fail "install full: $(cat "$T/err")"
echo "# the earlier tune's" >>site/mca-params.conf
cp site/mca-params.conf "$T/before"
run 2 "site/nccl.env is there, and $T/t wrote no nccl.env" "install --force, stale files" \
    install t --to site --force
grep -qF "site/ucx.conf is there" "$T/err" || fail "install --force: ucx.conf not named: $(cat "$T/err")"
cmp -s "$T/before" site/mca-params.conf || fail "install --force, refused, yet wrote mca-params.conf"
rm site/nccl.env site/ucx.conf
"$CT" install t --to site --force >/dev/null 2>"$T/err" || fail "install --force: $(cat "$T/err")"
cmp -s t/mca-params.conf site/mca-params.conf || fail "install --force: not replaced"
# Without --force, files beside another install's are added, as before.
tune n2 nccl.env
rm n2/mca-params.conf
"$CT" install n2 --to site >/dev/null 2>"$T/err" || fail "install beside: $(cat "$T/err")"
exit 0
