#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune tune: the in-process search of several collectives shares its
# launches (tune_inproc.h), at np=2 through the real mpirun and collbench:
#  - two scopes (allreduce: 3 algorithms, broadcast: 2), exhaustive, 2
#    launches: 2 launches in all, each measuring both scopes' candidates
#    (collbench -C allreduce,broadcast --config-for COLL:...); every
#    trial journaled as its own, its rows its own collective's alone, and
#    in each launch each scope's defaults beside its candidates (the pairs
#    the decision reads);
#  - a shared launch that fails as a whole (a run-time variable of one
#    scope MPI_T cannot write) runs its scopes a launch each: the other
#    scope still shares, the failing one runs one per launch.
. "$top_srcdir/tests/mpi/lib.sh"

ct_colltune_test
mkdir -p "$T/tmp"
set -- --np 2 --launcher-arg --oversubscribe --launcher-arg --bind-to --launcher-arg none \
    --launcher-arg --mca --launcher-arg orte_tmpdir_base --launcher-arg "$T/tmp" \
    --mca mpi_yield_when_idle=1 --timeout 60 --strategy exhaustive --verify-pairs 0
cat >"$T/two.ini" <<EOS
[space]
name = two
via = mca

[var coll_tuned_allreduce_algorithm]
scope = allreduce
values = 1, 2, 3
default = 0
requires = coll_tuned_use_dynamic_rules=1

[var coll_tuned_bcast_algorithm]
scope = broadcast
values = 1, 6
default = 0
requires = coll_tuned_use_dynamic_rules=1
EOS

# field NAME: the journal line's string NAME (stdin, one line).
field() {
    sed -n "s/.*\"$1\": *\"\\([^\"]*\\)\".*/\\1/p"
}

# 1. (3 + 1) + (2 + 1) configurations x 2 launches = 14 trials, 2 launches.
timeout 120 "$CT" tune --space "$T/two.ini" --out "$T/s" "$@" --launches 2 \
    -- -b 64K -e 128K -f 2 --size-budget 0.05 >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] || fail "shared: exit $rc ($(cat "$T/err"))"
j="$T/s/journal.jsonl"
[ "$(wc -l <"$j")" -eq 14 ] || fail "journal lines: $(wc -l <"$j"), want 14"
[ "$(grep -c '"status": *"ok"' "$j")" -eq 14 ] || fail "not all ok: $(cat "$j")"
[ "$(field group <"$j" | sort -u | wc -l)" -eq 2 ] || fail "want 2 launches: $(field group <"$j" | sort -u)"
[ "$(field group <"$j" | grep -c '^shared-')" -eq 14 ] || fail "groups: $(field group <"$j")"
[ "$(ls "$T/s/trials" | wc -l)" -eq 2 ] || fail "trial dirs: $(ls "$T/s/trials")"
[ "$(json_get "$T/s/report.json" launches_shared)" -eq 2 ] || fail "launches_shared"
grep -q '7 configurations (2 scopes) in one launch' "$T/err" || fail "progress: $(cat "$T/err")"
# Each trial's rows are its own collective's, 2 sizes x 2 placements.
while read -r line; do
    scope=$(printf '%s\n' "$line" | field scope)
    n=$(printf '%s\n' "$line" | grep -o '"collective": *"[a-z_]*"' | sed 's/.*"\([a-z_]*\)"$/\1/' |
        sort | uniq -c | awk '{ print $1 " " $2 }')
    [ "$n" = "4 $scope" ] || fail "$scope trial rows: $n"
done <"$j"
# In every launch, each scope's defaults ("config": {}) beside its candidates.
for g in $(field group <"$j" | sort -u); do
    for sc in allreduce broadcast; do
        [ "$(grep "\"group\": *\"$g\"" "$j" | grep "\"scope\": *\"$sc\"" | grep -c '"config": *{}')" -eq 1 ] ||
            fail "$g: no defaults of $sc"
    done
done
# collbench ran both collectives in one launch, each candidate on its own.
d=$(ls "$T/s/trials" | head -1)
r="$T/s/trials/$d/results.json"
[ "$(json_get "$r" configs.#)" -eq 6 ] || fail "$d: configurations $(json_get "$r" configs.#)"
[ "$(json_get "$r" configs.1.collective)" = allreduce ] || fail "$d: configs.1.collective"
[ "$(json_get "$r" configs.5.collective)" = broadcast ] || fail "$d: configs.5.collective"
[ "$(grep -c ',out-of-place,' "$T/s/trials/$d/results.csv")" -eq $((2 * 4 + 2 * 3)) ] ||
    fail "$d rows: $(cat "$T/s/trials/$d/results.csv")"
# A resume of the finished tune runs nothing and decides the same.
cp "$T/s/report.json" "$T/first.json"
timeout 120 "$CT" tune --space "$T/two.ini" --out "$T/s" "$@" --launches 2 --resume \
    -- -b 64K -e 128K -f 2 --size-budget 0.05 >"$T/out" 2>"$T/err" || fail "resume: $(cat "$T/err")"
[ "$(json_get "$T/s/report.json" trials_run)" -eq 0 ] || fail "resume ran trials"
[ "$(json_get "$T/s/report.json" choices)" = "$(json_get "$T/first.json" choices)" ] ||
    fail "resume decided otherwise"

# 2. broadcast's run-time variable MPI_T cannot write: the shared launch
# fails, allreduce shares a launch of its own, broadcast one per launch.
cat >>"$T/two.ini" <<EOS

[var coll_tuned_bcast_algorithm_count]
scope = broadcast
values = 1
apply = runtime
EOS
sed -i 's/^values = 1, 6$/values = 6/' "$T/two.ini"
timeout 120 "$CT" tune --space "$T/two.ini" --out "$T/f" "$@" --launches 1 \
    -- -b 64K -e 64K --size-budget 0.05 >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] || fail "failing shared launch: exit $rc ($(cat "$T/err"))"
grep -q 'shared launch shared-.*failed.*a launch per scope' "$T/err" || fail "no fallback: $(cat "$T/err")"
grep -q 'shared launch broadcast-.*failed.*one per launch' "$T/err" ||
    fail "no broadcast fallback: $(cat "$T/err")"
j="$T/f/journal.jsonl"
[ "$(grep -c '"status": *"ok"' "$j")" -eq "$(wc -l <"$j")" ] || fail "fallback trials: $(cat "$j")"
[ "$(grep '"scope": *"allreduce"' "$j" | field group | grep -c '^allreduce-')" -eq 4 ] ||
    fail "allreduce did not share its own launch: $(cat "$j")"
[ "$(grep '"scope": *"broadcast"' "$j" | grep -c '"group"')" -eq 0 ] ||
    fail "broadcast did not run one per launch: $(cat "$j")"
exit 0
