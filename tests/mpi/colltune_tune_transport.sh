#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune tune over the transport layer at np=2, against a planted bad
# site: the site's own files ($HOME/.openmpi/mca-params.conf and
# $HOME/ucx.conf, as a site or a user would install them) select pml ucx
# and restrict UCX to TCP (UCX_TLS=tcp,self), which here reads 5-10x
# slower than shared memory from 32 KiB up.  The tune must find a fix,
# verify it with the written files read over the site's, and write it;
# then, by hand, collbench run with those files and the site's still in
# place has the fix in force, read from the process (the JSON's
# "transport": the mapped pml, UCX's configuration as UCX resolved it),
# not judged from a timing; and ucx_info with the written ucx.conf shows
# its values.
. "$top_srcdir/tests/mpi/lib.sh"

ct_colltune_test
command -v ucx_info >/dev/null 2>&1 || { echo "SKIP: no ucx_info (ucx-utils)"; exit 77; }
mkdir -p "$T/tmp" "$T/site/.openmpi"
printf '%s\n' 'pml = ucx' 'pml_ucx_tls = any' 'pml_ucx_devices = any' \
    >"$T/site/.openmpi/mca-params.conf"
printf '%s\n' '[global]' 'UCX_TLS=tcp,self' >"$T/site/ucx.conf"
export HOME="$T/site"

# The planted site is in force before the tune: pml ucx over TCP.
ct_mpirun 2 -C allreduce -b 32K -e 32K --size-budget 0.05 --json "$T/site.json" --quiet \
    >/dev/null 2>"$T/err" || fail "site run: $(cat "$T/err")"
[ "$(json_get "$T/site.json" transport.pml)" = ucx ] || fail "the site's pml ucx is not in force"
[ "$(json_get "$T/site.json" transport.ucx_config.UCX_TLS)" = tcp,self ] ||
    fail "the site's ucx.conf is not in force"

timeout 240 "$CT" tune --out "$T/t" --np 2 --launcher-arg --oversubscribe \
    --launcher-arg --bind-to --launcher-arg none --launcher-arg --mca \
    --launcher-arg orte_tmpdir_base --launcher-arg "$T/tmp" --mca mpi_yield_when_idle=1 \
    --timeout 60 --space "$top_srcdir/tests/mpi/tune_transport.ini" --strategy exhaustive \
    --collectives allreduce -- -b 32K -e 128K -f 4 >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] || fail "tune: exit $rc ($(cat "$T/err"))"
r="$T/t/report.json"
[ "$(json_get "$r" verified)" = true ] || fail "no verification ran: $(cat "$T/t/report.md")"
nc=$(json_get "$r" choices.#)
[ "$nc" -ge 1 ] || fail "no choice: $(cat "$T/t/report.md")"
pml=
tls=
i=0
while [ $i -lt "$nc" ]; do
    [ "$(json_get "$r" choices.$i.verified)" = true ] ||
        fail "choice $i not verified: $(cat "$T/t/report.md")"
    case $(json_get "$r" choices.$i.name) in
    pml) pml=$(json_get "$r" choices.$i.value) ;;
    UCX_TLS) tls=$(json_get "$r" choices.$i.value) ;;
    esac
    i=$((i + 1))
done
# A fix: away from the site's TCP-only UCX (ob1, or ucx with shared memory).
[ -n "$pml" ] || fail "no pml choice: $(cat "$T/t/report.md")"
[ "$pml" = ob1 ] || [ "$tls" = all ] || fail "not a fix: pml=$pml UCX_TLS=$tls"
[ -f "$T/t/mca-params.conf" ] || fail "no mca-params.conf: $(ls "$T/t")"
grep -q "^pml = $pml\$" "$T/t/mca-params.conf" || fail "mca-params.conf: $(cat "$T/t/mca-params.conf")"
if [ "$pml" = ucx ]; then
    grep -q '^pml_ucx_tls = any$' "$T/t/mca-params.conf" || fail "pml ucx without pml_ucx_tls"
    grep -q "pml = ^ucx" "$T/t/mca-params.conf" || fail "no note on Debian's pml = ^ucx"
    grep -q '^UCX_TLS=all$' "$T/t/ucx.conf" || fail "ucx.conf: $(cat "$T/t/ucx.conf")"
    # UCX reads it over the site's $HOME/ucx.conf.
    UCX_CONFIG_DIR="$T/t" ucx_info -c | grep -q '^UCX_TLS=all$' ||
        fail "ucx_info -c with the written ucx.conf: $(UCX_CONFIG_DIR="$T/t" ucx_info -c | grep UCX_TLS)"
fi

# By hand, the written files first and the site's behind them: the fix is
# what the process runs.
CT_MPIRUN_ARGS="--mca mca_base_param_files $T/t/mca-params.conf,$T/site/.openmpi/mca-params.conf,/etc/openmpi/openmpi-mca-params.conf -x UCX_CONFIG_DIR=$T/t" \
    ct_mpirun 2 -C allreduce -b 32K -e 32K --size-budget 0.05 --json "$T/fixed.json" --quiet \
    >/dev/null 2>"$T/err" || fail "run with the written files: $(cat "$T/err")"
[ "$(json_get "$T/fixed.json" transport.pml)" = "$pml" ] ||
    fail "with the written files pml $(json_get "$T/fixed.json" transport.pml), want $pml"
if [ "$pml" = ucx ]; then
    [ "$(json_get "$T/fixed.json" transport.ucx_config.UCX_TLS)" = all ] ||
        fail "with the written ucx.conf UCX_TLS $(json_get "$T/fixed.json" transport.ucx_config.UCX_TLS)"
fi
exit 0
