#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune import on sample logs written from the published formats
# (tests/unit/import/): every golden CSV byte for byte, the busbw check,
# a truncated log, NCCL INFO lines inside a table, two tests in one log,
# and bad input (a missing column, another tool's log, --strict) naming
# FILE:LINE with exit 2.  No MPI, no GPU.
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
CT="$top_builddir/tuner/colltune"
D="$top_srcdir/tests/unit/import"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-import.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# golden NAME.csv ARGS...: import ARGS (run in $D, so the run_id is the
# log's base name) and compare with $D/NAME.csv.
golden() {
    name=$1
    shift
    (cd "$D" && "$CT" import --out "$T/$name" "$@") 2>"$T/err" ||
        fail "import $*: exit $? ($(cat "$T/err"))"
    cmp -s "$T/$name" "$D/$name" || fail "import $*: differs from $name: $(diff "$D/$name" "$T/$name")"
    rm -f "$T/$name"
}

# expect RC PATTERN ARGS...: colltune import ARGS exits RC, stderr has PATTERN.
expect() {
    want=$1 pattern=$2
    shift 2
    (cd "$D" && "$CT" import "$@") >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq "$want" ] || fail "import $*: exit $rc, want $want ($(cat "$T/err"))"
    grep -q -- "$pattern" "$T/err" || fail "import $*: stderr lacks '$pattern': $(cat "$T/err")"
}

# Goldens: NCCL INFO lines mixed into the table (nccl_allreduce.log), two
# tests in one log, the -I per-iteration columns with the collective from
# --collective, a truncated log, -J JSON, OSU with and without -f.
golden nccl_allreduce.csv nccl_allreduce.log
golden nccl_two_tests.csv nccl_two_tests.log
golden nccl_per_iter.csv --collective alltoall nccl_per_iter.log
golden nccl_truncated.csv nccl_truncated.log
golden nccl_allreduce_json.csv --format nccl-tests nccl_allreduce.json
golden osu_mixed.csv --np 4 osu_mixed.log

# The INFO lines are passed over silently; the two tests keep their own
# collectives, ranks and roots.
expect 0 "8 rows into .*0 lines skipped, 0 warnings" --out "$T/a.csv" nccl_allreduce.log
[ "$(grep -c ',allgather,' "$T/a.csv")" -eq 0 ] || fail "allreduce log gave allgather rows"
rm -f "$T/a.csv"
# Truncated: every complete row, the cut line named, and the planted busbw
# (9.99 where 1.64 is right) a warning with its line.
expect 0 "nccl_truncated.log:14: 6 fields, expected 13" --out "$T/a.csv" nccl_truncated.log
grep -q "nccl_truncated.log:13: warning: .*busbw 9.99" "$T/err" || fail "no busbw warning: $(cat "$T/err")"
rm -f "$T/a.csv"
# --strict fails on the cut line and leaves no output behind.
expect 2 "nccl_truncated.log:14:" --strict --out "$T/a.csv" nccl_truncated.log
[ ! -e "$T/a.csv" ] || fail "--strict left an output"
ls "$T" | grep -q '\.tmp$' && fail "a temporary file was left"
# OSU allgather sizes are per-rank blocks: 1024 x 4 ranks, said on stderr.
expect 0 "osu_mixed.log:7: note: OSU allgather sizes are per-rank blocks" --np 4 --out "$T/a.csv" \
    osu_mixed.log
grep -q ',allgather,out-of-place,int8,none,-1,4,-1,4096,4096,1000,5.75,' "$T/a.csv" ||
    fail "OSU allgather 1024-byte block not converted: $(cat "$T/a.csv")"
rm -f "$T/a.csv"

# Bad input.
expect 2 "bad_missing_column.log:8: table header lacks the busbw column" --out "$T/a.csv" \
    bad_missing_column.log
expect 2 "bad_other_tool.log:1: neither an nccl-tests nor an OSU log" --out "$T/a.csv" \
    bad_other_tool.log
expect 2 "bad_other_tool.log:1: not an nccl-tests log" --format nccl-tests --out "$T/a.csv" \
    bad_other_tool.log
expect 2 "bad_other_tool.log:1: not an OSU log" --format osu --out "$T/a.csv" bad_other_tool.log
expect 2 "osu_mixed.log:1: OSU logs do not say how many ranks ran: give --np" --out "$T/a.csv" \
    osu_mixed.log
expect 2 "nccl_per_iter.log:11: .*give --collective" --out "$T/a.csv" nccl_per_iter.log
expect 2 "no LOG to import" --out "$T/a.csv"
expect 2 "\-\-out FILE.csv is required" nccl_allreduce.log
expect 2 "\-\-format xml: expected" --format xml --out "$T/a.csv" nccl_allreduce.log
expect 2 "\-\-collective sendrecv: not one" --collective sendrecv --out "$T/a.csv" nccl_allreduce.log
[ ! -e "$T/a.csv" ] || fail "a failed import left an output"
# An existing --out is refused before any log is read, replaced with --force.
echo keep >"$T/a.csv"
expect 2 "exists (give --force" --out "$T/a.csv" nccl_allreduce.log
[ "$(cat "$T/a.csv")" = keep ] || fail "an existing --out was touched"
expect 0 "8 rows" --force --out "$T/a.csv" nccl_allreduce.log
cmp -s "$T/a.csv" "$D/nccl_allreduce.csv" || fail "--force output differs"
# Several logs, formats mixed, into one file.
expect 0 "18 rows" --np 4 --out "$T/b.csv" nccl_allreduce.log osu_mixed.log nccl_allreduce.json
[ "$(grep -c '^run_id,' "$T/b.csv")" -eq 1 ] || fail "more than one header"
# --run-id on every row; --date on the rows whose log gives no time (the
# text logs), while the JSON log's own timestamp wins.
expect 0 "18 rows" --np 4 --run-id night-0107 --date 2026-01-07 --out "$T/c.csv" \
    nccl_allreduce.log osu_mixed.log nccl_allreduce.json
[ "$(tail -n +2 "$T/c.csv" | cut -d, -f1 | sort -u)" = "night-0107" ] || fail "--run-id not on every row"
[ "$(tail -n +2 "$T/c.csv" | cut -d, -f2 | sort | uniq -c | awk '{ printf "%s %s;", $1, $2 }')" = \
    "4 $(sed -n 2p "$D/nccl_allreduce_json.csv" | cut -d, -f2);14 2026-01-07T00:00:00Z;" ] ||
    fail "--date: $(tail -n +2 "$T/c.csv" | cut -d, -f2 | sort | uniq -c)"
# The rest of each row is as without them.
tail -n +2 "$T/b.csv" | cut -d, -f3- >"$T/b.rest"
tail -n +2 "$T/c.csv" | cut -d, -f3- >"$T/c.rest"
cmp -s "$T/b.rest" "$T/c.rest" || fail "--run-id/--date changed more than run_id and time"
expect 0 "8 rows" --date 2024-02-29T23:59:59Z --out "$T/d.csv" nccl_allreduce.log
[ "$(sed -n 2p "$T/d.csv" | cut -d, -f2)" = "2024-02-29T23:59:59Z" ] || fail "--date with a time"
expect 2 "\-\-date 2026-02-29: YYYY-MM-DD" --date 2026-02-29 --out "$T/e.csv" nccl_allreduce.log
expect 2 "\-\-date 2026-01-07T25:00:00Z" --date 2026-01-07T25:00:00Z --out "$T/e.csv" nccl_allreduce.log
expect 2 "\-\-date 7.1.2026" --date 7.1.2026 --out "$T/e.csv" nccl_allreduce.log
expect 2 "\-\-run-id a,b: 1 to 63" --run-id a,b --out "$T/e.csv" nccl_allreduce.log
[ ! -e "$T/e.csv" ] || fail "a bad --date or --run-id wrote the output"
# A log whose name holds a comma, a quote and a space: the default run id
# keeps only [A-Za-z0-9._:-] (issue 15, E18), so plot and regress read it.
cp "$D/nccl_allreduce.log" "$T/a,b \"c.log"
"$CT" import --out "$T/f.csv" "$T/a,b \"c.log" 2>"$T/err" || fail "import a,b \"c.log: $(cat "$T/err")"
[ "$(sed -n 2p "$T/f.csv" | cut -d, -f1)" = "a_b__c.log" ] || fail "run id from 'a,b \"c.log': $(sed -n 2p "$T/f.csv")"
"$CT" plot --gnuplot /bin/true --out "$T/fp" "$T/f.csv" >/dev/null 2>"$T/err" ||
    [ $? -eq 3 ] || fail "plot of the imported CSV: $(cat "$T/err")"
grep -q ':[0-9]*:' "$T/err" && fail "plot could not read the imported CSV: $(cat "$T/err")"
# nccl-tests JSON of a version this reader was not written from (E24).
sed 's/"version":2/"version":3/' "$D/nccl_allreduce.json" >"$T/v3.json"
expect 2 "v3.json:1: nccl-tests JSON version other than 2" --out "$T/g.csv" "$T/v3.json"
[ ! -e "$T/g.csv" ] || fail "an unknown JSON version was imported"
exit 0
