#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# collbench --config with the nccl backend: several NCCL configurations in
# one launch, each an environment (NCCL_*) set around its own
# ncclCommInitRank and restored right after.
#
# There is no GPU here: libnccl is the test double tests/nccl/fake_nccl_mpi.c
# (NCCL's API over MPI on host memory), standing in for NCCL.  Like NCCL it
# reads NCCL_ALGO and NCCL_PROTO (and the tuner plugin's
# NCCL_TUNER_CONFIG_FILE) at init, once per communicator, and it makes what
# each communicator saw observable: a log line per init
# (FAKE_NCCL_INIT_LOG), and a communicator whose NCCL_ALGO was Tree sleeps
# 20 ms in every call (FAKE_NCCL_SLOW_ALGO), so the rows of the
# configuration that set it are the slow ones.  What this proves: collbench
# sets each configuration's environment on every rank before that
# configuration's init, restores the start-up one after it (set and unset
# variables alike), runs each configuration's rows on its own communicator
# and records all of it.  What it cannot prove: what real NCCL does with
# these values; that needs a GPU.
. "$top_srcdir/tests/mpi/lib.sh"
unset COLLTUNE_NCCL_LIB COLLTUNE_CUDART_LIB STUB_CUDA_DEVICES CUDA_VISIBLE_DEVICES \
    NCCL_ALGO NCCL_PROTO NCCL_TUNER_CONFIG_FILE NCCL_MIN_CTAS NCCL_CONF_FILE

ct_build_fake_nccl

# run NAME ARGS... : collbench --backend nccl at np 2 on the doubles, with
# NCCL_PROTO=Simple at start-up; $rc, $T/NAME.out, $T/NAME.err, and the
# double's log in $T/NAME.log.0 and .1.
run() {
    name=$1
    shift
    CT_MPIRUN_ARGS="-x STUB_CUDA_DEVICES=2 -x NCCL_PROTO=Simple -x FAKE_NCCL_INIT_LOG=$T/$name.log \
        -x FAKE_NCCL_SLOW_ALGO=Tree -x FAKE_NCCL_SLOW_US=20000" \
        ct_mpirun 2 --backend nccl --nccl-lib "$T/libnccl-fake.so" \
        --cudart-lib "$T/libcudart-stub.so" "$@" >"$T/$name.out" 2>"$T/$name.err"
    rc=$?
}

# (a) two configurations besides the start-up one.  Configuration 1 also
# names the tuner plugin's rules file (a path longer than the old 31
# characters), so configuration 2 must see it unset again, and NCCL_PROTO
# back at its start-up Simple.
RULES="$T/rules-of-configuration-one/nccl_tuner.conf"
run a -C allreduce -b 1K -e 2K -f 2 -n 3 -w 1 \
    --config "NCCL_ALGO=Ring,NCCL_PROTO=LL,NCCL_TUNER_CONFIG_FILE=$RULES" \
    --config NCCL_ALGO=Tree --csv "$T/a.csv" --json "$T/a.json"
[ "$rc" -eq 0 ] || fail "(a) exit $rc: $(cat "$T/a.err")"
check_table "$T/a.out"
[ "$(grep -c '^# Configuration ' "$T/a.out")" -eq 6 ] || fail "(a) six configuration lines"
for line in '# Configuration 0: start-up values' \
    "# Configuration 1: NCCL_ALGO=Ring,NCCL_PROTO=LL,NCCL_TUNER_CONFIG_FILE=$RULES" \
    '# Configuration 2: NCCL_ALGO=Tree'; do
    [ "$(grep -cxF -- "$line" "$T/a.out")" -eq 2 ] || fail "(a) want twice: $line"
done
echo "ok: (a) table lines"

# Rows: 2 sizes x 2 placements per configuration, in configuration order
# within each size; three distinct ids, 0's the run's.
[ "$(awk 'NR > 1' "$T/a.csv" | wc -l)" -eq 12 ] || fail "(a) twelve CSV rows"
ids=$(awk -F, 'NR > 1 && NR % 2 == 0 && NR <= 7 { print $22 }' "$T/a.csv")
[ "$(printf '%s\n' "$ids" | sort -u | wc -l)" -eq 3 ] || fail "(a) config ids not distinct: $ids"
id0=$(printf '%s\n' "$ids" | sed -n 1p)
id1=$(printf '%s\n' "$ids" | sed -n 2p)
id2=$(printf '%s\n' "$ids" | sed -n 3p)
[ "$id0" = "$(json_get "$T/a.json" config_id)" ] || fail "(a) configuration 0 is not the run's id"
for id in "$id0" "$id1" "$id2"; do
    n=$(awk -F, -v id="$id" 'NR > 1 && $22 == id' "$T/a.csv" | wc -l)
    [ "$n" -eq 4 ] || fail "(a) $n rows for config_id $id, want 4"
done
echo "ok: (a) rows per config_id"

# The rows of each id ran on that configuration's communicator: only the
# one whose NCCL_ALGO was Tree at its init is 20 ms a call.
slow=$(awk -F, -v id="$id2" 'NR > 1 && $22 == id && $14 < 20000' "$T/a.csv")
[ -z "$slow" ] || fail "(a) a configuration 2 row under 20 ms: $slow"
fast=$(awk -F, -v id="$id2" 'NR > 1 && $22 != id && $14 >= 20000' "$T/a.csv")
[ -z "$fast" ] || fail "(a) a configuration 0 or 1 row at 20 ms or more: $fast"
echo "ok: (a) each configuration's rows on its own communicator"

# The JSON: each configuration's settings and the environment it was
# made with, read back by collbench (null where unset).
j() { json_get "$T/a.json" "$1"; }
for k in 0 1 2; do
    [ "$(j configs.$k.index)" = $k ] || fail "(a) configs.$k.index"
done
[ "$(j configs.0.config_id)" = "$id0" ] && [ "$(j configs.1.config_id)" = "$id1" ] &&
    [ "$(j configs.2.config_id)" = "$id2" ] || fail "(a) configs.k.config_id are not their rows'"
[ "$(j configs.0.settings)" = "(object of 0)" ] || fail "(a) configs.0.settings"
[ "$(j configs.1.settings.NCCL_ALGO)" = Ring ] && [ "$(j configs.1.settings.NCCL_PROTO)" = LL ] &&
    [ "$(j configs.1.settings.NCCL_TUNER_CONFIG_FILE)" = "$RULES" ] &&
    [ "$(j configs.2.settings.NCCL_ALGO)" = Tree ] || fail "(a) settings"
for want in "0 NCCL_ALGO null" "0 NCCL_PROTO Simple" "0 NCCL_TUNER_CONFIG_FILE null" \
    "1 NCCL_ALGO Ring" "1 NCCL_PROTO LL" "1 NCCL_TUNER_CONFIG_FILE $RULES" \
    "2 NCCL_ALGO Tree" "2 NCCL_PROTO Simple" "2 NCCL_TUNER_CONFIG_FILE null"; do
    set -- $want
    [ "$(j "configs.$1.environment.$2")" = "$3" ] ||
        fail "(a) configs.$1.environment.$2 is $(j "configs.$1.environment.$2"), want $3"
done
j configs.0.cvars >/dev/null 2>&1 && fail "(a) an MPI_T record for the nccl backend"
echo "ok: (a) JSON records"

# What each rank's communicators saw at init, in the order they were made
# (the double's log), and that each ran collectives before it was
# destroyed, at the end of the run, with the start-up environment back.
# (Each configuration sets every name any configuration names, so only
# what comes after the last one shows the restore.)
for r in 0 1; do
    log="$T/a.log.$r"
    [ -s "$log" ] || fail "(a) rank $r: no log from the double"
    grep '^comm=[0-9]* NCCL' "$log" >"$T/inits.$r"
    cat >"$T/want.$r" <<EOF
comm=0 NCCL_ALGO=(unset) NCCL_PROTO=Simple NCCL_TUNER_CONFIG_FILE=(unset)
comm=1 NCCL_ALGO=Ring NCCL_PROTO=LL NCCL_TUNER_CONFIG_FILE=$RULES
comm=2 NCCL_ALGO=Tree NCCL_PROTO=Simple NCCL_TUNER_CONFIG_FILE=(unset)
EOF
    cmp -s "$T/inits.$r" "$T/want.$r" || fail "(a) rank $r's inits: $(cat "$T/inits.$r")"
    for c in 0 1 2; do
        grep -Eq "^comm=$c destroyed calls=[1-9][0-9]* NCCL_ALGO=\(unset\) NCCL_PROTO=Simple NCCL_TUNER_CONFIG_FILE=\(unset\)\$" \
            "$log" ||
            fail "(a) rank $r: comm $c not destroyed after calls: $(cat "$log")"
    done
done
echo "ok: (a) each communicator saw its own environment at init"

# (b) a name that is not NCCL's is refused before anything runs: exit 2,
# the name in the message, no row, no init.
run b -C allreduce -b 8 -e 8 --csv "$T/b.csv" --config NCCL_ALGO=Ring --config UCX_TLS=tcp
[ "$rc" -eq 2 ] || fail "(b) exit $rc, want 2"
grep -q "^collbench: error: --config 'UCX_TLS=tcp': UCX_TLS is not an NCCL environment variable" \
    "$T/b.err" || fail "(b) message: $(cat "$T/b.err")"
[ ! -s "$T/b.csv" ] || fail "(b) a CSV row was written"
grep -q '^# Collective test starting' "$T/b.out" && fail "(b) something was measured"
[ -e "$T/b.log.0" ] && fail "(b) a communicator was made"
run b2 -C allreduce -b 8 -e 8 --config nccl_algo=Ring
[ "$rc" -eq 2 ] || fail "(b) lower case: exit $rc, want 2"
grep -q "nccl_algo is not an NCCL environment variable" "$T/b2.err" ||
    fail "(b) lower case: $(cat "$T/b2.err")"
echo "ok: (b) refused"

# (c) a variable NCCL reads once per process runs, with a note that says so.
run c -C allreduce -b 8 -e 8 -n 2 -w 1 --config NCCL_MIN_CTAS=4 --config NCCL_ALGO=Ring
[ "$rc" -eq 0 ] || fail "(c) exit $rc: $(cat "$T/c.err")"
grep -q '^collbench: note: --config sets NCCL_MIN_CTAS, which NCCL 2.28 reads once per process' \
    "$T/c.err" || fail "(c) no note: $(cat "$T/c.err")"
check_table "$T/c.out"
echo "ok: (c) note"

# (d) --config-for: allreduce's Tree (20 ms a call) measured on allreduce
# alone, broadcast's NCCL_ALGO with its own ':' and ';' on broadcast alone.
run d -C allreduce,broadcast -b 1K -e 1K -n 2 -w 1 --config-for allreduce:NCCL_ALGO=Tree \
    --config-for 'broadcast:NCCL_ALGO=allreduce:ring;broadcast:ring' --csv "$T/d.csv" --json "$T/d.json"
[ "$rc" -eq 0 ] || fail "(d) exit $rc: $(cat "$T/d.err")"
check_table "$T/d.out"
d0=$(json_get "$T/d.json" config_id)
d1=$(json_get "$T/d.json" configs.1.config_id)
d2=$(json_get "$T/d.json" configs.2.config_id)
[ "$(json_get "$T/d.json" configs.1.collective)" = allreduce ] &&
    [ "$(json_get "$T/d.json" configs.2.settings.NCCL_ALGO)" = 'allreduce:ring;broadcast:ring' ] ||
    fail "(d) JSON configs: $(json_get "$T/d.json" configs)"
rows=$(awk -F, 'NR > 1 { print $4 "," $22 }' "$T/d.csv" | sort | uniq -c | awk '{ print $1 " " $2 }' | sort)
want=$(printf '2 allreduce,%s\n2 allreduce,%s\n2 broadcast,%s\n2 broadcast,%s\n' \
    "$d0" "$d1" "$d0" "$d2" | sort)
[ "$rows" = "$want" ] || fail "(d) rows: $rows (want $want)"
slow=$(awk -F, -v id="$d1" 'NR > 1 && ($22 == id) != ($14 >= 20000)' "$T/d.csv")
[ -z "$slow" ] || fail "(d) only configuration 1 (allreduce's Tree) is 20 ms a call: $slow"
grep -qF 'comm=2 NCCL_ALGO=allreduce:ring;broadcast:ring NCCL_PROTO=Simple' "$T/d.log.0" ||
    fail "(d) configuration 2's init: $(cat "$T/d.log.0")"
echo "ok: (d) --config-for"
exit 0
