#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Do no harm on the NCCL backend, against the NCCL test double
# (tests/nccl/fake_nccl_mpi.c), which follows NCCL 2.28's rules: NCCL_ALGO
# =tree leaves broadcast no algorithm (ncclInvalidUsage, "no
# algorithm/protocol available for function Broadcast ..."), as a real
# NCCL 2.28 did on an H200 (../shared/DESIGN.md).  The double's Ring is made
# slow (FAKE_NCCL_SLOW_ALGO=ring: a planted timing, not NCCL's), so Tree
# is the faster allreduce.
#
# A tune over plain `NCCL_ALGO = ring, tree` (a global variable) for
# allreduce and broadcast must:
#   - choose tree for allreduce, over the measured span only, and report
#     broadcast's refusal under tree instead of dropping tree everywhere;
#   - write no bare NCCL_ALGO (a global tree would kill every broadcast);
#   - verify with every collective, int8 and bfloat16 included, and write
#     files with which all five collectives run (every emitted nccl.env
#     sourced, the plugin's rules loaded), in every datatype checked.
# --extend-ranges makes the choice cover every size: then it goes to
# nccl.env as NCCL's per-collective list, which is sourced the same way.
. "$top_srcdir/tests/mpi/lib.sh"
unset COLLTUNE_NCCL_LIB COLLTUNE_CUDART_LIB STUB_CUDA_DEVICES CUDA_VISIBLE_DEVICES \
    NCCL_ALGO NCCL_PROTO NCCL_TUNER_CONFIG_FILE NCCL_TUNER_PLUGIN NCCL_CONF_FILE

ct_colltune_test
ct_build_fake_nccl
plugin="$top_builddir/tuner/plugin/.libs/libnccl-tuner-colltune.so"
[ -f "$plugin" ] || fail "plugin not built: $plugin"
mkdir -p "$T/tmp"
nccl="--backend nccl --nccl-lib $T/libnccl-fake.so --cudart-lib $T/libcudart-stub.so"
tune() { # OUT EXTRA...
    out=$1
    shift
    # shellcheck disable=SC2086
    timeout 400 "$CT" tune --space "$top_srcdir/tests/mpi/tune_nccl_algo.ini" --out "$out" --np 2 --launcher-arg --oversubscribe \
        --launcher-arg --bind-to --launcher-arg none --launcher-arg --mca \
        --launcher-arg orte_tmpdir_base --launcher-arg "$T/tmp" --mca mpi_yield_when_idle=1 \
        --env STUB_CUDA_DEVICES=2 --env FAKE_NCCL_SLOW_ALGO=ring --env FAKE_NCCL_SLOW_US=300 \
        --env "NCCL_TUNER_PLUGIN=$plugin" --collectives allreduce,broadcast --strategy exhaustive \
        --timeout 120 "$@" -- $nccl -b 16K -e 64K -f 4 -w 1 --size-budget 0.01 >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq 0 ] || fail "tune $out: exit $rc ($(cat "$T/err"))"
}
# Every collective, float, int8 and bfloat16, with DIR's files as a job
# would have them: nccl.env sourced, nccl_tuner.conf through the plugin.
run_with() { # DIR
    rm -f "$T/files.csv"
    (
        [ -f "$1/nccl.env" ] && . "$1/nccl.env"
        [ -f "$1/nccl_tuner.conf" ] && export NCCL_TUNER_PLUGIN="$plugin" \
            NCCL_TUNER_CONFIG_FILE="$1/nccl_tuner.conf"
        xs="-x STUB_CUDA_DEVICES=2"
        for v in NCCL_ALGO NCCL_PROTO NCCL_TUNER_PLUGIN NCCL_TUNER_CONFIG_FILE; do
            eval "[ -n \"\${$v+set}\" ]" && xs="$xs -x $v"
        done
        # shellcheck disable=SC2086
        CT_MPIRUN_ARGS="$xs" ct_mpirun 2 $nccl -C all -b 8 -e 256K -f 8 -d float,int8,bfloat16 \
            --quiet --no-table --csv "$T/files.csv"
    ) >"$T/files.out" 2>&1 || fail "$1: -C all with the written files: exit $? ($(cat "$T/files.out"))"
    # 5 collectives x 3 datatypes, each with rows.
    awk -F, 'NR > 1 { n[$4 " " $6]++ } END { exit !(length(n) == 15) }' "$T/files.csv" ||
        fail "$1: not every collective ran in every datatype: $(cut -d, -f4,6 "$T/files.csv" | sort -u)"
}

tune "$T/t"
r="$T/t/report.json"
md="$T/t/report.md"
[ "$(json_get "$r" verified)" = true ] || fail "no verification: $(cat "$md")"
# broadcast under tree: refused and reported, not a crash that excludes tree.
[ "$(json_get "$r" refused.#)" -ge 1 ] || fail "no refusal reported: $(cat "$md")"
[ "$(json_get "$r" refused.0.collective)" = broadcast ] || fail "refused: $(json_get "$r" refused.0.collective)"
json_get "$r" refused.0.reason | grep -q 'no algorithm/protocol available for function Broadcast' ||
    fail "refusal reason: $(json_get "$r" refused.0.reason)"
grep -q '^## refused' "$md" || fail "report.md has no refused section"
[ "$(json_get "$r" trials_failed)" -eq 0 ] || fail "trials failed: $(cat "$md")"
# tree for allreduce, its measured span, verified and written.
[ "$(json_get "$r" choices.#)" -eq 1 ] || fail "want one choice: $(cat "$md")"
[ "$(json_get "$r" choices.0.scope)" = allreduce ] || fail "choice scope $(json_get "$r" choices.0.scope)"
[ "$(json_get "$r" choices.0.value)" = tree ] || fail "choice $(json_get "$r" choices.0.value)"
[ "$(json_get "$r" choices.0.min_bytes)" -eq 16384 ] || fail "range from $(json_get "$r" choices.0.min_bytes)"
[ "$(json_get "$r" choices.0.max_bytes)" -eq 65536 ] || fail "range to $(json_get "$r" choices.0.max_bytes)"
[ "$(json_get "$r" choices.0.written)" = true ] || fail "tree not written: $(cat "$md")"
# The A/B ran every collective and the framework datatypes.
[ "$(json_get "$r" verification.no_harm.datatype_sizes)" != null ] || fail "no datatype launches"
for c in allreduce allgather alltoall broadcast reduce_scatter; do
    grep -q "^| $c | float |" "$md" || fail "$c not in the no-harm table"
done
grep -q '^| broadcast | int8 |' "$md" || fail "int8 broadcast not checked"
grep -q '^| allreduce | bfloat16 |' "$md" || fail "bfloat16 allreduce not checked"
grep -q '"scope": *"verify-dtypes"' "$T/t/journal.jsonl" || fail "no verify-dtypes trials"
# The span goes to the plugin's rules; no bare NCCL_ALGO anywhere.
grep -q '^allreduce,16384,65536,tree,-1,' "$T/t/nccl_tuner.conf" ||
    fail "nccl_tuner.conf: $(cat "$T/t/nccl_tuner.conf")"
for f in nccl.env nccl.conf; do
    [ -e "$T/t/$f" ] && grep -Eq "NCCL_ALGO=['\"]?tree" "$T/t/$f" && fail "$f sets a bare NCCL_ALGO=tree"
done
run_with "$T/t"

# Every size (--extend-ranges): NCCL's per-collective list in nccl.env.
# The same search, resumed from a copy of the first tune's journal and
# trials only, no files (the search's trials are not run again; the A/B
# of the new files is).
mkdir "$T/x"
cp -R "$T/t/journal.head.json" "$T/t/journal.jsonl" "$T/t/trials" "$T/x/"
tune "$T/x" --extend-ranges --resume
r="$T/x/report.json"
[ "$(json_get "$r" choices.0.written)" = true ] || fail "extend: not written: $(cat "$T/x/report.md")"
grep -q "^export NCCL_ALGO='AllReduce:tree'$" "$T/x/nccl.env" || fail "nccl.env: $(cat "$T/x/nccl.env")"
run_with "$T/x"
exit 0
