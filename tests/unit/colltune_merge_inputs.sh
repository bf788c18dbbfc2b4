#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune merge under hostile input, with no MPI (issue 38: G2, G2c, G9,
# G6, G8, G12, G5).  Tune directories are built by hand from the emitters'
# golden files, as tests/mpi/colltune_merge.sh does.
#  1. MPICH's files: two MPICH tunes that agree give one mpich.env and
#     intel-mpi.env (joined as nccl.env is), which install takes; an MPICH
#     tune with an NCCL tune that has no mpich.env is refused (it differs);
#     a tune holding mpich-coll-selection.json (a tree merge cannot join)
#     is refused naming it.  Never exit 0 with a file's choices lost.
#  2. A comment line longer than any line buffer stays a comment.
#  3. nranks / nnodes past 2^24 (2^63-1 overflowed N+1) are exit 2.
#  4. A FIFO (nccl.env, mca-params.conf, report.json, the rules file) is
#     refused at once, not waited on; a file past 16 MiB is refused.
#  5. --out: a file of the table that this merge does not write (a stray
#     mpich.env) is refused, --force or not; a tune's directory and its
#     verify/ are refused, their files unchanged.
# Each refusal is exit 2, names the file, and writes nothing (a --out that
# merge made is removed again).
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
CT="$top_builddir/tuner/colltune"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-merge.XXXXXX")
trap 'rm -rf "$T"' EXIT
T=$(cd -P "$T" && pwd)
G="$top_srcdir/tests/unit/emit_golden"
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# mktune DIR SET NRANKS NNODES: golden set SET moved to NRANKS on NNODES,
# with a verify/ holding an A/B candidate and a verified report.json.
mktune() {
    mkdir -p "$1/verify"
    for _g in "$G/$2"/*; do
        sed -e "s|@DIR@|$1|g" -e "s/^16 \([0-9]*\) # comm size/$3 \1 # comm size/" \
            -e "s/^17 1 # comm sizes 17/$(($3 + 1)) 1 # comm sizes $(($3 + 1))/" \
            -e "s/,2,16\$/,$4,$3/" -e "s/\"comm_size_m\(in\|ax\)\": 16/\"comm_size_m\1\": $3/" \
            "$_g" >"$1/$(basename "$_g")"
    done
    echo 'btl_vader_eager_limit = 1 # candidate' >"$1/verify/mca-params.conf"
    printf '{"verified": true, "run_id": "run-%s", "nranks": %s, "nnodes": %s, "choices": [%s]}\n' \
        "$3" "$3" "$4" '{"name": "coll_tuned_allreduce_algorithm", "value": "4", "written": true}' \
        >"$1/report.json"
}

# merged OUT TUNE...: merge exits 0.
merged() {
    out=$1
    shift
    timeout 20 "$CT" merge --out "$out" "$@" >"$T/out" 2>"$T/err" ||
        fail "merge --out $out $*: exit $? ($(cat "$T/err"))"
}

# refused WHAT PATTERN OUT ARGS...: merge --out OUT ARGS exits 2 within 20 s
# with PATTERN on stderr, and OUT is as it was (absent stays absent).
refused() {
    what=$1 pat=$2 out=$3
    shift 3
    before=$(ls -lA "$out" 2>/dev/null; cat "$out"/* 2>/dev/null | cksum)
    timeout 20 "$CT" merge --out "$out" "$@" >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -ne 124 ] || fail "$what: hung (killed after 20 s)"
    [ "$rc" -eq 2 ] || fail "$what: exit $rc, want 2 ($(cat "$T/err"))"
    grep -qF -- "$pat" "$T/err" || fail "$what: no '$pat' in: $(cat "$T/err")"
    after=$(ls -lA "$out" 2>/dev/null; cat "$out"/* 2>/dev/null | cksum)
    [ "$before" = "$after" ] || fail "$what: --out $out changed: $(ls -A "$out" 2>&1)"
}

# --- 1. MPICH's files ------------------------------------------------------
mktune "$T/mpA" mpich 16 2
mktune "$T/mpB" mpich 32 4
merged "$T/m1" "$T/mpA" "$T/mpB"
for f in mpich.env intel-mpi.env; do
    [ -f "$T/m1/$f" ] || fail "G2: no $f in the merge: $(cat "$T/out")"
    grep '^export ' "$G/mpich/$f" >"$T/want"
    grep '^export ' "$T/m1/$f" >"$T/got"
    cmp -s "$T/want" "$T/got" || fail "G2: $f's settings: $(cat "$T/got")"
    grep -q 'not keyed by shape' "$T/m1/$f" || fail "G2: $f's header does not say it is not keyed"
done
timeout 20 "$CT" install "$T/m1" --to "$T/site1" >/dev/null 2>"$T/err" || fail "G2: install: $(cat "$T/err")"
[ -f "$T/site1/mpich.env" ] || fail "G2: install of the merge has no mpich.env"

mktune "$T/nccl" nccl 16 2
rm "$T/nccl/nccl.env" "$T/nccl/nccl.conf" # range rules only (G2c)
refused "G2c: MPICH and NCCL" "mpich.env differs between $T/mpA and $T/nccl" "$T/new" "$T/mpA" "$T/nccl"
[ ! -e "$T/new" ] || fail "G2c: --out left behind"
mktune "$T/csel" mpich-csel 16 2
refused "G2: MPICH's selection tree" "$T/csel/mpich-coll-selection.json: MPICH's selection tree" \
    "$T/new" "$T/mpA" "$T/csel"

# --- 2. A long comment line ------------------------------------------------
mktune "$T/g9a" full 16 2
mktune "$T/g9b" full 32 4
long=$(awk 'BEGIN { s = "# a long comment "; for (i = 0; i < 8174; i++) s = s "x"; print s "plm_rsh_agent = /tmp/evil.sh" }')
for t in g9a g9b; do printf '%s\n' "$long" >>"$T/$t/mca-params.conf"; done
merged "$T/m9" "$T/g9a" "$T/g9b"
! grep -q 'plm_rsh_agent' "$T/m9/mca-params.conf" || fail "G9: a comment's tail became a setting"

# --- 3. Shapes past 2^24 -----------------------------------------------------
mktune "$T/t16" full 16 2
mktune "$T/t32" full 32 4
for v in 9223372036854775807 16777217; do
    mktune "$T/big$v" full 16 2
    sed -i "s/^16 \([0-9]* # comm size, rules\)/$v \1/" "$T/big$v/coll-tuned-rules.conf"
    sed -i "s/\"nranks\": 16/\"nranks\": $v/" "$T/big$v/report.json"
    refused "G6: nranks $v" "\"nranks\" $v: at most 16777216" "$T/new" "$T/t32" "$T/big$v"
done
mktune "$T/nodes" full 16 2
sed -i 's/"nnodes": 2/"nnodes": 9223372036854775807/' "$T/nodes/report.json"
refused "G6: nnodes" "\"nnodes\" 9223372036854775807: at most" "$T/new" "$T/t32" "$T/nodes"
mktune "$T/ranks0" full 16 2
sed -i 's/"nranks": 16/"nranks": 0/' "$T/ranks0/report.json"
refused "nranks 0" "has no \"nranks\" from 1 to 16777216" "$T/new" "$T/t32" "$T/ranks0"

# --- 4. FIFOs and a huge file --------------------------------------------------
for f in nccl.env mca-params.conf report.json coll-tuned-rules.conf nccl_tuner.conf; do
    rm -rf "$T/fifo"
    mktune "$T/fifo" full 16 2
    rm "$T/fifo/$f"
    mkfifo "$T/fifo/$f" || fail "mkfifo"
    refused "G8: a FIFO $f" "$T/fifo/$f: is a FIFO" "$T/new" "$T/t32" "$T/fifo"
done
rm -rf "$T/huge"
mktune "$T/huge" full 16 2
dd if=/dev/null of="$T/huge/nccl.env" bs=1048576 seek=17 2>/dev/null || fail "dd"
refused "R6: a 17 MiB nccl.env" "$T/huge/nccl.env: is 17825792 bytes" "$T/new" "$T/t32" "$T/huge"

# --- 5. --out --------------------------------------------------------------------
merged "$T/m5" "$T/t16" "$T/t32"
cp "$T/mpA/mpich.env" "$T/m5/"
refused "G12: a stray mpich.env, --force" "$T/m5/mpich.env is not one of the files this merge writes" \
    "$T/m5" --force "$T/t16" "$T/t32"
refused "G12: a stray mpich.env" "$T/m5/mpich.env is not one of the files" "$T/m5" "$T/t16" "$T/t32"
rm "$T/m5/mpich.env"
merged "$T/m5" --force "$T/t16" "$T/t32" # a merge's own directory, again
cp -r "$T/t16" "$T/t16d"
refused "G5: a tune's verify/" "is inside a tune's directory $T/t16" "$T/t16/verify" --force "$T/t16d" "$T/t32"
refused "G5: below a tune's verify/" "is inside a tune's directory $T/t16" "$T/t16/verify/sub" \
    --force "$T/t16d" "$T/t32"
[ ! -e "$T/t16/verify/sub" ] || fail "G5: --out left behind in verify/"
refused "a tune's directory" "is a tune's directory $T/t16" "$T/t16" --force "$T/t16d" "$T/t32"
echo PASS
