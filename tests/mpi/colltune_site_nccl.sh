#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A site whose NCCL_ALGO excludes the faster algorithm (issue 35), on the
# NCCL test double (tests/nccl/fake_nccl_mpi.c: no GPU here; its timings
# are planted, not NCCL's).  The site's environment sets NCCL_ALGO=ring,
# and the double's Ring sleeps 2 ms a call (FAKE_NCCL_SLOW_ALGO), so Tree
# is the faster allreduce, but NCCL_ALGO disables it: neither nccl.conf
# (the environment outranks it) nor a tuner-plugin rule (NCCL asks the
# plugin only about what NCCL_ALGO left enabled) can bring it back.
#
# The tune must write the form that wins: nccl.env (sourced after the
# site's environment) with the site's value kept for every other
# collective and AllReduce re-enabled ("ring;AllReduce:Tree,Ring"), and
# nccl_tuner.conf with the tuned rule plus one that keeps the site's Ring
# at every other size; no nccl.conf; each header naming the site setting.
# Installed as `colltune install` prints it, sourced in a shell that still
# has the site's NCCL_ALGO, collbench in fresh launches (interleaved with
# the site alone) must run allreduce several times faster at the tuned
# sizes, and keep the site's Ring elsewhere (broadcast, and allreduce
# below the range).  Ring is slow only at the tuned sizes
# (FAKE_NCCL_SLOW_BYTES), which keeps the A/B's launches short.  The
# whole-range form ("ring;AllReduce:tree") and a site that cannot be kept
# are tests/unit/test_emit_nccl_site.c's.
. "$top_srcdir/tests/mpi/lib.sh"
unset COLLTUNE_NCCL_LIB COLLTUNE_CUDART_LIB STUB_CUDA_DEVICES CUDA_VISIBLE_DEVICES \
    NCCL_ALGO NCCL_PROTO NCCL_TUNER_CONFIG_FILE NCCL_TUNER_PLUGIN NCCL_CONF_FILE

ct_colltune_test
ct_build_fake_nccl
plugin="$top_builddir/tuner/plugin/.libs/libnccl-tuner-colltune.so"
[ -f "$plugin" ] || fail "plugin not built: $plugin"
command -v bash >/dev/null 2>&1 || {
    echo "SKIP: no bash to source the install lines in"
    exit 77
}
mkdir -p "$T/tmp" "$T/home"
# No ~/.nccl.conf or /etc/nccl.conf of this machine's may add to the site.
[ -e /etc/nccl.conf ] && {
    echo "SKIP: /etc/nccl.conf exists: the planted site would not be the only one"
    exit 77
}
nccl="--backend nccl --nccl-lib $T/libnccl-fake.so --cudart-lib $T/libcudart-stub.so"

# The planted site: its environment forces Ring.
export NCCL_ALGO=ring HOME="$T/home"

tune() { # OUT EXTRA...
    out=$1
    shift
    # shellcheck disable=SC2086
    timeout 200 "$CT" tune --space "$top_srcdir/tests/mpi/tune_nccl_algo.ini" --out "$out" --np 2 \
        --launcher-arg --oversubscribe --launcher-arg --bind-to --launcher-arg none \
        --launcher-arg --mca --launcher-arg orte_tmpdir_base --launcher-arg "$T/tmp" \
        --mca mpi_yield_when_idle=1 --env STUB_CUDA_DEVICES=2 --env FAKE_NCCL_SLOW_ALGO=ring \
        --env FAKE_NCCL_SLOW_US=2000 --env FAKE_NCCL_SLOW_BYTES=16384:65536 \
        --env "NCCL_TUNER_PLUGIN=$plugin" --collectives allreduce --strategy exhaustive \
        --verify-pairs 5 --timeout 60 "$@" -- $nccl -b 16K -e 64K -f 4 -w 1 --size-budget 0.01 \
        >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq 0 ] || fail "tune $out: exit $rc ($(cat "$T/err"))"
}

tune "$T/t"
r="$T/t/report.json"
md="$T/t/report.md"
[ "$(json_get "$r" choices.#)" -eq 1 ] || fail "want one choice: $(cat "$md")"
[ "$(json_get "$r" choices.0.scope)" = allreduce ] || fail "scope $(json_get "$r" choices.0.scope)"
[ "$(json_get "$r" choices.0.value)" = tree ] || fail "choice $(json_get "$r" choices.0.value)"
[ "$(json_get "$r" choices.0.written)" = true ] || fail "tree not written: $(cat "$md")"
# The form that wins.
[ -e "$T/t/nccl.conf" ] && fail "nccl.conf written, though the site's environment outranks it"
grep -q "^export NCCL_ALGO='ring;AllReduce:Tree,Ring'$" "$T/t/nccl.env" ||
    fail "nccl.env: $(cat "$T/t/nccl.env")"
grep -Eq '^allreduce,16384,6553[56],tree,-1,-1,1,2$' "$T/t/nccl_tuner.conf" ||
    fail "nccl_tuner.conf: no tuned rule: $(cat "$T/t/nccl_tuner.conf")"
tail -1 "$T/t/nccl_tuner.conf" | grep -q '^allreduce,0,-1,ring,-1,-1,-1,-1' ||
    fail "nccl_tuner.conf: no rule keeping the site's ring last: $(cat "$T/t/nccl_tuner.conf")"
for f in nccl.env nccl_tuner.conf; do
    grep -q '^#   Overrides the site.s NCCL_ALGO=ring (environment)' "$T/t/$f" ||
        fail "$f: the header does not name the site setting: $(cat "$T/t/$f")"
done
# The A/B ran nccl.env as a job sources it.
grep -q "sourced $T/t/verify/nccl.env" "$md" "$r" || fail "the A/B did not source nccl.env: $(cat "$md")"

# Installed as `colltune install` prints it.
"$CT" install --to "$T/inst" "$T/t" >"$T/install.out" 2>&1 || fail "install: $(cat "$T/install.out")"
sed -n '/^Add to the site/,/^$/p' "$T/install.out" | sed -n 's/^  \([^#].*\)$/\1/p' |
    sed "s|/path/to/lib/libnccl-tuner-colltune.so|$plugin|" >"$T/lines.sh"
grep -q 'nccl.env' "$T/lines.sh" || fail "install prints no nccl.env line: $(cat "$T/install.out")"
grep -q 'NCCL_TUNER_CONFIG_FILE' "$T/lines.sh" || fail "install prints no rules line: $(cat "$T/install.out")"

# One fresh launch: site (the environment alone) or files (the printed
# lines sourced over it); CSV to $T/SIDE-N.csv, the double's log beside.
run() { # SIDE N COLLECTIVE
    (
        [ "$1" = files ] && . "$T/lines.sh"
        xs="-x STUB_CUDA_DEVICES=2 -x FAKE_NCCL_SLOW_ALGO=ring -x FAKE_NCCL_SLOW_US=2000"
        xs="$xs -x FAKE_NCCL_SLOW_BYTES=16384:65536"
        xs="$xs -x FAKE_NCCL_INIT_LOG=$T/$1-$2.log"
        for v in NCCL_ALGO NCCL_PROTO NCCL_TUNER_PLUGIN NCCL_TUNER_CONFIG_FILE NCCL_CONF_FILE; do
            eval "[ -n \"\${$v+set}\" ]" && xs="$xs -x $v"
        done
        # shellcheck disable=SC2086
        CT_MPIRUN_ARGS="$xs" ct_mpirun 2 $nccl -C "$3" -b 1K -e 64K -f 4 -w 1 \
            --size-budget 0.01 --quiet --no-table --csv "$T/$1-$2.csv"
    ) >"$T/run.out" 2>&1 || fail "$1 run $2: exit $? ($(cat "$T/run.out"))"
}
for n in 1 2; do
    run site "$n" allreduce
    run files "$n" allreduce
done
run site 3 broadcast
run files 3 broadcast
[ "$(grep -c NCCL_ALGO=ring "$T/site-1.log.0")" -ge 1 ] || fail "site: $(cat "$T/site-1.log.0")"
grep -q "NCCL_ALGO=ring;AllReduce:Tree,Ring" "$T/files-1.log.0" || fail "files: $(cat "$T/files-1.log.0")"

# The worst of the files' launches against the best of the site's, per size.
ratio() { # SIZE: site's best median / files' worst median
    awk -F, -v s="$1" '
        NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "bytes") b = i; if ($i == "median_us") m = i }; next }
        $b == s && FILENAME ~ /site-/ && (site == "" || $m < site) { site = $m }
        $b == s && FILENAME ~ /files-/ && $m > files { files = $m }
        END { if (site == "" || files == "") print "none"; else printf "%.2f\n", site / files }' \
        "$T"/site-[12].csv "$T"/files-[12].csv
}
for s in 16384 65536; do
    x=$(ratio $s)
    [ "$x" != none ] || fail "no rows at $s B: $(cat "$T"/site-1.csv)"
    awk -v x="$x" 'BEGIN { exit !(x >= 4) }' ||
        fail "allreduce $s B: files only ${x}x faster than the site (want >= 4x)"
    echo "allreduce $s B: ${x}x faster with the installed files"
done
# Below the range allreduce still runs the site's Ring (tree only where
# the rule holds), and broadcast runs Ring as the site decided.
grep 'ran ' "$T/files-1.log.0" | grep -q 'AllReduce/Tree/' ||
    fail "no tree allreduce: $(cat "$T/files-1.log.0")"
grep 'ran ' "$T/files-1.log.0" | grep -q 'AllReduce/Ring/' ||
    fail "no ring allreduce below the range: $(cat "$T/files-1.log.0")"
grep 'ran ' "$T/files-3.log.0" | grep -q 'Broadcast/Ring/' || fail "broadcast: $(cat "$T/files-3.log.0")"
grep 'ran ' "$T/files-3.log.0" | grep -v 'Broadcast/Ring/' | grep -q 'Broadcast/' &&
    fail "broadcast left Ring: $(cat "$T/files-3.log.0")"
exit 0
