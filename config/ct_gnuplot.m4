# SPDX-License-Identifier: BSD-3-Clause
# CT_CHECK_GNUPLOT: record gnuplot's path for the plot commands (optional).
AC_DEFUN([CT_CHECK_GNUPLOT], [
  AC_ARG_VAR([GNUPLOT], [gnuplot program used to draw plots])
  AC_PATH_PROG([GNUPLOT], [gnuplot], [])
  AS_IF([test -n "$GNUPLOT"],
    [AC_DEFINE_UNQUOTED([CT_GNUPLOT_PATH], ["$GNUPLOT"], [gnuplot found by configure])])
  AM_CONDITIONAL([CT_HAVE_GNUPLOT], [test -n "$GNUPLOT"])
])

# CT_GIT_REVISION: the source revision, recorded in every result's metadata.
AC_DEFUN([CT_GIT_REVISION], [
  CT_GIT_REV=`cd "$srcdir" && git describe --always --dirty 2>/dev/null || echo unknown`
  AC_DEFINE_UNQUOTED([CT_GIT_REV], ["$CT_GIT_REV"], [git revision of the source tree at configure time])
  AC_SUBST([CT_GIT_REV])
])
