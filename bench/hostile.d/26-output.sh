# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=sh
# Issue 26, "Also": standard output that cannot be written (a full disk,
# a closed pipe) is an error, exit 3 with "cannot write standard output",
# for colltune and collbench; decimals are the same under a comma-decimal
# locale (de_DE.UTF-8 built with localedef).
# Sourced by bench/hostile: uses hcase, keep, on_stdout, no_mem_limit, skip.

O26=$T/o26
mkdir -p "$O26/hist" "$O26/loc"
for _d in 1 2 3 4 5 6; do
    mkdir -p "$O26/hist/r$_d"
    sed "s/\"start_time\": *\"20[^\"]*\"/\"start_time\": \"2026-01-0${_d}T00:00:00Z\"/" "$JSON" \
        >"$O26/hist/r$_d/results.json"
done

hcase "O1 colltune --help >/dev/full" 3 "colltune: cannot write standard output: No space left" \
    sh -c 'exec "$@" >/dev/full' sh "$CT" --help
keep "$O26/hist/r6/results.json"
hcase "O2 colltune regress (its table) >/dev/full" 3 "colltune: cannot write standard output" \
    sh -c 'exec "$@" >/dev/full' sh "$CT" regress "$O26/hist"
hcase "O3 colltune regress into a closed pipe, SIGPIPE ignored" 3 \
    "colltune: cannot write standard output: Broken pipe" \
    sh -c 'rc=$({ { sleep 1; trap "" PIPE; "$@"; echo $? >&3; } | true; } 3>&1); exit "$rc"' \
    sh "$CT" regress "$O26/hist"
no_mem_limit
hcase "O4 collbench --help >/dev/full" 3 "collbench: cannot write standard output: No space left" \
    sh -c 'exec "$@" >/dev/full' sh "$CB" --help
no_mem_limit
hcase "O5 collbench's table (singleton) >/dev/full" 3 "No space left on device" \
    sh -c 'exec "$@" >/dev/full' sh "$CB" -C allreduce -b 8 -e 64 -n 3

# The locale case: the same bytes from regress (a decimal --threshold) and
# import under C and under de_DE.UTF-8.
if command -v localedef >/dev/null 2>&1 &&
    { localedef -i de_DE -f UTF-8 "$O26/loc/de_DE.UTF-8" >/dev/null 2>&1 || [ -d "$O26/loc/de_DE.UTF-8" ]; }; then
    on_stdout
    hcase "O6 regress and import under a comma-decimal locale" 0 "same bytes" sh -c '
        ct=$1 d=$2 log=$3
        for l in C de_DE.UTF-8; do
            mkdir -p "$d/$l"
            LOCPATH=$d/loc LC_ALL=$l "$ct" regress --threshold 2.5 --md "$d/$l/r.md" "$d/hist" \
                >"$d/$l/out" 2>"$d/$l/err"
            LOCPATH=$d/loc LC_ALL=$l "$ct" import --out "$d/$l/i.csv" --run-id x "$log" 2>>"$d/$l/err"
            sed -i "s#$d/$l#D#g" "$d/$l/out" "$d/$l/err" "$d/$l/r.md"
        done
        diff -r "$d/C" "$d/de_DE.UTF-8" >&2 && echo "same bytes"' sh "$CT" "$O26" "$IMP/nccl_allreduce.log"
else
    skip 1 "O6 locale" "no localedef, or it cannot build de_DE.UTF-8 (apt-get install locales)"
fi
