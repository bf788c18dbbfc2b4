#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# shellcheck disable=SC2016 # the $(...) and backticks below are file names
# contrib/completion/colltune.bash: sourced in bash, its functions driven
# with COMP_WORDS/COMP_CWORD as bash would, COMPREPLY checked.  The tools
# sit in an install-like prefix (PREFIX/bin, PREFIX/share/colltune/spaces)
# as stand-ins that run the built ones, so the lists come from the real
# --help and the spaces are found where make install puts them.
set -u
: "${top_srcdir:?run through make check}" "${top_builddir:?run through make check}"
command -v bash >/dev/null 2>&1 || { echo "SKIP: no bash"; exit 77; }
S=$top_srcdir/contrib/completion/colltune.bash
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-completion.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

bash -n "$S" || fail "bash -n"
if command -v shellcheck >/dev/null 2>&1; then
    # SC2207 (an unquoted COMPREPLY=($(...)), which splits and globs) too.
    shellcheck -s bash "$S" || fail shellcheck
fi

mkdir -p "$T/bin" "$T/share/colltune/spaces" "$T/work/outdir"
for t in tuner/colltune src/collbench; do
    printf '#!/bin/sh\nexec "%s" "$@"\n' "$top_builddir/$t" >"$T/bin/${t##*/}"
    chmod +x "$T/bin/${t##*/}"
done
cp "$top_srcdir"/tuner/spaces/*.ini "$T/share/colltune/spaces/"
touch "$T/work/local-notes.txt"
# Hostile names (issue 38, C10, C1/C2): a space or file name is a word of
# COMPREPLY as it is, never expanded (compgen -W ran $(...) and backticks),
# split or globbed.  A MARK file anywhere under $T is a command that ran.
nl='
'
(cd "$T/share/colltune/spaces" &&
    touch -- '$(touch MARK1).ini' '`touch MARK2`.ini' '$HOME.ini' '{x,y}.ini' \
        '$((1+1)).ini' "nl${nl}x.ini" 'bl ank.ini') || fail "hostile spaces"
(cd "$T/work" && touch -- 'a b.txt' '*' -dash.txt && mkdir -- '$(touch MARK3)') || fail "hostile files"

# check WANT WORD...: completing the last WORD gives exactly WANT (sorted,
# joined by $SEP, a blank unless set).
check() {
    want=$1
    shift
    got=$(cd "$T/work" && PATH="$T/bin:$PATH" SEP="${SEP:- }" bash -c '
        . "$1"
        shift
        COMP_WORDS=("$@")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        if [[ ${COMP_WORDS[0]} == collbench ]]; then _collbench; else _colltune; fi
        ((${#COMPREPLY[@]} == 0)) || printf "%s\0" "${COMPREPLY[@]}" | LC_ALL=C sort -z | tr "\0" "$SEP"' \
        sh "$S" "$@") || fail "bash: $*"
    got=${got%"${SEP:- }"}
    [ "$got" = "$want" ] || fail "[$*]: want '$want', got '$got'"
    marks=$(find "$T" -name 'MARK*')
    [ -z "$marks" ] || fail "[$*]: a file name ran as a command: $marks"
}

check "tune" colltune tu
check "sbatch sweep" colltune s
check "--space" colltune tune --sp
check "--strategy" colltune tune --str
# An option named only in the prose of tune --help (collbench's --config)
# is not offered.
check "" colltune tune --conf
check "--out" colltune sweep --ou
check "local local-notes.txt" colltune tune --space loc
check "nccl" colltune tune --space nc
check "outdir" colltune tune --out ou
check "halving" colltune tune --strategy h
check "all allgather allreduce alltoall" collbench -C all
check "allreduce,all allreduce,allgather allreduce,allreduce allreduce,alltoall" collbench -C allreduce,a
check "reduce_scatter" collbench -C re
check "bfloat16" collbench -d b
check "int32 int64 int8" collbench --datatype int
check "nccl" collbench --backend n
check "--json" collbench --js
# After --, the words are collbench's.
check "all allgather allreduce alltoall" colltune sweep --np 2 -- -C all
check "--minbytes" colltune sweep --np 2 -- --minb
check "all allgather allreduce alltoall" colltune tune --collectives all

# The hostile names, one word each (SEP=|), as they are.
SEP='|' check '$((1+1))|$(touch MARK1)|$(touch MARK3)|$HOME' colltune tune --space '$'
SEP='|' check '`touch MARK2`' colltune tune --space '`'
SEP='|' check '{x,y}' colltune tune --space '{'
SEP='|' check "nl${nl}x" colltune tune --space nl
SEP='|' check 'bl ank' colltune tune --space bl
SEP='|' check 'a b.txt' colltune tune --report 'a '
SEP='|' check 'a b.txt' colltune tune --space 'a'
SEP='|' check '*' colltune tune --weights '*'
SEP='|' check '*' colltune tune '*'
SEP='|' check '$(touch MARK3)' colltune tune --out '$'
SEP='|' check '$(touch MARK3)' colltune sbatch --out '$'
SEP='|' check '$(touch MARK3)' collbench --csv '$'
SEP='|' check '-dash.txt' colltune tune --report -d
exit 0
