#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune tune --resume checks every launch-affecting option (issue 26, J3):
#  - journal.head.json records --env, --mca and --collbench (beside the
#    launcher, --np, --hostfile and --launcher-arg it had);
#  - --resume with another --env, --mca, --collbench, --launcher-arg or
#    --launcher: exit 2 naming the option and both values, nothing launched;
#  - the same options resume;
#  - a head from before env/mca/collbench were recorded takes them as none
#    given: resumes without them, refused with them (and says why).
# The launcher is a fake mpirun that writes its arguments down and fails,
# so a new tune stops at the defaults' first trial (exit 3).
. "$top_srcdir/tests/unit/fake_mpirun.sh"
mkdir "$T/bin2"
cp "$T/bin/mpirun" "$T/bin2/mpirun"

# tune DIR [ARGS...]: a tune through the fake mpirun, at one size.
tune() {
    dir=$1
    shift
    : >"$T/argv.log"
    timeout 60 "$CT" tune --space "$SPACE" --out "$dir" --strategy exhaustive --launches 2 "$@" \
        -- -b 64K -e 64K >/dev/null 2>"$T/err"
    rc=$?
}
# refused WORD: the last tune exited 2 saying WORD and launched nothing.
refused() {
    [ "$rc" -eq 2 ] || fail "exit $rc, want 2 ($(cat "$T/err"))"
    grep -qF -- "$1" "$T/err" || fail "stderr lacks '$1': $(cat "$T/err")"
    [ ! -s "$T/argv.log" ] || fail "launched: $(cat "$T/argv.log")"
}
# resumed: the last tune took the journal's trial and launched the rest.
resumed() {
    grep -q "another tune's" "$T/err" && fail "refused: $(cat "$T/err")"
    grep -q -- "--resume: 1 trials already" "$T/err" || fail "not resumed: $(cat "$T/err")"
    [ -s "$T/argv.log" ] || fail "nothing launched: $(cat "$T/err")"
}
L="$T/bin/mpirun -np 2"

# 1. The head records --env, --mca and --collbench.
tune "$T/a" --launcher "$L" --env UCX_TLS=tcp --mca btl=self,tcp --launcher-arg --oversubscribe
[ "$rc" -eq 3 ] || fail "first tune: exit $rc, want 3 ($(cat "$T/err"))"
H="$T/a/journal.head.json"
grep -qF '"env": "[\"UCX_TLS=tcp\"]"' "$H" || fail "head lacks env: $(cat "$H")"
grep -qF '"mca": "[\"btl=self,tcp\"]"' "$H" || fail "head lacks mca: $(cat "$H")"
grep -qF '"collbench": ""' "$H" || fail "head lacks collbench: $(cat "$H")"

# 2. Another value of each launch option: refused, naming it and both values.
same="--launcher-arg --oversubscribe"
tune "$T/a" --resume --launcher "$L" --env UCX_TLS=tcp --mca btl=self,vader $same
refused "its mca is '[\"btl=self,tcp\"]', this one's '[\"btl=self,vader\"]' (--mca)"
tune "$T/a" --resume --launcher "$L" --mca btl=self,tcp $same
refused "its env is '[\"UCX_TLS=tcp\"]', this one's '[]' (--env)"
tune "$T/a" --resume --launcher "$L" --env UCX_TLS=tcp --mca btl=self,tcp $same --collbench /bin/true
refused "its collbench is '', this one's '/bin/true' (--collbench)"
tune "$T/a" --resume --launcher "$L" --env UCX_TLS=tcp --mca btl=self,tcp
refused "(--launcher, --np, --hostfile, --launcher-arg)"
tune "$T/a" --resume --launcher "$T/bin2/mpirun -np 2" --env UCX_TLS=tcp --mca btl=self,tcp $same
refused "(--launcher, --np, --hostfile, --launcher-arg)"

# 3. The same options resume.
tune "$T/a" --resume --launcher "$L" --env UCX_TLS=tcp --mca btl=self,tcp $same
resumed

# 4. A head from before env/mca/collbench: taken as none given.
tune "$T/b" --launcher "$L"
[ "$rc" -eq 3 ] || fail "second tune: exit $rc, want 3 ($(cat "$T/err"))"
H="$T/b/journal.head.json"
grep -v '"env"\|"mca"\|"collbench"' "$H" | sed 's/"objective": \(.*\),$/"objective": \1/' >"$T/head"
mv "$T/head" "$H"
grep -q '"mca"' "$H" && fail "the old head still names mca"
tune "$T/b" --resume --launcher "$L" --mca btl=self
refused "its mca is '[]', this one's '[\"btl=self\"]' (--mca); its head, from an older colltune, lacks it: taken as that"
tune "$T/b" --resume --launcher "$L"
resumed
grep -qF '"mca": "[]"' "$H" || fail "the resumed old head was not completed: $(cat "$H")"

echo "tune --resume: --env, --mca, --collbench and the launcher recorded and checked"
