# SPDX-License-Identifier: BSD-3-Clause
# tests/unit/colltune_merge_lib.sh - tune directories for colltune merge's
# tests, built by hand (sourced, not a test).  merge reads a tune's
# report.json, not its files: a directory with a verified report.json whose
# choices say what the tune wrote is what merge takes.

# ch NAME VALUE VIA SCOPE MIN MAX NODES NRANKS: one choice as report.json
# has it, written ("written": true, so significant and verified).
ch() {
    printf '{"name": "%s", "value": "%s", "via": "%s", "scope": "%s", "min_bytes": %s, "max_bytes": %s, "nodes": %s, "ranks_per_node": %s, "nranks": %s, "default_us": 10.0, "tuned_us": 5.0, "significant": true, "verified": true, "written": true}' \
        "$1" "$2" "$3" "$4" "$5" "$6" "$7" $(($8 / $7)) "$8"
}

# mkreport DIR NRANKS NNODES CHOICE...: DIR/report.json, verified, with
# those choices, the site in $SITE (a JSON list, default none) and the
# MPICH library in $MPICH_LIB (default none).
mkreport() {
    _d=$1 _n=$2 _nn=$3
    shift 3
    mkdir -p "$_d"
    _list=$(printf '%s,' "$@")
    _lib=null
    [ -n "${MPICH_LIB:-}" ] && _lib="\"$MPICH_LIB\""
    printf '{"generator": "colltune tune (by hand)", "run_id": "run-%s", "space": "test", "space_path": "test.ini", "verified": true, "nranks": %s, "nnodes": %s, "mpich_lib": %s, "site": %s, "choices": [%s]}\n' \
        "$_n" "$_n" "$_nn" "$_lib" "${SITE:-[]}" "${_list%,}" >"$_d/report.json"
}

# rule FILE COLL_ID COMM MSGSIZE: the algorithm Open MPI 4.1 picks from a
# coll/tuned rules file (its reader's choice of comm size, the last not
# above the communicator's, the first when all are above; then the last
# rule not above the size); "none" without the collective.
rule() {
    awk -v want="$2" -v comm="$3" -v msg="$4" '
        { sub(/#.*/, ""); for (i = 1; i <= NF; i++) tok[n++] = $i }
        END {
            p = 0; ncoll = tok[p++]
            for (c = 0; c < ncoll; c++) {
                id = tok[p++]; ncs = tok[p++]; best = -1
                for (s = 0; s < ncs; s++) {
                    cs = tok[p++]; nr = tok[p++]
                    if (s == 0 || cs <= comm + 0) { best = s; bp = p; bn = nr }
                    p += 4 * nr
                }
                if (id == want) {
                    alg = -1
                    for (k = 0; k < bn; k++)
                        if (tok[bp + 4 * k] <= msg + 0) alg = tok[bp + 4 * k + 1]
                    print alg; exit
                }
            }
            print "none"
        }' "$1"
}
