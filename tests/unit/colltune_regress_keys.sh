#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune regress on runs whose fingerprints hold 200k variables (issue
# 38, H8), no MPI.  The diff of the last good run's metadata and the first
# slow run's looked each path up by a scan of the other run's: quadratic,
# 448 s for 12 runs of 200k variables (bench/README.md, regress-fingerprint).
# Sorted once, this history takes 3-4 s on 2 loaded cores.  The limit, 20 s,
# sits far from both: a loaded machine stays well under it, and a quadratic
# diff (some 4e10 string compares) cannot finish within it on any machine.
# The causes it finds are checked too: the fast diff must be the same diff.
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
CT="$top_builddir/tuner/colltune"
JSON="$top_srcdir/tests/unit/plot_results.json"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-regress-keys.XXXXXX")
trap 'rm -rf "$T"' EXIT
KEYS=200000
LIMIT=20

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# run DIR DAY FACTOR BIG SLOW: plot_results.json as the run of 2026-01-DAY,
# its medians times FACTOR.  With BIG its fingerprint.env holds $KEYS
# variables; with SLOW too, every 1000th of them (from 7) changed, the
# first 50 gone, 50 new ones and LD_PRELOAD set: 300 differences.
json_run() {
    mkdir -p "$1"
    awk -v day="$2" -v f="$3" -v big="$4" -v slow="$5" -v k="$KEYS" '
        /"start_time"/ { sub(/"20[^"]*"/, "\"2026-01-" day "T00:00:00Z\"") }
        /"median_us":/ { n++; v = $2 + 0; sub(/[0-9.eE+-]+/, sprintf("%.6g",
                          v * f * (1 + 0.01 * ((day * 7 + n) % 5 - 2) / 2)), $2) }
        big && /^  "environment": \{/ {
            printf "  \"fingerprint\": {\"env\": {"
            sep = ""
            for (i = slow ? 50 : 0; i < k; i++) {
                printf "%s\"KEY_%06d\": \"/opt/v%d%s\"", sep, i, i,
                       slow && i % 1000 == 7 ? "b" : ""
                sep = ", "
            }
            for (i = 0; slow && i < 50; i++)
                printf ", \"NEW_%02d\": \"x\"", i
            if (slow)
                printf ", \"LD_PRELOAD\": \"/opt/slow.so\""
            print "}},"
        }
        { print }' "$JSON" >"$1/results.json" || fail "writing $1/results.json"
}

# 12 runs, twice as slow from r10 on; r09 (the last good run) and the slow
# ones carry the big fingerprints.
i=1
while [ "$i" -le 12 ]; do
    f=1 big=0 slow=0
    [ "$i" -lt 9 ] || big=1
    [ "$i" -lt 10 ] || f=2 slow=1
    json_run "$T/h/r$(printf %02d "$i")" "$(printf %02d "$i")" "$f" "$big" "$slow"
    i=$((i + 1))
done

start=$(date +%s)
timeout "$LIMIT" "$CT" regress "$T/h" --json "$T/r.json" >"$T/out" 2>"$T/err"
rc=$?
took=$(($(date +%s) - start))
[ "$rc" -ne 124 ] || fail "regress of 2 x $KEYS variables still running after $LIMIT s (a quadratic diff?)"
[ "$rc" -eq 1 ] || { cat "$T/out" "$T/err" >&2; fail "regress: exit $rc, want 1"; }
echo "regress of 12 runs, 4 of $KEYS variables: ${took} s (limit $LIMIT s)"

grep -qF "first slow run r10" "$T/out" || { cat "$T/out" >&2; fail "the first slow run r10 not named"; }
grep -qF "candidate causes, most specific first (from r09 to r10):" "$T/out" ||
    fail "no candidate causes from r09 to r10"
# LD_PRELOAD first (the most specific kind), then those new in r10 and in
# every run since (the runs before r09 hold no KEY_*: the KEY_* causes
# vary among the baseline's runs, less likely), by name.
grep -qF "1. LD_PRELOAD: unset -> /opt/slow.so from run r10 (in every run since; in none of the baseline)" "$T/out" ||
    { cat "$T/out" >&2; fail "LD_PRELOAD not the first cause"; }
grep -qF "2. NEW_00: unset -> x from run r10 (in every run since; in none of the baseline)" "$T/out" ||
    { cat "$T/out" >&2; fail "NEW_00 not the second cause"; }
grep -qF "... and 292 more differences" "$T/out" ||
    { cat "$T/out" >&2; fail "not 300 differences"; }
# every difference, in the JSON: 199 changed, 50 gone, 50 new, LD_PRELOAD
n=$(grep -o '"what": *"[A-Z_0-9]*"' "$T/r.json" | sort -u | wc -l)
[ "$n" -eq 300 ] || fail "regress --json: $n causes, want 300"
# cause WHAT FROM TO CONSISTENT: the JSON holds that cause
cause() {
    grep -A3 "\"what\": \"$1\"," "$T/r.json" | tr -d ' \n' |
        grep -qF "\"what\":\"$1\",\"from\":\"$2\",\"to\":\"$3\",\"consistent\":$4" ||
        fail "regress --json: no cause $1: $2 -> $3 (consistent $4)"
}
cause KEY_000000 /opt/v0 unset false
cause KEY_000007 /opt/v7 unset false
cause KEY_001007 /opt/v1007 /opt/v1007b false
cause KEY_199007 /opt/v199007 /opt/v199007b false
cause NEW_49 unset x true
grep -q '"what": *"KEY_000050"' "$T/r.json" && fail "regress --json: KEY_000050 (unchanged) a cause"
grep -q '"what": *"KEY_001008"' "$T/r.json" && fail "regress --json: KEY_001008 (unchanged) a cause"
exit 0
