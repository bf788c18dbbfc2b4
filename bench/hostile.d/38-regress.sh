# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=sh
# shellcheck disable=SC2154 # $T, $CT, $JSON ... are bench/hostile's, which sources this
# bench/hostile.d/38-regress.sh - issue 38's regress items (H6, H12, H5,
# H15): sourced by bench/hostile, with its helpers (history, json_run).
# The test that holds the reproductions: tests/unit/colltune_regress_hostile.sh.

# r38_env FILE NAME VALUE: NAME=VALUE (VALUE JSON-escaped) first in FILE's
# "environment".
r38_env() {
    awk -v kv="    \"$2\": \"$3\"," '{ print } /^  "environment": \{/ { print kv }' "$1" >"$1.new" &&
        mv "$1.new" "$1"
}

# --- H6: a run named RUN whose metadata holds /RUN/ -------------------------
history "$T/d38/h6" 12 10
mv "$T/d38/h6/r10" "$T/d38/h6/RUN"
r38_env "$T/d38/h6/RUN/results.json" MY_DATA "/data/RUN/p"
on_stdout
hcase "H6 regress: a run named RUN, its metadata holding /RUN/" 1 "first slow run RUN" \
    "$CT" regress "$T/d38/h6"

# --- H12: a latest link counts its run twice; a link elsewhere is no run ---
# One slow night (the newest, 1.5x): unknown, exit 0, with or without a link.
history "$T/d38/h12" 13 99
json_run "$T/d38/h12/r14" 14 1.5
ln -s r14 "$T/d38/h12/latest"
hcase "H12 regress: latest -> r14 skipped (one slow night stays unknown)" 0 \
    "$T/d38/h12/latest: a link to r14, a run this history counts by its own name: skipped" \
    "$CT" regress "$T/d38/h12"
json_run "$T/d38/other/r20" 20 3
ln -s "$T/d38/other/r20" "$T/d38/h12/zz"
hcase "H12 regress: a link to another history's run is not a run" 0 \
    "$T/d38/h12/zz: a link to $T/d38/other/r20, not a run directory of this history: skipped" \
    "$CT" regress "$T/d38/h12"

# --- H5: newlines and HTML from results.json reach the reports raw ----------
# The newest 3 runs twice as slow with a new algorithm whose recorded value
# holds newlines and HTML, the first slow run's name a newline and HTML
# too: the text report and --md must hold no line that begins FORGED and
# the markdown no raw tag; the value shows with '?' for its newlines.
r38_forged='FORGED LINE allreduce 8 mpi SLOWER'
history "$T/d38/h5" 12 10
for r in r10 r11 r12; do
    r38_env "$T/d38/h5/$r/results.json" OMPI_MCA_coll_tuned_allreduce_algorithm \
        "4\\\\n$r38_forged\\\\n<script>alert(1)</script>"
done
mv "$T/d38/h5/r10" "$T/d38/h5/r10$nl$r38_forged <img src=x onerror=alert(2)>"
on_stdout
hcase "H5 regress and --md: a value and a run name with newlines and HTML" 1 "unset -> 4?FORGED LINE" \
    sh -c 'out=$("$@"); rc=$?; md=$4
        printf "%s\n" "$out"
        if printf "%s\n" "$out" | grep "^FORGED" || grep -n "^FORGED\|<script\|<img" "$md"; then
            exit 99
        fi
        exit "$rc"' \
    sh "$CT" regress --md "$T/d38/h5.md" "$T/d38/h5"

# --- H15: --index reads each run's regress.json: a FIFO must not block ------
history "$T/d38/h15" 12 99
mkfifo "$T/d38/h15/r05/regress.json"
hcase "H15 regress --index: a run's regress.json a FIFO (shown as -)" 0 \
    "$T/d38/h15/r05/regress.json: is a FIFO (named pipe), not a regular file; its verdict shown as -" \
    "$CT" regress --index "$T/d38/h15.html" "$T/d38/h15"
