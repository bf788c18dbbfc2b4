#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# collbench runs over pml ucx here (Debian's system file says pml = ^ucx,
# and pml ucx wants InfiniBand unless pml_ucx_tls/pml_ucx_devices say any),
# and its JSON says which pml really ran, from the process (the mapped
# mca_pml component), not from the environment: ob1 by default, ucx when
# asked for; with ucx, UCX's configuration in force, including a site
# ucx.conf that the environment never mentions.
. "$top_srcdir/tests/mpi/lib.sh"

run() { # NAME [mpirun args...]
    name=$1
    shift
    CT_MPIRUN_ARGS="$*" ct_mpirun 2 -C allreduce -b 8 -e 256K -f 32 --size-budget 0.05 \
        --json "$T/$name.json" --no-table --quiet >"$T/$name.out" 2>&1 ||
        { cat "$T/$name.out" >&2; fail "$name: exit"; }
    json_get "$T/$name.json" results.# >/dev/null || fail "$name: no results"
    [ "$(json_get "$T/$name.json" status)" = ok ] || fail "$name: #wrong"
}

run ob1
[ "$(json_get "$T/ob1.json" transport.pml)" = ob1 ] ||
    fail "default: pml $(json_get "$T/ob1.json" transport.pml), want ob1"
[ "$(json_get "$T/ob1.json" transport.ucx_config)" = null ] || fail "ob1: UCX config recorded"
json_get "$T/ob1.json" transport.btl_loaded | grep -q vader || fail "ob1: vader not loaded"

UCX="--mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any"
# shellcheck disable=SC2086
run ucx $UCX
[ "$(json_get "$T/ucx.json" transport.pml)" = ucx ] ||
    fail "pml ucx: pml $(json_get "$T/ucx.json" transport.pml), want ucx"
json_get "$T/ucx.json" ucx_version | grep -Eq '^[0-9]+\.[0-9]+' || fail "ucx: no UCX version"
[ "$(json_get "$T/ucx.json" transport.ucx_config.UCX_TLS)" = all ] ||
    fail "ucx: UCX_TLS $(json_get "$T/ucx.json" transport.ucx_config.UCX_TLS), want all"

# A site ucx.conf (UCX_CONFIG_DIR) is what UCX reads; the environment
# holds no UCX_TLS.
mkdir "$T/site"
printf '[global]\nUCX_TLS=posix,cma,self\nUCX_RNDV_THRESH=65536\n' >"$T/site/ucx.conf"
# shellcheck disable=SC2086
run site $UCX -x "UCX_CONFIG_DIR=$T/site"
[ "$(json_get "$T/site.json" transport.pml)" = ucx ] || fail "site: pml"
[ "$(json_get "$T/site.json" transport.ucx_config.UCX_TLS)" = posix,cma,self ] ||
    fail "site ucx.conf: UCX_TLS $(json_get "$T/site.json" transport.ucx_config.UCX_TLS)"
# As UCX resolved it: 65536 bytes, printed in UCX's units.
[ "$(json_get "$T/site.json" transport.ucx_config.UCX_RNDV_THRESH)" = 64K ] ||
    fail "site ucx.conf: UCX_RNDV_THRESH $(json_get "$T/site.json" transport.ucx_config.UCX_RNDV_THRESH)"
json_get "$T/site.json" environment.UCX_TLS >/dev/null 2>&1 &&
    fail "site: UCX_TLS in the environment (the test would prove nothing)"
exit 0
