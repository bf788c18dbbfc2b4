# SPDX-License-Identifier: BSD-3-Clause
# bench/tune-common.sh - shared by bench/tune-gain and bench/search-cost
# (sourced, bash).  Expects $root, $tmp and $me set, and fail() defined.
#
# ct_tune OUTDIR STRATEGY LOG : one colltune tune into OUTDIR, every trial
#   through mpirun with the bench settings; exits the script if it fails.
# ct_param_files DIR : the mca_base_param_files value that makes collbench
#   read DIR's emitted mca-params.conf (before the files Open MPI reads by
#   default, as the tune's own verification did); empty when DIR has none.
# ct_launch_one FILES CSV LOG : one fresh collbench launch (defaults, or
#   BASE_PARAM_FILES when set, when FILES is empty); prints "collective
#   bytes median_us" per out-of-place row of CSV.
#
# BASE_PARAM_FILES (optional): the mca_base_param_files list of the default
# side, for the tune's trials and the hand runs alike (a site's files, or a
# planted slow default for testing); unset, Open MPI's own list.

COLLTUNE=${COLLTUNE:-$root/tuner/colltune}
COLLBENCH=${COLLBENCH:-$root/src/collbench}
JSON_GET=${JSON_GET:-$root/tests/tools/json_get}
NP=${NP:-4}
COLLS=${COLLS:-allreduce,broadcast}
SIZES=${SIZES:--b 1K -e 256K -f 4}
SPACE=${SPACE:-$root/tuner/spaces/openmpi-coll.ini}
TIMEOUT=${TIMEOUT:-600}
TUNE_TIMEOUT=${TUNE_TIMEOUT:-14400}
MPIRUN=${MPIRUN:-mpirun}
# MPI may spin without yielding when every rank has a core of its own.
YIELD=${YIELD:-$([ "$NP" -le "$(nproc)" ] && echo 0 || echo 1)}

for v in COLLTUNE COLLBENCH JSON_GET SPACE; do
    case ${!v} in /*) ;; *) printf -v "$v" '%s' "$root/${!v}" ;; esac
done
[ -x "$COLLTUNE" ] || { echo "$me: $COLLTUNE not built (make)" >&2; exit 2; }
[ -x "$COLLBENCH" ] || { echo "$me: $COLLBENCH not built (make)" >&2; exit 2; }
[ -x "$JSON_GET" ] || { echo "$me: $JSON_GET not built (make tests/tools/json_get)" >&2; exit 2; }
[ -r "$SPACE" ] || { echo "$me: no space file $SPACE" >&2; exit 2; }

jget() {  # FILE PATH: one value of a JSON file
    "$JSON_GET" "$1" "$2"
}

# The mpirun settings every launch gets, hand-run or through colltune.
ct_launcher_words=(--bind-to none --oversubscribe --mca orte_tmpdir_base "$tmp")
[ "$(id -u)" -eq 0 ] && ct_launcher_words+=(--allow-run-as-root)
# shellcheck disable=SC2206
[ -n "${MPIRUN_ARGS:-}" ] && ct_launcher_words+=($MPIRUN_ARGS)

ct_tune() {  # $1 out dir, $2 strategy, $3 log, [$4 space file: $SPACE]
    local args=(tune --space "${4:-$SPACE}" --out "$1" --launcher "$MPIRUN" --np "$NP"
                --mca "mpi_yield_when_idle=$YIELD" --timeout "$TIMEOUT"
                --collectives "$COLLS" --strategy "$2")
    local w
    for w in "${ct_launcher_words[@]}"; do args+=(--launcher-arg "$w"); done
    [ -n "${LAUNCHES:-}" ] && args+=(--launches "$LAUNCHES")
    [ -n "${VERIFY_PAIRS:-}" ] && args+=(--verify-pairs "$VERIFY_PAIRS")
    [ -n "${BASE_PARAM_FILES:-}" ] && args+=(--mca "mca_base_param_files=$BASE_PARAM_FILES")
    # shellcheck disable=SC2086
    timeout "$TUNE_TIMEOUT" "$COLLTUNE" "${args[@]}" -- $SIZES >"$3" 2>&1 ||
        fail "colltune tune --strategy $2" "$3"
}

ct_param_files() {  # $1 tune dir
    local r=$1/report.json tw
    [ -f "$1/mca-params.conf" ] || return 0
    # tuned_with: "--mca mca_base_param_files=VERIFY/mca-params.conf,DEFAULTS..."
    tw=$(jget "$r" verification.tuned_with 2>/dev/null) || tw=
    tw=${tw#*mca_base_param_files=}
    case $tw in
        *,*) echo "$1/mca-params.conf,${tw#*,}" ;;
        *) echo "$1/mca-params.conf,${BASE_PARAM_FILES:-/etc/openmpi/openmpi-mca-params.conf}" ;;
    esac
}

ct_launch_one() {  # $1 param files (or empty), $2 csv, $3 log
    local cmd=("$MPIRUN" "${ct_launcher_words[@]}" --mca mpi_yield_when_idle "$YIELD" -np "$NP")
    local files=${1:-${BASE_PARAM_FILES:-}}
    [ -n "$files" ] && cmd+=(--mca mca_base_param_files "$files")
    # shellcheck disable=SC2086
    timeout "$TIMEOUT" "${cmd[@]}" "$COLLBENCH" -C "$COLLS" $SIZES --csv "$2" --no-table \
        --quiet >"$3" 2>&1 || fail "collbench launch ($3)" "$3"
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["placement"] == "out-of-place" {
            print $col["collective"], $col["bytes"], $col["median_us"] }' "$2"
}

# ct_search_cost DIR: "trials wall_s" of the search (scope != verify); a
# shared launch's trials (one "group", the in-process search) carry its
# wall time each and count once.
ct_search_cost() {
    local r=$1/report.json n i s=0 k=0 scope w g
    local -A seen=()
    n=$(jget "$r" trials.#)
    for ((i = 0; i < n; i++)); do
        scope=$(jget "$r" "trials.$i.scope")
        [ "$scope" = verify ] && continue
        g=$(jget "$r" "trials.$i.group" 2>/dev/null) || g=
        if [ -n "$g" ]; then
            k=$((k + 1))
            [ -n "${seen[$g]:-}" ] && continue
            seen[$g]=1
        else
            k=$((k + 1))
        fi
        w=$(jget "$r" "trials.$i.wall_s")
        s=$(awk -v a="$s" -v b="$w" 'BEGIN { printf "%.3f", a + b }')
    done
    echo "$k $s"
}

# ct_ab_table ROWS SIDES : ROWS holds "side round collective bytes us"
#   lines; SIDES the sides' names, the first the reference (defaults).
#   Prints per collective x size each side's median over rounds [min-max]
#   and reference/side, then the geometric mean of reference/side over the
#   cells per side: "geomean SIDE VALUE" lines.
ct_ab_table() {
    awk -v sides="$2" '
        function median(key,    n, i, j, t, a) {
            n = split(vals[key], a, " ")
            for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
            lo = a[1]; hi = a[n]
            return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
        }
        {
            cell = $3 " " $4
            if (!(cell in seen)) { seen[cell] = 1; order[++ncells] = cell }
            vals[cell SUBSEP $1] = vals[cell SUBSEP $1] " " $5
        }
        END {
            ns = split(sides, s, " ")
            printf "%-12s %8s", "collective", "bytes"
            for (k = 1; k <= ns; k++) printf "  %-28s", s[k] " us [min-max]"
            for (k = 2; k <= ns; k++) printf "  %10s", s[1] "/" s[k]
            printf "\n"
            for (c = 1; c <= ncells; c++) {
                split(order[c], f, " ")
                printf "%-12s %8s", f[1], f[2]
                for (k = 1; k <= ns; k++) {
                    m[k] = median(order[c] SUBSEP s[k])
                    printf "  %-28s", sprintf("%.2f [%.2f-%.2f]", m[k], lo, hi)
                }
                for (k = 2; k <= ns; k++) {
                    printf "  %10.3f", m[1] / m[k]
                    logsum[k] += log(m[1] / m[k])
                }
                printf "\n"
            }
            for (k = 2; k <= ns; k++)
                printf "geomean %s %.4f\n", s[k], ncells ? exp(logsum[k] / ncells) : 1
        }' "$1"
}
