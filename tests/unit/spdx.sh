#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Every source file names its license (LICENSE, BSD-3-Clause) in an SPDX
# line near its top: C, shell, make, m4, gnuplot, Python, the shipped
# search spaces.  Files are listed by git where the source tree is the top
# of a checkout, else found (an unpacked tarball, make distcheck's copy
# inside a checkout): there, what autoreconf -fi writes (aclocal.m4 and
# libtool's and automake's files, which a tarball ships too) and what a
# build, make distcheck or a package build leaves are not ours, as the
# .gitignore says; nor is a generated config.h.
set -u
: "${top_srcdir:?run through make check}"
cd "$top_srcdir" || exit 1
if command -v git >/dev/null 2>&1 &&
    [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
    list() { git ls-files; }
else
    list() {
        find . \( -name .git -o -name .deps -o -name .libs -o -name autom4te.cache -o \
            -path ./_build -o -path ./_inst -o -path './colltune-*' -o -path ./build-mpich -o \
            -path ./debian/colltune -o -path ./debian/.debhelper \) -prune -o -type f -print |
            sed 's|^\./||'
    }
fi
bad=$(list | while IFS= read -r f; do
    case $f in
    config.h | */config.h | tests/fuzz/corpus/*) continue ;;
    # autoreconf -fi's: aclocal, libtoolize, automake --add-missing
    aclocal.m4 | build-aux/* | config/libtool.m4 | config/lt*.m4) continue ;;
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
