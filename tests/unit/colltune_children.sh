#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Every helper colltune starts runs with a time limit and a cap on what it
# prints, and says which limit it hit (issue 26 item 9): ucx_info (10 s,
# 16 MiB), gnuplot (60 s, 16 MiB of stderr), the launcher (--timeout,
# 64 MiB each of collbench.txt/.err).  Fakes on PATH, a launcher that
# fails at once (fake_mpirun.sh) so that a tune stops right after its
# ucx_info check.  ompi_info's limits (the A/B only) are in bench/hostile.
set -u
: "${top_srcdir:?run through make check}"
# shellcheck source=tests/unit/fake_mpirun.sh
. "$top_srcdir/tests/unit/fake_mpirun.sh"

U="$T/ucx.ini"
printf '[space]\nname = u\nvia = env\n[var UCX_TLS]\nvalues = all, tcp\n[var UCX_NO_SUCH_VAR]\nvalues = 1, 2\n' >"$U"

# fake NAME BODY: $T/NAME/ucx_info running BODY (sh).
fake() {
    mkdir -p "$T/$1"
    printf '#!/bin/sh\nPATH=/usr/bin:/bin\n%s\n' "$2" >"$T/$1/ucx_info"
    chmod +x "$T/$1/ucx_info"
}
# ucx DIR: a tune whose ucx_info is DIR's (PATH holds nothing else); its
# stderr in $T/err, exit in $rc.
ucx() {
    timeout 40 env PATH="$T/$1" TMPDIR="$T/tmp" ${COLLTUNE_HELPER_TIMEOUT:+COLLTUNE_HELPER_TIMEOUT=$COLLTUNE_HELPER_TIMEOUT} "$CT" tune --space "$U" --out "$T/o-$1" \
        --launcher "$T/bin/mpirun" --np 2 --strategy exhaustive -- -b 1K -e 1K >/dev/null 2>"$T/err"
    rc=$?
}
# noted WHY: the name check was skipped with a note saying WHY, and the
# tune went on to its (failing) launch.
noted() {
    grep -qF "note: ucx_info -c $1, so the space's UCX_* names are not checked" "$T/err" ||
        fail "ucx_info: want '$1': $(cat "$T/err")"
    [ "$rc" -eq 3 ] || fail "ucx_info ($1): exit $rc, want 3 from the failing launch"
    [ -z "$(ls -A "$T/tmp")" ] || fail "ucx_info ($1): left $(ls -A "$T/tmp") in TMPDIR"
}
mkdir "$T/tmp"

# Not executable: it did not run.
mkdir "$T/noexec" && printf '#!/bin/sh\necho UCX_TLS=all\n' >"$T/noexec/ucx_info"
ucx noexec
noted "did not run (cannot execute: Permission denied)"

# A NUL byte in the output (U3): it ran.
fake nul 'printf "UCX_X=1\\nUCX_TLS=all\\0\\nUCX_NO_SUCH_VAR=1\\n"'
ucx nul
noted "ran but printed no usable list (a NUL byte at line 2)"

# No UCX_TLS= line.
fake none 'echo hello'
ucx none
noted "ran but printed no usable list (no UCX_TLS= line)"

# More than 16 MiB, then UCX_TLS= (U4): stopped at the cap, the file never
# larger than 16 MiB and a byte (the shell records its stdout's size once
# the writer is stopped; it ignores SIGTERM to live that long).
mkdir "$T/big"
cat >"$T/big/ucx_info" <<EOS
#!/bin/sh
PATH=/usr/bin:/bin
trap '' TERM
head -c 40000000 /dev/zero
stat -L -c %s /proc/\$\$/fd/1 >"$T/big.size"
echo UCX_TLS=all
EOS
chmod +x "$T/big/ucx_info"
ucx big
noted "printed more than 16 MiB on stdout"
if ! [ -s "$T/big.size" ] || [ "$(cat "$T/big.size")" -gt 16777217 ]; then
    fail "ucx_info's output grew to $(cat "$T/big.size" 2>/dev/null) bytes, past the 16 MiB cap"
fi

# Never exits (U5): the time limit (10 s; 1 s here through
# COLLTUNE_HELPER_TIMEOUT), then on; a bad COLLTUNE_HELPER_TIMEOUT is named.
fake hang 'exec sleep 1000'
t0=$(date +%s)
COLLTUNE_HELPER_TIMEOUT=1 ucx hang
noted "did not finish in 1 s"
[ $(($(date +%s) - t0)) -le 10 ] || fail "ucx_info that hangs: the tune took $(($(date +%s) - t0)) s"
fake badenv 'exec sleep 1000'
COLLTUNE_HELPER_TIMEOUT=ten ucx badenv
noted "did not run (COLLTUNE_HELPER_TIMEOUT='ten': want seconds, 0.1 to 3600)"

# A launcher that prints without end: the trial stops at 64 MiB.
mkdir "$T/loud"
cat >"$T/loud/mpirun" <<'EOS'
#!/bin/sh
exec yes collbench
EOS
chmod +x "$T/loud/mpirun"
timeout 40 "$CT" sweep --out "$T/s" --launcher "$T/loud/mpirun" --np 2 -- -C allreduce -b 8 -e 8 \
    >/dev/null 2>"$T/err"
rc=$?
[ "$rc" -eq 3 ] || fail "a launcher printing without end: exit $rc, want 3 ($(cat "$T/err"))"
grep -qF "the run printed more than 64 MiB on stdout (collbench.txt)" "$T/err" ||
    fail "a launcher printing without end: $(cat "$T/err")"
sz=$(stat -c %s "$T/s/collbench.txt")
[ "$sz" -lt $((256 << 20)) ] || fail "collbench.txt grew to $sz bytes"
timeout 40 "$CT" tune --space "$SPACE" --out "$T/t" --launcher "$T/loud/mpirun" --np 2 \
    --strategy exhaustive -- -b 1K -e 1K >/dev/null 2>"$T/err"
rc=$?
[ "$rc" -eq 3 ] || fail "tune, a launcher printing without end: exit $rc ($(cat "$T/err"))"
grep -qF "the launch printed more than 64 MiB on stdout; killed" "$T/err" ||
    fail "tune, a launcher printing without end: $(cat "$T/err")"

# A gnuplot that prints without end on stderr: stopped at 16 MiB; its
# messages are passed on, cut; no image, no stray file.
CSV="$top_srcdir/tests/unit/plot_results.csv"
printf '#!/bin/sh\nexec yes gnuplot-warning >&2\n' >"$T/bin/gp-loud"
chmod +x "$T/bin/gp-loud"
timeout 40 "$CT" plot --gnuplot "$T/bin/gp-loud" --plots-dir "$top_srcdir/plots" --out "$T/p" \
    "$CSV" >/dev/null 2>"$T/err"
rc=$?
[ "$rc" -eq 3 ] || fail "gnuplot printing without end: exit $rc, want 3"
grep -qF "printed more than 16 MiB on stderr; killed" "$T/err" ||
    fail "gnuplot printing without end: $(tail -c 2000 "$T/err")"
grep -qF "[... the rest of gnuplot's messages left out]" "$T/err" ||
    fail "gnuplot's messages not cut: $(tail -c 2000 "$T/err")"
left=$(find "$T/p" -name '*.tmp*')
[ -z "$left" ] || fail "gnuplot printing without end left $left"
exit 0
