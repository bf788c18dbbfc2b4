#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# --config: several MPI_T configurations in one launch, each on its own
# communicator, interleaved size by size and tagged by config_id.  Open MPI
# 4.1's coll/tuned honours a forced algorithm only with dynamic rules on,
# a launch setting; the algorithm, segment size and fan-outs are then
# writable through MPI_T at run time.
. "$top_srcdir/tests/mpi/lib.sh"

DYN="--mca coll_tuned_use_dynamic_rules 1"

# (a) three configurations: the start-up values, a pipeline of 1 KiB
# segments (algorithm 3), and scatter+allgather (6).
CT_MPIRUN_ARGS=$DYN ct_mpirun 2 -C broadcast -b 1M -e 1M \
    --config coll_tuned_bcast_algorithm=3,coll_tuned_bcast_algorithm_segmentsize=1024 \
    --config coll_tuned_bcast_algorithm=6 --csv "$T/a.csv" --json "$T/a.json" \
    >"$T/a.out" 2>"$T/a.err" || fail "(a) exit $? ($(cat "$T/a.err"))"
check_table "$T/a.out"
[ "$(grep -c '^# Configuration ' "$T/a.out")" -eq 3 ] || fail "(a) three configuration lines"
grep -q '^# Configuration 1: coll_tuned_bcast_algorithm=3,coll_tuned_bcast_algorithm_segmentsize=1024$' \
    "$T/a.out" || fail "(a) configuration 1's line"
[ "$(awk 'NR > 1' "$T/a.csv" | wc -l)" -eq 6 ] || fail "(a) six CSV rows"
# The rows come in configuration order, two placements each; the ids differ.
ids=$(awk -F, 'NR > 1 && NR % 2 == 0 { print $22 }' "$T/a.csv")
[ "$(printf '%s\n' "$ids" | sort -u | wc -l)" -eq 3 ] || fail "(a) config ids not distinct: $ids"
id0=$(printf '%s\n' "$ids" | sed -n 1p)
[ "$id0" = "$(json_get "$T/a.json" config_id)" ] || fail "(a) configuration 0 is not the run's id"
for k in 0 1 2; do
    [ "$(json_get "$T/a.json" configs.$k.index)" = $k ] || fail "(a) configs.$k.index"
    [ "$(json_get "$T/a.json" configs.$k.config_id)" = "$(printf '%s\n' "$ids" | sed -n $((k + 1))p)" ] ||
        fail "(a) configs.$k.config_id is not its rows'"
done
[ "$(json_get "$T/a.json" configs.1.cvars.coll_tuned_bcast_algorithm.value)" = 3 ] ||
    fail "(a) configs.1 algorithm"
[ "$(json_get "$T/a.json" configs.1.cvars.coll_tuned_bcast_algorithm_segmentsize.value)" = 1024 ] ||
    fail "(a) configs.1 segment size"
[ "$(json_get "$T/a.json" configs.1.settings.coll_tuned_bcast_algorithm)" = 3 ] ||
    fail "(a) configs.1 settings"
[ "$(json_get "$T/a.json" configs.2.cvars.coll_tuned_bcast_algorithm.value)" = 6 ] ||
    fail "(a) configs.2 algorithm"
# Configuration 2 names no segment size: its own is the start-up one.
[ "$(json_get "$T/a.json" configs.2.cvars.coll_tuned_bcast_algorithm_segmentsize.value)" = \
    "$(json_get "$T/a.json" configs.0.cvars.coll_tuned_bcast_algorithm_segmentsize.value)" ] ||
    fail "(a) configs.2 segment size is not the start-up one"
# The collective really ran on each configuration's communicator: 1 KiB
# segments of a 1 MiB broadcast cost 20-80 times scatter+allgather here.
pipe=$(awk -F, 'NR == 4 { print $14 }' "$T/a.csv")
scag=$(awk -F, 'NR == 6 { print $14 }' "$T/a.csv")
echo "medians (out-of-place): config 1 $pipe us, config 2 $scag us"
awk -v p="$pipe" -v s="$scag" 'BEGIN { exit p >= 5 * s ? 0 : 1 }' ||
    fail "(a) the 1 KiB pipeline ($pipe us) is not 5x scatter+allgather ($scag us)"

# (b) a launch setting is refused before anything runs: exit 2 on every
# rank, the scope named, no row written.
CT_MPIRUN_ARGS=$DYN ct_mpirun 2 -C broadcast -b 8 -e 8 --csv "$T/b.csv" \
    --config coll_tuned_use_dynamic_rules=0 >"$T/b.out" 2>"$T/b.err"
rc=$?
[ $rc -eq 2 ] || fail "(b) exit $rc, want 2"
grep -q 'collbench: error: --config coll_tuned_use_dynamic_rules=0: MPI_T scope readonly: a launch setting' \
    "$T/b.err" || fail "(b) message: $(cat "$T/b.err")"
[ ! -s "$T/b.csv" ] || fail "(b) a CSV row was written"
grep -q '^# Collective test starting' "$T/b.out" && fail "(b) something was measured"

# (c) a name the library does not have.
CT_MPIRUN_ARGS=$DYN ct_mpirun 2 -C broadcast -b 8 -e 8 \
    --config coll_tuned_bcast_algorithm=6 --config coll_tuned_no_such_thing=1 \
    >"$T/c.out" 2>"$T/c.err"
rc=$?
[ $rc -eq 2 ] || fail "(c) exit $rc, want 2"
grep -q 'coll_tuned_no_such_thing=1: the MPI library has no such control variable' "$T/c.err" ||
    fail "(c) message: $(cat "$T/c.err")"

# A variable that is not an integer is refused too (opal_signal: a string,
# not readonly).
CT_MPIRUN_ARGS=$DYN ct_mpirun 2 -C broadcast -b 8 -e 8 --config opal_signal=6 \
    >"$T/c2.out" 2>"$T/c2.err"
rc=$?
[ $rc -eq 2 ] || fail "(c) string variable: exit $rc, want 2"
grep -q 'opal_signal=6: MPI_T type string: collbench writes integer variables only' \
    "$T/c2.err" || fail "(c) string variable: $(cat "$T/c2.err")"

# (d) without dynamic rules the algorithm is still writable (MPI_T scope
# all), but coll/tuned ignores it: collbench runs and says so.
ct_mpirun 2 -C broadcast -b 8 -e 8 --config coll_tuned_bcast_algorithm=6 \
    >"$T/d.out" 2>"$T/d.err" || fail "(d) exit $? ($(cat "$T/d.err"))"
grep -q 'collbench: note: --config sets coll_tuned_bcast_algorithm, but coll_tuned_use_dynamic_rules is false' \
    "$T/d.err" || fail "(d) no note: $(cat "$T/d.err")"
check_table "$T/d.out"
# With dynamic rules on, no such note.
CT_MPIRUN_ARGS=$DYN ct_mpirun 2 -C broadcast -b 8 -e 8 --config coll_tuned_bcast_algorithm=6 \
    >/dev/null 2>"$T/e.err" || fail "(e) exit $?"
grep -q 'coll_tuned_use_dynamic_rules is false' "$T/e.err" && fail "(e) a note with dynamic rules on"

# (f) --config-for: configurations of two collectives in one launch, each
# measured on its own collective alone.  Configuration 1 is broadcast's
# 1 KiB pipeline (slow at 1 MiB), 2 allreduce's ring; 0 runs for both.
CT_MPIRUN_ARGS=$DYN ct_mpirun 2 -C broadcast,allreduce -b 1M -e 1M \
    --config-for broadcast:coll_tuned_bcast_algorithm=3,coll_tuned_bcast_algorithm_segmentsize=1024 \
    --config-for allreduce:coll_tuned_allreduce_algorithm=4 --csv "$T/f.csv" --json "$T/f.json" \
    >"$T/f.out" 2>"$T/f.err" || fail "(f) exit $? ($(cat "$T/f.err"))"
check_table "$T/f.out"
grep -q '^# Configuration 1: broadcast:coll_tuned_bcast_algorithm=3,' "$T/f.out" ||
    fail "(f) configuration 1's line"
id1=$(json_get "$T/f.json" configs.1.config_id)
id2=$(json_get "$T/f.json" configs.2.config_id)
id0=$(json_get "$T/f.json" configs.0.config_id)
[ "$(json_get "$T/f.json" configs.1.collective)" = broadcast ] || fail "(f) configs.1.collective"
[ "$(json_get "$T/f.json" configs.2.collective)" = allreduce ] || fail "(f) configs.2.collective"
[ "$(json_get "$T/f.json" configs.0.collective)" = null ] || fail "(f) configs.0.collective"
# collective,config_id per row: 0 on both, 1 on broadcast alone, 2 on
# allreduce alone, two placements each.
rows=$(awk -F, 'NR > 1 { print $4 "," $22 }' "$T/f.csv" | sort | uniq -c | awk '{ print $1 " " $2 }' | sort)
want=$(printf '2 broadcast,%s\n2 broadcast,%s\n2 allreduce,%s\n2 allreduce,%s\n' \
    "$id0" "$id1" "$id0" "$id2" | sort)
[ "$rows" = "$want" ] || fail "(f) rows per collective and configuration: $rows (want $want)"
# Configuration 1's settings acted on broadcast and not on configuration 0's.
pipe=$(awk -F, -v id="$id1" '$22 == id && $5 == "out-of-place" { print $14 }' "$T/f.csv")
base=$(awk -F, -v id="$id0" '$4 == "broadcast" && $22 == id && $5 == "out-of-place" { print $14 }' "$T/f.csv")
echo "broadcast medians (out-of-place): defaults $base us, 1 KiB pipeline $pipe us"
awk -v p="$pipe" -v b="$base" 'BEGIN { exit p >= 5 * b ? 0 : 1 }' ||
    fail "(f) the 1 KiB pipeline ($pipe us) is not 5x the defaults ($base us)"
exit 0
