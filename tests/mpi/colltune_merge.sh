#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# colltune merge of Open MPI tunes at 2 and 4 ranks, read by the real Open
# MPI (4.1) at np 2, 3 and 4.  The tunes are report.json files built by
# hand (tests/unit/colltune_merge_lib.sh: merge reads a tune's choices, not
# its files), each forcing allreduce algorithm 99 for every size at its own
# shape: an id 4.1 refuses (MPI_ERR_ARG, coll_tuned_allreduce_decision.c),
# so a run shows whether coll/tuned took the rule.  The merge writes one
# coll-tuned-rules.conf with a comm size 2 and a comm size 4 section (the
# emitters' blocks per shape, not mca-params.conf's forced algorithm,
# which would hold at every size) and Open MPI's own decision between:
# np 2 and np 4 fail, np 3 runs.  The control: 2's rules alone, as the
# tune at 2 ranks writes them, hold at 3 as well (4.1 applies a section
# upward), so np 3 running is the merge's hand-back, not chance.
# (The same merge's refusals and hostile inputs: tests/unit/colltune_merge_inputs.sh.)
. "$top_srcdir/tests/mpi/lib.sh"
. "$top_srcdir/tests/unit/colltune_merge_lib.sh"

ct_colltune_test
T=$(cd -P "$T" && pwd)
AR=coll_tuned_allreduce_algorithm

mkreport "$T/a2" 2 1 "$(ch $AR 99 mca allreduce 0 -1 1 2)"
mkreport "$T/a4" 4 1 "$(ch $AR 99 mca allreduce 0 -1 1 4)"
"$CT" merge --out "$T/am" "$T/a2" "$T/a4" >"$T/out" 2>"$T/err" || fail "merge 2+4: $(cat "$T/err")"
r="$T/am/coll-tuned-rules.conf"
[ -f "$r" ] || fail "no rules file: $(cat "$T/out")"
[ "$(grep -c '^[24] [0-9]* # comm size, rules' "$r")" = 2 ] || fail "not sections at 2 and 4: $(cat "$r")"
! grep -q "^$AR" "$T/am/mca-params.conf" || fail "the algorithm forced in mca-params.conf: $(cat "$T/am/mca-params.conf")"
for c in 2:99 3:0 4:99 5:0 1:0; do
    [ "$(rule "$r" 2 "${c%:*}" 1024)" = "${c#*:}" ] || fail "comm size ${c%:*}: not ${c#*:}: $(cat "$r")"
done

run() { # NP RULES: collbench's allreduce with the rules file
    CT_MPIRUN_ARGS="--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename $2" \
        ct_mpirun "$1" -C allreduce -b 1K -e 1K -n 2 -w 1 >"$T/run.out" 2>&1
}
for np in 2 4; do
    run $np "$r" && fail "np=$np: coll/tuned did not take comm size $np's rule"
    grep -q MPI_ERR_ARG "$T/run.out" || fail "np=$np failed otherwise: $(tail -5 "$T/run.out")"
done
run 3 "$r" || fail "np=3: a rule of 2 or 4 ranks applied at 3: $(tail -5 "$T/run.out")"
# The control: a rules file with comm size 2's section alone.
printf '%s\n' '1 # collectives' '2 # allreduce' '1 # comm sizes' '2 1 # comm size, rules' '0 99 0 0' \
    >"$T/rules2"
run 3 "$T/rules2" && fail "np=3 ran with 2's rules alone: the check cannot tell"
echo PASS
