#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune tune --objective: what every collbench launch reduces over ranks.
#  - default max: every launch's collbench arguments end with -a 3, and
#    journal.head.json records "objective": "max"; --objective avg: -a 1;
#  - -a among tune's collbench arguments (-a N, -aN, --average=N, a prefix
#    of --average) is refused, exit 2, naming --objective, nothing launched;
#  - --resume with another --objective than the journal's head: exit 2
#    naming the objective, nothing launched; a head from before --objective
#    (no "objective") is a max tune's.
# The launcher is a fake mpirun that writes its arguments down and fails,
# so a new tune stops at the defaults' first trial (exit 3).
. "$top_srcdir/tests/unit/fake_mpirun.sh"

# tune DIR [ARGS...] -- [COLLBENCH-ARGS...]: a tune through the fake mpirun.
tune() {
    dir=$1
    shift
    : >"$T/argv.log"
    timeout 60 "$CT" tune --space "$SPACE" --out "$dir" --launcher "$T/bin/mpirun -np 2" \
        --strategy exhaustive --launches 2 "$@" >/dev/null 2>"$T/err"
}
# launched_with FLAG: launches were made, and every one's arguments end with FLAG.
launched_with() {
    n=$(wc -l <"$T/argv.log")
    [ "$n" -ge 1 ] || fail "no launch ($(cat "$T/err"))"
    [ "$(grep -c -- " $1\$" "$T/argv.log")" -eq "$n" ] ||
        fail "launches without a final '$1': $(cat "$T/argv.log")"
}
# refused WORD: the last tune exited 2 saying WORD and launched nothing.
refused() {
    [ "$rc" -eq 2 ] || fail "exit $rc, want 2 ($(cat "$T/err"))"
    grep -qF -- "$1" "$T/err" || fail "stderr lacks '$1': $(cat "$T/err")"
    [ ! -s "$T/argv.log" ] || fail "launched: $(cat "$T/argv.log")"
}

# 1. The default objective: the slowest rank, -a 3.
tune "$T/max" -- -b 64K -e 64K
rc=$?
[ "$rc" -eq 3 ] || fail "max: exit $rc, want 3 (the fake launch fails) ($(cat "$T/err"))"
launched_with "-a 3"
grep -q '"objective": "max"' "$T/max/journal.head.json" ||
    fail "head: $(cat "$T/max/journal.head.json")"

# 2. --objective avg: the average rank, -a 1.
tune "$T/avg" --objective avg -- -b 64K -e 64K
rc=$?
[ "$rc" -eq 3 ] || fail "avg: exit $rc, want 3 ($(cat "$T/err"))"
launched_with "-a 1"
grep -q '"objective": "avg"' "$T/avg/journal.head.json" ||
    fail "head: $(cat "$T/avg/journal.head.json")"

# 3. -a is the objective's: refused in every form getopt takes.
for a in "-a 1" "-a3" "--average=1" "--average 3" "--aver 1"; do
    # shellcheck disable=SC2086
    tune "$T/a" -- -b 64K -e 64K $a
    rc=$?
    refused "collbench argument ${a%% *} is tune's to set: use --objective"
done
tune "$T/a" --objective mean -- -b 64K -e 64K
rc=$?
refused "--objective 'mean': want max"

# 4. --resume with another objective than the journal's.
tune "$T/max" --resume --objective avg -- -b 64K -e 64K
rc=$?
refused "its objective is 'max', this one's 'avg' (--objective)"
tune "$T/avg" --resume -- -b 64K -e 64K
rc=$?
refused "its objective is 'avg', this one's 'max' (--objective)"
# The same objective resumes: the trials the journal lacks run (and fail).
tune "$T/avg" --resume --objective avg -- -b 64K -e 64K
rc=$?
grep -q "another tune's" "$T/err" && fail "resume avg refused: $(cat "$T/err")"
grep -q -- "--resume: 1 trials already" "$T/err" || fail "resume avg: $(cat "$T/err")"
launched_with "-a 1"

# 5. A head from before --objective: its trials ran collbench -a 3.
# (such a head lacks env, mca and collbench too, recorded since)
grep -v '"objective"\|"env"\|"mca"\|"collbench"' "$T/max/journal.head.json" | sed 's/"launcher": \(.*\),$/"launcher": \1/' \
    >"$T/head" && mv "$T/head" "$T/max/journal.head.json"
grep -q '"objective"' "$T/max/journal.head.json" && fail "the old head still names an objective"
tune "$T/max" --resume --objective avg -- -b 64K -e 64K
rc=$?
refused "its objective is 'max', this one's 'avg'"
tune "$T/max" --resume -- -b 64K -e 64K
rc=$?
grep -q "another tune's" "$T/err" && fail "old head refused: $(cat "$T/err")"
grep -q -- "--resume: 1 trials already" "$T/err" || fail "resume of an old head: $(cat "$T/err")"
launched_with "-a 3"

echo "tune's objective: -a 3 by default, -a 1 with --objective avg, -a refused, --resume checked"
