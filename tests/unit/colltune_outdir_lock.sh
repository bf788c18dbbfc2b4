#!/bin/sh
# An output directory is one run's at a time (issue 15, E3): while another
# process holds DIR/.lock, colltune plot --out DIR, regress --plot DIR and
# health --out DIR exit 2 naming the holder's pid and write nothing there;
# once it is gone,
# they run.  (Two real sweeps and tunes at once: tests/mpi/colltune_lock.sh.)
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
CT="$top_builddir/tuner/colltune"
CSV="$top_srcdir/tests/unit/plot_results.csv"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-lock.XXXXXX")
holder=
trap '[ -z "$holder" ] || kill "$holder" 2>/dev/null; rm -rf "$T"' EXIT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
command -v flock >/dev/null 2>&1 || { echo "SKIP: no flock(1) (util-linux)"; exit 77; }

D="$T/out"
mkdir "$D"
# A holder that writes its pid the way colltune does, then keeps the lock.
sh -c 'echo $$ >"$1/.lock"; exec flock -o "$1/.lock" sleep 30' sh "$D" &
holder=$!
i=0
until [ -s "$D/.lock" ] && ! flock -n "$D/.lock" true 2>/dev/null; do
    i=$((i + 1))
    [ "$i" -lt 100 ] || fail "the holder never took the lock"
    sleep 0.1
done
pid=$(cat "$D/.lock")

"$CT" plot --gnuplot /bin/true --out "$D" "$CSV" >"$T/o" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "plot into a locked directory: exit $rc, want 2 ($(cat "$T/err"))"
grep -qF "$D is in use by pid $pid" "$T/err" || fail "plot: $(cat "$T/err")"
[ -z "$(ls "$D")" ] || fail "plot wrote into a locked directory: $(ls "$D")"

mkdir -p "$T/h/r1" "$T/h/r2"
cp "$CSV" "$T/h/r1/results.csv"
cp "$CSV" "$T/h/r2/results.csv"
"$CT" regress --gnuplot /bin/true --plot "$D" "$T/h" >"$T/o" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "regress --plot into a locked directory: exit $rc, want 2 ($(cat "$T/err"))"
grep -qF "$D is in use by pid $pid" "$T/err" || fail "regress: $(cat "$T/err")"

# health --out D: refused before any launch (it used to launch into D/job).
"$CT" health --out "$D" --np 2 --collbench /bin/false >"$T/o" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "health into a locked directory: exit $rc, want 2 ($(cat "$T/err"))"
grep -qF "$D is in use by pid $pid" "$T/err" || fail "health: $(cat "$T/err")"
[ -z "$(ls "$D")" ] || fail "health wrote into a locked directory: $(ls "$D")"

kill "$holder"
wait "$holder" 2>/dev/null
holder=
if command -v gnuplot >/dev/null 2>&1; then
    "$CT" plot --out "$D" "$CSV" >/dev/null 2>"$T/err" || fail "plot after the holder left: $(cat "$T/err")"
    [ -s "$D/index.html" ] || fail "plot after the holder left wrote no index.html"
fi
echo "a locked output directory is refused with the holder's pid"
