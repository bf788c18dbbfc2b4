#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# The JSON's fingerprint names what changed between two runs: a preloaded
# library (the delay shim, a slow-driver stand-in) shows in its env and its
# libraries with a build id; an MCA setting shows as MPI_T reads it back,
# from the environment or from a parameter file the environment does not
# show; what changes on every launch (ranks, job ids, URIs) is not in it,
# so two plain runs have the same digest.
. "$top_srcdir/tests/mpi/lib.sh"

shim="$top_builddir/tests/tools/.libs/libdelay_shim.so"
[ -f "$shim" ] || fail "shim not built: $shim"
host=$(hostname)

# $1 name, then extra mpirun words: one small launch into $T/$1.json.
run() {
    name=$1
    shift
    CT_MPIRUN_ARGS="$*" ct_mpirun 2 -C allreduce -b 8 -e 8 --size-budget 0.05 --quiet \
        --json "$T/$name.json" >"$T/$name.out" 2>"$T/$name.err" ||
        fail "$name: exit $? ($(cat "$T/$name.err"))"
}
fp() { json_get "$T/$1.json" "fingerprint.$2"; }
is_hex() { echo "$1" | grep -Eq "^[0-9a-f]{$2}\$"; }

run plain1
run plain2
run shim -x "LD_PRELOAD=$shim"
OMPI_MCA_coll_tuned_use_dynamic_rules=1 run dynamic
printf '%s\n' 'coll_tuned_bcast_algorithm = 3' >"$T/site.conf"
run site --mca mca_base_param_files "$T/site.conf"

# Nothing changed: the same digest, and the host's entry is it.
d1=$(fp plain1 digest) d2=$(fp plain2 digest)
is_hex "$d1" 16 || fail "digest '$d1' is not 16 hex digits"
[ "$d1" = "$d2" ] || fail "two plain runs, two digests ($d1, $d2): something volatile is in it"
[ "$(fp plain1 "hosts.$host")" = "$d1" ] || fail "hosts.$host is not rank 0's digest"
[ "$(fp plain1 'hosts.#')" = 1 ] || fail "one host, $(fp plain1 'hosts.#') entries"
[ "$(fp plain1 'other_hosts.#')" = 0 ] || fail "other_hosts not empty on one host"

# What it holds on a plain run: libc with its build id, the program,
# the host; no preload, no shim; nothing volatile.
is_hex "$(fp plain1 'libraries.libc\.so\.6.build_id')" 40 || fail "libc's build id"
fp plain1 'libraries.libc\.so\.6.path' | grep -q '^/' || fail "libc's path"
is_hex "$(fp plain1 libraries.collbench.build_id)" 40 || fail "collbench's build id"
fp plain1 'libraries.libmpi\.so\.40.version' | grep -Eq '^40\.[0-9.]+$' ||
    fail "libmpi's version: $(fp plain1 'libraries.libmpi\.so\.40.version')"
fp plain1 kernel | grep -q "$(uname -r)" || fail "kernel"
[ "$(fp plain1 machine)" = "$(uname -m)" ] || fail "machine"
[ "$(fp plain1 cpu.cpus_online)" -ge 1 ] || fail "cpus_online"
fp plain1 env.LD_PRELOAD >/dev/null 2>&1 && fail "LD_PRELOAD recorded when unset"
fp plain1 'libraries.libdelay_shim\.so' >/dev/null 2>&1 && fail "the shim listed when not loaded"
[ "$(fp plain1 env.OMPI_COMM_WORLD_SIZE)" = 2 ] || fail "OMPI_COMM_WORLD_SIZE not kept"
for v in OMPI_COMM_WORLD_RANK OMPI_COMM_WORLD_LOCAL_RANK PMIX_ID PMIX_RANK PMIX_NAMESPACE \
    PMIX_SERVER_URI2 OMPI_MCA_orte_hnp_uri OMPI_MCA_ess_base_jobid OMPI_MCA_orte_tmpdir_base; do
    fp plain1 "env.$v" >/dev/null 2>&1 && fail "volatile $v recorded"
done
[ "$(fp plain1 mpi_t.coll_tuned_use_dynamic_rules)" = false ] || fail "mpi_t: dynamic rules"
[ "$(fp plain1 mpi_t.coll_tuned_bcast_algorithm)" = 0 ] || fail "mpi_t: bcast algorithm"
fp plain1 mpi_t.pml >/dev/null || fail "mpi_t: pml"

# The preload: named in env and libraries, with its build id; a new digest.
[ "$(fp shim env.LD_PRELOAD)" = "$shim" ] || fail "LD_PRELOAD: $(fp shim env.LD_PRELOAD)"
is_hex "$(fp shim 'libraries.libdelay_shim\.so.build_id')" 40 || fail "the shim's build id"
[ "$(fp shim 'libraries.libdelay_shim\.so.path')" = "$(realpath "$shim")" ] || fail "the shim's path"
[ "$(fp shim 'libraries.libdelay_shim\.so.version')" = null ] || fail "the shim has no version"
[ "$(fp shim digest)" != "$d1" ] || fail "the preload did not change the digest"

# An MCA setting, from the environment or from a file: MPI_T's value.
[ "$(fp dynamic mpi_t.coll_tuned_use_dynamic_rules)" = true ] ||
    fail "OMPI_MCA_coll_tuned_use_dynamic_rules=1: mpi_t says $(fp dynamic mpi_t.coll_tuned_use_dynamic_rules)"
[ "$(fp dynamic digest)" != "$d1" ] || fail "dynamic rules did not change the digest"
[ "$(fp site mpi_t.coll_tuned_bcast_algorithm)" = 3 ] || fail "the parameter file's algorithm"
fp site env.OMPI_MCA_coll_tuned_bcast_algorithm >/dev/null 2>&1 && fail "the file is not env"
[ "$(fp site digest)" != "$d1" ] || fail "the parameter file did not change the digest"
exit 0
