#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# quickstart.sh - set up colltune on a fresh Debian machine and use it.
#
#   ./quickstart.sh         install missing packages, build, run the main job
#   ./quickstart.sh check   the same set-up, then the whole test suite
#
# The main job sweeps every collective at one rank per core of this machine
# (at least 2), 8 B to 16 MiB, into results/quickstart/ (table, CSV and JSON),
# then tunes the local space (tuner/spaces/local.ini: allreduce and bcast
# algorithms) into results/quickstart/tune/: the journal, report.md and
# report.json, and the Open MPI files that passed verification; then plots
# both into results/quickstart/plots/ (index.html).
set -eu
cd "$(dirname "$0")"

mode=${1:-run}
case $mode in
run | check) ;;
*)
    echo "usage: $0 [check]" >&2
    exit 2
    ;;
esac

PACKAGES="gcc make autoconf automake libtool pkg-config openmpi-bin libopenmpi-dev \
libucx-dev ucx-utils gnuplot-nox libjansson-dev libinih-dev libhwloc-dev nettle-dev clang-format help2man"
# What check adds, below; configure looks for some of them (MPICH), so the
# stamp of what configure saw covers both modes' packages (build()).
CHECK_PACKAGES="slurmctld slurmd slurm-client munge locales python3 man-db groff-base mpich \
libmpich-dev"
# The test suite's own Slurm (tests/slurm/): each test starts private
# munged, slurmctld and slurmd daemons and stops them.  Installing the
# packages starts no Slurm daemon (there is no /etc/slurm/slurm.conf); the
# munge package may start the system munged, which the tests do not use.
# And what the rest of the suite reads: a comma-decimal locale built with
# localedef (locales), the Spack recipe's check (python3), the installed
# man pages (man-db, groff-base).  MPICH beside Open MPI: make check builds
# a second collbench against it (build-mpich/) and runs the MPICH tests
# through mpiexec.hydra.
[ "$mode" = check ] && PACKAGES="$PACKAGES $CHECK_PACKAGES"

# alt_value NAME: where Debian's alternative NAME points (empty if none).
alt_value() {
    update-alternatives --query "$1" 2>/dev/null | sed -n 's/^Value: //p'
}

# keep_alternative NAME BEFORE OPENMPI: installing MPICH must not change
# which mpicc/mpirun the build and the tests use.  If NAME moved during the
# install, it goes back to BEFORE (to OPENMPI when there was none before);
# an alternative that did not move is left as it is.
keep_alternative() {
    now=$(alt_value "$1")
    want=${2:-$3}
    if [ "$now" != "$want" ] && [ -e "$want" ]; then
        echo "quickstart: the install moved the '$1' alternative to $now: setting it back to $want"
        $sudo update-alternatives --set "$1" "$want"
    fi
}

install_missing() {
    missing=
    for p in $PACKAGES; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
            missing="$missing $p"
    done
    [ -z "$missing" ] && return 0
    echo "quickstart: installing:$missing"
    if [ "$(id -u)" -eq 0 ]; then
        sudo=
    else
        sudo=sudo
    fi
    mpi_before=$(alt_value mpi)
    mpirun_before=$(alt_value mpirun)
    $sudo apt-get update -q
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends $missing
    keep_alternative mpi "$mpi_before" /usr/bin/mpicc.openmpi
    keep_alternative mpirun "$mpirun_before" /usr/bin/mpirun.openmpi
}

# The installed versions of every package either mode installs, one
# "name version" a line, sorted ('-' for one not installed).
package_state() {
    for p in $PACKAGES $CHECK_PACKAGES; do
        v=$(dpkg-query -W -f='${Status} ${Version}' "$p" 2>/dev/null |
            sed -n 's/^install ok installed //p')
        echo "$p ${v:--}"
    done | sort -u
}

# configure runs where there is no Makefile, and again (with the options it
# ran with: config.status --recheck) when the packages changed since it
# ran, as their state in STAMP says: `./quickstart.sh` then `./quickstart.sh
# check` installs MPICH after the first configure, which would otherwise
# keep "no MPICH" and skip the MPICH tests.  A tree configured before the
# stamp existed is configured again once.
STAMP=.quickstart.packages
build() {
    if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt configure ]; then
        ./autogen.sh
    fi
    state=$(package_state)
    if [ ! -f Makefile ] || [ ! -f config.status ]; then
        ./configure
    elif [ "$state" != "$(cat "$STAMP" 2>/dev/null)" ]; then
        if [ -f "$STAMP" ]; then
            changed=$(printf '%s\n' "$state" | grep -vxF -f "$STAMP" | cut -d' ' -f1 | tr '\n' ' ')
            echo "quickstart: packages changed since configure ran (${changed% }): configuring again"
        else
            echo "quickstart: no record of the packages configure ran with ($STAMP): configuring again"
        fi
        ./config.status --recheck
        ./config.status
    fi
    printf '%s\n' "$state" >"$STAMP.tmp" && mv "$STAMP.tmp" "$STAMP"
    make -j"$(nproc)"
}

# One rank per core, so that no rank waits for a CPU (collbench's default
# window timing wants a core per rank).  On a one-core machine the 2 ranks
# are oversubscribed: then MPI must yield when idle (DESIGN.md), or small
# collectives spin for milliseconds.  No binding; session files kept out
# of /tmp.
run_main_job() {
    out=results/quickstart
    cores=$(nproc)
    np=$((cores < 2 ? 2 : cores))
    yield=$((np > cores ? 1 : 0))
    mkdir -p "$out/session"
    rm -f "$out/collbench.csv"
    echo "quickstart: sweeping all collectives at $np ranks, 8 B to 16 MiB -> $out/"
    mpirun --allow-run-as-root -np "$np" --oversubscribe --bind-to none \
        --mca mpi_yield_when_idle "$yield" --mca orte_tmpdir_base "$PWD/$out/session" \
        src/collbench -C all -b 8 -e 16M -f 2 \
        --csv "$out/collbench.csv" --json "$out/collbench.json" | tee "$out/collbench.txt"
    rm -rf "$out/session"
    tune_local "$out"
    plot_all "$out"
}

# The sweep's plots and the tune's tuned-against-default plot, with an
# index page that opens from disk.
plot_all() {
    out=$1
    rm -rf "$out/plots"
    tuner/colltune plot --out "$out/plots" --tune "$out/tune" "$out/collbench.csv"
    echo "quickstart: plots: $out/plots/index.html"
}

# The tune runs at 4 ranks at least: at 2 ranks most coll/tuned algorithms
# are one and the same exchange, so there is nothing to choose.  The last
# tune is kept as tune.prev.
tune_local() {
    out=$1
    cores=$(nproc)
    np=$((cores < 4 ? 4 : cores))
    yield=$((np > cores ? 1 : 0))
    rm -rf "$out/tune.prev"
    [ -e "$out/tune" ] && mv "$out/tune" "$out/tune.prev"
    mkdir -p "$out/session"
    echo "quickstart: tuning the local space at $np ranks -> $out/tune/"
    tuner/colltune tune --space tuner/spaces/local.ini --out "$out/tune" --np "$np" \
        --launcher-arg=--oversubscribe --launcher-arg=--bind-to --launcher-arg=none \
        --launcher-arg=--mca --launcher-arg=orte_tmpdir_base --launcher-arg="$PWD/$out/session" \
        --mca "mpi_yield_when_idle=$yield" --timeout 120 -- -b 1K -e 256K -f 4
    rm -rf "$out/session"
    echo "quickstart: the tune's report: $out/tune/report.md"
    sed -n '/^## choices/,/^## verification/p' "$out/tune/report.md" | sed '$d'
    sed -n '/^## files/,$p' "$out/tune/report.md"
}

install_missing
build
if [ "$mode" = check ]; then
    make -j"$(nproc)" check-parallel
else
    run_main_job
fi
