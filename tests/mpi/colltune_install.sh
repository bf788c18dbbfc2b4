#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite: concurrent (decides nothing from a timing: tests/run-test.sh)
# colltune install and verify-install, with the real Open MPI at np=2.
# TUNE_DIR is built by hand from the emitters' golden output (every file a
# tune writes, paths naming TUNE_DIR) and a report.json that says the A/B
# ran and wrote a choice: what install reads of a tune.
#  1. install copies the files into a fresh DIR, every path that named
#     TUNE_DIR names DIR and exists, nothing from TUNE_DIR/verify/; it
#     prints the site's lines.  With TUNE_DIR removed, verify-install
#     reads every value back through MPI_T: all in force.
#  2. A value the environment overrides, and a deleted rules file (Open
#     MPI would run without it, silently): exit 1, each named.
#  3. Refusals, exit 2 and nothing written: DIR is TUNE_DIR, no
#     report.json, nothing verified, a dropped choice in mca-params.conf,
#     existing files without --force; a path that would not exist, exit 3.
. "$top_srcdir/tests/mpi/lib.sh"

ct_colltune_test
mkdir -p "$T/tmp" "$T/tune/verify"
T=$(cd -P "$T" && pwd) # the real path: install rewrites to DIR's
tune="$T/tune"
site="$T/site"
for f in "$top_srcdir"/tests/unit/emit_golden/full/* "$top_srcdir"/tests/unit/emit_golden/mpich/*; do
    sed "s|@DIR@|$tune|g" "$f" >"$tune/$(basename "$f")"
done
echo 'btl_vader_eager_limit = 1 # FROM_VERIFY' >"$tune/verify/mca-params.conf"
cat >"$tune/report.json" <<'EOF'
{"verified": true, "choices": [
 {"name": "btl_vader_eager_limit", "value": "8192", "via": "mca", "written": true},
 {"name": "coll_tuned_allreduce_algorithm", "value": "3", "via": "mca", "written": false}]}
EOF
set -- --np 2 --launcher-arg --oversubscribe --launcher-arg --bind-to --launcher-arg none \
    --launcher-arg --mca --launcher-arg orte_tmpdir_base --launcher-arg "$T/tmp" \
    --mca mpi_yield_when_idle=1 --timeout 60

# 1. Installed, rewritten, in force without TUNE_DIR.
"$CT" install "$tune" --to "$site" >"$T/out" 2>"$T/err" || fail "install: exit $? ($(cat "$T/err"))"
for f in mca-params.conf coll-tuned-rules.conf coll-tuned-rules.json ucx.conf nccl.conf nccl.env \
    nccl_tuner.conf mpich.env intel-mpi.env; do
    [ -f "$site/$f" ] || fail "install: no $f in DIR"
done
[ ! -e "$site/report.json" ] && [ ! -e "$site/verify" ] || fail "install copied more than the files"
! grep -rq FROM_VERIFY "$site" || fail "install copied from TUNE_DIR/verify/"
! grep -rq "$tune" "$site" || fail "a path still names TUNE_DIR: $(grep -rn "$tune" "$site")"
rules=$(sed -n 's/^coll_tuned_dynamic_rules_filename = //p' "$site/mca-params.conf")
[ "$rules" = "$site/coll-tuned-rules.conf" ] && [ -f "$rules" ] || fail "rules path: '$rules'"
grep -q "^  export OMPI_MCA_mca_base_param_files=$site/mca-params.conf," "$T/out" ||
    fail "no Open MPI line: $(cat "$T/out")"
grep -q "^  export UCX_CONFIG_DIR=$site\$" "$T/out" || fail "no UCX line"
grep -q "^  export NCCL_CONF_FILE=$site/nccl.conf\$" "$T/out" || fail "no NCCL line"
grep -q "set -a; \. $site/nccl.env" "$T/out" || fail "no nccl.env line"
grep -q "^  set -a; \. $site/mpich.env; set +a\$" "$T/out" || fail "no mpich.env line: $(cat "$T/out")"
grep -q "^  # Intel MPI (not run here): set -a; \. $site/intel-mpi.env; set +a\$" "$T/out" ||
    fail "no intel-mpi.env line: $(cat "$T/out")"
grep -q "^  setenv UCX_CONFIG_DIR {$site}\$" "$T/out" || fail "no module file lines"
grep -q 'Install with: colltune install TUNE_DIR --to DIR' "$site/mca-params.conf" ||
    fail "the header does not say to use colltune install"
rm -rf "$tune"
"$CT" verify-install "$site" "$@" >"$T/out" 2>"$T/err" ||
    fail "verify-install: exit $? ($(cat "$T/out" "$T/err"))"
grep -q '4 of 4 values in force' "$T/out" || fail "verify-install: $(cat "$T/out")"

# 2. Not in force: the environment wins over the file; a missing rules file.
OMPI_MCA_btl_vader_eager_limit=4096 "$CT" verify-install "$site" "$@" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 1 ] || fail "overridden value: exit $rc, want 1 ($(cat "$T/err"))"
grep -q 'NOT IN FORCE: btl_vader_eager_limit = 8192.*reads 4096' "$T/out" ||
    fail "overridden value not named: $(cat "$T/out")"
grep -q '3 of 4 values in force' "$T/out" || fail "overridden: count"
rm "$site/coll-tuned-rules.conf"
"$CT" verify-install "$site" "$@" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 1 ] || fail "missing rules file: exit $rc, want 1"
grep -q "MISSING: coll_tuned_dynamic_rules_filename = $site/coll-tuned-rules.conf" "$T/out" ||
    fail "missing rules file not named: $(cat "$T/out")"

# 3. Refusals.  A fresh TUNE_DIR (the first one is gone).
mkdir -p "$tune"
for f in "$top_srcdir"/tests/unit/emit_golden/ompi/* "$top_srcdir"/tests/unit/emit_golden/full/ucx.conf; do
    sed "s|@DIR@|$tune|g" "$f" >"$tune/$(basename "$f")"
done
printf '%s\n' '{"verified": true, "choices": [{"name": "coll_tuned_allreduce_algorithm",' \
    '"value": "4", "written": true}]}' >"$tune/report.json"
refused() { # WHAT PATTERN ARGS...: exit 2, PATTERN on stderr, DIR untouched
    what=$1 pat=$2
    shift 2
    rm -rf "$T/new"
    "$CT" install "$@" >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq 2 ] || fail "$what: exit $rc, want 2 ($(cat "$T/err"))"
    grep -q -- "$pat" "$T/err" || fail "$what: $(cat "$T/err")"
    [ -z "$(ls "$T/new" 2>/dev/null)" ] || fail "$what: wrote $(ls "$T/new")"
}
refused "DIR is TUNE_DIR" "is TUNE_DIR itself" "$tune" --to "$T/./tune/"
cmp -s "$tune/ucx.conf" "$top_srcdir/tests/unit/emit_golden/full/ucx.conf" &&
    fail "sed did nothing: the test cannot tell"
refused "no TUNE_DIR" "TUNE_DIR $T/nope" "$T/nope" --to "$T/new"
mv "$tune/report.json" "$T/report.json"
refused "no report.json" "no report.json" "$tune" --to "$T/new"
sed 's/"verified": true/"verified": false/' "$T/report.json" >"$tune/report.json"
refused "not verified" "no A/B verification" "$tune" --to "$T/new"
sed 's/"written": true/"written": false/' "$T/report.json" >"$tune/report.json"
refused "nothing written" "no choice was verified" "$tune" --to "$T/new"
printf '%s\n' '{"verified": true, "choices": [{"name": "coll_tuned_allreduce_algorithm",' \
    '"value": "4", "written": false}, {"name": "x", "value": "1", "written": true}]}' \
    >"$tune/report.json"
refused "dropped choice" "coll_tuned_allreduce_algorithm = 4, a choice" "$tune" --to "$T/new"
mv "$T/report.json" "$tune/report.json"
"$CT" install "$tune" --to "$T/new" >/dev/null 2>"$T/err" || fail "install: $(cat "$T/err")"
cp "$T/new/mca-params.conf" "$T/before"
echo '# changed' >>"$tune/mca-params.conf"
"$CT" install "$tune" --to "$T/new" >/dev/null 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "existing files without --force: exit $rc"
grep -q "mca-params.conf exists (give --force" "$T/err" || fail "existing: $(cat "$T/err")"
cmp -s "$T/before" "$T/new/mca-params.conf" || fail "existing: replaced without --force"
"$CT" install "$tune" --to "$T/new" --force >/dev/null 2>"$T/err" || fail "--force: exit $?"
tail -1 "$T/new/mca-params.conf" | grep -q '# changed' || fail "--force did not replace"
# A rules file named but not in TUNE_DIR: it would not exist in DIR.
echo "coll_tuned_dynamic_rules_filename = $tune/coll-tuned-rules.conf" >>"$tune/mca-params.conf"
rm -rf "$T/new3"
"$CT" install "$tune" --to "$T/new3" >/dev/null 2>"$T/err"
rc=$?
[ "$rc" -eq 3 ] || fail "a path that would not exist: exit $rc, want 3 ($(cat "$T/err"))"
grep -q "names $T/new3/coll-tuned-rules.conf, which would not exist" "$T/err" ||
    fail "exit 3: $(cat "$T/err")"
[ -z "$(ls "$T/new3")" ] || fail "exit 3: wrote $(ls "$T/new3")"
"$CT" verify-install "$T/nope" "$@" >/dev/null 2>&1
[ $? -eq 2 ] || fail "verify-install of a missing DIR: want exit 2"
exit 0
