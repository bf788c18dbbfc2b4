#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Every source file names its license (LICENSE, BSD-3-Clause) in an SPDX
# line near its top: C, shell, make, m4, gnuplot, Python, the shipped
# search spaces.  Files are listed by git where the tree is a checkout,
# else found (a tarball's build); generated files (config.h) are not ours.
set -u
: "${top_srcdir:?run through make check}"
cd "$top_srcdir" || exit 1
if command -v git >/dev/null 2>&1 && git rev-parse --git-dir >/dev/null 2>&1; then
    list() { git ls-files; }
else
    list() { find . -type f ! -path './.git/*' | sed 's|^\./||'; }
fi
bad=$(list | while IFS= read -r f; do
    case $f in
    config.h | */config.h | tests/fuzz/corpus/*) continue ;;
    *.c | *.h | *.sh | *.bash | *.awk | *.mk | *.m4 | *.gp | Makefile.am | configure.ac | \
        tuner/spaces/*.ini | contrib/spack/*.py | debian/rules | .ci/run | bench/*) ;;
    *) continue ;;
    esac
    case $f in bench/*.* | bench/*/*) case $f in *.sh | *.c) ;; *) continue ;; esac ;; esac
    [ -f "$f" ] || continue
    head -n 5 "$f" | grep -q 'SPDX-License-Identifier: BSD-3-Clause' || echo "$f"
done)
[ -z "$bad" ] || {
    echo "FAIL: no SPDX-License-Identifier line in the first 5 lines of:" >&2
    echo "$bad" >&2
    exit 1
}
exit 0
