#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The installed tools alone (issue 25): `make install prefix=P`, then from
# P only (PATH=P/bin, run outside the trees):
#  - tune --list-spaces lists P's spaces; a real tune with --space local
#    (by name) at np=2 runs the installed collbench (search only);
#  - colltune install of a tune's files into a site directory, and
#    verify-install reading them back through MPI_T;
#  - man colltune-install renders from P's man pages;
#  - bash completion from P completes the subcommands, install included;
#  - the cron example names P's colltune and recipe.
. "$top_srcdir/tests/mpi/lib.sh"

P="$T/prefix"
make -C "$top_builddir" install prefix="$P" >"$T/install.log" 2>&1 ||
    fail "make install prefix=$P: $(tail -20 "$T/install.log")"
PATH="$P/bin:$PATH"
export PATH
unset COLLTUNE_PLOTS_DIR
mkdir "$T/work" "$T/tmp"
cd "$T/work" || fail "cd"
[ "$(command -v colltune)" = "$P/bin/colltune" ] || fail "colltune is not P's: $(command -v colltune)"

colltune tune --list-spaces >"$T/out" 2>"$T/err" || fail "--list-spaces: $(cat "$T/err")"
grep -qx "# spaces in $P/share/colltune/spaces (colltune tune --space NAME)" "$T/out" ||
    fail "--list-spaces does not read P's spaces: $(cat "$T/out")"
grep -q '^local ' "$T/out" || fail "--list-spaces lacks local: $(cat "$T/out")"

set -- --np 2 --launcher-arg --oversubscribe --launcher-arg --bind-to --launcher-arg none \
    --launcher-arg --mca --launcher-arg orte_tmpdir_base --launcher-arg "$T/tmp" \
    --mca mpi_yield_when_idle=1 --timeout 60
timeout 300 colltune tune --space local --out tuned "$@" --strategy exhaustive --launches 1 \
    --verify-pairs 0 --collectives allreduce -- -b 64K -e 64K >"$T/out" 2>"$T/err" ||
    fail "tune --space local: exit $? ($(tail -5 "$T/err"))"
grep -q "\"space_path\": \"$P/share/colltune/spaces/local.ini\"" tuned/report.json ||
    grep -q "$P/share/colltune/spaces/local.ini" tuned/report.json ||
    fail "the tune did not read P's local.ini: $(head -c 600 tuned/report.json)"
grep -q "$P/bin/collbench" tuned/journal.jsonl tuned/trials/*/launch.json 2>/dev/null ||
    grep -rq "$P/bin/collbench" tuned/ || fail "the tune did not run P's collbench"

# install + verify-install on a tune's files (the emitters' golden output:
# a search-only tune writes none).
tune="$T/tune"
mkdir "$tune"
for f in "$top_srcdir"/tests/unit/emit_golden/ompi/*; do
    sed "s|@DIR@|$tune|g" "$f" >"$tune/$(basename "$f")"
done
cat >"$tune/report.json" <<'EOS'
{"verified": true, "choices": [{"name": "btl_vader_eager_limit", "value": "8192", "via": "mca", "written": true}]}
EOS
colltune install "$tune" --to "$T/site" >"$T/out" 2>"$T/err" || fail "install: $(cat "$T/err")"
rm -rf "$tune"
colltune verify-install "$T/site" "$@" >"$T/out" 2>"$T/err" ||
    fail "verify-install: exit $? ($(cat "$T/out" "$T/err"))"
grep -q 'values in force' "$T/out" || fail "verify-install: $(cat "$T/out")"

if command -v man >/dev/null 2>&1; then
    MANPATH="$P/share/man" man -P cat colltune-install >"$T/man" 2>"$T/err" ||
        fail "man colltune-install: $(cat "$T/err")"
    grep -q 'install' "$T/man" || fail "man colltune-install: $(head "$T/man")"
else
    [ -s "$P/share/man/man1/colltune-install.1" ] || fail "no colltune-install.1 in P"
fi

if command -v bash >/dev/null 2>&1; then
    got=$(bash -c '. "$1"; COMP_WORDS=(colltune ins); COMP_CWORD=1; _colltune
        printf "%s " "${COMPREPLY[@]}"' sh "$P/share/bash-completion/completions/colltune")
    [ "$got" = "install " ] || fail "completion of 'colltune ins': '$got'"
fi

grep -q "COLLTUNE=$P/bin/colltune $P/share/colltune/contrib/nightly.sh" \
    "$P/share/colltune/contrib/nightly.cron" || fail "nightly.cron does not name P's paths"
exit 0
