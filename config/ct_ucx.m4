# SPDX-License-Identifier: BSD-3-Clause
# CT_CHECK_UCX: --with-ucx[=DIR] (default: guess).  UCX is never linked:
# collbench reads the version of the libucp it finds at run time.  configure
# records the header version so the summary and the metadata can show it.
AC_DEFUN([CT_CHECK_UCX], [
  AC_ARG_WITH([ucx],
    [AS_HELP_STRING([--with-ucx@<:@=DIR@:>@], [UCX, for version capture (default: guess)])],
    [], [with_ucx=guess])
  ct_ucx_summary="no"
  AS_IF([test "x$with_ucx" != xno], [
    ct_save_CPPFLAGS=$CPPFLAGS
    AS_CASE([$with_ucx], [yes|guess], [], [CPPFLAGS="$CPPFLAGS -I$with_ucx/include"])
    AC_CHECK_HEADER([ucp/api/ucp_version.h], [
      AC_COMPUTE_INT([ct_ucx_major], [UCP_API_MAJOR], [[#include <ucp/api/ucp_version.h>]])
      AC_COMPUTE_INT([ct_ucx_minor], [UCP_API_MINOR], [[#include <ucp/api/ucp_version.h>]])
      ct_ucx_summary="yes (headers $ct_ucx_major.$ct_ucx_minor; version read at run time)"
      AC_DEFINE_UNQUOTED([CT_UCX_HEADER_VERSION], ["$ct_ucx_major.$ct_ucx_minor"], [UCX header version seen by configure])
    ], [
      AS_IF([test "x$with_ucx" != xguess], [AC_MSG_ERROR([--with-ucx given, but UCX headers not found])])
    ])
    CPPFLAGS=$ct_save_CPPFLAGS
  ])
])
