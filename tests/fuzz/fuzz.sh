#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tests/fuzz/fuzz.sh [SECONDS] - `make fuzz`: every fuzz target built with
# clang's libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer from
# the sources of the layers it reads (src/lib and tuner/core, space, emit,
# tune, import), then run for SECONDS each (default 60) on a copy of its
# seed corpus.  New inputs and crashes stay in tests/fuzz/build/ (make
# clean removes it); the seed corpus is never changed.  Any sanitizer
# report or crash ends it with exit 1 naming the target and the input.
set -u
: "${top_builddir:?run through make fuzz}"
: "${top_srcdir:?run through make fuzz}"
secs=${1:-${FUZZ_SECONDS:-60}}
[ -n "$secs" ] || secs=60
CC=${FUZZ_CC:-clang}
command -v "$CC" >/dev/null 2>&1 || { echo "fuzz: no $CC (Debian: apt-get install clang)" >&2; exit 2; }
B="$top_builddir/tests/fuzz/build"
mkdir -p "$B/obj" || exit 2
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -g -O1"
cflags="-std=c11 -D_POSIX_C_SOURCE=200809L -DCT_DEFAULT_MPIRUN=\"\" $san \
-I$top_builddir -I$top_srcdir/src -I$top_srcdir/src/lib -I$top_srcdir/src/coll \
-I$top_srcdir/tuner/core -I$top_srcdir/tuner/space -I$top_srcdir/tuner/emit \
-I$top_srcdir/tuner/tune -I$top_srcdir/tuner/import -I$top_srcdir/tests/fuzz \
$(pkg-config --cflags jansson inih 2>/dev/null)"
libs="$(pkg-config --libs jansson inih 2>/dev/null || echo -ljansson -linih) -lm"

objs=
for f in "$top_srcdir"/src/lib/*.c "$top_srcdir"/tuner/core/*.c "$top_srcdir"/tuner/space/*.c \
    "$top_srcdir"/tuner/emit/*.c "$top_srcdir"/tuner/tune/*.c "$top_srcdir"/tuner/import/*.c \
    "$top_srcdir"/tests/fuzz/fuzz_input.c; do
    o="$B/obj/$(echo "${f#"$top_srcdir"/}" | tr / _ | sed 's/\.c$/.o/')"
    if [ ! -f "$o" ] || [ "$f" -nt "$o" ]; then
        # shellcheck disable=SC2086 # word lists
        $CC $cflags -fsanitize=fuzzer-no-link -c "$f" -o "$o" || { echo "fuzz: cannot compile $f" >&2; exit 2; }
    fi
    objs="$objs $o"
done

rc=0
for name in ${FUZZ_TARGETS:-space weights journal results import}; do
    exe="$B/fuzz_$name"
    # shellcheck disable=SC2086
    $CC $cflags -fsanitize=fuzzer "$top_srcdir/tests/fuzz/fuzz_$name.c" $objs $libs -o "$exe" ||
        { echo "fuzz: cannot link $exe" >&2; exit 2; }
    mkdir -p "$B/corpus/$name" "$B/crashes/$name"
    cp "$top_srcdir/tests/fuzz/corpus/$name"/* "$B/corpus/$name/" 2>/dev/null
    echo "fuzz: $name for $secs s"
    TMPDIR="$B" "$exe" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -close_fd_mask=2 -print_final_stats=1 -artifact_prefix="$B/crashes/$name/" \
        "$B/corpus/$name" >"$B/$name.log" 2>&1
    r=$?
    grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "$B/$name.log" | sed "s/^/  $name /"
    if [ "$r" -ne 0 ] || grep -q 'ERROR: AddressSanitizer\|runtime error:\|ERROR: libFuzzer' "$B/$name.log"; then
        echo "FAIL: fuzz_$name: see $B/$name.log and $B/crashes/$name/" >&2
        grep -m 5 'ERROR\|runtime error' "$B/$name.log" >&2
        rc=1
    fi
done
[ "$rc" -eq 0 ] && echo "fuzz: every target ran $secs s with no sanitizer report"
exit "$rc"
