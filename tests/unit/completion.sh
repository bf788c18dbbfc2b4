#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
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
    # SC2207: COMPREPLY=($(compgen ...)) is the completion idiom.
    shellcheck -s bash -e SC2207 "$S" || fail shellcheck
fi

mkdir -p "$T/bin" "$T/share/colltune/spaces" "$T/work/outdir"
for t in tuner/colltune src/collbench; do
    printf '#!/bin/sh\nexec "%s" "$@"\n' "$top_builddir/$t" >"$T/bin/${t##*/}"
    chmod +x "$T/bin/${t##*/}"
done
cp "$top_srcdir"/tuner/spaces/*.ini "$T/share/colltune/spaces/"
touch "$T/work/local-notes.txt"

# check WANT WORD...: completing the last WORD gives exactly WANT (sorted,
# space-separated).
check() {
    want=$1
    shift
    got=$(cd "$T/work" && PATH="$T/bin:$PATH" bash -c '
        . "$1"
        shift
        COMP_WORDS=("$@")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        if [[ ${COMP_WORDS[0]} == collbench ]]; then _collbench; else _colltune; fi
        printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' sh "$S" "$@") || fail "bash: $*"
    got=${got% }
    [ "$got" = "$want" ] || fail "[$*]: want '$want', got '$got'"
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
exit 0
