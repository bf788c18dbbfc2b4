# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=sh
# shellcheck disable=SC2016,SC2154 # the $(...) are file names; $root is bench/hostile's
# bench/hostile.d/38-completion.sh - issue 38, items 1, 15, 11 and 12:
#   C10      bash completion ran $(...) and backticks in the names of the
#            spaces directory's files (compgen -W expands its word list)
#   C1, C2   COMPREPLY=($(compgen -f ...)) split 'a b' and globbed '*'
#   P15      tune --strategy random --budget N printed "trial 1/0"
#   T11      tests/unit/spdx.sh in an unpacked tarball named aclocal.m4
#            and libtool's files as missing their SPDX line
#   Q12      ./quickstart.sh then ./quickstart.sh check kept the configure
#            run from before MPICH was installed
# Sourced by bench/hostile (its helpers and $T, $CT, $root).  The
# completion cases run contrib/completion/colltune.bash in bash against a
# stand-in install prefix whose colltune runs $CT; each prints
# "n=COUNT [WORD]..." for COMPREPLY, on one line.
C38=$T/c38
mkdir -p "$C38/pfx/bin" "$C38/pfx/share/colltune/spaces" "$C38/work"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$CT" >"$C38/pfx/bin/colltune"
chmod +x "$C38/pfx/bin/colltune"
(cd "$C38/pfx/share/colltune/spaces" && : >good.ini && : >'$(touch MARK).ini' && : >'`touch MARK`.ini')
(cd "$C38/work" && : >'a b' && : >'*' && : >zz)
# complete38 WORD...: completes the last WORD in $C38/work.
cat >"$T/bin/complete38" <<'EOF'
#!/bin/sh
cd "$HOSTILE_C38/work" || exit 2
PATH=$HOSTILE_C38/pfx/bin:$PATH exec bash -c '
    . "$1"
    shift
    COMP_WORDS=("$@")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    _colltune
    printf "n=%s" "${#COMPREPLY[@]}"
    printf " [%s]" "${COMPREPLY[@]}"
    echo' sh "$HOSTILE_ROOT/contrib/completion/colltune.bash" "$@"
EOF
chmod +x "$T/bin/complete38"
HOSTILE_C38=$C38 HOSTILE_ROOT=$root
export HOSTILE_C38 HOSTILE_ROOT
if command -v bash >/dev/null 2>&1; then
    on_stdout
    hcase "C10 completion of --space: a space named '\$(touch MARK)'" 0 'n=1 [$(touch MARK)]' \
        "$T/bin/complete38" colltune tune --space '$'
    on_stdout
    hcase "C10 completion of --space: a space named '\`touch MARK\`'" 0 'n=1 [`touch MARK`]' \
        "$T/bin/complete38" colltune tune --space '`'
    on_stdout
    hcase "C1 completion of a file named 'a b': one word" 0 'n=1 [a b]' \
        "$T/bin/complete38" colltune tune --report 'a'
    on_stdout
    hcase "C2 completion of a file named '*': not globbed" 0 'n=1 [*]' \
        "$T/bin/complete38" colltune tune --weights '*'
else
    skip 4 "C10, C1, C2 completion" "no bash"
fi

# P15: the progress lines of tune --strategy random --budget 6 count to 6.
# The launcher runs collbench as a singleton and fails every shared launch
# (one with --config), so that each trial runs alone and writes its line.
mkdir -p "$C38/solo"
cat >"$C38/solo/mpirun" <<'EOF2'
#!/bin/sh
for a in "$@"; do
    [ "$a" != --config ] || exit 1
done
while [ $# -gt 0 ] && [ "${1##*/}" != collbench ]; do shift; done
exec "$@"
EOF2
chmod +x "$C38/solo/mpirun"
no_mem_limit
hcase "P15 tune --strategy random --budget 6: progress 'trial 6/6', not 'trial 1/0'" 0 \
    "colltune tune: trial 6/6 " "$CT" tune --space "$SPACE" --out "$T/p15" --collbench "$CB" \
    --launcher "$C38/solo/mpirun" --np 2 --strategy random --budget 6 -- -b 1K -e 1K

# T11: tests/unit/spdx.sh in a tree that is no git checkout (an unpacked
# tarball) passes over what autoreconf -fi writes (aclocal.m4, libtool's
# m4 files, build-aux/), and still names a file of ours without its line.
mkdir -p "$C38/tarball/build-aux" "$C38/tarball/config" "$C38/tarball/src"
for _f in aclocal.m4 build-aux/ltmain.sh build-aux/compile config/libtool.m4 config/ltoptions.m4 \
    'config/lt~obsolete.m4'; do
    echo '# generated, no licence line' >"$C38/tarball/$_f"
done
printf '/* SPDX-License-Identifier: BSD-3-Clause */\n' >"$C38/tarball/src/ours.c"
on_stdout
hcase "T11 spdx.sh outside a checkout: autoreconf's files are not ours" 0 "" \
    env GIT_DIR=/nonexistent top_srcdir="$C38/tarball" sh "$root/tests/unit/spdx.sh"
hcase "T11 spdx.sh outside a checkout: a file of ours without its SPDX line" 1 "src/theirs.c" \
    sh -c 'printf "/* no line */\n" >"$1/src/theirs.c" && GIT_DIR=/nonexistent top_srcdir=$1 sh "$2"; rc=$?
        rm -f "$1/src/theirs.c"; exit "$rc"' sh "$C38/tarball" "$root/tests/unit/spdx.sh"

# Q12: the README's `./quickstart.sh` then `./quickstart.sh check` on a
# fresh machine configures again once check has installed MPICH; replayed
# with stand-ins for apt, dpkg, configure and make (tests/unit/quickstart.sh).
on_stdout
hcase "Q12 ./quickstart.sh then ./quickstart.sh check: configure runs again after MPICH" 0 \
    "PASS: quickstart.sh configures again when the packages changed" \
    env top_srcdir="$root" sh "$root/tests/unit/quickstart.sh"
