#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# D11: bytes that are not UTF-8 in argv and in the environment (a value
# and a name) still give a valid JSON document (json_get parses with
# jansson, which refuses anything but UTF-8), with each bad byte shown as
# U+FFFD, and the run succeeds.  A --run-id with such bytes is refused at
# the source (issue 15, E18: a run id is a CSV field and a series label).
. "$top_srcdir/tests/mpi/lib.sh"

bad_id=$(printf 'run-\377\376-id')
bad_csv=$(printf '%s/caf\351.csv' "$T") # a Latin-1 e-acute in a path
fffd=$(printf '\357\277\275')

# sh cannot export a variable whose name is not UTF-8: env(1) can, so
# mpirun is started through it (ranks inherit mpirun's environment).
printf '#!/bin/sh\nexec env "NCCL_CT_TEST_\377=x" "NCCL_CT_TEST_VALUE=v\300\257" "%s" "$@"\n' \
    "$MPIRUN" >"$T/mpirun-env"
chmod +x "$T/mpirun-env"
MPIRUN="$T/mpirun-env"

ct_mpirun 2 -C allreduce -b 1K -e 1K --quiet --run-id "$bad_id" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] && grep -qF "1 to 63 of" "$T/err" || fail "a non-UTF-8 --run-id: exit $rc ($(cat "$T/err"))"
# A newline in it is shown escaped, the whole message on one line (colltune
# relays collbench's stderr by lines and showed only "--run-id 'a").
ct_mpirun 2 -C allreduce -b 1K -e 1K --quiet --run-id "$(printf 'a\nb')" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] && grep -F "collbench: error: --run-id 'a\\nb': 1 to 63 of" "$T/err" >/dev/null ||
    fail "a --run-id with a newline: exit $rc ($(cat "$T/err"))"
ct_mpirun 2 -C allreduce -b 1K -e 1K --size-budget 0.1 --quiet --run-id run-utf8 \
    --csv "$bad_csv" --json "$T/r.json" >"$T/out" 2>"$T/err" || fail "exit $?: $(cat "$T/err")"

json_get "$T/r.json" schema >/dev/null || fail "the JSON does not parse"
n=$(json_get "$T/r.json" command_line.#) || fail "no command line"
found=0 i=0
while [ "$i" -lt "$n" ]; do
    [ "$(json_get "$T/r.json" "command_line.$i")" = "$T/caf$fffd.csv" ] && found=1
    i=$((i + 1))
done
[ "$found" -eq 1 ] || fail "the argv byte is not sanitised in command_line"
[ "$(json_get "$T/r.json" environment.NCCL_CT_TEST_VALUE)" = "v$fffd$fffd" ] ||
    fail "environment value not sanitised"
[ "$(json_get "$T/r.json" "environment.NCCL_CT_TEST_$fffd")" = x ] ||
    fail "environment name not sanitised"
grep -q "^run-utf8," "$bad_csv" || fail "the CSV's run_id was changed"
exit 0
