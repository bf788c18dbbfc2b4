# SPDX-License-Identifier: BSD-3-Clause
# CT_CHECK_INIH: libinih, the INI reader behind the tuner's search-space
# files (tuner/spaces/*.ini).  Required (Debian: libinih-dev).  pkg-config
# is asked first (its module is "inih"); without a .pc file the header and
# -linih are probed directly.
AC_DEFUN([CT_CHECK_INIH], [
  ct_inih_missing="libinih not found; on Debian/Ubuntu: apt-get install libinih-dev (or set INIH_CFLAGS and INIH_LIBS)"
  AS_IF([test -z "$INIH_LIBS"], [
    PKG_CHECK_MODULES([INIH], [inih], [], [INIH_LIBS="-linih"])
  ])
  ct_save_CPPFLAGS=$CPPFLAGS
  ct_save_LIBS=$LIBS
  CPPFLAGS="$CPPFLAGS $INIH_CFLAGS"
  LIBS="$INIH_LIBS $LIBS"
  AC_MSG_CHECKING([for libinih (ini_parse_stream)])
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <ini.h>
static int h(void *u, const char *s, const char *n, const char *v)
{ (void)u; (void)s; (void)n; (void)v; return 1; }]],
    [[return ini_parse_string("a = b", h, 0);]])],
    [AC_MSG_RESULT([yes])], [AC_MSG_RESULT([no]); AC_MSG_ERROR([$ct_inih_missing])])
  CPPFLAGS=$ct_save_CPPFLAGS
  LIBS=$ct_save_LIBS
  ct_inih_summary="$INIH_LIBS"
  AC_SUBST([INIH_CFLAGS])
  AC_SUBST([INIH_LIBS])
])
