#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# quickstart.sh configures again when the packages changed since configure
# ran (issue 38, item 12): the README's `./quickstart.sh` then
# `./quickstart.sh check` on a fresh machine installs MPICH after the first
# configure, and kept its "no MPICH", so the MPICH tests skipped.  Run in a
# scratch copy of quickstart.sh with stand-ins for everything it runs
# (dpkg-query and apt-get over a list of "installed" packages, configure,
# config.status, make, mpirun, colltune), which write what they were asked
# to a log; nothing is installed or built.
set -u
: "${top_srcdir:?run through make check}"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-quickstart.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
Q=$T/tree
mkdir -p "$Q/tuner" "$T/bin"
cp "$top_srcdir/quickstart.sh" "$Q/" || fail "no $top_srcdir/quickstart.sh"
: >"$T/installed"

# stub FILE BODY: an executable sh script.
stub() {
    printf '#!/bin/sh\n%s\n' "$2" >"$1"
    chmod +x "$1"
}
stub "$T/bin/dpkg-query" "p=\$(for a in \"\$@\"; do :; done; echo \"\$a\")
v=\$(sed -n \"s/^\$p //p\" \"$T/installed\")
[ -n \"\$v\" ] || exit 1
printf 'install ok installed %s' \"\$v\""
stub "$T/bin/apt-get" "[ \"\$1\" = install ] || exit 0
for a in \"\$@\"; do case \$a in install | -*) ;; *) echo \"\$a 1.0\" >>\"$T/installed\" ;; esac; done"
stub "$T/bin/update-alternatives" "exit 0"
stub "$T/bin/sudo" 'exec "$@"'
stub "$T/bin/make" "echo \"make \$*\" >>\"$T/log\""
stub "$T/bin/mpirun" "exit 0"
stub "$Q/autogen.sh" "echo autogen >>\"$T/log\""
stub "$Q/configure" "echo configure >>\"$T/log\"
: >Makefile
printf '#!/bin/sh\necho \"config.status \$*\" >>\"$T/log\"\n' >config.status
chmod +x config.status"
# shellcheck disable=SC2016 # the stand-in's own $1, $2
stub "$Q/tuner/colltune" 'if [ "$1" = tune ]; then
    while [ "$1" != --out ]; do shift; done
    mkdir -p "$2" && : >"$2/report.md"
fi'
touch "$Q/configure.ac" "$Q/Makefile.am"
touch -r "$Q/configure.ac" -d '-1 hour' "$Q/configure.ac" "$Q/Makefile.am" 2>/dev/null ||
    touch -t 200001010000 "$Q/configure.ac" "$Q/Makefile.am"

# qs [check]: quickstart.sh, its log in $T/log and its output in $T/out.
qs() {
    : >"$T/log"
    PATH="$T/bin:$PATH" sh "$Q/quickstart.sh" "$@" >"$T/out" 2>&1 ||
        fail "quickstart.sh $*: exit $? ($(cat "$T/out"))"
}
# log_is WHAT WANT: the stand-ins ran exactly WANT (one a line, ' | ').
log_is() {
    got=$(awk 'NR > 1 { printf " | " } { printf "%s", $0 }' "$T/log")
    [ "$got" = "$2" ] || fail "$1: ran '$got', want '$2' ($(cat "$T/out"))"
}
np=$(nproc)

# 1. A fresh machine: ./quickstart.sh installs, configures, builds.
qs
log_is "./quickstart.sh on a fresh machine" "configure | make -j$np"
grep -q '^mpich ' "$T/installed" && fail "./quickstart.sh installed MPICH"
# 2. ./quickstart.sh check installs MPICH and the rest: configure again,
# with the options it ran with (config.status --recheck).
qs check
grep -q '^mpich ' "$T/installed" || fail "./quickstart.sh check did not install MPICH"
log_is "./quickstart.sh check after ./quickstart.sh" \
    "config.status --recheck | config.status  | make -j$np | make -j$np check-parallel"
grep -q 'packages changed since configure ran (.*mpich.*): configuring again' "$T/out" ||
    fail "no message naming the packages: $(cat "$T/out")"
# 3. Nothing changed: no configure.
qs check
log_is "./quickstart.sh check again" "make -j$np | make -j$np check-parallel"
qs
log_is "./quickstart.sh after check" "make -j$np"
# 4. A package changed by hand (an upgrade): configure again.
sed -i 's/^libmpich-dev .*/libmpich-dev 2.0/' "$T/installed"
qs
log_is "./quickstart.sh after an upgrade" "config.status --recheck | config.status  | make -j$np"
# 5. A tree configured without quickstart.sh (no record): configured again
# once.
rm "$Q/.quickstart.packages"
qs
log_is "./quickstart.sh without its record" "config.status --recheck | config.status  | make -j$np"
grep -q 'no record of the packages configure ran with' "$T/out" || fail "no record: $(cat "$T/out")"
qs
log_is "./quickstart.sh with its record again" "make -j$np"
echo "PASS: quickstart.sh configures again when the packages changed"
