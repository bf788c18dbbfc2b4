#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Do no harm, on Open MPI at np=2: the verification measures everything
# a written file reaches, not only what the search measured.
#
# The stand-in for harm is the delay shim (tests/tools/delay_shim.c),
# LD_PRELOADed into every trial but active only where the A/B's tuned
# side runs (DELAY_SHIM_IF=COLLTUNE_VERIFY_CHOICES, a variable only that
# side has): "the emitted files make this call slow".  It is not a real
# slow algorithm; it plants one where the search never looked.
#  1. A range with a hole: the site forces a slow broadcast (pipeline, 1
#     KiB segments, as tests/mpi/colltune_verify.sh), the tune measures 64
#     KiB and 256 KiB and finds binomial broadcast faster at both, so its
#     range is 64K..256K, stretched to every size (--extend-ranges), so
#     the first A/B runs it as a forced algorithm in mca-params.conf; the
#     shim makes the tuned side's 128 KiB broadcast, never measured, 20
#     ms slower.  The written range must stop below 128 KiB, and the rules
#     file hand 128 KiB back: the cut changed the choice's form (a forced
#     algorithm became rules), so a second A/B must run the files as
#     written, and report.json's digests show it.
#  2. A global choice that hurts a collective it was not tuned on: the
#     site runs pml ucx over TCP only (as tests/mpi/colltune_tune_transport.sh),
#     the tune of allreduce finds a transport fix, and the shim makes the
#     tuned side's alltoall 5 ms slower.  Nothing may be written.
. "$top_srcdir/tests/mpi/lib.sh"

ct_colltune_test
shim="$top_builddir/tests/tools/.libs/libdelay_shim.so"
[ -f "$shim" ] || fail "shim not built: $shim"
mkdir -p "$T/tmp"
launch() {
    printf '%s\n' --np 2 --launcher-arg --oversubscribe --launcher-arg --bind-to \
        --launcher-arg none --launcher-arg --mca --launcher-arg orte_tmpdir_base \
        --launcher-arg "$T/tmp" --mca mpi_yield_when_idle=1 --timeout 60 --strategy exhaustive \
        --env "LD_PRELOAD=$shim" --env DELAY_SHIM_IF=COLLTUNE_VERIFY_CHOICES
}

# 1. A range with a hole at an unmeasured size.
site="$T/site-mca-params.conf"
printf '%s\n' 'coll_tuned_use_dynamic_rules = 1' 'coll_tuned_bcast_algorithm = 3' \
    'coll_tuned_bcast_algorithm_segmentsize = 1024' >"$site"
# shellcheck disable=SC2046
timeout 300 "$CT" tune --out "$T/hole" $(launch) --launches 2 --mca "mca_base_param_files=$site" \
    --extend-ranges \
    --space "$top_srcdir/tests/mpi/tune_verify.ini" --env DELAY_SHIM_ONLY=MPI_Bcast \
    --env DELAY_SHIM_BYTES=131072 --env DELAY_SHIM_US=20000 -- -b 64K -e 256K -f 4 --size-budget 0.05 \
    >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] || fail "tune (hole): exit $rc ($(cat "$T/err"))"
r="$T/hole/report.json"
md="$T/hole/report.md"
[ "$(json_get "$r" verified)" = true ] || fail "hole: no verification ran: $(cat "$md")"
# The choice: binomial broadcast (with the settings it requires).
nc=$(json_get "$r" choices.#)
a=
i=0
while [ $i -lt "$nc" ]; do
    [ "$(json_get "$r" choices.$i.name)" = coll_tuned_bcast_algorithm ] && a=$i
    i=$((i + 1))
done
[ -n "$a" ] || fail "hole: no broadcast algorithm chosen: $(cat "$md")"
# The A/B ran 128 KiB, which the search never did, and saw it slower.
# (The first A/B: the second ran the files as cut, which stop below it.)
nh=verified_as_written.rounds.0.no_harm
n=$(json_get "$r" $nh.cells.#)
found=
i=0
while [ $i -lt "$n" ]; do
    if [ "$(json_get "$r" $nh.cells.$i.collective)" = broadcast ] &&
        [ "$(json_get "$r" $nh.cells.$i.bytes)" -eq 131072 ]; then
        found=$(json_get "$r" $nh.cells.$i.verdict)
        [ "$(json_get "$r" $nh.cells.$i.searched)" = false ] ||
            fail "hole: 128 KiB counted as searched"
    fi
    i=$((i + 1))
done
[ "$found" = SLOWER ] || fail "hole: 128 KiB broadcast not measured slower ($found): $(cat "$md")"
[ "$(json_get "$r" choices.$a.verified)" = true ] || fail "hole: the 64 KiB part not kept: $(cat "$md")"
[ "$(json_get "$r" choices.$a.min_bytes)" -le 65536 ] || fail "hole: range starts above 64K: $(cat "$md")"
[ "$(json_get "$r" choices.$a.max_bytes)" -eq 131071 ] || fail "hole: range not cut below 128 KiB: $(cat "$md")"
grep -q 'range cut' "$md" || fail "hole: the report does not say the range was cut"
# The rules file: binomial up to 128 KiB, handed back there.
awk '/^[0-9]+ [0-9]+ [0-9]+ [0-9]+$/ { print $1, $2 }' "$T/hole/coll-tuned-rules.conf" >"$T/rules"
awk '$2 == 6 && $1 <= 65536 { ok = 1 } END { exit !ok }' "$T/rules" ||
    fail "hole: no binomial rule reaching 64K: $(cat "$T/rules")"
grep -qx '131072 0' "$T/rules" || fail "hole: 128K not handed back: $(cat "$T/rules")"
# The first A/B ran the choice as a forced algorithm; the files written
# hold it as rules: a second A/B ran those, and their digests match.
grep -q '^coll_tuned_bcast_algorithm *= *6' "$T/hole/verify/mca-params.conf" ||
    fail "hole: the first A/B did not run the forced form: $(cat "$T/hole/verify/mca-params.conf")"
grep -q '^coll_tuned_bcast_algorithm *=' "$T/hole/mca-params.conf" &&
    fail "hole: the written mca-params.conf still forces the algorithm"
va=verified_as_written
[ "$(json_get "$r" $va.as_written)" = true ] || fail "hole: not verified as written: $(cat "$md")"
nr=$(json_get "$r" $va.rounds.#)
[ "$nr" -ge 2 ] || fail "hole: the changed files got no A/B of their own ($nr rounds)"
last=$((nr - 1))
nf=$(json_get "$r" $va.written.#)
[ "$nf" -eq "$(json_get "$r" $va.rounds.$last.files.#)" ] || fail "hole: the last A/B ran other files"
k=0
while [ $k -lt "$nf" ]; do
    f=$(json_get "$r" $va.written.$k.name)
    [ "$f" = "$(json_get "$r" $va.rounds.$last.files.$k.name)" ] || fail "hole: file $k differs"
    [ "$(json_get "$r" "$va.written.$k.sha256_rel")" = \
        "$(json_get "$r" "$va.rounds.$last.files.$k.sha256_rel")" ] ||
        fail "hole: $f written is not the $f the last A/B ran"
    # The digest of the bytes on disk, as sha256sum reads them.
    [ "$(sha256sum "$T/hole/$f" | cut -d' ' -f1)" = "$(json_get "$r" $va.written.$k.sha256)" ] ||
        fail "hole: $f's recorded digest is not its own"
    k=$((k + 1))
done
# Every collective ran in the A/B, not only broadcast.
for c in allreduce allgather alltoall reduce_scatter; do
    grep -q "^| $c |" "$md" || fail "hole: $c not in the no-harm table"
done

# 2. A global choice that hurts an untuned collective.
command -v ucx_info >/dev/null 2>&1 || { echo "SKIP part 2: no ucx_info (ucx-utils)"; exit 0; }
mkdir -p "$T/site/.openmpi"
printf '%s\n' 'pml = ucx' 'pml_ucx_tls = any' 'pml_ucx_devices = any' \
    >"$T/site/.openmpi/mca-params.conf"
printf '%s\n' '[global]' 'UCX_TLS=tcp,self' >"$T/site/ucx.conf"
# shellcheck disable=SC2046
HOME="$T/site" timeout 300 "$CT" tune --out "$T/global" $(launch) \
    --space "$top_srcdir/tests/mpi/tune_transport.ini" --collectives allreduce \
    --env DELAY_SHIM_ONLY=MPI_Alltoall --env DELAY_SHIM_US=5000 -- -b 32K -e 128K -f 4 --size-budget 0.05 \
    >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] || fail "tune (global): exit $rc ($(cat "$T/err"))"
r="$T/global/report.json"
md="$T/global/report.md"
[ "$(json_get "$r" verified)" = true ] || fail "global: no verification ran: $(cat "$md")"
nc=$(json_get "$r" choices.#)
[ "$nc" -ge 1 ] || fail "global: the search found no fix: $(cat "$md")"
i=0
while [ $i -lt "$nc" ]; do
    [ "$(json_get "$r" choices.$i.verified)" = false ] ||
        fail "global: choice $i written though alltoall was slower: $(cat "$md")"
    json_get "$r" choices.$i.verdict | grep -q alltoall ||
        fail "global: choice $i's verdict does not name alltoall: $(json_get "$r" choices.$i.verdict)"
    i=$((i + 1))
done
for f in mca-params.conf ucx.conf; do
    [ -e "$T/global/$f" ] && fail "global: $f written"
done
exit 0
