#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune merge without MPI: tune directories built by hand
# (colltune_merge_lib.sh: a verified report.json whose choices carry their
# shape is what merge reads), joined through the emitters, and refused.
#  1. Open MPI rules at 2 ranks (two size ranges) and 4 (every size), UCX
#     alike at both, NCCL plugin rules at 1x2 and 1x4, beside a tune's own
#     files (journal, reports, trials/, verify/, .lock): one rules file
#     whose comm size 2 and 4 sections give each tune's algorithms and Open
#     MPI's own decision at 1, 3 and 5 up (4.1's reader emulated), one
#     plugin file with both nRanks, ucx.conf once, mca-params.conf naming
#     OUT's rules; report.json lists the tunes and every choice written;
#     install takes OUT, and a later merge takes OUT as a tune.  Against a
#     site's NCCL_ALGO (report.json "site"), the NCCL files in the form
#     that wins.  A tune with coll-tuned-rules.json: the merge writes it.
#     The same tune twice: its choices kept once, from both.
#  2. MPICH at 2 and 3 ranks, its tree read from a library file (as tune
#     records "mpich_lib"): mpich.env, intel-mpi.env (@2-2, @3-3) and
#     mpich-coll-selection.json (comm_size<=2 and <=3) all kept; against a
#     site that forces the CVAR (report.json "site"), the forms that win
#     (=auto, the site's algorithm kept in the tree); without the library
#     the range choice is refused naming the tune's selection file.
#  3. Refusals, exit 2, named, nothing written: two tunes' values at one
#     shape over overlapping sizes (both tunes named); one value for every
#     shape chosen otherwise at another; a value a file cannot carry (a
#     newline); an unverified tune; one TUNE_DIR; a file no row knows in a
#     tune (named); a FIFO; a 17 MiB report.json; shapes past 2^24 (2^63-1
#     overflowed N+1), bad fields, each named; another site; a file a tune
#     holds that the merge would not write.
#  4. --out: a stray file of the rows (--force or not), an existing file
#     without --force, a tune's directory and its verify/, a comma.
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
CT="$top_builddir/tuner/colltune"
JG="$top_builddir/tests/tools/json_get"
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-merge.XXXXXX")
trap 'rm -rf "$T"' EXIT
T=$(cd -P "$T" && pwd)
. "$top_srcdir/tests/unit/colltune_merge_lib.sh"
fail() {
    echo "FAIL: $*" >&2
    exit 1
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

AR=coll_tuned_allreduce_algorithm
# --- 1. Open MPI, UCX and NCCL at 2 and 4 ranks --------------------------------
mkreport "$T/t2" 2 1 "$(ch $AR 3 mca allreduce 0 8191 1 2)" "$(ch $AR 4 mca allreduce 8192 -1 1 2)" \
    "$(ch UCX_TLS tcp env global -1 -1 1 2)" "$(ch NCCL_ALGO tree env allreduce 16384 65536 1 2)"
mkreport "$T/t4" 4 1 "$(ch $AR 5 mca allreduce 0 -1 1 4)" "$(ch UCX_TLS tcp env global -1 -1 1 4)" \
    "$(ch NCCL_ALGO tree env allreduce 16384 65536 1 4)"
mkdir -p "$T/t4/trials/x" "$T/t4/verify"
for f in journal.jsonl journal.head.json report.md .lock verify/ucx.conf; do echo x >"$T/t4/$f"; done
merged "$T/m1" "$T/t2" "$T/t4"
for f in coll-tuned-rules.conf mca-params.conf ucx.conf nccl_tuner.conf report.json; do
    [ -f "$T/m1/$f" ] || fail "1: no $f in the merge: $(cat "$T/out")"
done
[ "$(ls "$T/m1" | wc -l)" -eq 5 ] || fail "1: files: $(ls "$T/m1")"
r="$T/m1/coll-tuned-rules.conf"
for c in 0:2:3 8191:2:3 8192:2:4 1048576:2:4 0:4:5 65536:4:5 0:1:0 0:3:0 0:5:0 0:64:0; do
    msg=${c%%:*} rest=${c#*:} comm=${rest%%:*} want=${rest#*:}
    got=$(rule "$r" 2 "$comm" "$msg")
    [ "$got" = "$want" ] || fail "1: allreduce at comm size $comm, $msg B: algorithm $got, want $want: $(cat "$r")"
done
grep -q '^allreduce,16384,65536,tree,-1,-1,1,2$' "$T/m1/nccl_tuner.conf" &&
    grep -q '^allreduce,16384,65536,tree,-1,-1,1,4$' "$T/m1/nccl_tuner.conf" ||
    fail "1: nccl_tuner.conf: $(cat "$T/m1/nccl_tuner.conf")"
[ "$(grep -c '^UCX_TLS=tcp$' "$T/m1/ucx.conf")" = 1 ] || fail "1: ucx.conf: $(cat "$T/m1/ucx.conf")"
[ "$(grep -c "^coll_tuned_dynamic_rules_filename = $T/m1/coll-tuned-rules.conf\$" "$T/m1/mca-params.conf")" = 1 ] ||
    fail "1: mca-params.conf: $(cat "$T/m1/mca-params.conf")"
j="$T/m1/report.json"
[ "$("$JG" "$j" verified)" = true ] && [ "$("$JG" "$j" merged_from.#)" = 2 ] &&
    [ "$("$JG" "$j" merged_from.1.dir)" = "$T/t4" ] && [ "$("$JG" "$j" choices.#)" = 7 ] ||
    fail "1: report.json: $(cat "$j")"
i=0
while [ $i -lt 7 ]; do
    [ "$("$JG" "$j" "choices.$i.written")" = true ] || fail "1: choice $i not written: $(cat "$j")"
    i=$((i + 1))
done
[ "$("$JG" "$j" choices.4.nranks)" = 4 ] && [ "$("$JG" "$j" choices.4.from.0)" = "$T/t4" ] ||
    fail "1: choice 4's shape or tune: $(cat "$j")"
timeout 20 "$CT" install "$T/m1" --to "$T/site" >/dev/null 2>"$T/err" || fail "1: install: $(cat "$T/err")"
grep -q "^coll_tuned_dynamic_rules_filename = $T/site/coll-tuned-rules.conf\$" "$T/site/mca-params.conf" ||
    fail "1: install did not rewrite the merged rules path"
# OUT as a tune of a later merge.
mkreport "$T/t8" 8 2 "$(ch $AR 6 mca allreduce 0 -1 2 8)" "$(ch UCX_TLS tcp env global -1 -1 2 8)"
merged "$T/m1b" "$T/m1" "$T/t8"
[ "$(rule "$T/m1b/coll-tuned-rules.conf" 2 8 0):$(rule "$T/m1b/coll-tuned-rules.conf" 2 4 0)" = 6:5 ] ||
    fail "1: a merge of a merge: $(cat "$T/m1b/coll-tuned-rules.conf")"
# Against a site whose environment forces NCCL_ALGO=ring, as each tune
# wrote it (report.json "site"): nccl.env re-enables Tree for allreduce,
# no nccl.conf (the environment outranks it), the plugin keeps the site's
# Ring elsewhere.
SITE='[{"name": "NCCL_ALGO", "value": "ring", "origin": "environment", "mca": false}]'
for n in 2 4; do
    SITE=$SITE mkreport "$T/ns$n" $n 1 "$(ch NCCL_ALGO tree env allreduce 16384 65536 1 $n)"
done
unset SITE
merged "$T/m6" "$T/ns2" "$T/ns4"
[ ! -e "$T/m6/nccl.conf" ] && grep -q "^export NCCL_ALGO='ring;AllReduce:Tree,Ring'\$" "$T/m6/nccl.env" &&
    grep -q '^allreduce,16384,65536,tree,-1,-1,1,4$' "$T/m6/nccl_tuner.conf" &&
    grep -q '^allreduce,0,-1,ring,-1,-1,-1,-1' "$T/m6/nccl_tuner.conf" ||
    fail "1: against the site: $(ls "$T/m6"; cat "$T/m6/nccl.env" "$T/m6/nccl_tuner.conf")"
# A tune made with --rules-json: the merge writes Open MPI 6's JSON too.
cp -r "$T/t4" "$T/t4j"
echo '{}' >"$T/t4j/coll-tuned-rules.json"
merged "$T/m7" "$T/t2" "$T/t4j"
[ "$("$JG" "$T/m7/coll-tuned-rules.json" collectives.allreduce.#)" = 2 ] ||
    fail "1: coll-tuned-rules.json: $(cat "$T/m7/coll-tuned-rules.json" 2>&1)"
cp -r "$T/t2" "$T/t2b"
merged "$T/m2" "$T/t2" "$T/t2b" "$T/t4"
[ "$("$JG" "$T/m2/report.json" choices.#)" = 7 ] && [ "$("$JG" "$T/m2/report.json" choices.0.from.#)" = 2 ] ||
    fail "1: the same tune twice: $(cat "$T/m2/report.json")"
for c in 0:2 8192:2 0:3 0:4; do
    [ "$(rule "$T/m2/coll-tuned-rules.conf" 2 "${c#*:}" "${c%:*}")" = "$(rule "$r" 2 "${c#*:}" "${c%:*}")" ] ||
        fail "1: the same tune twice: other rules at $c: $(cat "$T/m2/coll-tuned-rules.conf")"
done

# --- 2. MPICH at 2 and 3 ranks ----------------------------------------------------
tree='{"collective=bcast":{"comm_type=intra":{"avg_msg_size=any":{"algorithm=MPIR_Bcast_intra_binomial":{}}}},"collective=allgather":{"comm_type=intra":{"comm_size=any":{"algorithm=MPIR_Allgather_intra_ring":{}}}}}'
printf 'ELF junk\0%s\0' "$tree" >"$T/libmpich.so.12"
BC=MPIR_CVAR_BCAST_INTRA_ALGORITHM AG=MPIR_CVAR_ALLGATHER_INTRA_ALGORITHM
for n in 2 3; do
    MPICH_LIB="$T/libmpich.so.12" mkreport "$T/mp$n" $n 1 \
        "$(ch $BC scatter_ring_allgather env broadcast 65536 262144 1 $n)" "$(ch $AG ring env allgather 0 -1 1 $n)"
    echo x >"$T/mp$n/mpich-coll-selection.json"
done
merged "$T/m3" "$T/mp2" "$T/mp3"
for f in mpich.env intel-mpi.env mpich-coll-selection.json; do
    [ -f "$T/m3/$f" ] || fail "2: no $f in the merge: $(cat "$T/out")"
done
grep -q "^export $AG=ring\$" "$T/m3/mpich.env" || fail "2: mpich.env: $(cat "$T/m3/mpich.env")"
grep -q '^export I_MPI_ADJUST_ALLGATHER=".*@2-2.*@3-3' "$T/m3/intel-mpi.env" ||
    fail "2: intel-mpi.env: $(cat "$T/m3/intel-mpi.env")"
s="$T/m3/mpich-coll-selection.json"
for n in 2 3; do
    "$JG" "$s" "collective=bcast.comm_type=intra.comm_size<=$n.avg_msg_size<=262144.algorithm=MPIR_Bcast_intra_scatter_ring_allgather" >/dev/null ||
        fail "2: no scatter_ring_allgather at comm size $n: $(cat "$s")"
done
[ "$("$JG" "$T/m3/report.json" mpich_lib)" = "$T/libmpich.so.12" ] || fail "2: report.json's mpich_lib"
# Against the tunes' site (their report.json "site"), as each tune wrote
# it: the forced CVAR set to auto, the selection file keeps the site's.
SITE="[{\"name\": \"$BC\", \"value\": \"scatter_ring_allgather\", \"origin\": \"environment\", \"mca\": false}]"
for n in 2 3; do
    SITE=$SITE MPICH_LIB="$T/libmpich.so.12" mkreport "$T/ms$n" $n 1 "$(ch $BC binomial env broadcast 65536 262144 1 $n)"
done
unset SITE
merged "$T/m4" "$T/ms2" "$T/ms3"
grep -q "^export $BC=auto\$" "$T/m4/mpich.env" &&
    grep -q "^# Overrides the site's $BC=scatter_ring_allgather (environment)" "$T/m4/mpich.env" ||
    fail "2: mpich.env against the site: $(cat "$T/m4/mpich.env")"
"$JG" "$T/m4/mpich-coll-selection.json" "collective=bcast.comm_type=intra.comm_size<=3.avg_msg_size<=65535.algorithm=MPIR_Bcast_intra_scatter_ring_allgather" >/dev/null ||
    fail "2: the selection file does not keep the site's algorithm: $(cat "$T/m4/mpich-coll-selection.json")"
mkreport "$T/mpx" 2 1 "$(ch $BC scatter_ring_allgather env broadcast 65536 262144 1 2)"
echo x >"$T/mpx/mpich-coll-selection.json"
refused "2: no MPICH library" "the tune wrote $T/mpx/mpich-coll-selection.json" "$T/new" "$T/mpx" "$T/mp3"
grep -qF '"mpich_lib"' "$T/err" || fail "2: the refusal does not say why there is no tree: $(cat "$T/err")"

# --- 3. Refusals ----------------------------------------------------------------
mkreport "$T/t2c" 2 1 "$(ch $AR 6 mca allreduce 4096 65535 1 2)"
refused "3: one shape, other values" "$T/t2 and $T/t2c both chose $AR at one shape over overlapping sizes" \
    "$T/new" "$T/t2" "$T/t4" "$T/t2c"
mkreport "$T/u4" 4 1 "$(ch UCX_TLS rc env global -1 -1 1 4)"
refused "3: ucx.conf's one value" "$T/t2 and $T/u4: UCX_TLS=tcp holds at 1x2 but UCX_TLS=rc at 1x4" \
    "$T/new" "$T/t2" "$T/u4"
mkreport "$T/nl2" 2 1 "$(ch UCX_TLS 'tcp\nplm_rsh_agent=/tmp/evil' env global -1 -1 1 2)"
mkreport "$T/nl4" 4 1 "$(ch UCX_TLS 'tcp\nplm_rsh_agent=/tmp/evil' env global -1 -1 1 4)"
refused "3: a newline" "the value of UCX_TLS contains a newline" "$T/new" "$T/nl2" "$T/nl4"
cp -r "$T/t4" "$T/t3"
sed -i 's/"verified": true, "nranks"/"verified": false, "nranks"/' "$T/t3/report.json"
refused "3: unverified" "no A/B verification" "$T/new" "$T/t2" "$T/t3"
refused "3: one tune" "two TUNE_DIRs at least" "$T/new" "$T/t2"
cp -r "$T/t4" "$T/unk"
echo 'NCCL_ALGO=ring' >"$T/unk/nccl.conf.orig"
refused "3: a file no row knows" "$T/unk/nccl.conf.orig: no row of the files colltune writes knows it" \
    "$T/new" "$T/t2" "$T/unk"
for f in nccl.conf report.json; do
    rm -rf "$T/fifo"
    cp -r "$T/t4" "$T/fifo"
    rm -f "$T/fifo/$f"
    mkfifo "$T/fifo/$f" || fail "mkfifo"
    refused "3: a FIFO $f" "$T/fifo/$f: is a FIFO" "$T/new" "$T/t2" "$T/fifo"
done
cp -r "$T/t4" "$T/huge"
dd if=/dev/null of="$T/huge/report.json" bs=1048576 seek=17 2>/dev/null || fail "dd"
refused "3: a 17 MiB report.json" "$T/huge/report.json: is 17825792 bytes" "$T/new" "$T/t2" "$T/huge"
big=9223372036854775807
mkreport "$T/b1" $big 1 "$(ch $AR 5 mca allreduce 0 -1 1 4)"
refused "3: nranks 2^63-1" "\"nranks\" $big: at most 16777216" "$T/new" "$T/t2" "$T/b1"
mkreport "$T/b2" 4 1 "$(ch $AR 5 mca allreduce 0 -1 1 4 | sed "s/\"nranks\": 4/\"nranks\": $big/")"
refused "3: a choice's nranks 2^63-1" "choices[0] \"nranks\" $big: at most 16777216" "$T/new" "$T/t2" "$T/b2"
mkreport "$T/b3" 4 1 "$(ch $AR 5 mca allreduce 0 -1 1 4 | sed 's/"nodes": 1/"nodes": 5/')"
refused "3: more nodes than ranks" "choices[0] \"nodes\" 5: at most 4" "$T/new" "$T/t2" "$T/b3"
mkreport "$T/b4" 0 1 "$(ch $AR 5 mca allreduce 0 -1 1 4)"
refused "3: nranks 0" "has no \"nranks\" from 1 to 16777216" "$T/new" "$T/t2" "$T/b4"
mkreport "$T/b5" 4 1 "$(ch $AR 5 mca allredux 0 -1 1 4)"
refused "3: a scope" "choices[0] \"scope\" allredux: not global or a collective" "$T/new" "$T/t2" "$T/b5"
mkreport "$T/b6" 4 1 "$(ch $AR 5 mca allreduce 900 100 1 4)"
refused "3: sizes" "choices[0] \"min_bytes\" 900 is above \"max_bytes\" 100" "$T/new" "$T/t2" "$T/b6"
mkreport "$T/b7" 4 1 "$(ch $AR 5 mca allreduce 0 -1 1 4 | sed 's/"ranks_per_node": 4/"ranks_per_node": 2/')"
refused "3: ranks per node" "choices[0] \"ranks_per_node\" 2: 4 ranks on 1 nodes" "$T/new" "$T/t2" "$T/b7"
SITE='[{"name": "NCCL_ALGO", "value": "ring", "origin": "environment", "mca": false}]' \
    mkreport "$T/s4" 4 1 "$(ch $AR 5 mca allreduce 0 -1 1 4)"
refused "3: another site" "$T/s4 was tuned against the site setting NCCL_ALGO=ring (environment), $T/t2 was not" \
    "$T/new" "$T/t2" "$T/s4"
cp -r "$T/t4" "$T/stale"
echo 'NCCL_PROTO=LL' >"$T/stale/nccl.conf"
refused "3: a file the merge would not write" "$T/stale/nccl.conf: the merged choices write no nccl.conf" \
    "$T/new" "$T/t2" "$T/stale"
[ ! -e "$T/new" ] || fail "3: --out left behind"

# --- 4. --out ---------------------------------------------------------------------
echo 'export MPIR_CVAR_X=1' >"$T/m1/mpich.env"
refused "4: a stray mpich.env, --force" "$T/m1/mpich.env is not one of the files this merge writes" \
    "$T/m1" --force "$T/t2" "$T/t4"
rm "$T/m1/mpich.env"
refused "4: no --force" "$T/m1/coll-tuned-rules.conf exists (give --force to replace it)" "$T/m1" "$T/t2" "$T/t4"
merged "$T/m1" --force "$T/t8" "$T/t4"
[ "$(rule "$T/m1/coll-tuned-rules.conf" 2 8 0)" = 6 ] || fail "4: --force did not replace the rules"
refused "4: a tune's verify/" "is inside a tune's directory $T/t4" "$T/t4/verify" --force "$T/t2" "$T/t8"
refused "4: below a tune's verify/" "is inside a tune's directory $T/t4" "$T/t4/verify/sub" --force "$T/t2" "$T/t8"
[ ! -e "$T/t4/verify/sub" ] || fail "4: --out left behind in verify/"
refused "4: a tune's directory" "is a tune's directory $T/t4" "$T/t4" --force "$T/t2" "$T/t8"
refused "4: a comma" "has a comma" "$T/a,b" "$T/t2" "$T/t4"
echo PASS
