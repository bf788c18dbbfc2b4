#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# contrib/nightly.sh - the nightly regression recipe (README.md, "Nightly
# regression"): one fixed sweep into the history, then its plots, then
# regress.
#
#   1. colltune sweep --out "$HISTORY/<UTC date>" ... -- -C "$COLLS" $SIZES
#      (the run directory is named by its UTC start, 20260101T020000Z, so
#      name order is date order);
#   2. colltune plot --out "<run>/plots" <run>/results.csv: the new run's
#      pictures (index.html), which the history index links;
#   3. colltune regress "$HISTORY" --md "$HISTORY/latest-regress.md"
#      --json "<run>/regress.json" --index "$HISTORY/index.html"
#      --plot "<run>/plots/regress": regress is what flags a slowdown; its
#      time series of the history (baseline band, flagged runs) go into the
#      night's plot directory, its verdicts into the night's regress.json,
#      and HISTORY/index.html links every night.  When it exits 3 (gnuplot
#      missing or failed) it is run again without --plot, so that the
#      verdict is not lost.  The first night exits 0: "baseline begins".
#
# Exit status: regress's (0 no regression, and the first night; 1 a
# regression; 2 bad input);
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
#   NEW_BASELINE 1: tonight's run starts a new baseline (an intended change:
#                a new MPI library, a new configuration); the earlier runs
#                stay in HISTORY but are no longer judged against.  It
#                writes the marker file "<run>/new-baseline" (regress --since
#                does the same for one call)
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

# 2. The new run's plots, before regress writes the history index that
# links them.
if "$COLLTUNE" plot --out "$run/plots" "$run/results.csv"; then
    echo "$me: plots: $run/plots/index.html"
else
    echo "$me: colltune plot failed (exit $?); regress judges all the same" >&2
fi
if [ "${NEW_BASELINE:-0}" = 1 ]; then
    : >"$run/new-baseline" || bad "cannot write $run/new-baseline"
    echo "$me: a new baseline begins at $stamp"
fi

# 3. Regress, drawing the history: its verdict is this script's exit
# status.  3 is a failure to draw (or to write): judged again without the
# plots, so that a machine without gnuplot still gets its verdict.
set -- --md "${HISTORY%/}/latest-regress.md" --json "$run/regress.json" \
    --index "${HISTORY%/}/index.html"
# shellcheck disable=SC2086 # REGRESS_ARGS is a list of words
"$COLLTUNE" regress "$HISTORY" "$@" --plot "$run/plots/regress" ${REGRESS_ARGS:-}
verdict=$?
if [ "$verdict" -eq 3 ]; then
    echo "$me: regress --plot failed (exit 3); judging again without plots" >&2
    # shellcheck disable=SC2086 # REGRESS_ARGS is a list of words
    "$COLLTUNE" regress "$HISTORY" "$@" ${REGRESS_ARGS:-}
    verdict=$?
elif [ "$verdict" -le 1 ]; then
    echo "$me: history plots: $run/plots/regress/index.html"
fi
first=0
grep -q '"verdict": "baseline"' "$run/regress.json" 2>/dev/null && first=1
case $verdict in
0) if [ "$first" = 1 ]; then echo "$me: baseline begins (the first night of $HISTORY)"; else echo "$me: no regression"; fi ;;
1) echo "$me: REGRESSION: see ${HISTORY%/}/latest-regress.md" ;;
*) echo "$me: regress failed (exit $verdict)" >&2 ;;
esac

exit "$verdict"
