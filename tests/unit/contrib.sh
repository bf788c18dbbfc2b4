#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# contrib/: the nightly recipe's scripts parse (sh -n, and shellcheck when
# it is installed), the cron file holds only comments and a well-formed
# line, the batch script's #SBATCH lines come before its first command, and
# nightly.sh refuses a bad configuration with exit 2 before running
# anything.  Its steps are checked with a stand-in colltune that logs its
# arguments (no MPI here; the real sweep and regress have their own tests):
# sweep, then plot, then regress; regress's exit passes on; a failed sweep
# passes its own status on, leaves the history and skips regress.
set -u
: "${top_srcdir:?run through make check}"
C=$top_srcdir/contrib
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-contrib.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

for f in nightly.sh nightly.sbatch nccl-test-double.sh; do
    sh -n "$C/$f" || fail "sh -n $f"
    if command -v shellcheck >/dev/null 2>&1; then
        shellcheck -s sh "$C/$f" || fail "shellcheck $f"
    fi
done
# Every cron line is a comment; the jobs, once uncommented, have five time
# fields and run the recipe.
grep -v '^#' "$C/nightly.cron" | grep -q . && fail "nightly.cron: an uncommented line"
[ "$(grep -c '^# [0-9*][0-9*,/-]* \{1,\}[0-9*][^ ]* \{1,\}[0-9*][^ ]* \{1,\}[0-9*][^ ]* \{1,\}[0-9*][^ ]* \{1,\}.*nightly\.s' \
    "$C/nightly.cron")" -eq 2 ] || fail "nightly.cron: want two commented jobs"
# sbatch stops reading #SBATCH at the first command.
awk '/^#SBATCH/ && cmd { exit 1 } !/^#/ && !/^[ \t]*$/ { cmd = 1 }' "$C/nightly.sbatch" ||
    fail "nightly.sbatch: an #SBATCH line after a command"
for o in nodes ntasks-per-node time output; do
    grep -q "^#SBATCH --$o=" "$C/nightly.sbatch" || fail "nightly.sbatch: no --$o"
done

# A stand-in colltune: logs each call; FAKE_SWEEP / FAKE_REGRESS set the
# exit statuses; the sweep makes its --out directory, as the real one does.
fake=$T/colltune
cat >"$fake" <<'FAKE'
#!/bin/sh
echo "$*" >>"$FAKE_LOG"
case $1 in
sweep) mkdir -p "$3" && : >"$3/results.csv"; exit "${FAKE_SWEEP:-0}" ;;
regress) case "$*" in *--plot*) [ -z "${FAKE_PLOT_FAIL:-}" ] || exit 3 ;; esac
    exit "${FAKE_REGRESS:-0}" ;;
esac
exit 0
FAKE
chmod +x "$fake"
export FAKE_LOG="$T/log"

# $1 expected exit, then VAR=value settings: runs nightly.sh with them.
expect() {
    want=$1
    shift
    : >"$FAKE_LOG"
    env -u HISTORY -u NP -u LAUNCHER -u COLLTUNE "$@" sh "$C/nightly.sh" >"$T/out" 2>"$T/err"
    got=$?
    [ "$got" -eq "$want" ] || fail "nightly.sh $*: exit $got, want $want ($(cat "$T/err"))"
}

H=$T/hist
expect 2 COLLTUNE="$fake"
grep -q HISTORY "$T/err" || fail "no HISTORY: $(cat "$T/err")"
expect 2 COLLTUNE="$fake" HISTORY="$H" NP=two
grep -q 'NP=two' "$T/err" || fail "bad NP: $(cat "$T/err")"
expect 2 COLLTUNE="$fake" HISTORY="$H" NP=0
expect 2 COLLTUNE="$fake" HISTORY="$H" TIMEOUT=1h
expect 2 COLLTUNE="$T/no-such-colltune" HISTORY="$H"
grep -q 'no-such-colltune' "$T/err" || fail "missing colltune: $(cat "$T/err")"
: >"$T/file"
expect 2 COLLTUNE="$fake" HISTORY="$T/file"
if [ -s "$FAKE_LOG" ] || [ -e "$H" ]; then fail "a bad configuration ran something"; fi

# The steps, in order, with the recipe's paths; regress's 1 passes on.
expect 1 COLLTUNE="$fake" HISTORY="$H" NP=4 COLLS=allreduce SIZES="-b 8 -e 1K" FAKE_REGRESS=1
run=$(ls "$H") # one run so far
case $run in [0-9][0-9][0-9][0-9][01][0-9][0-3][0-9]T[0-9][0-9][0-9][0-9][0-9][0-9]Z) ;;
*) fail "run directory '$run' is not a UTC stamp" ;; esac
sed -n 1p "$FAKE_LOG" | grep -qx "sweep --out $H/$run --timeout 3600 --np 4 -- -C allreduce -b 8 -e 1K" ||
    fail "sweep: $(sed -n 1p "$FAKE_LOG")"
sed -n 3p "$FAKE_LOG" | grep -qx "regress $H --md $H/latest-regress.md --json $H/$run/regress.json --index $H/index.html --plot $H/$run/plots/regress" ||
    fail "regress: $(sed -n 3p "$FAKE_LOG")"
sed -n 2p "$FAKE_LOG" | grep -qx "plot --out $H/$run/plots $H/$run/results.csv" ||
    fail "plot: $(sed -n 2p "$FAKE_LOG")"
grep -q REGRESSION "$T/out" || fail "no REGRESSION line: $(cat "$T/out")"

# regress --plot failing (no gnuplot): judged again without it, the verdict kept.
sleep 1 # a new stamp
expect 1 COLLTUNE="$fake" HISTORY="$H" FAKE_REGRESS=1 FAKE_PLOT_FAIL=1
run2=$(ls "$H" | tail -1)
sed -n 4p "$FAKE_LOG" | grep -qx "regress $H --md $H/latest-regress.md --json $H/$run2/regress.json --index $H/index.html" ||
    fail "regress again without --plot: $(cat "$FAKE_LOG")"
grep -q REGRESSION "$T/out" || fail "no REGRESSION line after a failed plot: $(cat "$T/out")"

# NEW_BASELINE=1: the marker in tonight's run, before regress reads it.
sleep 1 # a new stamp
expect 0 COLLTUNE="$fake" HISTORY="$H" NEW_BASELINE=1
run3=$(ls "$H" | tail -1)
[ -f "$H/$run3/new-baseline" ] || fail "NEW_BASELINE=1: no $H/$run3/new-baseline"
grep -q "a new baseline begins at $run3" "$T/out" || fail "NEW_BASELINE=1: not said: $(cat "$T/out")"
sleep 1

# The Slurm form: the launcher as one argument, no --np.
expect 0 COLLTUNE="$fake" HISTORY="$H/" LAUNCHER="srun --mpi=pmix"
grep -q -- "--launcher srun --mpi=pmix -- -C all -b 8 -e 16M -f 2\$" "$FAKE_LOG" ||
    fail "launcher: $(sed -n 1p "$FAKE_LOG")"
grep -q -- "--np" "$FAKE_LOG" && fail "--np with LAUNCHER: $(sed -n 1p "$FAKE_LOG")"

# A failed sweep: its status, its run moved out of the history, no regress.
sleep 1 # a new stamp
before=$(ls "$H")
expect 3 COLLTUNE="$fake" HISTORY="$H" FAKE_SWEEP=3
[ "$(wc -l <"$FAKE_LOG")" -eq 1 ] || fail "ran past a failed sweep: $(cat "$FAKE_LOG")"
[ "$(find "$H.failed" -mindepth 1 -maxdepth 1 | wc -l)" -eq 1 ] || fail "failed run not in $H.failed"
[ "$(ls "$H")" = "$before" ] || fail "history changed: $(ls "$H")"

# Word lists are split at spaces but never glob-expanded (E22): from a
# directory where *.x matches files, the words reach colltune as written.
G=$T/globdir
mkdir "$G" && : >"$G/a.x" && : >"$G/b.x" || fail "mkdir $G"
(cd "$G" && expect 0 COLLTUNE="$fake" HISTORY="$T/h2" SIZES="-b 8 -e *.x" SWEEP_ARGS="--run-id *.x" \
    REGRESS_ARGS="--window *.x") || exit 1
sed -n 1p "$FAKE_LOG" | grep -qF -- "--run-id *.x --" || fail "SWEEP_ARGS globbed: $(sed -n 1p "$FAKE_LOG")"
sed -n 1p "$FAKE_LOG" | grep -qF -- "-e *.x" || fail "SIZES globbed: $(sed -n 1p "$FAKE_LOG")"
sed -n 3p "$FAKE_LOG" | grep -qF -- "--window *.x" || fail "REGRESS_ARGS globbed: $(sed -n 3p "$FAKE_LOG")"
exit 0
