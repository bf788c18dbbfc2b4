#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune's messages for bad input, as a hostile user meets them (issue
# 15, E23 and E24): each bad option value, file and file field is refused
# with exit 2 and a message that names the option and what it allows, or
# the file, the line (or JSON member) and the field, instead of a wrong
# exit code, an option name with four dashes, a line 0, a launch that
# crashes on an empty path, or a value taken without a word (hexadecimal
# seconds, a second --np, duplicate JSON keys, a negative time, a file
# whose rows are empty).  Nothing here launches MPI: every command fails
# before a launch, or runs --collbench /bin/false.  collbench's own
# options are tests/unit/test_options.c's.
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
CT="$top_builddir/tuner/colltune"
CSV="$top_srcdir/tests/unit/plot_results.csv"
JSON="$top_srcdir/tests/unit/plot_results.json"
NJSON="$top_srcdir/tests/unit/import/nccl_allreduce.json"
SPACE="$top_srcdir/tests/mpi/tune_tiny.ini"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-messages.XXXXXX")
trap 'rm -rf "$T"' EXIT

# Every check runs; the failures are counted and listed.
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# run ARGS: colltune ARGS (20 s at most), its exit code in $rc and its
# stderr in $T/err.
run() {
    timeout 20 "$CT" "$@" >"$T/out" 2>"$T/err"
    rc=$?
}

# refused WHAT ARGS...: colltune ARGS exits 2 and its stderr says WHAT.
refused() {
    what=$1
    shift
    run "$@"
    if [ "$rc" -ne 2 ]; then
        fail "colltune $*: exit $rc, want 2 ($(cat "$T/err"))"
    elif ! grep -qF -- "$what" "$T/err"; then
        fail "colltune $*: stderr lacks '$what': $(cat "$T/err")"
    fi
}

# lacks WHAT: the last command's stderr does not say WHAT.
lacks() {
    ! grep -qF -- "$1" "$T/err" || fail "stderr says '$1': $(cat "$T/err")"
}

cd "$T" || exit 1

# --- the command line (tuner/core/cli.c) ---

# An option named with four dashes.
refused "colltune sweep: --ranks-per-node '0': want a whole number" \
    sweep --out "$T/s" --scales 1,2 --ranks-per-node 0
refused "colltune regress: --window '1': want a whole number" regress --window 1 "$T"
refused "colltune import: --np '0': want a whole number" import --out i.csv --np 0 x.log
# An empty value: a path that reached mpirun (exit 3, "signal 6"), PATH's
# directories (exit 3, "cannot run /usr/bin/"), or --md's (exit 3).
refused "colltune sweep: --collbench: an empty value (want PATH)" \
    sweep --out "$T/s" --np 2 --collbench ''
refused "colltune sweep: --launcher-arg: an empty value (want ARG)" \
    sweep --out "$T/s" --np 2 --launcher-arg ''
refused "colltune plot: --gnuplot: an empty value (want PATH)" plot --out "$T/p" --gnuplot '' "$CSV"
refused "colltune regress: --md: an empty value (want FILE)" regress --md '' "$T"
refused "colltune tune: --space: an empty value (want FILE|NAME)" tune --space '' --out "$T/t" --np 2
# A budget the defaults use up would search nothing (and exit 0).
refused "colltune tune: --budget 2 leaves no configuration to try" tune --space "$SPACE" --out "$T/b" --np 2 \
    --launches 2 --budget 2 --collbench /bin/false
[ ! -e "$T/s" ] || fail "a refused sweep made its --out"
# An option given twice: the second used to win unnoticed.
refused "colltune sweep: --np given twice (the second: '3'): give it once" \
    sweep --out "$T/s" --np 2 --np 3 --collbench /bin/false
refused "colltune import: --out given twice (the second: 'b.csv')" \
    import --out a.csv --out b.csv x.log
refused "colltune regress: --md given twice" regress --md a.md --md b.md "$T"
# ... but --env, --mca and --launcher-arg are repeatable (the parse goes on
# to the next check).
refused "colltune sweep: --out DIR is required" sweep --np 2 --env A=1 --env B=2 --mca a=1 \
    --mca b=2 --launcher-arg -x --launcher-arg -y
# --env and --mca say what a name may hold.
refused "colltune sweep: --env '=x': the environment variable name is empty" sweep --out "$T/s" --np 2 --env =x
refused "colltune sweep: --env '1A' is not a valid environment variable name (letters, digits and _, not first a digit)" \
    sweep --out "$T/s" --np 2 --env 1A=x
refused "colltune sweep: --mca 'a-b' is not a valid MCA parameter name (letters, digits and _)" \
    sweep --out "$T/s" --np 2 --mca a-b=1
# Numbers: hexadecimal, white space and '+' (--timeout 0x10 ran for 16 s).
refused "colltune sweep: --timeout '0x10': want seconds" sweep --out "$T/s" --np 2 --timeout 0x10
refused "colltune sweep: --grace ' 5': want seconds" sweep --out "$T/s" --np 2 --grace ' 5'
refused "colltune sweep: --np ' 2': want a whole number" sweep --out "$T/s" --np ' 2'
refused "colltune tune: --budget '+5': want a whole number" \
    tune --space "$SPACE" --out "$T/t" --np 2 --budget +5
refused "colltune regress: --threshold 0x10: a percentage" regress --threshold 0x10 "$T"
refused "colltune health: --z-max 0x10: a number above 0" health --report --z-max 0x10 x.json
refused "colltune health: --min-ratio  2: a number above 1" health --report --min-ratio ' 2' x.json

# --- tune ---

# --collectives names no collective, or has an empty item: the space's
# matching ones were tuned and the rest dropped without a word.
refused "colltune tune: --collectives 'allreduce,bcastt': unknown collective 'bcastt' (allreduce, allgather, alltoall, broadcast, reduce_scatter, all)" \
    tune --space "$SPACE" --out "$T/t" --np 2 --collectives allreduce,bcastt
refused "colltune tune: --collectives 'allreduce,,broadcast': an empty item" \
    tune --space "$SPACE" --out "$T/t" --np 2 --collectives allreduce,,broadcast
# The hint for --csv is not "use --collectives".
refused "collbench argument --csv is tune's to set (each trial's results go to DIR/trials/)" \
    tune --space "$SPACE" --out "$T/t" --np 2 -- --csv x.csv
lacks "use --collectives"
[ ! -e "$T/t" ] || fail "a refused tune made its --out"

# --- space files ---

# The first bad line is the one named, even when a later line is bad too.
printf 'junk[space]\nname = x\n[var a]\nvalues = 1\n' >bad1.ini
refused "bad1.ini:1: line: not [section], NAME = VALUE or a comment" \
    tune --space bad1.ini --out "$T/t" --np 2
# A UTF-8 byte order mark (an editor's) before [space] is no error.
printf '\357\273\277[space]\nname = x\n[var coll_tuned_allreduce_algorithm]\nscope = allreduce\nvalues = 1, 2\n' >bom.ini
refused "colltune tune: --out /dev/null: exists and is not a directory" \
    tune --space bom.ini --out /dev/null --np 2
lacks "bom.ini"
# An empty name.
printf '[space]\nname =\n[var coll_tuned_allreduce_algorithm]\nscope = allreduce\nvalues = 1, 2\n' >noname.ini
refused "noname.ini:2: name: empty (the space needs a name)" tune --space noname.ini --out "$T/t" --np 2

# --- --weights ---

: >empty.w
refused "empty.w: weight: no entry has a positive weight" \
    tune --space "$SPACE" --weights empty.w --out "$T/t" --np 2
lacks "empty.w:0:"
printf '# only a comment\n' >comment.w
refused "comment.w: weight: no entry has a positive weight" \
    tune --space "$SPACE" --weights comment.w --out "$T/t" --np 2
printf 'allreduce 64K 0x10\n' >hex.w
refused "hex.w:1: weight: '0x10' is not a non-negative number" \
    tune --space "$SPACE" --weights hex.w --out "$T/t" --np 2
printf 'allreduse 64K 1\n' >coll.w
refused "coll.w:1: collective: unknown 'allreduse' (allreduce, allgather, alltoall, broadcast, reduce_scatter)" \
    tune --space "$SPACE" --weights coll.w --out "$T/t" --np 2

# --- JSON: a key given twice ---

# jansson keeps the last: here the schema colltune-results/1 read a
# version 2 document.
sed 's|"schema": "colltune-results/2",|"schema": "colltune-results/2", "schema": "colltune-results/1",|' \
    "$JSON" >dup.json
refused "dup.json:2: duplicate object key near '\"schema\"'" plot --gnuplot /bin/true --out "$T/p" dup.json
refused "dup.json:2: duplicate object key" health --report dup.json
sed 's/"size":1024,/"size":1024,"size":2048,/' "$NJSON" >ndup.json
refused "ndup.json:5: not valid JSON: duplicate object key near '\"size\"'" import --out i.csv --force ndup.json

# --- import: nccl-tests JSON ---

sed 's/"ngpus":2/"ngpus":0/' "$NJSON" >ngpus.json
refused "ngpus.json: config.ngpus: 0 is not a positive count" import --out i.csv --force ngpus.json
lacks "cannot compute busbw"
sed 's/"size":1024/"size":-1024/' "$NJSON" >size.json
run import --out i.csv --force size.json
grep -qF "size.json: results[0].size: -1024 is not a byte count" "$T/err" || fail "import size.json: $(cat "$T/err")"
sed 's/"type":"float"/"type":"floatt"/' "$NJSON" >type.json
refused "type.json: results[0].type: 'floatt' is not a datatype (int8, uint8," import --out i.csv --force type.json
# ... and which log gave no row at all ("no row could be imported").
refused "colltune import: type.json: no row could be imported; i.csv not written" \
    import --out i.csv --force type.json
sed 's/"time":12.000000/"time":-12/' "$NJSON" >time.json
run import --out i.csv --force time.json
grep -qF "time.json: results[0].out_of_place.time: -12 is not a positive time" "$T/err" ||
    fail "import time.json: $(cat "$T/err")"
# OSU: hexadecimal is no latency.
printf '# OSU MPI Allreduce Latency Test v5.9\n# Size       Avg Latency(us)\n4   0x10\n' >hex.osu
refused "hex.osu:3: latency '0x10' is not a positive number" import --out i.csv --force --np 2 hex.osu

# --- health --report ---

# hreport BYTES US: a results.json with one cell on two hosts, a's time US.
hreport() {
    printf '{"schema": "colltune-results/2", "nnodes": 2, "results": [{"collective": "allreduce", "placement": "in-place", "bytes": %s, "per_host": [{"hostname": "a", "median_us": %s}, {"hostname": "b", "median_us": 2}]}]}\n' "$1" "$2"
}
# A time of -1 or 0 was dropped: "no timings", exit 0.
hreport 8 -1 >neg.json
refused "neg.json: results[0].per_host[0].median_us: -1 is not a positive time" health --report neg.json
hreport 8 0 >zero.json
refused "zero.json: results[0].per_host[0].median_us: 0 is not a positive time" health --report zero.json
hreport -8 1 >bytes.json
refused "bytes.json: results[0].bytes: -8 is not a positive byte count" health --report bytes.json
# A run's options with --report were ignored.
hreport 8 1 >ok.json
refused "colltune health: --np: a run's option; --report runs nothing" health --report --np 2 ok.json
refused "colltune health: --no-pairs: a run's option; --report runs nothing" health --report ok.json --no-pairs
# Which files hold no per-host timings.
refused "colltune health: $JSON: no per-host or pair timings" health --report "$JSON"

# --- regress ---

for r in r1 r2 r3; do mkdir -p "h/$r" && cp "$CSV" "h/$r/results.csv"; done
# A run whose results are a header alone sorted as the oldest and was
# judged as such; it is skipped, saying so.
head -1 "$CSV" >h/r3/results.csv
run regress h
[ "$rc" -eq 0 ] || fail "regress h: exit $rc ($(cat "$T/err"))"
grep -qF "h/r3/results.csv: no rows, skipped" "$T/err" || fail "regress h: $(cat "$T/err")"
# --md's reason.
refused "colltune regress: --md $T: is a directory" regress --md "$T" h
refused "colltune regress: --md $T/none/x.md: directory $T/none: No such file or directory" \
    regress --md "$T/none/x.md" h

# --- plot ---

refused "colltune plot: --small-max 0: not a size of at least 1 byte" \
    plot --gnuplot /bin/true --small-max 0 --out "$T/p" "$CSV"
# A results CSV's numbers are decimal (a busbw 0x10 was 16 GB/s).
{ sed -n 1,2p "$CSV"; sed -n 3p "$CSV" | awk -F, -v OFS=, '{ $20 = "0x10"; print }'; } >hex.csv
refused "hex.csv:3: column busbw_gbps: '0x10' is not a number" plot --gnuplot /bin/true --out "$T/p" hex.csv
# Which input holds no rows ("no rows to plot in the inputs").
head -1 "$CSV" >hdr.csv
refused "colltune plot: hdr.csv: holds no rows to plot" plot --gnuplot /bin/true --out "$T/p" hdr.csv

[ "$failures" -eq 0 ] || {
    echo "$failures checks failed" >&2
    exit 1
}
echo "every message names the option or the file, line and field, and exits 2"
