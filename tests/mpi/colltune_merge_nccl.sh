#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: alone (the tune decides from timings)
# colltune merge of NCCL tunes at 2 and 4 ranks, on the NCCL test double
# (tests/nccl/fake_nccl_mpi.c: no GPU here; its Ring planted slow at 32 KiB,
# FAKE_NCCL_SLOW_ALGO), read back through colltune's tuner plugin.  A real
# tune at np 2 chooses Tree for allreduce at 32 KiB (a plugin rule keyed
# 1,2); the tune at 4 ranks is the same report.json at 4 ranks (a real
# np 4 tune takes 40 s on these 2 cores; merge reads only the report).  The
# merge writes one nccl_tuner.conf with both rules (nNodes,nRanks 1,2 and
# 1,4), and the double, which logs the algorithm each call ran
# (FAKE_NCCL_INIT_LOG), runs Tree at np 4 with it, Ring (its own choice)
# at np 3 with it and at np 4 with the np 2 tune's file alone (the
# control: the rule at 4 is the merge's).
. "$top_srcdir/tests/mpi/lib.sh"
unset COLLTUNE_NCCL_LIB COLLTUNE_CUDART_LIB STUB_CUDA_DEVICES CUDA_VISIBLE_DEVICES \
    NCCL_ALGO NCCL_PROTO NCCL_TUNER_CONFIG_FILE NCCL_TUNER_PLUGIN NCCL_CONF_FILE NCCL_DEBUG \
    FAKE_NCCL_SLOW_ALGO FAKE_NCCL_SLOW_PROTO FAKE_NCCL_SLOW_US FAKE_NCCL_SLOW_BYTES

ct_colltune_test
ct_build_fake_nccl
T=$(cd -P "$T" && pwd)
plugin="$top_builddir/tuner/plugin/.libs/libnccl-tuner-colltune.so"
[ -f "$plugin" ] || fail "plugin not built: $plugin"
mkdir -p "$T/tmp" "$T/home"
[ -e /etc/nccl.conf ] && {
    echo "SKIP: /etc/nccl.conf exists: the site would not be this test's"
    exit 77
}
export HOME="$T/home"
nccl="--backend nccl --nccl-lib $T/libnccl-fake.so --cudart-lib $T/libcudart-stub.so"

# shellcheck disable=SC2086
timeout 120 "$CT" tune --space "$top_srcdir/tests/mpi/tune_nccl_algo.ini" --out "$T/n2" --np 2 \
    --launcher-arg --oversubscribe --launcher-arg --bind-to --launcher-arg none \
    --launcher-arg --mca --launcher-arg orte_tmpdir_base --launcher-arg "$T/tmp" \
    --mca mpi_yield_when_idle=1 --env STUB_CUDA_DEVICES=2 --env FAKE_NCCL_SLOW_ALGO=ring \
    --env FAKE_NCCL_SLOW_US=2000 --env FAKE_NCCL_SLOW_BYTES=16384:65536 \
    --env "NCCL_TUNER_PLUGIN=$plugin" --collectives allreduce --strategy exhaustive \
    --verify-pairs 5 --timeout 60 -- $nccl -b 32K -e 32K -w 1 --size-budget 0.01 \
    >"$T/tune.out" 2>&1 || fail "tune: exit $? ($(tail -5 "$T/tune.out"))"
grep -q '^allreduce,32768,32768,tree,-1,-1,1,2$' "$T/n2/nccl_tuner.conf" ||
    fail "the tune wrote no Tree rule at 1,2: $(grep '^- ' "$T/n2/report.md")"
cp -r "$T/n2" "$T/n4"
sed -i 's/"nranks": 2,/"nranks": 4,/; s/"ranks_per_node": 2,/"ranks_per_node": 4,/' "$T/n4/report.json"
[ "$(json_get "$T/n4/report.json" choices.0.nranks)" = 4 ] || fail "the report at 4 ranks"

"$CT" merge --out "$T/m" "$T/n2" "$T/n4" >"$T/out" 2>"$T/err" || fail "merge: exit $? ($(cat "$T/err"))"
[ "$(ls "$T/m")" = "$(printf '%s\n' nccl_tuner.conf report.json)" ] || fail "merged files: $(ls "$T/m")"
[ "$(grep -v '^#' "$T/m/nccl_tuner.conf" | grep -c .)" = 2 ] &&
    grep -q '^allreduce,32768,32768,tree,-1,-1,1,2$' "$T/m/nccl_tuner.conf" &&
    grep -q '^allreduce,32768,32768,tree,-1,-1,1,4$' "$T/m/nccl_tuner.conf" ||
    fail "nccl_tuner.conf: $(cat "$T/m/nccl_tuner.conf")"
[ "$(json_get "$T/m/report.json" choices.#)" = 2 ] && [ "$(json_get "$T/m/report.json" choices.1.written)" = true ] ||
    fail "report.json: $(cat "$T/m/report.json")"

ran() { # NAME NP RULES WANT: the algorithm allreduce ran at 32 KiB
    # shellcheck disable=SC2086
    CT_MPIRUN_ARGS="-x STUB_CUDA_DEVICES=$2 -x FAKE_NCCL_INIT_LOG=$T/$1.log -x NCCL_TUNER_PLUGIN=$plugin -x NCCL_TUNER_CONFIG_FILE=$3" \
        ct_mpirun "$2" $nccl -C allreduce -b 32K -e 32K -n 2 -w 1 >"$T/$1.out" 2>&1 ||
        fail "$1: exit $? ($(tail -5 "$T/$1.out"))"
    got=$(sed -n 's/^comm=0 ran \([^ =]*\)=.*/\1/p' "$T/$1.log.0")
    [ "$got" = "$4" ] || fail "$1: ran '$got', want $4: $(cat "$T/$1.log.0")"
}
ran np4 4 "$T/m/nccl_tuner.conf" AllReduce/Tree/Simple
ran np3 3 "$T/m/nccl_tuner.conf" AllReduce/Ring/Simple
ran control 4 "$T/n2/nccl_tuner.conf" AllReduce/Ring/Simple
echo PASS
