# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=sh
# shellcheck disable=SC2154 # $T, $CT, $cwd, $me ... are bench/hostile's, which sources this
# bench/hostile.d/26-data.sh - issue 26 items 1-6 (sourced by bench/hostile):
# results and files never lost to a kill or a failed rename, --resume that
# checks what it resumes, verification that cannot silently become A/A.
# The tests that hold the reproductions: colltune_sweep_reliability.sh (K2),
# test_emit and colltune_out_checked.sh (R1, E1), colltune_outdir_lock.sh
# (L6), colltune_journal.sh and colltune_resume_launch.sh (J13, J3).

# A launcher that fails at once: a tune it starts stops at its first trial.
mkdir -p "$T/d26/bin"
printf '#!/bin/sh\nexit 1\n' >"$T/d26/bin/mpirun"
chmod +x "$T/d26/bin/mpirun"
L26="$T/d26/bin/mpirun -np 2"

# --- K2: sweep --force after SIGKILLed --force runs ------------------------
# Two --force runs killed after they set the good pair aside, each leaving a
# cut results.csv; a third --force that fails must bring back the good pair.
if have mpirun; then
    K=$T/d26/k2
    (cd "$cwd" && "$CT" sweep --out "$K" --np 2 --collbench "$CB" --launcher-arg --oversubscribe \
        --launcher-arg --bind-to --launcher-arg none --mca mpi_yield_when_idle=1 \
        -- -C allreduce -b 8 -e 64 -n 3 --quiet) >/dev/null 2>&1 ||
        echo "$me: K2: the first sweep failed" >&2
    cp "$K/results.csv" "$T/d26/good.csv" 2>/dev/null
    cp "$K/results.json" "$T/d26/good.json" 2>/dev/null
    # A launcher that hangs: the run is killed while it waits.
    printf '#!/bin/sh\nexec sleep 60\n' >"$T/d26/bin/hang-mpirun"
    chmod +x "$T/d26/bin/hang-mpirun"
    for kill_no in 1 2; do
        "$CT" sweep --out "$K" --force --launcher "$T/d26/bin/hang-mpirun -np 2" \
            -- -b 8 -e 8 >/dev/null 2>&1 &
        killed=$!
        i=0
        while [ -e "$K/results.csv" ] && [ "$i" -lt 200 ]; do
            i=$((i + 1))
            sleep 0.05
        done
        sleep 0.3
        kill -9 "$killed" 2>/dev/null
        wait "$killed" 2>/dev/null
        printf 'cut,run,%s\n' "$kill_no" >"$K/results.csv"
    done
    hcase "K2 sweep without --force after killed --force runs names the set-aside results" 2 \
        "interrupted --force run set aside" "$CT" sweep --out "$K" --launcher "$L26" -- -b 8 -e 8
    hcase "K2 a failing sweep --force after killed --force runs brings back the good pair" 3 \
        "earlier results" "$CT" sweep --out "$K" --force --launcher "$L26" -- -b 8 -e 8
    keep "$K/results.csv" "$K/results.json"
    hcase "K2 ... which is the pair of the first sweep, whole" 0 "" \
        cmp "$T/d26/good.csv" "$K/results.csv"
    hcase "K2 ... its results.json too" 0 "" cmp "$T/d26/good.json" "$K/results.json"
else
    skip 4 "K2 killed sweep --force" "no mpirun (apt-get install openmpi-bin)"
fi

# --- R1: emit all or nothing, the targets checked before any launch -------
mkdir -p "$T/d26/rn/mca-params.conf"
echo "OLD RULES" >"$T/d26/rn/coll-tuned-rules.conf"
keep "$T/d26/rn/coll-tuned-rules.conf"
hcase "R1 tune --out holding a directory named mca-params.conf" 2 \
    "mca-params.conf exists and is not a regular file" \
    "$CT" tune --space "$SPACE" --out "$T/d26/rn" --launcher "$L26" -- -b 1K -e 64K

# --- E1: a comma in --out would make the A/B an A/A -------------------------
hcase "E1 tune --out with a comma (mca_base_param_files is a comma list)" 2 "has a comma" \
    "$CT" tune --space "$SPACE" --out "$T/d26/c,omma" --launcher "$L26" -- -b 1K -e 64K

# --- L6: a hard-linked .lock is never written ------------------------------
mkdir -p "$T/d26/l6"
echo precious >"$T/d26/precious.txt"
ln "$T/d26/precious.txt" "$T/d26/l6/.lock"
keep "$T/d26/precious.txt"
hcase "L6 plot --out whose .lock is a hard link to another file" 2 "hard links" \
    "$CT" plot --gnuplot /bin/true --out "$T/d26/l6" "$CSV"

# --- J13, J5: a journal without its head ------------------------------------
mkdir -p "$T/d26/j13"
cp "$SEED" "$T/d26/j13/journal.jsonl"
keep "$T/d26/j13/journal.jsonl"
hcase "J13 tune --resume of a journal without journal.head.json" 2 "journal.head.json is missing" \
    "$CT" tune --space "$SPACE" --out "$T/d26/j13" --launcher "$L26" --resume -- -b 64K -e 256K

# --- J3: --resume with another --mca or --env --------------------------------
"$CT" tune --space "$SPACE" --out "$T/d26/j3" --launcher "$L26" --strategy exhaustive --launches 2 \
    -- -b 64K -e 64K >/dev/null 2>&1
keep "$T/d26/j3/journal.head.json"
hcase "J3 tune --resume with another --mca" 2 "(--mca)" \
    "$CT" tune --space "$SPACE" --out "$T/d26/j3" --launcher "$L26" --strategy exhaustive --launches 2 \
    --mca btl=self,tcp --resume -- -b 64K -e 64K
hcase "J3 tune --resume with another --env" 2 "(--env)" \
    "$CT" tune --space "$SPACE" --out "$T/d26/j3" --launcher "$L26" --strategy exhaustive --launches 2 \
    --env UCX_TLS=tcp --resume -- -b 64K -e 64K
