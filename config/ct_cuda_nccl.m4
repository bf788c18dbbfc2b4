# SPDX-License-Identifier: BSD-3-Clause
# CT_CHECK_CUDA_NCCL_HEADERS: --with-cuda[=DIR] (default: guess /usr/local/cuda).
# The headers are used only to prove at compile time that the NCCL backend's
# own declarations match nccl.h and cuda_runtime.h; NCCL and CUDA are loaded
# at run time and never linked.  Saves and restores CPPFLAGS; fails only when
# the user asked for CUDA explicitly and it is not there.
AC_DEFUN([CT_CHECK_CUDA_NCCL_HEADERS], [
  AC_ARG_WITH([cuda],
    [AS_HELP_STRING([--with-cuda@<:@=DIR@:>@],
      [CUDA/NCCL headers for ABI checks (default: guess /usr/local/cuda)])],
    [], [with_cuda=guess])
  ct_nccl_summary="no (ABI not checked at compile time)"
  CT_CUDA_CPPFLAGS=
  AS_IF([test "x$with_cuda" != xno], [
    ct_cuda_dir=$with_cuda
    AS_CASE([$with_cuda], [yes|guess], [ct_cuda_dir=/usr/local/cuda])
    ct_save_CPPFLAGS=$CPPFLAGS
    CPPFLAGS="$CPPFLAGS -I$ct_cuda_dir/include"
    ct_have_nccl_h=no
    AC_CHECK_HEADER([nccl.h],
      [AC_CHECK_HEADER([cuda_runtime.h], [ct_have_nccl_h=yes])])
    CPPFLAGS=$ct_save_CPPFLAGS
    AS_IF([test $ct_have_nccl_h = yes], [
      CT_CUDA_CPPFLAGS="-I$ct_cuda_dir/include"
      AC_DEFINE([CT_HAVE_NCCL_H], [1], [nccl.h and cuda_runtime.h are available for ABI checks])
      ct_nccl_h_ver=`$SED -n 's/^#define NCCL_VERSION_CODE *//p' $ct_cuda_dir/include/nccl.h | head -n 1`
      ct_nccl_summary="yes ($ct_cuda_dir/include, NCCL_VERSION_CODE $ct_nccl_h_ver)"
    ], [
      AS_IF([test "x$with_cuda" != xguess],
        [AC_MSG_ERROR([--with-cuda=$with_cuda given, but nccl.h/cuda_runtime.h not found in $ct_cuda_dir/include])])
    ])
  ])
  AC_SUBST([CT_CUDA_CPPFLAGS])
  AM_CONDITIONAL([CT_HAVE_NCCL_H], [test -n "$CT_CUDA_CPPFLAGS"])
])
