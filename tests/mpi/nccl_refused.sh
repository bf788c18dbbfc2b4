#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# A collective the library refuses costs that collective, not the run.
# NCCL 2.28 with NCCL_ALGO=tree refuses every broadcast (ncclInvalidUsage,
# "no algorithm/protocol available for function Broadcast ...") and leaves
# the communicator usable; collbench then reports the refusal once (stderr,
# a '#' line in the table, the JSON's "refused"), skips that collective's
# later sizes in that configuration only, measures the rest and exits 4.
#
# No GPU here: libnccl is the test double (tests/nccl/fake_nccl_mpi.c),
# which refuses what NCCL 2.28 refuses (tests/mpi/nccl_rules.sh).  It
# proves collbench's handling, not what real NCCL refuses.  Under --config
# NCCL_ALGO is set only around a communicator's init, so at the call NCCL
# (and the double) finds it unset, returns ncclInternalError and its
# message does not name NCCL_ALGO: still a refusal, by its message.
. "$top_srcdir/tests/mpi/lib.sh"
unset COLLTUNE_NCCL_LIB COLLTUNE_CUDART_LIB STUB_CUDA_DEVICES CUDA_VISIBLE_DEVICES \
    NCCL_ALGO NCCL_PROTO NCCL_CONF_FILE

ct_build_fake_nccl

MSG='Error : no algorithm/protocol available for function Broadcast with datatype ncclInt8. NCCL_ALGO was set to tree.'

# run NAME ARGS... : collbench --backend nccl at np 2 on the doubles;
# $rc, $T/NAME.out, .err, .csv, .json.  $EXTRA adds mpirun options.
run() {
    name=$1
    shift
    CT_MPIRUN_ARGS="-x STUB_CUDA_DEVICES=2 ${EXTRA:-}" ct_mpirun 2 --backend nccl \
        --nccl-lib "$T/libnccl-fake.so" --cudart-lib "$T/libcudart-stub.so" -T 60 \
        -C allreduce,broadcast -d int8 -b 8 -e 64 -f 8 -n 3 -w 1 --quiet \
        --csv "$T/$name.csv" --json "$T/$name.json" "$@" >"$T/$name.out" 2>"$T/$name.err"
    rc=$?
}

# rows NAME COLL : the CSV rows of COLL, "bytes placement config_id" each.
rows() {
    awk -F, -v c="$2" 'NR > 1 && $4 == c { print $11, $5, $22 }' "$T/$1.csv"
}

# (a) NCCL_ALGO=tree for the whole run: broadcast refused at its first size,
# allreduce measured; exit 4; one line on stderr; the table stays parseable.
EXTRA="-x NCCL_ALGO=tree"
run a
[ "$rc" -eq 4 ] || fail "(a) exit $rc, want 4: $(cat "$T/a.err")"
[ "$(grep -c 'refused' "$T/a.err")" -eq 1 ] || fail "(a) want one refusal line: $(cat "$T/a.err")"
grep -qxF "collbench: broadcast int8: refused at 8 B: $MSG" "$T/a.err" ||
    fail "(a) stderr: $(cat "$T/a.err")"
grep -qxF "#  broadcast int8: refused by the library: $MSG" "$T/a.out" ||
    fail "(a) no table comment: $(cat "$T/a.out")"
check_table "$T/a.out"
[ "$(rows a allreduce | wc -l)" -eq 4 ] || fail "(a) want 4 allreduce rows: $(cat "$T/a.csv")"
[ -z "$(rows a broadcast)" ] || fail "(a) broadcast rows: $(rows a broadcast)"
[ "$(json_get "$T/a.json" status)" = refused ] || fail "(a) JSON status"
[ "$(json_get "$T/a.json" refused.#)" = 1 ] || fail "(a) want one JSON refusal"
for kv in collective=broadcast dtype=int8 op=none config=null bytes=8 "message=$MSG" \
    "config_id=$(json_get "$T/a.json" config_id)"; do
    [ "$(json_get "$T/a.json" "refused.0.${kv%%=*}")" = "${kv#*=}" ] ||
        fail "(a) refused.0.${kv%%=*} is '$(json_get "$T/a.json" "refused.0.${kv%%=*}")'"
done
json_get "$T/a.json" refused.0.label >/dev/null 2>&1 && fail "(a) a label without --config"
[ "$(json_get "$T/a.json" results.#)" = 4 ] || fail "(a) want 4 JSON results"
echo "ok: (a) refused broadcast, measured allreduce, exit 4"

# (b) Refused in one configuration only: --config NCCL_ALGO=tree refuses
# configuration 1's broadcast; configuration 0's broadcast and both
# allreduces are measured at every size.
EXTRA=
run b --config NCCL_ALGO=tree
[ "$rc" -eq 4 ] || fail "(b) exit $rc, want 4: $(cat "$T/b.err")"
MSGB=${MSG% NCCL_ALGO was set to tree.}
grep -qxF "collbench: broadcast int8 (configuration 1): refused at 8 B: $MSGB" "$T/b.err" ||
    fail "(b) stderr: $(cat "$T/b.err")"
grep -qxF "#  broadcast int8 (configuration 1): refused by the library: $MSGB" "$T/b.out" ||
    fail "(b) no table comment"
check_table "$T/b.out"
id0=$(json_get "$T/b.json" configs.0.config_id)
id1=$(json_get "$T/b.json" configs.1.config_id)
[ "$(rows b allreduce | wc -l)" -eq 8 ] || fail "(b) want 8 allreduce rows"
[ "$(rows b broadcast | wc -l)" -eq 4 ] || fail "(b) want 4 broadcast rows: $(rows b broadcast)"
[ "$(rows b broadcast | awk -v id="$id0" '$3 != id')" = "" ] ||
    fail "(b) broadcast rows not all configuration 0's: $(rows b broadcast)"
for kv in config=1 "config_id=$id1" label=NCCL_ALGO=tree bytes=8 collective=broadcast; do
    [ "$(json_get "$T/b.json" "refused.0.${kv%%=*}")" = "${kv#*=}" ] ||
        fail "(b) refused.0.${kv%%=*} is '$(json_get "$T/b.json" "refused.0.${kv%%=*}")'"
done
[ "$(json_get "$T/b.json" refused.#)" = 1 ] || fail "(b) want one JSON refusal"
echo "ok: (b) refused in configuration 1 only"

# (c) Without validation (-c 0) the refusal comes in the warm-up: the same.
EXTRA="-x NCCL_ALGO=Tree"
run c -c 0
[ "$rc" -eq 4 ] || fail "(c) exit $rc, want 4: $(cat "$T/c.err")"
grep -qxF "collbench: broadcast int8: refused at 8 B: ${MSG%tree.}Tree." "$T/c.err" ||
    fail "(c) stderr: $(cat "$T/c.err")"
[ "$(rows c allreduce | wc -l)" -eq 4 ] || fail "(c) want 4 allreduce rows"
echo "ok: (c) refused in the warm-up"

# (d) Refused on one rank only: not a refusal of the library's settings but
# a failure, fatal as any other (exit 3), the refusing rank naming it.
printf '#!/bin/sh\n[ "$OMPI_COMM_WORLD_RANK" = 1 ] && export NCCL_ALGO=tree\nexec "%s" "$@"\n' \
    "$COLLBENCH" >"$T/rank1-tree"
chmod +x "$T/rank1-tree"
EXTRA=
COLLBENCH="$T/rank1-tree"
run d -C broadcast
[ "$rc" -eq 3 ] || fail "(d) exit $rc, want 3: $(cat "$T/d.err")"
grep -qxF "collbench: rank 1: refused here, not on every rank: $MSG" "$T/d.err" ||
    fail "(d) stderr: $(cat "$T/d.err")"
echo "ok: (d) a refusal on one rank is fatal"
exit 0
