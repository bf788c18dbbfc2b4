#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# colltune sweep relays collbench's progress lines while the launch runs
# (issue 25): a launcher that prints one, then waits; colltune's stderr
# holds it, prefixed, before the launcher ends; other stderr lines stay in
# DIR/collbench.err only.
. "$top_srcdir/tests/unit/fake_mpirun.sh"
cat >"$T/bin/slow-mpirun" <<'EOS'
#!/bin/sh
echo "collbench: allreduce float 1024 B done (3/9), elapsed 2.0 s, ETA 4 s" >&2
echo "some launcher chatter" >&2
exec sleep 8
EOS
chmod +x "$T/bin/slow-mpirun"
"$CT" sweep --out "$T/s" --launcher "$T/bin/slow-mpirun -np 2" --timeout 30 -- -b 8 -e 8 \
    >/dev/null 2>"$T/err" &
pid=$!
i=0
until grep -q 'done (3/9)' "$T/err"; do
    i=$((i + 1))
    [ "$i" -lt 60 ] || break
    sleep 0.1
done
kill -0 "$pid" 2>/dev/null || fail "the launch ended before its progress line was relayed: $(cat "$T/err")"
grep -qx 'colltune sweep: collbench: allreduce float 1024 B done (3/9), elapsed 2.0 s, ETA 4 s' "$T/err" ||
    fail "no relayed progress line within 6 s: $(cat "$T/err")"
grep -q 'chatter' "$T/err" && fail "a line that is not collbench's progress was relayed: $(cat "$T/err")"
kill "$pid"
wait "$pid" 2>/dev/null
grep -q 'chatter' "$T/s/collbench.err" || fail "collbench.err lacks the launcher's lines"
exit 0
