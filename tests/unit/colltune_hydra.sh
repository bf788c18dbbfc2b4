#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# mpiexec.hydra, the launcher added as one file plus one table entry,
# through a stub: a script named mpiexec.hydra that records its argv and
# runs the program with its -genv variables, and a stand-in collbench that
# prints its environment.  Checks -n, -f, -genv (a value with spaces and
# quotes as one word), launch.json's launcher, the --mca refusal before
# anything runs, and --scales by nodes writing a Hydra hostfile (host:K).
# No MPI.
set -u
: "${top_builddir:?run through make check}"
CT="$top_builddir/tuner/colltune"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-hydra.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

cat >"$T/mpiexec.hydra" <<'STUB'
#!/bin/sh
# One argv word per line, then the program under the -genv variables.
log="$(dirname "$0")/argv.log"
for a in "$@"; do printf '%s\n' "$a"; done >>"$log"
echo "--end--" >>"$log"
while [ $# -gt 0 ]; do
    case "$1" in
    -n | -np | -f | -ppn) shift 2 ;;
    -genv)
        export "$2=$3"
        shift 3
        ;;
    *) break ;;
    esac
done
exec "$@"
STUB
cat >"$T/collbench" <<'FAKE'
#!/bin/sh
echo "CT_HYDRA_A=${CT_HYDRA_A-unset}"
echo "CT_HYDRA_B=${CT_HYDRA_B-unset}"
FAKE
chmod +x "$T/mpiexec.hydra" "$T/collbench"

# One sweep: the scale and the settings as Hydra's flags.  (The hostfile
# must exist: colltune checks it before any launch.)
printf '# hosts\nnodeA:4\nnodeB\n' >"$T/hosts"
"$CT" sweep --out "$T/one" --launcher "$T/mpiexec.hydra -ppn 1" --np 2 --hostfile "$T/hosts" \
    --env 'CT_HYDRA_A=a b "c"' --env CT_HYDRA_B='$(x);y' --collbench "$T/collbench" \
    >"$T/out" 2>"$T/err" || fail "sweep: exit $? ($(cat "$T/err"))"
printf '%s\n' -ppn 1 -n 2 -f "$T/hosts" -genv CT_HYDRA_A 'a b "c"' -genv CT_HYDRA_B '$(x);y' \
    "$T/collbench" --csv "$T/one/results.csv" --json "$T/one/results.json" --end-- >"$T/want"
cmp -s "$T/want" "$T/argv.log" || fail "argv: $(diff "$T/want" "$T/argv.log")"
grep -qx 'CT_HYDRA_A=a b "c"' "$T/one/collbench.txt" || fail "-genv A: $(cat "$T/one/collbench.txt")"
grep -qx 'CT_HYDRA_B=$(x);y' "$T/one/collbench.txt" || fail "-genv B: $(cat "$T/one/collbench.txt")"
grep -q '"launcher": "mpiexec.hydra"' "$T/one/launch.json" || fail "launch.json: $(cat "$T/one/launch.json")"

# MCA is Open MPI's: refused, naming the parameter, before the stub runs.
rm -f "$T/argv.log"
"$CT" sweep --out "$T/mca" --launcher "$T/mpiexec.hydra" --np 2 --mca btl=self \
    --collbench "$T/collbench" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "--mca: exit $rc, want 2 ($(cat "$T/err"))"
grep -q -- "--mca btl: mpiexec.hydra (MPICH, Intel MPI) has no MCA parameters" "$T/err" ||
    fail "--mca: $(cat "$T/err")"
[ ! -e "$T/argv.log" ] || fail "--mca: the launcher ran"

# --scales by nodes: the first N hosts of a Hydra hostfile, K slots each.
rm -f "$T/argv.log"
"$CT" sweep --out "$T/sc" --launcher "$T/mpiexec.hydra" --hostfile "$T/hosts" --scales 1,2 \
    --ranks-per-node 2 --collbench "$T/collbench" >"$T/out" 2>"$T/err"
grep -qx 'nodeA:2' "$T/sc/scale-2/hostfile" || fail "hostfile: $(cat "$T/sc/scale-2/hostfile")"
grep -qx 'nodeB:2' "$T/sc/scale-2/hostfile" || fail "hostfile: $(cat "$T/sc/scale-2/hostfile")"
grep -q 'nodeB' "$T/sc/scale-1/hostfile" && fail "scale 1 has two hosts"
grep -qx "$T/sc/scale-2/hostfile" "$T/argv.log" || fail "scale 2 argv: $(cat "$T/argv.log")"
grep -qx 4 "$T/argv.log" || fail "scale 2: -n 4 missing: $(cat "$T/argv.log")"
exit 0
