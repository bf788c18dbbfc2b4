#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The tune journal under hostile files (issue 15, E4, E12, E16), through
# colltune tune --resume, every case refused before any launch:
#  - E4: journal.jsonl a symlink (to an empty file that would be written
#    through), or a file whose first line is not a journal's: exit 2, the
#    file untouched;
#  - E12: --resume of another tune's journal (its journal.head.json names
#    other collbench arguments or another space): exit 2 naming the field;
#  - E16: a directory or a dangling link as the journal: exit 2 (was 3); a
#    trial journaled twice or an absurd launch number: exit 2 with
#    file:line;
#  - J5/J13 (issue 26): a journal with trials and no journal.head.json
#    (removed, or from before heads) checks nothing: exit 2 naming the
#    missing file, whatever the arguments; with no journal at all --resume
#    starts the tune and writes the head.
#  - J11 (issue 26): a head whose space_hash is a number, or that is not
#    an object: exit 2 saying the head is malformed, naming the field,
#    not that the journal is another tune's.
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
CT="$top_builddir/tuner/colltune"
SPACE="$top_srcdir/tests/mpi/tune_tiny.ini"
SEED="$top_srcdir/tests/fuzz/corpus/journal/tune_tiny.jsonl"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-journal.XXXXXX")
trap 'rm -rf "$T"' EXIT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
# refused DIR WORD [ARGS...]: tune --resume into DIR exits 2 within 30 s,
# saying WORD, and launches nothing (no trials/ directory).
refused() {
    dir=$1 word=$2
    shift 2
    timeout 30 "$CT" tune --space "$SPACE" --out "$dir" --np 2 --resume "$@" -- -b 64K -e 64K \
        >/dev/null 2>"$T/err"
    rc=$?
    [ "$rc" -eq 2 ] || fail "$dir: exit $rc, want 2 ($(cat "$T/err"))"
    grep -qF -- "$word" "$T/err" || fail "$dir: stderr lacks '$word': $(cat "$T/err")"
    [ ! -d "$dir/trials" ] || fail "$dir: a trial was launched"
}

# --- E4 ---
mkdir "$T/link"
: >"$T/victim"
ln -s "$T/victim" "$T/link/journal.jsonl"
refused "$T/link" "is a symbolic link"
[ ! -s "$T/victim" ] || fail "the journal's link target was written: $(cat "$T/victim")"
mkdir "$T/other"
printf 'precious data\nmore' >"$T/other/journal.jsonl"
cp "$T/other/journal.jsonl" "$T/other.before"
refused "$T/other" "journal.jsonl:1:"
cmp -s "$T/other/journal.jsonl" "$T/other.before" || fail "a file that is not a journal was changed"
mkdir "$T/torn"
printf 'precious, no newline' >"$T/torn/journal.jsonl"
refused "$T/torn" "not a colltune journal's; not touching it"
[ "$(cat "$T/torn/journal.jsonl")" = "precious, no newline" ] || fail "a torn non-journal line was cut"

# --- E16 ---
mkdir -p "$T/dir/journal.jsonl"
refused "$T/dir" "is a directory, not a regular file"
mkdir "$T/dangling"
ln -s "$T/no-such-file" "$T/dangling/journal.jsonl"
refused "$T/dangling" "No such file or directory"
mkdir "$T/twice"
head -n 1 "$SEED" >"$T/twice/journal.jsonl"
head -n 1 "$SEED" >>"$T/twice/journal.jsonl"
refused "$T/twice" "journal.jsonl:2: trial"
grep -q "journaled twice" "$T/err" || fail "duplicate: $(cat "$T/err")"
mkdir "$T/launch"
head -n 1 "$SEED" | sed 's/"launch": *[0-9]*/"launch":-7/' >"$T/launch/journal.jsonl"
refused "$T/launch" "launch -7"

# --- E12 ---
mkdir "$T/mine"
cp "$SEED" "$T/mine/journal.jsonl"
cat >"$T/mine/journal.head.json" <<'JSON'
{"journal": "colltune-journal/1", "space": "tune-tiny", "space_hash": "0000000000000000",
 "collbench_args": "[\"-b\",\"8\"]", "launcher": "[\"mpirun\",2,\"\"]"}
JSON
refused "$T/mine" "the journal is another tune's: its space_hash is '0000000000000000'"

# --- J5/J13 ---
mkdir "$T/headless"
cp "$SEED" "$T/headless/journal.jsonl"
refused "$T/headless" "$T/headless/journal.head.json is missing: the journal's 4 trials cannot be checked"
[ ! -e "$T/headless/journal.head.json" ] || fail "a head was made up for a headless journal"
cmp -s "$T/headless/journal.jsonl" "$SEED" || fail "the headless journal was changed"
# No journal yet: --resume is a new tune (its launch fails at once here)
# and writes the head the next --resume checks.
mkdir "$T/fresh" "$T/bin"
printf '#!/bin/sh\nexit 1\n' >"$T/bin/mpirun"
chmod +x "$T/bin/mpirun"
timeout 30 "$CT" tune --space "$SPACE" --out "$T/fresh" --launcher "$T/bin/mpirun -np 2" --resume \
    -- -b 64K -e 64K >/dev/null 2>"$T/err"
rc=$?
[ "$rc" -eq 3 ] || fail "fresh --resume: exit $rc, want 3 ($(cat "$T/err"))"
grep -q '"space_hash"' "$T/fresh/journal.head.json" || fail "fresh --resume wrote no head"

# --- J11 ---
mkdir "$T/j11"
cp "$SEED" "$T/j11/journal.jsonl"
cat >"$T/j11/journal.head.json" <<'JSON'
{"journal": "colltune-journal/1", "space": "tune-tiny", "space_hash": 12345,
 "collbench_args": "[\"-b\",\"8\"]", "launcher": "[\"mpirun\",2,\"\"]"}
JSON
refused "$T/j11" "$T/j11/journal.head.json: field space_hash: not a string"
grep -q "another tune's" "$T/err" && fail "J11 said another tune's: $(cat "$T/err")"
echo '["colltune-journal/1"]' >"$T/j11/journal.head.json"
refused "$T/j11" "$T/j11/journal.head.json: malformed: not a JSON object"
echo "hostile journals refused"
