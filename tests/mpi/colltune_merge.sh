#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# colltune merge: tunes made at different comm sizes joined into one set of
# files, each tune's rules held at its own size only.
#  1. Two tune directories built by hand (as colltune_install.sh does, from
#     the emitters' golden output and a report.json) at 4 and 8 ranks,
#     merged: the rules file has 1 (hand-back), 4, 5 (hand-back), 8, 9
#     (hand-back) for each collective, and Open MPI 4.1's choice of comm
#     size (the last entry not above the communicator's, the first when all
#     are above; emulated here) gives each tune's rules at its size and
#     Open MPI's own decision elsewhere; nccl_tuner.conf keeps each tune's
#     nNodes,nRanks; mca-params.conf names the merged rules once; the files
#     no shape keys are kept once; colltune install takes the result.
#  2. Refusals, exit 2, nothing written: two tunes at one comm size with
#     different rules, a file no shape keys that differs, an unverified
#     tune, one TUNE_DIR.  The same rules twice are kept once.
#  3. The real Open MPI at np=2 and np=3: a merge of tunes at 2 and 4 ranks
#     whose allreduce rule is an algorithm id 4.1 refuses (99: MPI_ERR_ARG,
#     coll_tuned_allreduce_decision.c), so a run shows whether coll/tuned
#     took the rule: np=2 fails, np=3 (the hand-back at 3) runs.  Without
#     the hand-back np=3 fails too: 4.1 would apply 2's rules upward.
. "$top_srcdir/tests/mpi/lib.sh"

ct_colltune_test
T=$(cd -P "$T" && pwd)
g="$top_srcdir/tests/unit/emit_golden/full"

# mktune DIR NRANKS NNODES: the golden files, moved from 16 ranks on 2
# nodes to NRANKS on NNODES; allreduce's rule at 8 KiB is algorithm
# NRANKS/4+3, so each size's rules differ.
mktune() {
    mkdir -p "$1"
    alg=$(($2 / 4 + 3))
    for f in "$g"/*; do
        sed -e "s|@DIR@|$1|g" -e "s/^16 \([0-9]*\) # comm size/$2 \1 # comm size/" \
            -e "s/^17 1 # comm sizes 17/$(($2 + 1)) 1 # comm sizes $(($2 + 1))/" \
            -e "s/^8192 4 0 0\$/8192 $alg 0 0/" -e "s/,2,16\$/,$3,$2/" \
            -e "s/\"comm_size_m\(in\|ax\)\": 16/\"comm_size_m\1\": $2/" "$f" >"$1/$(basename "$f")"
    done
    printf '{"verified": true, "run_id": "run-%s", "nranks": %s, "nnodes": %s, "choices": [%s]}\n' \
        "$2" "$2" "$3" '{"name": "coll_tuned_allreduce_algorithm", "value": "4", "written": true}' \
        >"$1/report.json"
}
mktune "$T/t4" 4 1
mktune "$T/t8" 8 2
grep -q '^4 4 # comm size' "$T/t4/coll-tuned-rules.conf" && grep -q '^8192 5 0 0' "$T/t8/coll-tuned-rules.conf" ||
    fail "mktune's sed did nothing: the test cannot tell"

# rule FILE COLL_ID COMM MSGSIZE: the algorithm 4.1 picks (its reader's
# choice of comm size, then the last rule not above the size).
rule() {
    awk -v want="$2" -v comm="$3" -v msg="$4" '
        { sub(/#.*/, ""); for (i = 1; i <= NF; i++) tok[n++] = $i }
        END {
            p = 0; ncoll = tok[p++]
            for (c = 0; c < ncoll; c++) {
                id = tok[p++]; ncs = tok[p++]; best = -1
                for (s = 0; s < ncs; s++) {
                    cs = tok[p++]; nr = tok[p++]
                    if (s == 0 || cs <= comm + 0) { best = s; bp = p; bn = nr }
                    p += 4 * nr
                }
                if (id == want) {
                    alg = -1
                    for (k = 0; k < bn; k++)
                        if (tok[bp + 4 * k] <= msg + 0) alg = tok[bp + 4 * k + 1]
                    print alg; exit
                }
            }
            print "none"
        }' "$1"
}

# 1. Merged.
"$CT" merge --out "$T/m" "$T/t8" "$T/t4" >"$T/out" 2>"$T/err" || fail "merge: exit $? ($(cat "$T/err"))"
r="$T/m/coll-tuned-rules.conf"
for f in coll-tuned-rules.conf coll-tuned-rules.json mca-params.conf ucx.conf nccl.conf nccl.env \
    nccl_tuner.conf report.json; do
    [ -f "$T/m/$f" ] || fail "merge: no $f"
done
sizes=$(sed -n 's/^\([0-9]*\) [0-9]* # comm size.*/\1/p' "$r" | tr '\n' ' ')
[ "$sizes" = "1 4 5 8 9 1 4 5 8 9 1 4 5 8 9 " ] || fail "comm sizes: $sizes"
grep -q '^3 # collectives' "$r" || fail "collective count"
for c in 2:8192:4:4 2:8192:8:5 2:8192:2:0 2:8192:5:0 2:8192:7:0 2:8192:9:0 2:8192:64:0 \
    2:0:4:3 2:0:8:3 7:65536:4:2 7:65536:6:0 13:0:8:3 13:0:16:0; do
    id=${c%%:*} rest=${c#*:} msg=${rest%%:*} rest=${rest#*:} comm=${rest%%:*} want=${rest#*:}
    got=$(rule "$r" "$id" "$comm" "$msg")
    [ "$got" = "$want" ] || fail "collective $id at comm size $comm, $msg bytes: algorithm $got, want $want"
done
grep -q "^#   $T/t4 (run run-4, 4 ranks on 1 node)" "$r" && grep -q "^#   $T/t8 (run run-8, 8 ranks on 2 nodes)" "$r" ||
    fail "the header does not name the tunes: $(head -5 "$r")"
[ "$(grep -c ',1,4$' "$T/m/nccl_tuner.conf")" -eq 4 ] && [ "$(grep -c ',2,8$' "$T/m/nccl_tuner.conf")" -eq 4 ] ||
    fail "nccl_tuner.conf: $(cat "$T/m/nccl_tuner.conf")"
[ "$(grep -c '"comm_size_max": 4,' "$T/m/coll-tuned-rules.json")" -eq 3 ] &&
    [ "$(grep -c '"comm_size_min": 8,' "$T/m/coll-tuned-rules.json")" -eq 3 ] || fail "rules JSON comm sizes"
[ "$(grep -c '^coll_tuned_dynamic_rules_filename = ' "$T/m/mca-params.conf")" -eq 1 ] &&
    grep -q "^coll_tuned_dynamic_rules_filename = $T/m/coll-tuned-rules.conf\$" "$T/m/mca-params.conf" &&
    [ "$(grep -c '^coll_tuned_use_dynamic_rules = 1$' "$T/m/mca-params.conf")" -eq 1 ] &&
    [ "$(grep -c '^btl_vader_eager_limit = ' "$T/m/mca-params.conf")" -le 1 ] ||
    fail "mca-params.conf: $(cat "$T/m/mca-params.conf")"
grep -v '^#' "$g/ucx.conf" | grep -v '^$' >"$T/want"
grep -v '^#' "$T/m/ucx.conf" | grep -v '^$' >"$T/got"
cmp -s "$T/want" "$T/got" || fail "ucx.conf not kept once: $(cat "$T/got")"
grep -q 'not keyed by shape' "$T/m/nccl.env" || fail "nccl.env's header does not say it is not keyed"
[ "$(json_get "$T/m/report.json" verified)" = true ] && [ "$(json_get "$T/m/report.json" choices.#)" = 2 ] ||
    fail "report.json: $(cat "$T/m/report.json")"
"$CT" install "$T/m" --to "$T/site" >/dev/null 2>"$T/err" || fail "install of the merge: $(cat "$T/err")"
grep -q "^coll_tuned_dynamic_rules_filename = $T/site/coll-tuned-rules.conf\$" "$T/site/mca-params.conf" ||
    fail "install did not rewrite the merged rules path"

# The same tune twice (another directory): the same rules, kept once.
cp -r "$T/t4" "$T/t4b"
"$CT" merge --out "$T/m2" "$T/t4" "$T/t4b" "$T/t8" >/dev/null 2>"$T/err" || fail "same rules twice: $(cat "$T/err")"
[ "$(sed -n 's/^\([0-9]*\) [0-9]* # comm size.*/\1/p' "$T/m2/coll-tuned-rules.conf" | tr '\n' ' ')" = "$sizes" ] ||
    fail "same rules twice: comm sizes $(grep '# comm size' "$T/m2/coll-tuned-rules.conf")"

# 2. Refusals.
refused() { # WHAT PATTERN ARGS...: exit 2, PATTERN on stderr, nothing written
    what=$1 pat=$2
    shift 2
    rm -rf "$T/new"
    "$CT" merge --out "$T/new" "$@" >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq 2 ] || fail "$what: exit $rc, want 2 ($(cat "$T/err"))"
    grep -q -- "$pat" "$T/err" || fail "$what: $(cat "$T/err")"
    [ -z "$(ls "$T/new" 2>/dev/null)" ] || fail "$what: wrote $(ls "$T/new")"
}
mktune "$T/t4c" 4 1
sed -i 's/^8192 4 0 0$/8192 6 0 0/' "$T/t4c/coll-tuned-rules.conf"
refused "one comm size, other rules" "$T/t4 and $T/t4c both tuned allreduce at comm size 4" \
    "$T/t4" "$T/t8" "$T/t4c"
mktune "$T/t2" 2 1
echo 'UCX_TLS=tcp' >>"$T/t2/ucx.conf"
refused "ucx.conf differs" "ucx.conf differs between $T/t4 and $T/t2" "$T/t4" "$T/t2"
mktune "$T/t3" 3 1
sed -i 's/"verified": true/"verified": false/' "$T/t3/report.json"
refused "unverified" "no A/B verification" "$T/t4" "$T/t3"
refused "one tune" "two TUNE_DIRs at least" "$T/t4"
mktune "$T/t5" 5 1
sed -i 's/,1,5$/,-1,-1/' "$T/t5/nccl_tuner.conf"
refused "a tuner rule for any shape" "a rule for any shape" "$T/t4" "$T/t5"

# 3. The real Open MPI: a rule at 2 ranks is taken at 2, not at 3.
mkdir -p "$T/a2" "$T/a4"
for n in 2 4; do
    printf '%s\n' '1 # collectives' '2 # allreduce' '1 # comm sizes' "$n 1 # comm size, rules" '0 99 0 0' \
        >"$T/a$n/coll-tuned-rules.conf"
    echo "coll_tuned_use_dynamic_rules = 1" >"$T/a$n/mca-params.conf"
    printf '{"verified": true, "nranks": %s, "nnodes": 1, "choices": [%s]}\n' "$n" \
        '{"name": "coll_tuned_allreduce_algorithm", "value": "99", "written": true}' >"$T/a$n/report.json"
done
"$CT" merge --out "$T/am" "$T/a2" "$T/a4" >/dev/null 2>"$T/err" || fail "merge 2+4: $(cat "$T/err")"
run() { # NP RULES: collbench's allreduce with the rules file
    CT_MPIRUN_ARGS="--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename $2" \
        ct_mpirun "$1" -C allreduce -b 1K -e 1K -n 2 -w 1 >"$T/run.out" 2>&1
}
run 2 "$T/am/coll-tuned-rules.conf" && fail "np=2: coll/tuned did not take comm size 2's rule"
grep -q MPI_ERR_ARG "$T/run.out" || fail "np=2 failed otherwise: $(tail -5 "$T/run.out")"
run 3 "$T/am/coll-tuned-rules.conf" || fail "np=3: comm size 2's rule applied at 3: $(tail -5 "$T/run.out")"
# The control: 2's rules alone, no hand-back, hold at 3 as well.
run 3 "$T/a2/coll-tuned-rules.conf" && fail "np=3 ran with 2's rules alone: the check cannot tell"
echo PASS
