# SPDX-License-Identifier: BSD-3-Clause
# CT_CHECK_JANSSON: --with-jansson[=DIR].  Required: collbench writes its
# JSON and json_get reads it through jansson (Debian: libjansson-dev).
# pkg-config is asked first; without a .pc file, the header and library are
# probed directly (DIR/include, DIR/lib), and the version is checked either way.
AC_DEFUN([CT_CHECK_JANSSON], [
  AC_ARG_WITH([jansson],
    [AS_HELP_STRING([--with-jansson=DIR], [jansson >= 2.13 (required; default: pkg-config, then the system)])],
    [], [with_jansson=yes])
  AS_IF([test "x$with_jansson" = xno],
    [AC_MSG_ERROR([jansson is required (--without-jansson is not supported); install libjansson-dev])])
  ct_jansson_missing="jansson >= 2.13 not found; on Debian/Ubuntu: apt-get install libjansson-dev (or pass --with-jansson=DIR)"
  AS_IF([test "x$with_jansson" = xyes && test -z "$JANSSON_LIBS"], [
    PKG_CHECK_MODULES([JANSSON], [jansson >= 2.13], [ct_jansson_pc=yes], [ct_jansson_pc=no])
  ])
  AS_IF([test "x$ct_jansson_pc" != xyes && test -z "$JANSSON_LIBS"], [
    AS_IF([test "x$with_jansson" != xyes], [
      JANSSON_CFLAGS="-I$with_jansson/include"
      JANSSON_LIBS="-L$with_jansson/lib -ljansson"
    ], [JANSSON_LIBS="-ljansson"])
  ])
  ct_save_CPPFLAGS=$CPPFLAGS
  ct_save_LIBS=$LIBS
  CPPFLAGS="$CPPFLAGS $JANSSON_CFLAGS"
  LIBS="$JANSSON_LIBS $LIBS"
  AC_MSG_CHECKING([for jansson >= 2.13])
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <jansson.h>
#if JANSSON_VERSION_HEX < 0x020d00
#error jansson too old
#endif]], [[json_t *o = json_object(); json_decref(o);]])],
    [AC_MSG_RESULT([yes])], [AC_MSG_RESULT([no]); AC_MSG_ERROR([$ct_jansson_missing])])
  CPPFLAGS=$ct_save_CPPFLAGS
  LIBS=$ct_save_LIBS
  AC_SUBST([JANSSON_CFLAGS])
  AC_SUBST([JANSSON_LIBS])
])
