#!/bin/sh
# contrib/nightly.sh - the nightly regression recipe (README.md, "Nightly
# regression"): one fixed sweep into the history, then regress, then plot.
#
#   1. colltune sweep --out "$HISTORY/<UTC date>" ... -- -C "$COLLS" $SIZES
#      (the run directory is named by its UTC start, 20260101T020000Z, so
#      name order is date order);
#   2. colltune regress "$HISTORY" --md "$HISTORY/latest-regress.md"
#      --plot "<run>/plots/regress": regress is what flags a slowdown; its
#      time series of the history (baseline band, flagged runs) go into the
#      night's plot directory.  When it exits 3 (gnuplot missing or failed)
#      it is run again without --plot, so that the verdict is not lost;
#   3. colltune plot --out "<run>/plots" <run>/results.csv: the new run's
#      pictures (index.html).
#
# Exit status: regress's (0 no regression, 1 a regression, 2 bad input);
# 2 for a bad configuration, before anything runs; the sweep's own status
# when it fails: its directory is then moved to $FAILED, out of the history,
# and regress does not run.  A failed plot is reported but does not change
# the status: the verdict is regress's.
#
# Configuration, by environment variables (values are passed to colltune
# as arguments, never through a shell):
#   HISTORY      the history directory, one subdirectory per run (required)
#   COLLTUNE     colltune to run (default: colltune from PATH)
#   NP           ranks, through mpirun (default 2 when LAUNCHER is unset)
#   LAUNCHER     a launcher instead, e.g. 'srun --mpi=pmix' (colltune's
#                --launcher: it splits the words itself)
#   COLLS        collectives, collbench -C (default, and when empty: all)
#   SIZES        size options, collbench's (default, and when empty:
#                "-b 8 -e 16M -f 2")
#   TIMEOUT      the sweep's --timeout in seconds (default 3600)
#   SWEEP_ARGS   more colltune sweep options, split at spaces (e.g.
#                "--mca mpi_yield_when_idle=1 --hostfile /etc/hosts.mpi"); not
#                --out, --np, --launcher or --timeout: colltune refuses an
#                option given twice (NP, LAUNCHER and TIMEOUT set them)
#   REGRESS_ARGS more colltune regress options (e.g. "--window 12"); not
#                --md or --plot, which this script gives
#   FAILED       where failed runs go (default "$HISTORY.failed")
set -u

me=nightly.sh
bad() {
    echo "$me: $*" >&2
    exit 2
}

COLLTUNE=${COLLTUNE:-colltune}
HISTORY=${HISTORY:-}
LAUNCHER=${LAUNCHER:-}
[ -n "$LAUNCHER" ] || NP=${NP:-2}
NP=${NP:-}
COLLS=${COLLS:-all}
SIZES=${SIZES:--b 8 -e 16M -f 2}
TIMEOUT=${TIMEOUT:-3600}

[ -n "$HISTORY" ] || bad "set HISTORY to the history directory"
case $NP in *[!0-9]*) bad "NP=$NP: not a number of ranks" ;; esac
[ "$NP" != 0 ] || bad "NP=0: not a number of ranks"
case $TIMEOUT in '' | *[!0-9]*) bad "TIMEOUT=$TIMEOUT: not a number of seconds" ;; esac
command -v "$COLLTUNE" >/dev/null 2>&1 || bad "COLLTUNE=$COLLTUNE: not found (build colltune or set COLLTUNE)"
FAILED=${FAILED:-${HISTORY%/}.failed}
[ ! -e "$HISTORY" ] || [ -d "$HISTORY" ] || bad "HISTORY=$HISTORY: not a directory"
mkdir -p "$HISTORY" || bad "HISTORY=$HISTORY: cannot create it"

# SIZES, SWEEP_ARGS and REGRESS_ARGS are split at spaces below, but a word
# such as "*" must reach colltune as written, never expanded against the
# files of the directory cron happens to start in.
set -f

stamp=$(date -u +%Y%m%dT%H%M%SZ)
run=${HISTORY%/}/$stamp

# 1. The sweep.  Positional parameters hold colltune's argv, so a value
# with spaces (LAUNCHER, a path) stays one argument.
set -- sweep --out "$run" --timeout "$TIMEOUT"
[ -z "$LAUNCHER" ] || set -- "$@" --launcher "$LAUNCHER"
[ -z "$NP" ] || set -- "$@" --np "$NP"
echo "$me: sweep into $run"
# shellcheck disable=SC2086 # SWEEP_ARGS and SIZES are lists of words
"$COLLTUNE" "$@" ${SWEEP_ARGS:-} -- -C "$COLLS" $SIZES
rc=$?
if [ "$rc" -ne 0 ]; then
    echo "$me: the sweep failed (exit $rc); regress not run" >&2
    if [ -e "$run" ]; then
        mkdir -p "$FAILED" && mv "$run" "$FAILED/$stamp" &&
            echo "$me: the failed run is in $FAILED/$stamp" >&2
    fi
    exit "$rc"
fi

# 2. Regress, drawing the history: its verdict is this script's exit
# status.  3 is a failure to draw (or to write): judged again without the
# plots, so that a machine without gnuplot still gets its verdict.
# shellcheck disable=SC2086 # REGRESS_ARGS is a list of words
"$COLLTUNE" regress "$HISTORY" --md "${HISTORY%/}/latest-regress.md" --plot "$run/plots/regress" ${REGRESS_ARGS:-}
verdict=$?
if [ "$verdict" -eq 3 ]; then
    echo "$me: regress --plot failed (exit 3); judging again without plots" >&2
    # shellcheck disable=SC2086 # REGRESS_ARGS is a list of words
    "$COLLTUNE" regress "$HISTORY" --md "${HISTORY%/}/latest-regress.md" ${REGRESS_ARGS:-}
    verdict=$?
elif [ "$verdict" -le 1 ]; then
    echo "$me: history plots: $run/plots/regress/index.html"
fi
case $verdict in
0) echo "$me: no regression" ;;
1) echo "$me: REGRESSION: see ${HISTORY%/}/latest-regress.md" ;;
*) echo "$me: regress failed (exit $verdict)" >&2 ;;
esac

# 3. The new run's plots.
if "$COLLTUNE" plot --out "$run/plots" "$run/results.csv"; then
    echo "$me: plots: $run/plots/index.html"
else
    echo "$me: colltune plot failed (exit $?); the verdict stands" >&2
fi
exit "$verdict"
