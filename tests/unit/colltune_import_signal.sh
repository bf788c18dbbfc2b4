#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune import stopped by SIGTERM or SIGINT leaves no temporary file
# and no --out behind (issue 15, E17): the signal waits while the output
# exists only as OUT.HOST.PID.tmp and acts once it is gone; after a
# SIGKILL the next import removes the dead one's temporary file.  The import is made
# long (20 logs of 5 MB) and the signal is sent once the temporary file
# exists, so the test sees the window it is about.
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
CT="$top_builddir/tuner/colltune"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-isig.XXXXXX")
trap 'rm -rf "$T"' EXIT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
i=0
while [ "$i" -lt 3000 ]; do
    cat "$top_srcdir/tests/unit/import/nccl_allreduce.log"
    i=$((i + 1))
done >"$T/big.log"
set --
i=0
while [ "$i" -lt 20 ]; do
    set -- "$@" "$T/big.log"
    i=$((i + 1))
done

# start_import SIG LOG...: an import in the background ($pid), once its
# temporary file exists.
start_import() {
    what=$1
    shift
    "$CT" import --out "$T/out.csv" "$@" >/dev/null 2>"$T/err" &
    pid=$!
    n=0
    until ls "$T"/out.csv.*.tmp >/dev/null 2>&1; do
        n=$((n + 1))
        [ "$n" -lt 400 ] || fail "$what: the import never made its temporary file"
        sleep 0.01
    done
}

for sig in TERM INT; do
    rm -f "$T/out.csv"
    start_import "$sig" "$@"
    kill -"$sig" "$pid"
    wait "$pid"
    rc=$?
    [ "$rc" -ne 0 ] || fail "$sig: the import went on to exit 0"
    ls "$T"/out.csv.*.tmp >/dev/null 2>&1 && fail "$sig: the temporary file was left: $(ls "$T")"
    [ ! -e "$T/out.csv" ] || fail "$sig: --out was written by a stopped import"
done

# SIGKILL cannot be waited for: the temporary file stays, and the next
# import to that --out removes it (a dead pid of this host's).
start_import KILL "$@"
kill -KILL "$pid"
wait "$pid"
ls "$T"/out.csv.*."$pid".tmp >/dev/null 2>&1 || fail "KILL: no temporary file of pid $pid left to clean"
"$CT" import --out "$T/out.csv" "$top_srcdir/tests/unit/import/nccl_allreduce.log" >/dev/null 2>"$T/err" ||
    fail "after KILL: exit $? ($(cat "$T/err"))"
ls "$T"/out.csv.*.tmp >/dev/null 2>&1 && fail "KILL: the dead import's temporary file was left: $(ls "$T")"
echo "a stopped import leaves nothing; a killed one's leftover goes at the next import"
