# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=sh
# shellcheck disable=SC2154 # $T, $CT, $root, $build ... are bench/hostile's, which sources this
# bench/hostile.d/38-merge.sh - issue 38's merge items (G2, G2c, G9, G6,
# G8, G12, G5) and intel-mpi.env's "Left out" comment (M9): sourced by
# bench/hostile.  The tests that hold the reproductions:
# tests/unit/colltune_merge_inputs.sh and tests/unit/test_emit_intel_safe.c.

# m38_tune DIR SET NRANKS NNODES: a verified tune built by hand from the
# emitters' golden set SET (as tests/mpi/colltune_merge.sh does), moved
# to NRANKS on NNODES, with an A/B candidate in verify/.
m38_tune() {
    mkdir -p "$1/verify"
    for _g in "$root/tests/unit/emit_golden/$2"/*; do
        sed -e "s|@DIR@|$1|g" -e "s/^16 \([0-9]*\) # comm size/$3 \1 # comm size/" \
            -e "s/^17 1 # comm sizes 17/$(($3 + 1)) 1 # comm sizes $(($3 + 1))/" \
            -e "s/,2,16\$/,$4,$3/" "$_g" >"$1/$(basename "$_g")"
    done
    echo 'btl_vader_eager_limit = 1 # candidate' >"$1/verify/mca-params.conf"
    printf '{"verified": true, "run_id": "run-%s", "nranks": %s, "nnodes": %s, "choices": [%s]}\n' \
        "$3" "$3" "$4" '{"name": "coll_tuned_allreduce_algorithm", "value": "4", "written": true}' \
        >"$1/report.json"
}
M38=$T/d38m
m38_tune "$M38/mpA" mpich 16 2
m38_tune "$M38/mpB" mpich 32 4
m38_tune "$M38/t16" full 16 2
m38_tune "$M38/t32" full 32 4

# --- G2, G2c: MPICH's files are joined or refused, never dropped ----------
on_stdout
hcase "G2 merge of two MPICH tunes keeps mpich.env and intel-mpi.env" 0 \
    "mpich.env intel-mpi.env report.json" "$CT" merge --out "$M38/g2" "$M38/mpA" "$M38/mpB"
m38_tune "$M38/nccl" nccl 16 2
rm "$M38/nccl/nccl.env" "$M38/nccl/nccl.conf"
hcase "G2c merge of an MPICH tune and an NCCL one without mpich.env" 2 \
    "mpich.env differs between $M38/mpA and $M38/nccl" "$CT" merge --out "$M38/g2c" "$M38/mpA" "$M38/nccl"
m38_tune "$M38/csel" mpich-csel 16 2
hcase "G2 merge of a tune holding mpich-coll-selection.json" 2 \
    "$M38/csel/mpich-coll-selection.json: MPICH's selection tree" \
    "$CT" merge --out "$M38/g2s" "$M38/mpA" "$M38/csel"

# --- G9: a comment longer than a line buffer stays a comment ---------------
m38_tune "$M38/g9a" full 16 2
m38_tune "$M38/g9b" full 32 4
_long=$(awk 'BEGIN { s = "# a long comment "; for (i = 0; i < 8174; i++) s = s "x"; print s "plm_rsh_agent = /tmp/evil.sh" }')
for _t in g9a g9b; do printf '%s\n' "$_long" >>"$M38/$_t/mca-params.conf"; done
on_stdout
# shellcheck disable=SC2016 # $1 ... are the inner shell's
hcase "G9 merge: a long comment line's tail is not a setting" 0 "comment stays a comment" sh -c '
    "$1" merge --out "$2" "$3" "$4" >/dev/null && ! grep -q plm_rsh_agent "$2/mca-params.conf" &&
        echo "comment stays a comment"' sh "$CT" "$M38/g9" "$M38/g9a" "$M38/g9b"

# --- G6: nranks 2^63-1 -------------------------------------------------------
m38_tune "$M38/tm" full 16 2
sed -i 's/^16 \([0-9]* # comm size, rules\)/9223372036854775807 \1/' "$M38/tm/coll-tuned-rules.conf"
sed -i 's/"nranks": 16/"nranks": 9223372036854775807/' "$M38/tm/report.json"
hcase "G6 merge: nranks 2^63-1" 2 "\"nranks\" 9223372036854775807: at most 16777216" \
    "$CT" merge --out "$M38/g6" "$M38/t16" "$M38/tm"

# --- G8, R6: a FIFO nccl.env, a 17 MiB one ----------------------------------
m38_tune "$M38/g8t" full 32 4
rm "$M38/g8t/nccl.env"
mkfifo "$M38/g8t/nccl.env"
hcase "G8 merge: a FIFO nccl.env" 2 "$M38/g8t/nccl.env: is a FIFO" \
    "$CT" merge --out "$M38/g8" "$M38/t16" "$M38/g8t"
m38_tune "$M38/r6t" full 32 4
dd if=/dev/null of="$M38/r6t/nccl.env" bs=1048576 seek=17 2>/dev/null
hcase "R6 merge: a 17 MiB nccl.env" 2 "colltune reads at most 16777216" \
    "$CT" merge --out "$M38/r6" "$M38/t16" "$M38/r6t"

# --- G12, G5: --force beside a stray file, into a tune's verify/ -------------
"$CT" merge --out "$M38/g12" "$M38/t16" "$M38/t32" >/dev/null 2>&1 ||
    echo "$me: G12: the first merge failed" >&2
cp "$M38/mpA/mpich.env" "$M38/g12/"
keep "$M38/g12/mpich.env" "$M38/g12/mca-params.conf" "$M38/g12/report.json"
hcase "G12 merge --force into a directory holding a stray mpich.env" 2 \
    "$M38/g12/mpich.env is not one of the files this merge writes" \
    "$CT" merge --out "$M38/g12" --force "$M38/t16" "$M38/t32"
cp -r "$M38/t16" "$M38/t16d"
keep "$M38/t16/verify/mca-params.conf"
hcase "G5 merge --out TUNE/verify --force" 2 "is inside a tune's directory $M38/t16" \
    "$CT" merge --out "$M38/t16/verify" --force "$M38/t16d" "$M38/t32"

# --- M9: intel-mpi.env's "Left out" comment (a harness-only path) ------------
if [ -x "$build/tests/unit/test_emit_intel_safe" ]; then
    hcase "M9 intel-mpi.env: a newline in a left-out value stays in its comment" 0 "0 failed" \
        "$build/tests/unit/test_emit_intel_safe"
else
    skip 1 "M9 intel-mpi.env's Left out comment" "make tests/unit/test_emit_intel_safe"
fi
