#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune plot and regress --plot under hostile output names and a full
# disk (issue 15, E1 and E5):
# - an --out or --plot DIR that begins with '<' or '|' must not reach a
#   shell: gnuplot opens such a data name through popen() and such an
#   output as a pipe, so every path it gets must be absolute.  All five
#   scripts of plots/ are run (busbw, latency, tuned, scaling, timeseries).
# - a label from a results file (a run id with quotes) stays one quoted
#   gnuplot string.
# - on a full file system (a real 1 MiB tmpfs in a private mount
#   namespace) a redraw must keep the good image, not replace it with a cut
#   one, and exit 3.
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
CT="$top_builddir/tuner/colltune"
CSV="$top_srcdir/tests/unit/plot_results.csv"
JSON="$top_srcdir/tests/unit/plot_results.json"
TUNE="$top_srcdir/tests/unit/plot_tune"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-hostile.XXXXXX")
trap 'rm -rf "$T"' EXIT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: no gnuplot (apt-get install gnuplot-nox)"; exit 77; }

# Runs at 1 and 2 nodes, so that the scaling script runs too.
for s in 1 2; do
    awk -F, -v OFS=, -v s=$s 'NR == 1 { print; next } { $1 = "scale" s; $9 = 2 * s; $10 = s; print }' \
        "$CSV" >"$T/scale$s.csv"
done
# A history of 8 runs, the last two slow, so that regress draws time series.
H="$T/hist"
for d in 01 02 03 04 05 06 07 08; do
    f=1
    [ "$d" -ge 07 ] && f=3
    mkdir -p "$H/r$d"
    awk -v day="$d" -v f="$f" '
        /"start_time"/ { sub(/"20[^"]*"/, "\"2026-01-" day "T00:00:00Z\"") }
        /"median_us":/ { v = $2 + 0; sub(/[0-9.eE+-]+/, sprintf("%.6g", v * f), $2) }
        { print }' "$JSON" >"$H/r$d/results.json"
done

cd "$T" || fail "cd $T"
for lead in '<' '|'; do
    rm -f MARK
    out="${lead}touch MARK; x"
    "$CT" plot --out "$out" --tune "$TUNE" --format both scale1.csv scale2.csv >plot.out 2>&1
    rc=$?
    [ ! -e MARK ] || fail "plot --out '$out' ran a shell (MARK exists)"
    [ "$rc" -eq 0 ] || { cat plot.out >&2; fail "plot --out '$out': exit $rc, want 0"; }
    for k in busbw latency tuned scaling; do
        ls "$out"/*_"$k".png >/dev/null 2>&1 || fail "plot --out '$out': no $k image"
    done
    "$CT" regress --plot "$out-reg" "$H" >reg.out 2>&1
    rc=$?
    [ ! -e MARK ] || fail "regress --plot '$out-reg' ran a shell (MARK exists)"
    [ "$rc" -eq 1 ] || { cat reg.out >&2; fail "regress --plot '$out-reg': exit $rc, want 1 (slower)"; }
    ls "$out-reg"/*timeseries*.png >/dev/null 2>&1 || fail "regress --plot '$out-reg': no time series"
done

# --- labels from results cannot end a gnuplot string (E24) ---
# A run id holding quotes (RFC 4180 in the CSV): its series' title in the
# data file stays one quoted string.
awk -F, -v OFS=, 'NR == 1 { print; next } { $1 = "\"r \"\"q\"\" x\""; print }' "$CSV" >"$T/q.csv"
"$CT" plot --out "$T/lab" "$T/q.csv" "$CSV" >/dev/null 2>"$T/err" || fail "plot of a quoted run id: $(cat "$T/err")"
grep -qx '"mpi, run r _q_ x, in-place"' "$T/lab/allreduce_busbw.dat" ||
    fail "the quoted run id's label: $(grep '^"' "$T/lab/allreduce_busbw.dat")"
for d in "$T"/lab/*.dat; do
    awk -F'"' '/^"/ && NF != 3 { exit 1 }' "$d" || fail "$d: a label that is not one quoted string"
done

# --- a full disk keeps the good images ---
if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null 2>&1; then
    echo "hostile names: ok; SKIP full disk: needs root and unshare for a private tmpfs"
    exit 0
fi
cat >"$T/full.sh" <<'SH'
set -u
CT=$1 CSV=$2 D=$3
mount -t tmpfs -o size=1m tmpfs "$D" || exit 90
"$CT" plot --out "$D/p" "$CSV" >/dev/null 2>&1 || exit 91
before=$(cksum "$D/p/allreduce_busbw.png")
# Fill the file system, leaving a few KiB: enough for the data files,
# not for a whole image.
dd if=/dev/zero of="$D/fill" bs=1k 2>/dev/null
rm -f "$D/fill"
dd if=/dev/zero of="$D/fill" bs=1k count=$(($(df -k --output=avail "$D" | tail -1) - 30)) 2>/dev/null
"$CT" plot --out "$D/p" --size 1900x1000 "$CSV" >"$D/../full.out" 2>&1
rc=$?
[ "$rc" -eq 3 ] || exit 92
[ "$(cksum "$D/p/allreduce_busbw.png")" = "$before" ] || exit 93
ls "$D"/p/*.tmp >/dev/null 2>&1 && exit 94
for f in "$D"/p/*.png; do
    tail -c 8 "$f" | od -An -c | grep -q 'I   E   N   D' || exit 95
done
exit 0
SH
mkdir "$T/mnt"
unshare -m sh "$T/full.sh" "$CT" "$CSV" "$T/mnt"
rc=$?
case $rc in
0) ;;
90) echo "hostile names: ok; SKIP full disk: cannot mount a tmpfs here"; exit 0 ;;
91) fail "full disk: the first plot failed on an empty tmpfs" ;;
92) cat "$T/full.out" >&2; fail "full disk: plot did not exit 3" ;;
93) fail "full disk: the good allreduce_busbw.png was replaced" ;;
94) fail "full disk: a .tmp file was left" ;;
95) fail "full disk: an image in the directory is cut (no IEND)" ;;
*) fail "full disk: exit $rc" ;;
esac
grep -q 'cut or empty image\|No space left' "$T/full.out" || { cat "$T/full.out" >&2; fail "full disk: the message does not say why"; }
echo "hostile names and full disk: ok"
