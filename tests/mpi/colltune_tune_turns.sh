#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune tune: the A/B's sides as app contexts taking turns in one
# launch (tune_ab_turns.h), at np=2 through the real mpirun and collbench.
# The site forces a slow broadcast (pipeline, 1 KiB segments, as
# colltune_no_harm.sh); the tune finds binomial faster and verifies its
# files.  Through a launcher that logs every start:
#  - each A/B launch holds every pair of its round: 10 app contexts
#    ("mpirun ... collbench ... : --np 2 -x ... collbench ...", 9 ":"),
#    and the A/B's trials are its contexts, journaled as launches 0-4 of
#    each side, 5 per side per A/B scope, grouped by their launch
#    ("turns-SCOPE-FIRSTPAIR");
#  - each context is a job of its own with its own files and settings:
#    every A/B trial directory has its results at 2 ranks; only the tuned
#    side's processes had the written mca-params.conf in
#    mca_base_param_files (its JSON's environment), the default side the
#    site's file alone;
#  - the report says so (verification.pairs_per_launch 5) and the files
#    were verified;
#  - a turns launch mpirun cannot start (2 contexts of 2 ranks on 2 cores
#    without --oversubscribe: not enough slots; the user pinned yield and
#    binding, so the tune tried) falls back to a launch per side, says so,
#    and still verifies: every A/B trial then has a launch of its own.
. "$top_srcdir/tests/mpi/lib.sh"

ct_colltune_test
mkdir -p "$T/tmp" "$T/bin"
real=$(command -v mpirun) || fail "no mpirun"
cat >"$T/bin/mpirun" <<EOS
#!/bin/sh
printf '%s\n' "\$*" >>"$T/launches"
exec "$real" "\$@"
EOS
chmod +x "$T/bin/mpirun"
site="$T/site-mca-params.conf"
printf '%s\n' 'coll_tuned_use_dynamic_rules = 1' 'coll_tuned_bcast_algorithm = 3' \
    'coll_tuned_bcast_algorithm_segmentsize = 1024' >"$site"

timeout 300 "$CT" tune --out "$T/t" --launcher "$T/bin/mpirun" --np 2 \
    --launcher-arg --oversubscribe --launcher-arg --bind-to --launcher-arg none \
    --launcher-arg --mca --launcher-arg orte_tmpdir_base --launcher-arg "$T/tmp" \
    --mca mpi_yield_when_idle=1 --mca "mca_base_param_files=$site" --timeout 60 \
    --strategy exhaustive --launches 2 --space "$top_srcdir/tests/mpi/tune_verify.ini" \
    -- -b 64K -e 256K -f 4 --size-budget 0.05 >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] || fail "tune: exit $rc ($(cat "$T/err"))"
r="$T/t/report.json"
[ "$(json_get "$r" verified)" = true ] || fail "no verification ran: $(cat "$T/t/report.md")"
[ "$(json_get "$r" verification.pairs_per_launch)" -eq 5 ] || fail "pairs_per_launch"
grep -q 'app contexts taking turns, 5 pairs to a launch' "$T/t/report.md" || fail "report.md"
[ -s "$T/t/mca-params.conf" ] || fail "nothing written: $(cat "$T/t/report.md")"

# The A/B's launches: those naming a verify trial; each 10 contexts.
grep '/trials/verify' "$T/launches" >"$T/ab" || fail "no A/B launch: $(cat "$T/launches")"
nab=$(wc -l <"$T/ab")
while read -r line; do
    n=$(printf '%s\n' "$line" | tr ' ' '\n' | grep -c '^:$')
    [ "$n" -eq 9 ] || fail "an A/B launch with $((n + 1)) contexts: $line"
done <"$T/ab"
[ "$(grep -c 'A/B launch of 10 app contexts taking turns' "$T/err")" -eq "$nab" ] ||
    fail "progress lines: $(grep 'A/B launch' "$T/err")"
# No search launch has contexts.
grep -v '/trials/verify' "$T/launches" | grep -q ' : ' && fail "a search launch with contexts"

# The journal: each A/B trial is a context, launches 0-4 per side.
j="$T/t/journal.jsonl"
grep '"scope": *"verify' "$j" >"$T/abj"
[ "$(wc -l <"$T/abj")" -eq $((nab * 10)) ] || fail "A/B trials $(wc -l <"$T/abj"), launches $nab"
grep -v '"group": *"turns-verify' "$T/abj" && fail "an A/B trial outside a turns launch"
[ "$(grep -o '"group": *"turns-[^"]*"' "$T/abj" | sort -u | wc -l)" -eq "$nab" ] ||
    fail "turns groups: $(grep -o '"group": *"turns-[^"]*"' "$T/abj" | sort -u)"
grep -v '"status": *"ok"' "$T/abj" && fail "an A/B trial not ok"
for l in 0 1 2 3 4; do
    [ "$(grep -c "\"launch\": *$l," "$T/abj")" -eq $((nab * 2)) ] || fail "launch $l: $(cat "$T/abj")"
done

# Each context its own job: its results, its settings.
tuned=0
for d in "$T/t/trials"/verify*; do
    js="$d/results.json"
    [ "$(json_get "$js" nranks)" -eq 2 ] || fail "$d: nranks"
    grep -q ',broadcast,' "$d/results.csv" || fail "$d: no rows"
    files=$(json_get "$js" fingerprint.env.OMPI_MCA_mca_base_param_files)
    case $files in
    */verify*/mca-params.conf,"$site"*) tuned=$((tuned + 1)) ;;
    "$site") ;;
    *) fail "$d: mca_base_param_files '$files'" ;;
    esac
done
[ "$tuned" -eq $((nab * 5)) ] || fail "tuned contexts $tuned of $((nab * 10))"

# A turns launch that cannot start: fresh launches instead.
# mpirun's slots: the cores (hardware threads of one core share a slot).
slots=$(sort -u /sys/devices/system/cpu/cpu[0-9]*/topology/core_cpus_list 2>/dev/null | grep -c .)
[ "$slots" -gt 0 ] || slots=$(nproc)
: >"$T/launches"
timeout 300 "$CT" tune --out "$T/f" --launcher "$T/bin/mpirun" --np "$slots" \
    --launcher-arg --bind-to --launcher-arg none \
    --launcher-arg --mca --launcher-arg orte_tmpdir_base --launcher-arg "$T/tmp" \
    --mca mpi_yield_when_idle=1 --mca "mca_base_param_files=$site" --timeout 60 \
    --strategy exhaustive --launches 2 --space "$top_srcdir/tests/mpi/tune_verify.ini" \
    -- -b 64K -e 256K -f 4 --size-budget 0.05 >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] || fail "fallback tune: exit $rc ($(cat "$T/err"))"
grep -q 'app contexts taking turns failed before any ran' "$T/err" || fail "no fallback note: $(cat "$T/err")"
[ "$(json_get "$T/f/report.json" verified)" = true ] || fail "fallback: no verification"
[ "$(json_get "$T/f/report.json" verification.pairs_per_launch)" -eq 0 ] ||
    fail "fallback: the report says turns"
[ -s "$T/f/mca-params.conf" ] || fail "fallback: nothing written: $(cat "$T/f/report.md")"
grep '/trials/verify' "$T/launches" | grep ' : ' | grep -c . | grep -qx 1 ||
    fail "fallback: want exactly the one failed turns launch"
grep -c '"scope": *"verify' "$T/f/journal.jsonl" | grep -qx "$(grep '/trials/verify' "$T/launches" | grep -vc ' : ')" ||
    fail "fallback: A/B trials and fresh A/B launches differ"
grep '"scope": *"verify' "$T/f/journal.jsonl" | grep -q '"group": *"turns' &&
    fail "fallback: a trial journaled from the failed turns launch"
exit 0
