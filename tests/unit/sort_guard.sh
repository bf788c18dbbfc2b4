#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Nothing calls qsort but ct_vec_sort (src/lib/ct_vec.c), which leaves
# arrays of fewer than two elements alone: an empty array is often NULL,
# and qsort(NULL, 0, ...) is undefined behaviour that UBSan reports (issue
# 15, E20: every tune verification did it).  A source check, since the
# suite is not built with UBSan; `make fuzz` runs the parsers under it.
set -u
: "${top_srcdir:?run through make check}"
found=$(grep -rn --include='*.c' --include='*.h' '\bqsort *(' "$top_srcdir/src" "$top_srcdir/tuner" \
    "$top_srcdir/tests/unit" "$top_srcdir/tests/tools" 2>/dev/null |
    grep -v "^$top_srcdir/src/lib/ct_vec\.[ch]:")
if [ -n "$found" ]; then
    echo "FAIL: qsort called directly (use ct_vec_sort):" >&2
    echo "$found" >&2
    exit 1
fi
grep -q 'if (n > 1 && base != NULL)' "$top_srcdir/src/lib/ct_vec.c" || {
    echo "FAIL: ct_vec_sort lost its guard" >&2
    exit 1
}
echo "qsort only through ct_vec_sort"
