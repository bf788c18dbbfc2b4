#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: alone (decides from timings)
# A site FILE that forces an Open MPI algorithm, tuned and undone as
# installed (Open MPI 4.1.4, np 2).  The site's own
# $HOME/.openmpi/mca-params.conf (HOME pointed at a temporary directory:
# ompi_info's default mca_base_param_files follows $HOME) forces pipeline
# broadcast with 1 KiB segments, ~2.4 ms at 256 KiB against binomial's
# ~0.06 ms here.  colltune's A/B keeps that file after its own
# (ct_tune_verify_mca_tail), so the tune runs against the site and writes a
# range choice as rules (4.1 consults the rules file before a forced
# algorithm); `colltune install` prints the site file after colltune's.
# Sourced in a bash subshell with HOME still at the site, the printed lines
# make broadcast faster at the tuned sizes in fresh collbench launches,
# interleaved with the site alone, and leave 2 MiB to the site's
# algorithm.
. "$top_srcdir/tests/mpi/lib.sh"
ct_colltune_test
T=$(cd -P "$T" && pwd)
export HOME="$T/home"
mkdir -p "$HOME/.openmpi" "$T/tmp"
printf '%s\n' 'coll_tuned_use_dynamic_rules = 1' 'coll_tuned_bcast_algorithm = 3' \
    'coll_tuned_bcast_algorithm_segmentsize = 1024' >"$HOME/.openmpi/mca-params.conf"
ompi_info --parsable --param mca base --level 9 2>/dev/null |
    grep -q "mca_base_param_files:value:$HOME/.openmpi/mca-params.conf," ||
    fail "ompi_info's mca_base_param_files does not follow \$HOME"

timeout 90 "$CT" tune --out "$T/tune" --np 2 --launcher-arg --oversubscribe \
    --launcher-arg --bind-to --launcher-arg none --launcher-arg --mca \
    --launcher-arg orte_tmpdir_base --launcher-arg "$T/tmp" --mca mpi_yield_when_idle=1 \
    --timeout 60 --space "$top_srcdir/tests/mpi/tune_verify.ini" --strategy exhaustive \
    --launches 2 -- -b 256K -e 512K -f 2 --size-budget 0.05 >"$T/out" 2>"$T/err" ||
    fail "tune: exit $? ($(tail -5 "$T/err"))"
md="$T/tune/report.md"
grep -q "^- broadcast coll_tuned_bcast_algorithm=6 (mca), sizes 256K..512K,.*verified, written" \
    "$md" || fail "no verified range choice: $(grep '^- ' "$md")"
# The site's forced algorithm was the A/B's baseline: its file was read.
grep -q "$HOME/.openmpi/mca-params.conf" "$T/tune/report.json" ||
    fail "report.json does not name the site's file"
rules="$T/tune/coll-tuned-rules.conf"
[ -f "$rules" ] || fail "no rules file: $(ls "$T/tune")"
grep -q '^262144 6 0 0$' "$rules" || fail "rules lack binomial at 256 KiB: $(cat "$rules")"

"$CT" install "$T/tune" --to "$T/site" >"$T/install.out" 2>"$T/err" ||
    fail "install: exit $? ($(cat "$T/err"))"
sed -n '/^Add to the site/,/^$/p' "$T/install.out" | sed -n 's/^  \(export .*\)/\1/p' >"$T/lines.sh"
grep -q "^export OMPI_MCA_mca_base_param_files=$T/site/mca-params.conf,\"\$HOME/.openmpi/mca-params.conf\"" \
    "$T/lines.sh" || fail "install does not keep the site's file after its own: $(cat "$T/lines.sh")"

# Fresh launches, interleaved: the site alone, then with the printed lines
# sourced over it; "bytes us" per out-of-place row into FILE.
bench() {
    bash -c 'if [ -n "$1" ]; then . "$1" || exit 9; fi; shift; exec "$@"' sh "$1" \
        timeout 60 "$MPIRUN" --allow-run-as-root -np 2 --oversubscribe --bind-to none \
        --mca mpi_yield_when_idle 1 --mca orte_tmpdir_base "$T/tmp" "$COLLBENCH" -C broadcast \
        -b 256K -e 2M -f 8 -n 10 -w 2 --sync barrier 2>"$T/err" |
        awk '/^ +[0-9]/ { print $1, $6 }' >"$2" || fail "collbench ${1:-site}: $(cat "$T/err")"
    [ "$(wc -l <"$2")" = 2 ] || fail "collbench ${1:-site}: $(cat "$2" "$T/err")"
}
for r in 1 2 3; do
    bench "" "$T/site.$r"
    bench "$T/lines.sh" "$T/inst.$r"
done
med() { cat "$T/$1".1 "$T/$1".2 "$T/$1".3 | awk -v b="$2" '$1 == b { print $2 }' | sort -g | sed -n 2p; }
for b in 262144 2097152; do
    s=$(med site $b) i=$(med inst $b)
    echo "# $b B: site $s us, installed $i us"
    if [ "$b" -le 524288 ]; then
        # Tuned: at least 3x (~35x measured).
        awk -v s="$s" -v i="$i" 'BEGIN { exit !(i * 3 < s) }' ||
            fail "$b B: installed $i us not 3x under the site's $s us"
    else
        # Outside the range the site's pipeline stays (rule 0 falls
        # through to the forced algorithm).
        awk -v s="$s" -v i="$i" 'BEGIN { exit !(i > 0.5 * s) }' ||
            fail "$b B: installed $i us against the site's $s us: not the site's algorithm"
    fi
done
exit 0
