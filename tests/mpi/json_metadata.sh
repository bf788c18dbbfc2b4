#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# The JSON file carries the rows and the metadata the issue asks for:
# command line, MPI version, hosts and ranks per node, CPU bindings, every
# tuning variable in effect, colltune version and revision, and (--cvars)
# MPI_T control variables' values in force.
. "$top_srcdir/tests/mpi/lib.sh"

NCCL_ALGO=Ring UCX_TLS=self,sm OMPI_MCA_coll_tuned_use_dynamic_rules=0 \
    ct_mpirun 2 -C allreduce,allgather -b 1K -e 4K -f 4 --size-budget 0.1 \
    --json "$T/r.json" --csv "$T/r.csv" --quiet >"$T/out" 2>"$T/err" || fail "exit $?"

[ "$(json_get "$T/r.json" schema)" = "colltune-results/2" ] || fail "schema"
[ "$(json_get "$T/r.json" status)" = "ok" ] || fail "status"
[ "$(json_get "$T/r.json" refused.#)" = 0 ] || fail "refused: want [] when nothing was refused"
[ "$(json_get "$T/r.json" nranks)" = 2 ] || fail "nranks"
[ "$(json_get "$T/r.json" nnodes)" = 1 ] || fail "nnodes"
[ "$(json_get "$T/r.json" hosts.0.ranks_per_node)" = 2 ] || fail "ranks per node"
[ "$(json_get "$T/r.json" hosts.0.hostname)" = "$(hostname)" ] || fail "hostname"
json_get "$T/r.json" ranks.1.cpu_binding | grep -Eq '^[0-9]' || fail "cpu binding"
json_get "$T/r.json" mpi_library_version | grep -q 'Open MPI' || fail "MPI version"
[ "$(json_get "$T/r.json" environment.NCCL_ALGO)" = Ring ] || fail "NCCL_ALGO not recorded"
[ "$(json_get "$T/r.json" environment.UCX_TLS)" = self,sm ] || fail "UCX_TLS not recorded"
[ "$(json_get "$T/r.json" environment.OMPI_MCA_coll_tuned_use_dynamic_rules)" = 0 ] ||
    fail "OMPI_MCA variable not recorded"
[ "$(json_get "$T/r.json" command_line.1)" = "-C" ] || fail "command line"
json_get "$T/r.json" colltune.version | grep -Eq '^[0-9]+\.[0-9]+' || fail "version"
json_get "$T/r.json" colltune.git_revision >/dev/null || fail "git revision"
[ "$(json_get "$T/r.json" results.#)" -eq 8 ] || fail "expected 8 results"
# Same numbers as the CSV, and the extras only JSON has.
csv_median=$(awk -F, 'NR == 2 { print $14 }' "$T/r.csv")
json_median=$(json_get "$T/r.json" results.0.median_us)
awk -v a="$csv_median" -v b="$json_median" 'BEGIN { d = a - b; if (d < 0) d = -d; exit d <= 1e-5 * b ? 0 : 1 }' ||
    fail "CSV median $csv_median vs JSON $json_median"
[ "$(json_get "$T/r.json" results.0.config_id)" = "$(json_get "$T/r.json" config_id)" ] ||
    fail "config id"
json_get "$T/r.json" results.0.rank_median_us.max >/dev/null || fail "rank medians"
json_get "$T/r.json" results.0.samples >/dev/null || fail "samples"

# The configuration id follows the tuning variables, not the launch.
ct_mpirun 2 -C allreduce -b 1K -e 1K --size-budget 0.1 --json "$T/a.json" --quiet >/dev/null 2>&1
ct_mpirun 2 -C allreduce -b 1K -e 1K --size-budget 0.1 --json "$T/b.json" --quiet >/dev/null 2>&1
NCCL_PROTO=Simple ct_mpirun 2 -C allreduce -b 1K -e 1K --size-budget 0.1 --json "$T/c.json" \
    --quiet >/dev/null 2>&1
a=$(json_get "$T/a.json" config_id) b=$(json_get "$T/b.json" config_id)
c=$(json_get "$T/c.json" config_id)
[ -n "$a" ] && [ "$a" = "$b" ] || fail "same settings, different ids ($a, $b)"
[ "$a" != "$c" ] || fail "NCCL_PROTO did not change the id"

# --cvars: the values in force as MPI_T reads them back, whatever set them
# (a parameter file here, which the environment does not show), with
# their MPI_T scope; the environment wins over the file, as Open MPI says.
printf '%s\n' 'coll_tuned_use_dynamic_rules = 1' 'coll_tuned_bcast_algorithm = 3' >"$T/site.conf"
CT_MPIRUN_ARGS="--mca mca_base_param_files $T/site.conf" ct_mpirun 2 -C broadcast -b 8 -e 8 \
    --size-budget 0.05 --quiet --json "$T/cv.json" \
    --cvars coll_tuned_bcast_algorithm,coll_tuned_use_dynamic_rules,pml_ucx_tls >/dev/null 2>"$T/err" ||
    fail "--cvars: exit $? ($(cat "$T/err"))"
[ "$(json_get "$T/cv.json" cvars.coll_tuned_bcast_algorithm.value)" = 3 ] ||
    fail "--cvars: the file's algorithm is not the value in force"
[ "$(json_get "$T/cv.json" cvars.coll_tuned_bcast_algorithm.scope)" = all ] || fail "--cvars: scope"
[ "$(json_get "$T/cv.json" cvars.coll_tuned_use_dynamic_rules.value)" = true ] || fail "--cvars: bool"
[ "$(json_get "$T/cv.json" cvars.coll_tuned_use_dynamic_rules.scope)" = readonly ] ||
    fail "--cvars: dynamic rules are a launch setting on 4.1.4"
json_get "$T/cv.json" cvars.pml_ucx_tls.value | grep -q , || fail "--cvars: a string variable"
OMPI_MCA_coll_tuned_bcast_algorithm=6 CT_MPIRUN_ARGS="--mca mca_base_param_files $T/site.conf" \
    ct_mpirun 2 -C broadcast -b 8 -e 8 --size-budget 0.05 --quiet --json "$T/cv.json" \
    --cvars coll_tuned_bcast_algorithm >/dev/null 2>"$T/err" || fail "--cvars env: exit $?"
[ "$(json_get "$T/cv.json" cvars.coll_tuned_bcast_algorithm.value)" = 6 ] ||
    fail "--cvars: the environment's value is not the one in force"
# A name the library does not have: exit 2 on every rank before any work.
rm -f "$T/cv.json"
ct_mpirun 2 -C broadcast -b 8 -e 8 --quiet --json "$T/cv.json" --cvars coll_tuned_bcast_algoritm \
    >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "--cvars with a misspelt name: exit $rc, want 2"
grep -q -- '--cvars coll_tuned_bcast_algoritm: the MPI library has no such control variable' "$T/err" ||
    fail "--cvars misspelt: $(cat "$T/err")"
[ ! -e "$T/cv.json" ] && ! grep -q '^ *8 ' "$T/out" || fail "--cvars misspelt: measured anyway"
exit 0
