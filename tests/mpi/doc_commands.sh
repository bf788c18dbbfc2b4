#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The commands in README.md and doc/*.md run as written.
#
# 1. Every fenced block marked by a line "<!-- runnable -->" directly above
#    its fence is run with sh -e, text unchanged, in a scratch directory of
#    its file's own (blocks of one file run in order there, so a later block
#    may read what an earlier one wrote), holding links tuner/ and contrib/
#    to the source tree's, with the built colltune and collbench first on
#    PATH.  What this machine needs for mpirun as root on 2 cores
#    (DESIGN.md, lib.sh's ct_mpirun) comes from the environment only.
#    A block must finish in 20 s, or in N s where its mark says so
#    ("<!-- runnable N -->": a tune with its A/B).
# 2. In every fenced block, runnable or not, each colltune SUB and collbench
#    command line uses only options its --help lists, and none of the
#    collbench arguments colltune tune or sweep keep for themselves
#    (tune.c's and sweep.c's "taken" lists): what broke the README's NCCL
#    journey (-C after tune's --) is caught without running the command.
. "$top_srcdir/tests/mpi/lib.sh"
ct_colltune_test

docs="$top_srcdir/README.md"
for f in "$top_srcdir"/doc/*.md; do docs="$docs $f"; done

mkdir -p "$T/bin" "$T/tmp"
ln -s "$top_builddir/tuner/colltune" "$T/bin/colltune"
ln -s "$top_builddir/src/collbench" "$T/bin/collbench"
case $MPIRUN in
*/*) ln -s "$MPIRUN" "$T/bin/mpirun" ;;
esac

# --- 2. options against --help -------------------------------------------
"$T/bin/collbench" --help >"$T/help.collbench" 2>&1 || fail "collbench --help"
"$T/bin/colltune" --help >"$T/help.colltune" 2>&1 || fail "colltune --help"
for sub in $(awk '/^  [a-z]+ / { print $1 }' "$T/help.colltune"); do
    "$T/bin/colltune" "$sub" --help >"$T/help.colltune-$sub" 2>&1 || fail "colltune $sub --help"
done
# The options a --help lists: --long (up to = or [), and -X.
opts_of() {
    grep -o -- '\(^\|[ ,[]\)--\?[A-Za-z][A-Za-z0-9-]*' "$1" | sed 's/^[ ,[]//' | sort -u
}
# Each fenced line (continuations joined, quoted text and comments dropped)
# as "FILE:LINE<TAB>TEXT".
for f in $docs; do
    awk -v F="${f#"$top_srcdir"/}" '
        /^```/ { inb = !inb; line = ""; next }
        !inb { next }
        {
            if (line == "") start = NR
            l = $0
            gsub(/'"'"'[^'"'"']*'"'"'/, "Q", l); gsub(/"[^"]*"/, "Q", l)
            sub(/(^| )#.*/, "", l)
            if (l ~ /\\$/) { line = line substr(l, 1, length(l) - 1) " "; next }
            line = line l
            print F ":" start "\t" line
            line = ""
        }' "$f"
done >"$T/lines"
bad=0
while IFS='	' read -r where text; do
    set -f
    # shellcheck disable=SC2086
    set -- $text
    set +f
    prog=
    nested=
    while [ $# -gt 0 ]; do
        w=$1
        shift
        case $w in
        '|' | ';' | '&&' | '||' | ':') prog= ;; # ':' ends an mpirun app context
        collbench | */collbench) prog=collbench ;;
        colltune | */colltune)
            [ $# -gt 0 ] && [ -f "$T/help.colltune-$1" ] && {
                prog=colltune-$1
                shift
            }
            ;;
        --)
            case $prog in
            colltune-sbatch) [ -n "$nested" ] && prog=colltune-$nested ;;
            colltune-sweep | colltune-tune | colltune-health) prog=collbench:${prog#colltune-} ;;
            esac
            ;;
        -*)
            [ -n "$prog" ] || continue
            o=${w%%=*}
            case $o in -[A-Za-z]?*) [ "${o#--}" = "$o" ] && o=$(printf '%s' "$o" | cut -c1-2) ;; esac
            h=$T/help.${prog%%:*}
            grep -qx -- "$o" "$T/opts.${prog%%:*}" 2>/dev/null || {
                opts_of "$h" >"$T/opts.${prog%%:*}"
                grep -qx -- "$o" "$T/opts.${prog%%:*}"
            } || {
                echo "$where: $o is not among the options of ${prog%%:*} --help: $text" >&2
                bad=1
            }
            case $prog:$o in
            collbench:tune:-C | collbench:tune:--collectives | collbench:tune:--csv | \
                collbench:tune:--json | collbench:tune:-a | collbench:tune:--average | \
                collbench:sweep:--csv | collbench:sweep:--json)
                echo "$where: colltune ${prog#collbench:} sets collbench's $o itself: $text" >&2
                bad=1
                ;;
            esac
            # An option whose value may itself start with "-".
            case $o in --launcher-arg) shift ;; esac
            ;;
        *)
            [ "$prog" = colltune-sbatch ] && case $w in sweep | tune | nightly) nested=$w ;; esac
            ;;
        esac
    done
done <"$T/lines"
[ "$bad" -eq 0 ] || fail "documented commands use options their programs do not take"
[ "$(wc -l <"$T/lines")" -gt 20 ] || fail "found only $(wc -l <"$T/lines") fenced lines"

# --- 1. the runnable blocks ----------------------------------------------
export PATH="$T/bin:$PATH"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_hwloc_base_binding_policy=none
export OMPI_MCA_mpi_yield_when_idle=1 OMPI_MCA_orte_tmpdir_base="$T/tmp"
export OMPI_MCA_odls_base_sigkill_timeout=0
unset COLLTUNE_NCCL_LIB COLLTUNE_CUDART_LIB STUB_CUDA_DEVICES CUDA_VISIBLE_DEVICES \
    NCCL_ALGO NCCL_PROTO NCCL_TUNER_CONFIG_FILE NCCL_CONF_FILE
nblocks=0
for f in $docs; do
    rel=${f#"$top_srcdir"/}
    d=$T/run/$(echo "$rel" | tr / _)
    mkdir -p "$d/blocks"
    ln -s "$top_srcdir/tuner" "$d/tuner"
    ln -s "$top_srcdir/contrib" "$d/contrib"
    awk -v D="$d/blocks" '
        mark && /^```/ { n++; out = sprintf("%s/%03d.%d.%d", D, n, NR, limit); inb = 1; mark = 0; next }
        inb && /^```/ { inb = 0; close(out); next }
        inb { print > out; next }
        { mark = 0 }
        /^<!-- runnable( [0-9]+)? -->$/ { mark = 1; limit = ($3 ~ /^[0-9]+$/) ? $3 : 20 }' "$f"
    for b in "$d"/blocks/*; do
        [ -f "$b" ] || continue
        nblocks=$((nblocks + 1))
        limit=${b##*.}
        line=${b%.*}
        line=${line##*.}
        t0=$(date +%s)
        (cd "$d" && timeout "$limit" sh -e "$b") >"$b.out" 2>"$b.err"
        rc=$?
        echo "$rel:$line: exit $rc, $(($(date +%s) - t0)) s"
        [ "$rc" -eq 0 ] || fail "$rel: the runnable block at line $line exits $rc$([ "$rc" -eq 124 ] && echo " (over $limit s)"):
$(cat "$b")
--- stderr:
$(tail -20 "$b.err")"
    done
done
[ "$nblocks" -ge 3 ] || fail "only $nblocks runnable blocks"
exit 0
