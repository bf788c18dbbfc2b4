#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune's command line: the subcommand table, --help, exit 2 on bad
# input naming the flag, before anything runs; and the layering: colltune
# carries no MPI symbol and needs no MPI library.
set -u
: "${top_builddir:?run through make check}"
CT="$top_builddir/tuner/colltune"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-cli.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# expect RC PATTERN ARGS...: colltune ARGS exits RC and its stderr has PATTERN.
expect() {
    want=$1 pattern=$2
    shift 2
    "$CT" "$@" >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq "$want" ] || fail "colltune $*: exit $rc, want $want ($(cat "$T/err"))"
    grep -q -- "$pattern" "$T/err" || fail "colltune $*: stderr lacks '$pattern': $(cat "$T/err")"
}

"$CT" --help >"$T/out" || fail "--help exit $?"
grep -q '^  sweep  ' "$T/out" || fail "--help does not list sweep: $(cat "$T/out")"
"$CT" sweep --help >"$T/out" || fail "sweep --help exit $?"
for flag in --out --np --hostfile --launcher --launcher-arg --env --mca --timeout --grace \
    --collbench --force; do
    grep -q -- "^  $flag " "$T/out" || fail "sweep --help lacks $flag"
done
"$CT" help sweep | cmp -s - "$T/out" || fail "help sweep differs from sweep --help"
"$CT" --version | grep -q '^colltune ' || fail "--version"

expect 2 "unknown command 'frobnicate'" frobnicate
expect 2 "usage: colltune" # no command at all
expect 2 "unknown option '--bogus'" sweep --out "$T/o" --np 2 --bogus
expect 2 "unexpected argument 'stray'" sweep --out "$T/o" --np 2 stray
# --np and the launcher line's own count must agree (issue 15, E24).
expect 2 "--np 2 and the launcher line's 4 ranks disagree" sweep --out "$T/o" --launcher "mpirun -np 4" --np 2
expect 2 "--np 3 and the launcher line's 4 ranks disagree" tune --space "$top_srcdir/tests/mpi/tune_tiny.ini" \
    --out "$T/o" --launcher "srun -n 4" --np 3
# --shapes: collbench's syntax, within the launch, never with --weights
# (a weighted time is one shape's), and tune's alone to pass to collbench.
tiny="$top_srcdir/tests/mpi/tune_tiny.ini"
expect 2 "shapes must ascend" tune --space "$tiny" --out "$T/o" --np 4 --shapes 1x4,1x2
expect 2 "the largest, 1x8, needs 8 ranks; the launch has 4" tune --space "$tiny" --out "$T/o" \
    --np 4 --shapes 1x2,1x8
: >"$T/w"
expect 2 "\-\-weights and --shapes" tune --space "$tiny" --out "$T/o" --np 4 --shapes 1x2 \
    --weights "$T/w"
expect 2 "collbench argument --shapes is tune's to set (use colltune tune --shapes" \
    tune --space "$tiny" --out "$T/o" --np 4 -- --shapes 1x2
# A collective's scopes at several shapes share their launches: --budget
# counts each collective once.
expect 2 "the defaults of 5 scopes take 5 x 3 launches; give --budget 18 or more" tune \
    --space "$top_srcdir/tuner/spaces/openmpi-coll.ini" --out "$T/o" --np 4 --shapes 1x2,1x4 \
    --budget 10
[ ! -e "$T/o" ] || fail "a refused tune made its --out"
expect 2 "\-\-out DIR is required" sweep --np 2
expect 2 "give the scale" sweep --out "$T/o"
expect 2 "\-\-np '0'" sweep --out "$T/o" --np 0
expect 2 "\-\-np 'x'" sweep --out "$T/o" --np x
expect 2 "\-\-timeout '-1'" sweep --out "$T/o" --np 2 --timeout -1
expect 2 "\-\-timeout needs a value" sweep --out "$T/o" --np 2 --timeout
expect 2 "\-\-force takes no value" sweep --out "$T/o" --np 2 --force=1
expect 2 "\-\-env 'NOVALUE' is not NAME=VALUE" sweep --out "$T/o" --np 2 --env NOVALUE
expect 2 "\-\-env 'A-B' is not a valid" sweep --out "$T/o" --np 2 --env A-B=1
expect 2 "\-\-mca 'x y' is not a valid" sweep --out "$T/o" --np 2 --mca 'x y=1'
expect 2 "\-\-launcher: unterminated '" sweep --out "$T/o" --launcher "srun 'x"
expect 2 "\-\-launcher: names no program" sweep --out "$T/o" --launcher " "
expect 2 "sweep writes DIR/results.csv itself" sweep --out "$T/o" --np 2 -- --csv x.csv
expect 2 "sweep writes DIR/results.json itself" sweep --out "$T/o" --np 2 -- --json=x.json
expect 2 "\-\-collbench $T/none" sweep --out "$T/o" --np 2 --collbench "$T/none"
# (A comma in a value for srun travels in its environment: test_launcher.)
: >"$T/h" # a hostfile that exists: srun's refusal is what is checked
expect 2 "\-\-hostfile: srun" sweep --out "$T/o" --launcher srun --hostfile "$T/h"
expect 2 "\-\-np: '/bin/echo' is neither mpirun nor srun" sweep --out "$T/o" --launcher /bin/echo --np 2

# The output directory is checked before anything runs.
: >"$T/file"
expect 2 "\-\-out $T/file: exists and is not a directory" sweep --out "$T/file" --np 2
expect 2 "\-\-out $T/file/sub: cannot be created" sweep --out "$T/file/sub" --np 2
mkdir -p "$T/old" && : >"$T/old/results.csv"
expect 2 "results.csv already exists" sweep --out "$T/old" --np 2
[ ! -e "$T/o/collbench.txt" ] || fail "a refused sweep ran something"

# A launcher that cannot be run: exit 2 naming it.
expect 2 "cannot run '$T/no-such-launcher'" sweep --out "$T/x" --launcher "$T/no-such-launcher"

# Layering: colltune is plain C, no MPI (like tests/unit/lib_no_mpi.sh).
if command -v nm >/dev/null 2>&1; then
    nm "$CT" | grep -q ' ct_trial_run$' || fail "nm sees no ct_trial_run in colltune: blind"
    found=$(nm "$CT" | awk '{ print $NF }' | grep -E '^(P?MPI_|ompi_|opal_|orte_)' | head -3)
    [ -z "$found" ] || fail "colltune uses MPI: $found"
fi
if command -v objdump >/dev/null 2>&1; then
    objdump -p "$CT" | awk '$1 == "NEEDED" { print $2 }' | grep -qi mpi &&
        fail "colltune needs an MPI library"
fi
exit 0
