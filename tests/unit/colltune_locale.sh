#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune never calls setlocale, so a comma-decimal locale in the
# environment changes nothing it parses or prints: regress (with a
# decimal --threshold), import and plot under de_DE.UTF-8 (built here with
# localedef) write byte for byte what they write under C.  Skips (77) only
# without localedef or the locale sources (Debian: locales).
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
CT="$top_builddir/tuner/colltune"
JSON="$top_srcdir/tests/unit/plot_results.json"
CSV="$top_srcdir/tests/unit/plot_results.csv"
LOG="$top_srcdir/tests/unit/import/nccl_allreduce.log"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-locale.XXXXXX")
trap 'rm -rf "$T"' EXIT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

command -v localedef >/dev/null 2>&1 || { echo "SKIP: no localedef"; exit 77; }
[ -f /usr/share/i18n/locales/de_DE ] || { echo "SKIP: no locale sources (apt-get install locales)"; exit 77; }
mkdir -p "$T/loc"
localedef -i de_DE -f UTF-8 "$T/loc/de_DE.UTF-8" >"$T/localedef.out" 2>&1 ||
    [ -d "$T/loc/de_DE.UTF-8" ] || { cat "$T/localedef.out" >&2; fail "localedef failed"; }
# The locale works: printf(1) in it writes a decimal comma.
[ "$(LOCPATH="$T/loc" LC_ALL=de_DE.UTF-8 /usr/bin/printf '%.1f' 1,5 2>/dev/null)" = "1,5" ] ||
    fail "the built de_DE.UTF-8 locale does not use a decimal comma"

# A history of 8 runs, the last two 1.5x slower (a step: regress exits 1).
for d in 1 2 3 4 5 6 7 8; do
    f=1
    [ "$d" -ge 7 ] && f=1.5
    mkdir -p "$T/hist/r$d"
    awk -v day="0$d" -v f="$f" '
        /"start_time"/ { sub(/"20[^"]*"/, "\"2026-01-" day "T00:00:00Z\"") }
        /"median_us":/ { v = $2 + 0; sub(/[0-9.eE+-]+/, sprintf("%.6g", v * f), $2) }
        { print }' "$JSON" >"$T/hist/r$d/results.json"
done

# run NAME ENV...: every output of the commands into $T/NAME.
run() {
    name=$1
    shift
    o="$T/$name"
    mkdir -p "$o"
    env "$@" "$CT" regress --threshold 2.5 --md "$o/r.md" --json "$o/r.json" "$T/hist" \
        >"$o/regress.out" 2>"$o/regress.err"
    echo "$?" >"$o/regress.rc"
    env "$@" "$CT" import --out "$o/imp.csv" --run-id fixed "$LOG" >"$o/import.out" 2>"$o/import.err"
    echo "$?" >"$o/import.rc"
    if command -v gnuplot >/dev/null 2>&1; then
        env "$@" "$CT" plot --out "$o/plot" --format svg "$CSV" >"$o/plot.out" 2>"$o/plot.err"
        echo "$?" >"$o/plot.rc"
        # the images name fonts and sizes only; the data files are colltune's
        find "$o/plot" \( -name '*.svg' -o -name .lock \) -delete
    fi
    # paths differ between the two runs; nothing else may
    find "$o" -type f | while read -r f; do sed -i "s#$o#OUT#g" "$f"; done
}
run c LC_ALL=C
run de LOCPATH="$T/loc" LC_ALL=de_DE.UTF-8
grep -q '[0-9],[0-9]' "$T/c/regress.out" && fail "C locale: a decimal comma in regress' table"
[ "$(cat "$T/c/regress.rc")" = 1 ] || { cat "$T/c/regress.err" >&2; fail "regress did not find the slower run"; }
[ "$(cat "$T/c/import.rc")" = 0 ] || { cat "$T/c/import.err" >&2; fail "import failed"; }
diff -r "$T/c" "$T/de" >"$T/diff" || { head -40 "$T/diff" >&2; fail "outputs differ under de_DE.UTF-8"; }
echo "PASS: regress, import and plot write the same bytes under C and de_DE.UTF-8"
