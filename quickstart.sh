#!/bin/sh
# quickstart.sh - set up colltune on a fresh Debian machine and use it.
#
#   ./quickstart.sh         install missing packages, build, run the main job
#   ./quickstart.sh check   the same set-up, then the whole test suite
#
# The main job sweeps every collective at one rank per core of this machine
# (at least 2), 8 B to 16 MiB, into results/quickstart/ (table, CSV and JSON).
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
libucx-dev ucx-utils gnuplot-nox libjansson-dev libinih-dev clang-format"

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
    $sudo apt-get update -q
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends $missing
}

build() {
    if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt configure ]; then
        ./autogen.sh
    fi
    [ -f Makefile ] || ./configure
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
}

install_missing
build
if [ "$mode" = check ]; then
    make check
else
    run_main_job
fi
