# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=sh
# bench/hostile.d/26-space.sh - issue 26, item 7, E8 and J11: what used to
# pass the checks up front and fail late (or say the wrong thing), each
# now refused with exit 2 before any launch:
#   S4, S5   space values no emitted file can carry (';' or '#' in a UCX_*
#            value: ucx.conf; a CR byte in an MCA value: mca-params.conf)
#   E8       a rank count out of range: mpirun -np, srun -n in --launcher,
#            and --np
#   J11      a journal.head.json whose space_hash is not a string
# Sourced by bench/hostile (its helpers and $T, $CT, $SPACE, $SEED).
# Launches would fail at once (h26bin/mpirun), so a case let through
# shows as exit 3.
mkdir -p "$T/h26bin"
printf '#!/bin/sh\nexit 3\n' >"$T/h26bin/mpirun"
chmod +x "$T/h26bin/mpirun"
printf '[space]\nname = s\nvia = mca\n[var UCX_TLS]\nvia = env\nvalues = all, "tcp;self"\n' >"$T/s4.ini"
printf '[space]\nname = s\nvia = mca\n[var btl_tcp_eager_limit]\nvalues = 1, a\rplm_rsh_agent = x\n' >"$T/s5.ini"
printf '[space]\nname = s\n[var UCX_TLS]\nvalues = all, "tcp#x"\n' >"$T/s4hash.ini"
hcase "S4 a ';' in a UCX value (ucx.conf cannot carry it)" 2 \
    "s4.ini:6: UCX_TLS: ucx.conf: the value of UCX_TLS contains ';' or '#'" \
    "$CT" tune --space "$T/s4.ini" --out "$T/s4" --launcher "$T/h26bin/mpirun" --np 2 \
    --strategy exhaustive -- -b 1K -e 1K
hcase "S4 a '#' in a UCX value" 2 "s4hash.ini:4: UCX_TLS: ucx.conf: the value of UCX_TLS contains ';' or '#'" \
    "$CT" tune --space "$T/s4hash.ini" --out "$T/s4h" --launcher "$T/h26bin/mpirun" --np 2 \
    --strategy exhaustive -- -b 1K -e 1K
hcase "S5 a CR byte in an MCA value (mca-params.conf cannot carry it)" 2 \
    "s5.ini:5: btl_tcp_eager_limit: mca-params.conf: the value of btl_tcp_eager_limit contains a newline or carriage return" \
    "$CT" tune --space "$T/s5.ini" --out "$T/s5" --launcher "$T/h26bin/mpirun" --np 2 \
    --strategy exhaustive -- -b 1K -e 1K
hcase "E8 --launcher 'mpirun -np 99999999999'" 2 \
    "--launcher: the launcher line's rank count (-np, -n, --ntasks) 99999999999 is out of range: want 1 to 16777216" \
    "$CT" tune --space "$SPACE" --out "$T/e8a" --launcher "$T/h26bin/mpirun -np 99999999999" -- -b 1K -e 1K
hcase "E8 --launcher 'srun -n 99999999999'" 2 \
    "rank count (-np, -n, --ntasks) 99999999999 is out of range: want 1 to 16777216" \
    "$CT" sweep --out "$T/e8b" --launcher "srun -n 99999999999"
hcase "E8 --np 99999999999" 2 "--np '99999999999': want a whole number from 1 to 16777216" \
    "$CT" tune --space "$SPACE" --out "$T/e8c" --launcher "$T/h26bin/mpirun" --np 99999999999 -- -b 1K -e 1K
mkdir -p "$T/j11"
cp "$SEED" "$T/j11/journal.jsonl"
printf '%s\n' '{"journal": "colltune-journal/1", "space": "tune-tiny", "space_hash": 12345,' \
    ' "collbench_args": "[]", "launcher": "[]"}' >"$T/j11/journal.head.json"
keep "$T/j11/journal.jsonl" "$T/j11/journal.head.json"
hcase "J11 a journal head whose space_hash is a number" 2 \
    "j11/journal.head.json: field space_hash: not a string" \
    "$CT" tune --space "$SPACE" --out "$T/j11" --launcher "$T/h26bin/mpirun" --np 2 --resume -- -b 1K -e 64K -f 8
