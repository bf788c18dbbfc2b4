#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune tune over the nccl backend, in-process: NCCL_ALGO is a run-time
# variable (NCCL reads it at every ncclCommInitRank), so one launch
# measures every value side by side (collbench --config, the nccl
# backend's environment per communicator).
#
# There is no GPU here: libnccl is the test double tests/nccl/fake_nccl_mpi.c
# (NCCL's API over MPI on host memory), standing in for NCCL.  A
# communicator whose NCCL_ALGO was "tree" at its init sleeps 20 ms in every
# call (FAKE_NCCL_SLOW_ALGO), so the search must see tree slow and never
# choose it, and the double's init log shows each value reached its own
# communicator.  What real NCCL does with these values needs a GPU.
. "$top_srcdir/tests/mpi/lib.sh"
unset COLLTUNE_NCCL_LIB COLLTUNE_CUDART_LIB STUB_CUDA_DEVICES CUDA_VISIBLE_DEVICES \
    NCCL_ALGO NCCL_PROTO NCCL_TUNER_CONFIG_FILE NCCL_CONF_FILE

ct_colltune_test
ct_build_fake_nccl

mkdir -p "$T/tmp"
timeout 200 "$CT" tune --space "$top_srcdir/tests/mpi/tune_nccl_algo.ini" --out "$T/t" --np 2 --launcher-arg --oversubscribe \
    --launcher-arg --bind-to --launcher-arg none --launcher-arg --mca \
    --launcher-arg orte_tmpdir_base --launcher-arg "$T/tmp" --mca mpi_yield_when_idle=1 \
    --env STUB_CUDA_DEVICES=2 --env FAKE_NCCL_SLOW_ALGO=tree --env FAKE_NCCL_SLOW_US=20000 \
    --env "FAKE_NCCL_INIT_LOG=$T/init.log" --collectives allreduce --strategy exhaustive \
    --verify-pairs 0 --timeout 60 -- --backend nccl --nccl-lib "$T/libnccl-fake.so" \
    --cudart-lib "$T/libcudart-stub.so" -b 1K -e 2K -f 2 -w 1 >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] || fail "tune: exit $rc ($(cat "$T/err"))"
# 3 configurations (defaults, ring, tree) x 3 launches, in 3 shared launches.
[ "$(wc -l <"$T/t/journal.jsonl")" -eq 9 ] || fail "journal: $(cat "$T/t/journal.jsonl")"
[ "$(grep -c '"status": *"ok"' "$T/t/journal.jsonl")" -eq 9 ] || fail "not all ok"
[ "$(sed -n 's/.*"group": *"\([^"]*\)".*/\1/p' "$T/t/journal.jsonl" | sort -u | wc -l)" -eq 3 ] ||
    fail "want 3 shared launches: $(cat "$T/t/journal.jsonl")"
[ "$(json_get "$T/t/report.json" launches_shared)" -eq 3 ] || fail "launches_shared"
# Each value reached a communicator of its own, in every launch.
[ "$(grep -c 'NCCL_ALGO=tree' "$T/init.log.0")" -ge 3 ] || fail "init log: $(cat "$T/init.log.0")"
[ "$(grep -c 'NCCL_ALGO=ring' "$T/init.log.0")" -ge 3 ] || fail "init log: $(cat "$T/init.log.0")"
# tree is 20 ms a call: slower than the defaults in every cell, never chosen.
grep -q 'NCCL_ALGO=tree' "$T/t/report.json" && fail "tree chosen: $(cat "$T/t/report.md")"
key=$(grep '"NCCL_ALGO": *{"value": *"tree"' "$T/t/journal.jsonl" | head -1 |
    sed 's/.*"key": *"\([0-9a-f]*\)".*/\1/')
[ -n "$key" ] || fail "no tree trial"
awk -v k="$key" 'index($0, k) && /"median_us"/ { n++ } END { exit !(n > 0) }' "$T/t/journal.jsonl" ||
    fail "no rows for tree"
slow=$(grep "\"key\": *\"$key\"" "$T/t/journal.jsonl" | grep -o '"median_us": *[0-9.]*' |
    awk -F: '{ v = $2 + 0; if (v < 15000) low++ } END { print low + 0 }')
[ "$slow" -eq 0 ] || fail "tree rows below 15 ms: $slow"
exit 0
