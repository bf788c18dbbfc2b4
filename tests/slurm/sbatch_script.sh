#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune sbatch, without Slurm: the script it writes parses (sh -n, and
# the shellcheck program when installed), its #SBATCH lines come before the
# first command and carry the scale, and its command is the argv the user
# gave, byte for byte: the script is run by sh with a stand-in colltune that
# records its arguments (spaces, quotes, $, `...`, $(...), a backslash, a
# newline, a glob, an empty word: nothing expands).  The nightly form passes
# its settings the same way.  Bad input exits 2 and writes nothing; an
# existing file needs --force.  contrib/nightly.sbatch is exactly what
# `colltune sbatch nightly` writes.
. "$top_srcdir/tests/mpi/lib.sh"
ct_colltune_test

# A stand-in colltune: each argument, NUL-terminated, into $T/argv.
cat >"$T/fake" <<'FAKE'
#!/bin/sh
printf '%s\0' "$@" >"$FAKE_ARGV"
FAKE
chmod +x "$T/fake"
export FAKE_ARGV="$T/argv"

# argv_is FILE ARG...: FILE holds exactly these arguments.
argv_is() {
    f=$1
    shift
    printf '%s\0' "$@" >"$T/want"
    cmp -s "$f" "$T/want" || fail "argv: got $(tr '\0' '|' <"$f"), want $(tr '\0' '|' <"$T/want")"
}

# check_script FILE: parses, #SBATCH before the first command.
check_script() {
    sh -n "$1" || fail "sh -n $1"
    if command -v shellcheck >/dev/null 2>&1; then
        shellcheck -s sh "$1" || fail "shellcheck $1"
    fi
    awk '/^#SBATCH/ && cmd { exit 1 } !/^#/ && !/^[ \t]*$/ { cmd = 1 }' "$1" ||
        fail "$1: an #SBATCH line after a command"
}

nl='
'
x1="two words"
x2="it's \"quoted\""
x3='$HOME `id` $(touch '"$T"'/pwned) ${X:-y}'
x4="back\\slash${nl}second line"
x5='*'
set -- --out "$T/out dir" --timeout 60 --env "A=$x1" --env "B=$x2" --env "C=$x3" \
    --env "D=$x4" -- -C allreduce "$x5" ""

# 1. sweep: the scale and the defaults on #SBATCH lines, the argv intact.
"$CT" sbatch --out "$T/job.sbatch" --nodes 3 --ntasks-per-node 4 --colltune "$T/fake" \
    sweep -- "$@" 2>"$T/err" || fail "sweep: exit $? ($(cat "$T/err"))"
check_script "$T/job.sbatch"
for l in --job-name=colltune-sweep --nodes=3 --ntasks-per-node=4 --time=01:00:00 \
    --output=colltune-sweep-%j.out; do
    grep -qx "#SBATCH $l" "$T/job.sbatch" || fail "no '#SBATCH $l': $(cat "$T/job.sbatch")"
done
grep -qx '##SBATCH --exclusive' "$T/job.sbatch" || fail "--exclusive not commented"
grep -qx '##SBATCH --partition=PARTITION' "$T/job.sbatch" || fail "--partition not commented"
(cd "$T" && env -i PATH="$PATH" FAKE_ARGV="$FAKE_ARGV" sh "$T/job.sbatch") || fail "the script failed"
argv_is "$T/argv" sweep --launcher "srun --mpi=pmix" "$@"
[ ! -e "$T/pwned" ] || fail "an argument was expanded"
[ -x "$T/job.sbatch" ] || fail "script not executable"
ls -a "$T" | grep -q '\.tmp$' && fail "temp file left: $(ls -a "$T")"

# 2. tune, with its own --launcher (kept, none added), --partition,
# --exclusive, --time, --job-name and --output on.
"$CT" sbatch --out "$T/tune.sbatch" --nodes 1 --ntasks-per-node 2 --time 0-00:10:00 \
    --partition debug,short --exclusive --job-name my.tune --output "$T/log-%j.out" \
    --colltune "$T/fake" tune -- --space "$T/s p.ini" --out "$T/t" \
    --launcher "srun --mpi=pmix -t 5" 2>"$T/err" || fail "tune: exit $? ($(cat "$T/err"))"
check_script "$T/tune.sbatch"
for l in --partition=debug,short --exclusive --time=0-00:10:00 --job-name=my.tune \
    "--output=$T/log-%j.out"; do
    grep -qx "#SBATCH $l" "$T/tune.sbatch" || fail "no '#SBATCH $l': $(cat "$T/tune.sbatch")"
done
sh "$T/tune.sbatch" || fail "the tune script failed"
argv_is "$T/argv" tune --space "$T/s p.ini" --out "$T/t" --launcher "srun --mpi=pmix -t 5"

# 3. nightly: settings exported as given; NIGHTLY, COLLTUNE and LAUNCHER
# default in the script and yield to the environment.
cat >"$T/nightly.sh" <<'FAKE'
printf '%s\0' "$HISTORY" "$COLLS" "$COLLTUNE" "$LAUNCHER" >"$FAKE_ARGV"
FAKE
"$CT" sbatch --out "$T/n.sbatch" --nodes 2 --ntasks-per-node 8 --colltune "$T/fake" \
    --nightly "$T/nightly.sh" nightly -- "HISTORY=$T/h $x3" "COLLS=$x2" 2>"$T/err" ||
    fail "nightly: exit $? ($(cat "$T/err"))"
check_script "$T/n.sbatch"
env -u LAUNCHER -u COLLTUNE -u NIGHTLY sh "$T/n.sbatch" || fail "the nightly script failed"
argv_is "$T/argv" "$T/h $x3" "$x2" "$T/fake" "srun --mpi=pmix"
LAUNCHER="srun -t 3" sh "$T/n.sbatch" || fail "the nightly script failed"
argv_is "$T/argv" "$T/h $x3" "$x2" "$T/fake" "srun -t 3"
[ ! -e "$T/pwned" ] || fail "a nightly setting was expanded"
NIGHTLY="$T/none.sh" sh "$T/n.sbatch" 2>"$T/err"
[ $? -eq 2 ] && grep -q "none.sh not found" "$T/err" || fail "missing recipe: $(cat "$T/err")"

# 4. contrib/nightly.sbatch is the nightly output: one way to write it.
(cd "$T" && "$CT" sbatch --out nightly.sbatch --nodes 2 --ntasks-per-node 8 --time 01:30:00 \
    --exclusive --colltune colltune --nightly contrib/nightly.sh nightly 2>/dev/null) ||
    fail "contrib form: exit $?"
cmp "$T/nightly.sbatch" "$top_srcdir/contrib/nightly.sbatch" ||
    fail "contrib/nightly.sbatch differs from what colltune sbatch writes: regenerate it with the \
command in its header: $(diff "$T/nightly.sbatch" "$top_srcdir/contrib/nightly.sbatch")"

# 5. an existing file: refused without --force (unchanged), replaced with it.
cp "$T/job.sbatch" "$T/before"
"$CT" sbatch --out "$T/job.sbatch" --nodes 1 --ntasks-per-node 1 sweep -- --out x 2>"$T/err"
[ $? -eq 2 ] && grep -q -- '--force' "$T/err" || fail "overwrite not refused: $(cat "$T/err")"
cmp -s "$T/before" "$T/job.sbatch" || fail "refused overwrite changed the file"
"$CT" sbatch --force --out "$T/job.sbatch" --nodes 1 --ntasks-per-node 1 sweep -- --out x \
    2>/dev/null || fail "--force: exit $?"
grep -qx '#SBATCH --nodes=1' "$T/job.sbatch" || fail "--force did not replace the file"

# 6. bad input: exit 2, a message naming the problem, nothing written.
bad() {
    want=$1
    shift
    "$CT" sbatch "$@" >/dev/null 2>"$T/err"
    rc=$?
    [ "$rc" -eq 2 ] || fail "sbatch $*: exit $rc, want 2 ($(cat "$T/err"))"
    grep -q -- "$want" "$T/err" || fail "sbatch $*: message '$(cat "$T/err")' lacks '$want'"
    [ ! -e "$T/bad.sbatch" ] || fail "sbatch $*: wrote a script"
}
o="--out $T/bad.sbatch"
# shellcheck disable=SC2086 # $o is two words
{
    bad "want sweep, tune or nightly" $o --nodes 1 --ntasks-per-node 1
    bad "'scan': want sweep" $o --nodes 1 --ntasks-per-node 1 scan -- --out x
    bad "give the scale" $o --ntasks-per-node 1 sweep -- --out x
    bad "--nodes '0'" $o --nodes 0 --ntasks-per-node 1 sweep -- --out x
    bad "--ntasks-per-node 'two'" $o --nodes 1 --ntasks-per-node two sweep -- --out x
    bad "--time '1h'" $o --nodes 1 --ntasks-per-node 1 --time 1h sweep -- --out x
    bad "--time '1:2:3:4'" $o --nodes 1 --ntasks-per-node 1 --time 1:2:3:4 sweep -- --out x
    bad "--partition 'a b'" $o --nodes 1 --ntasks-per-node 1 --partition "a b" sweep -- --out x
    bad "--output" $o --nodes 1 --ntasks-per-node 1 --output "x'y" sweep -- --out x
    bad "--job-name" $o --nodes 1 --ntasks-per-node 1 --job-name "a${nl}b" sweep -- --out x
    bad "after sweep" $o --nodes 1 --ntasks-per-node 1 sweep --out x
    bad "needs its --out" $o --nodes 1 --ntasks-per-node 1 sweep -- --np 2
    bad "needs its --space" $o --nodes 1 --ntasks-per-node 1 tune -- --out x
    bad "hostfile" $o --nodes 1 --ntasks-per-node 1 sweep -- --out x --hostfile h
    bad "'FOO=1'" $o --nodes 1 --ntasks-per-node 1 nightly -- FOO=1
    bad "unknown option '--nodez'" $o --nodez 1 sweep -- --out x
    bad "--out FILE is required" --nodes 1 --ntasks-per-node 1 sweep -- --out x
}
# --out over the recipe or colltune the job runs (E21): refused even with
# --force, through a link too, and the file kept.
cp "$T/nightly.sh" "$T/self.sh"
cp "$T/self.sh" "$T/self.before"
ln -s "$T/self.sh" "$T/self.link"
for out in "$T/self.sh" "$T/self.link"; do
    "$CT" sbatch --force --out "$out" --nodes 1 --ntasks-per-node 1 --nightly "$T/self.sh" nightly \
        2>"$T/err"
    [ $? -eq 2 ] && grep -q "which the job runs" "$T/err" || fail "--out $out = --nightly: $(cat "$T/err")"
    cmp -s "$T/self.before" "$T/self.sh" || fail "--out = --nightly: the recipe was overwritten"
done
"$CT" sbatch --force --out "$T/self.sh" --nodes 1 --ntasks-per-node 1 --colltune "$T/self.sh" \
    sweep -- --out x 2>"$T/err"
[ $? -eq 2 ] && grep -q "which the job runs" "$T/err" || fail "--out = --colltune: $(cat "$T/err")"
# ... and when that file does not exist yet: the job would write itself
# and run itself forever.  Compared by path: relative against absolute,
# through a symlinked directory, through a dangling link.
mkdir "$T/real" "$T/cwd"
ln -s "$T/real" "$T/linkdir"
ln -s "$T/real/dangling.sh" "$T/dangle.sh"
new_self() { # OUT RUNS [WHICH]: --out OUT with --nightly (or --colltune) RUNS
    if [ "${3:-nightly}" = nightly ]; then
        (cd "$T/cwd" && "$CT" sbatch --out "$1" --nodes 1 --ntasks-per-node 1 --nightly "$2" nightly) 2>"$T/err"
    else
        (cd "$T/cwd" && "$CT" sbatch --out "$1" --nodes 1 --ntasks-per-node 1 --colltune "$2" sweep -- --out x) 2>"$T/err"
    fi
    [ $? -eq 2 ] && grep -q "which the job runs" "$T/err" ||
        fail "--out $1 with ${3:-nightly} $2 (not yet there): $(cat "$T/err")"
    [ ! -e "$T/real/new.sh" ] && [ ! -e "$T/cwd/new.sh" ] && [ ! -e "$T/real/dangling.sh" ] ||
        fail "--out $1 = $2: a job script was written"
}
new_self "$T/cwd/new.sh" "$T/cwd/new.sh"
new_self new.sh "$T/cwd/new.sh"
new_self "$T/cwd/new.sh" ./new.sh
new_self "$T/cwd/../cwd/new.sh" new.sh colltune
new_self "$T/linkdir/new.sh" "$T/real/new.sh"
new_self "$T/real/new.sh" ../linkdir/new.sh colltune
new_self "$T/dangle.sh" "$T/real/dangling.sh"
# a different name in the same directory is still written
(cd "$T/cwd" && "$CT" sbatch --out job.sh --nodes 1 --ntasks-per-node 1 --nightly new.sh nightly) 2>"$T/err" &&
    [ -s "$T/cwd/job.sh" ] || fail "--out job.sh --nightly new.sh: $(cat "$T/err")"
"$CT" sbatch --out "$T" --nodes 1 --ntasks-per-node 1 sweep -- --out x 2>"$T/err"
[ $? -eq 2 ] && grep -q "not a regular file" "$T/err" || fail "a directory as --out: $(cat "$T/err")"
"$CT" sbatch --help | grep -q -- '--ntasks-per-node' || fail "--help"
"$CT" --help | grep -q '^  sbatch ' || fail "colltune --help does not list sbatch"
exit 0
