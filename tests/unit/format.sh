#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Every C file follows the one house style written down in .clang-format.
# Skips (77) where clang-format is not installed; quickstart.sh installs it.
: "${top_srcdir:?run through make check}"
command -v clang-format >/dev/null 2>&1 || { echo "SKIP: clang-format not installed"; exit 77; }
[ -f "$top_srcdir/.clang-format" ] || { echo "FAIL: no .clang-format"; exit 1; }
cd "$top_srcdir" || exit 1
bad=0
for f in $(find src tuner tests bench -name '*.[ch]' | sort); do
    if ! clang-format --style=file --dry-run -Werror "$f" >/dev/null 2>&1; then
        echo "FAIL: $f is not in the house style (clang-format -i $f)"
        bad=1
    fi
done
exit $bad
