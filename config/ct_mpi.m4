# SPDX-License-Identifier: BSD-3-Clause
# CT_PROG_MPICC: find the MPI C compiler wrapper.  It compiles nothing: CC
# is the plain C compiler, so src/lib and the tuner plugin never see MPI.
# CT_CHECK_MPI asks the wrapper for MPI's flags.
AC_DEFUN([CT_PROG_MPICC], [
  AC_ARG_VAR([MPICC], [MPI C compiler wrapper, asked for MPI's compile and link flags])
  AS_IF([test -z "$MPICC"], [AC_CHECK_PROGS([MPICC], [mpicc mpicc.openmpi], [])])
])

# CT_CHECK_MPI: MPI_CFLAGS and MPI_LIBS, which Makefile.am applies only to
# the MPI targets (collbench and its library, the MPI test shims).  Taken
# from the user, else from `$MPICC --showme:compile` / `--showme:link`
# (Open MPI), else from pkg-config (ompi-c, mpich).  Proves that CC links an
# MPI program with them, saving and restoring the flags around the check,
# and finds mpirun for the tests.  Fails configure: MPI is not optional.
AC_DEFUN([CT_CHECK_MPI], [
  AC_ARG_VAR([MPI_CFLAGS], [compiler flags for MPI (default: from mpicc --showme:compile or pkg-config)])
  AC_ARG_VAR([MPI_LIBS], [linker flags for MPI (default: from mpicc --showme:link or pkg-config)])
  ct_mpi_flags_from="MPI_CFLAGS/MPI_LIBS"
  AS_IF([test -z "$MPI_CFLAGS$MPI_LIBS"], [
    AS_IF([test -n "$MPICC" &&
           ct_mpi_c=`$MPICC --showme:compile 2>/dev/null` &&
           ct_mpi_l=`$MPICC --showme:link 2>/dev/null`], [
      MPI_CFLAGS=$ct_mpi_c
      MPI_LIBS=$ct_mpi_l
      ct_mpi_flags_from="$MPICC --showme"
    ], [
      AC_PATH_PROG([PKG_CONFIG], [pkg-config], [])
      for ct_mpi_pc in ompi-c mpich; do
        AS_IF([test -n "$PKG_CONFIG" && $PKG_CONFIG --exists $ct_mpi_pc 2>/dev/null], [
          MPI_CFLAGS=`$PKG_CONFIG --cflags $ct_mpi_pc`
          MPI_LIBS=`$PKG_CONFIG --libs $ct_mpi_pc`
          ct_mpi_flags_from="pkg-config $ct_mpi_pc"
          break
        ])
      done
    ])
  ])
  AC_MSG_CHECKING([whether $CC compiles and links MPI programs with MPI_CFLAGS/MPI_LIBS])
  ct_save_CPPFLAGS=$CPPFLAGS
  ct_save_LIBS=$LIBS
  CPPFLAGS="$CPPFLAGS $MPI_CFLAGS"
  LIBS="$MPI_LIBS $LIBS"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]],
      [[int n; MPI_Init(0, 0); MPI_Comm_size(MPI_COMM_WORLD, &n); MPI_Finalize();]])],
    [AC_MSG_RESULT([yes ($ct_mpi_flags_from)])],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([MPI is required: install openmpi-bin and libopenmpi-dev (Debian), or set MPICC, or MPI_CFLAGS and MPI_LIBS])])
  AC_CHECK_DECLS([MPI_VERSION], [], [], [[#include <mpi.h>]])
  CPPFLAGS=$ct_save_CPPFLAGS
  LIBS=$ct_save_LIBS
  ct_mpi_summary=`$MPICC -showme:version 2>/dev/null || echo "usable"`
  AC_SUBST([MPI_CFLAGS])
  AC_SUBST([MPI_LIBS])
  AC_ARG_VAR([MPIRUN], [MPI launcher used by the tests])
  AC_PATH_PROGS([MPIRUN], [mpirun mpiexec], [])
])
