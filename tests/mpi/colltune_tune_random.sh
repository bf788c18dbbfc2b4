#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune tune --strategy random at np=2, through the real mpirun:
#  - on tune_tiny.ini (baseline + 3 algorithms): --budget is honoured, the
#    baseline is always in, the same --seed picks the same subset and some
#    other seed picks another;
#  - on a space written here whose global scope is far too large to list
#    (3 harmless environment variables, 256 x 256 x 16 > 100000
#    combinations): the tune samples instead of failing, the journal holds
#    the baseline and 3 distinct drawn configurations, the same --seed
#    in another directory draws the same ones, and --resume with more
#    --budget keeps the ones that ran.
. "$top_srcdir/tests/mpi/lib.sh"

ct_colltune_test
mkdir -p "$T/tmp"
set -- --np 2 --launcher-arg --oversubscribe --launcher-arg --bind-to --launcher-arg none \
    --launcher-arg --mca --launcher-arg orte_tmpdir_base --launcher-arg "$T/tmp" \
    --mca mpi_yield_when_idle=1 --timeout 60 --strategy random --collectives allreduce \
    --verify-pairs 0
# (No A/B: the subset drawn is what this tests; colltune_verify.sh tests the A/B.)

# tune DIR ARGS...: a quick random tune into $T/DIR, which must exit 0.
tune() {
    d=$1
    shift
    timeout 120 "$CT" tune --out "$T/$d" "$@" -- -b 8 -e 8 >"$T/out" 2>"$T/err" ||
        fail "$d: exit $? ($(cat "$T/err"))"
}

# keys DIR: the configurations searched in DIR, sorted; trials DIR: how
# many search trials (a choice adds the verification's, not counted);
# search DIR: the search trials' journal lines.
keys() {
    ct_journal_trials "$T/$1/journal.jsonl" | cut -d' ' -f2 | sort -u
}
trials() {
    ct_journal_trials "$T/$1/journal.jsonl" | wc -l
}
search() {
    grep -v '"scope":"verify' "$T/$1/journal.jsonl"
}

# 1. A small space: budget 5 at 2 launches fits 2 configurations, the
#    baseline and one drawn from the 3: 4 trials.
tiny="$top_srcdir/tests/mpi/tune_tiny.ini"
tune t1 --space "$tiny" "$@" --budget 5 --launches 2 --seed 1
[ "$(trials t1)" -eq 4 ] || fail "budget 5: $(trials t1) trials, want 4"
[ "$(search t1 | grep -c '"config":{}')" -eq 2 ] || fail "the baseline is not in twice"
[ "$(keys t1 | wc -l)" -eq 2 ] || fail "want 2 configurations: $(keys t1)"
[ "$(json_get "$T/t1/report.json" strategy)" = random ] || fail "report.json strategy"
tune t1b --space "$tiny" "$@" --budget 5 --launches 2 --seed 1
[ "$(keys t1)" = "$(keys t1b)" ] || fail "seed 1 twice: $(keys t1) vs $(keys t1b)"
# Another seed picks another algorithm sooner or later (1/3 the same each).
seed=2
while :; do
    tune s$seed --space "$tiny" "$@" --budget 2 --launches 1 --seed $seed
    [ "$(trials s$seed)" -eq 2 ] || fail "budget 2: $(cat "$T/s$seed/journal.jsonl")"
    [ "$(keys s$seed)" != "$(keys t1)" ] && break
    [ $seed -lt 8 ] || fail "seeds 1..8 all pick $(keys t1)"
    seed=$((seed + 1))
done

# 2. A space too large to list.
cat >"$T/huge.ini" <<'INI'
[space]
name = huge
describe = harmless environment variables collbench ignores
via = env

[var COLLTUNE_TEST_A]
range = 1..256

[var COLLTUNE_TEST_B]
range = 1..256

[var COLLTUNE_TEST_C]
range = 1..16
INI
# exhaustive cannot list it; random samples it.
"$CT" tune --out "$T/hx" --space "$T/huge.ini" --np 2 --strategy exhaustive -- -b 8 -e 8 \
    >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q 'too many to list' "$T/err" || fail "exhaustive on the huge space: $(cat "$T/err")"
tune h1 --space "$T/huge.ini" "$@" --budget 4 --launches 1 --seed 7
[ "$(trials h1)" -eq 4 ] || fail "huge: $(cat "$T/h1/journal.jsonl")"
[ "$(search h1 | grep -c '"status":"ok"')" -eq 4 ] || fail "huge: not all ok: $(cat "$T/h1/journal.jsonl")"
[ "$(search h1 | grep -c '"config":{}')" -eq 1 ] || fail "huge: no baseline"
[ "$(keys h1 | wc -l)" -eq 4 ] || fail "huge: want 4 distinct configurations: $(keys h1)"
[ "$(search h1 | grep '"COLLTUNE_TEST_A":{"value":"[0-9]*"' | grep '"COLLTUNE_TEST_B":{' | grep -c '"COLLTUNE_TEST_C":{')" -eq 3 ] ||
    fail "huge: drawn configurations: $(ct_journal_trials "$T/h1/journal.jsonl")"
tune h2 --space "$T/huge.ini" "$@" --budget 4 --launches 1 --seed 7
[ "$(keys h1)" = "$(keys h2)" ] || fail "huge, seed 7 twice: $(keys h1) vs $(keys h2)"
tune h3 --space "$T/huge.ini" "$@" --budget 4 --launches 1 --seed 8
[ "$(keys h1)" != "$(keys h3)" ] || fail "huge: seeds 7 and 8 drew the same"
# More budget on --resume draws a superset: what ran is kept, not redrawn
# (a verification the first tune ran is resumed too: only the keys count).
keys h1 >"$T/h1.keys"
tune h1 --space "$T/huge.ini" "$@" --budget 6 --launches 1 --seed 7 --resume
n=$(wc -l <"$T/h1.keys")
[ "$(trials h1)" -eq 6 ] || fail "huge resume: $(trials h1) trials, want 6"
[ "$(keys h1 | wc -l)" -eq 6 ] || fail "huge resume: want 6 configurations: $(keys h1)"
[ "$(keys h1 | grep -cxF -f "$T/h1.keys")" -eq "$n" ] || fail "huge resume: lost $(cat "$T/h1.keys")"
exit 0
