# SPDX-License-Identifier: BSD-3-Clause
# CT_PROG_MPICC: find the MPI C compiler wrapper.  It compiles nothing: CC
# is the plain C compiler, so src/lib and the tuner plugin never see MPI.
# --with-mpi picks the wrapper by library (Debian installs both side by
# side: mpicc.openmpi, mpicc.mpich); the default is whatever `mpicc` is,
# Open MPI on Debian.  CT_CHECK_MPI asks the wrapper for MPI's flags.
AC_DEFUN([CT_PROG_MPICC], [
  AC_ARG_VAR([MPICC], [MPI C compiler wrapper, asked for MPI's compile and link flags])
  AC_ARG_WITH([mpi],
    [AS_HELP_STRING([--with-mpi=openmpi|mpich],
      [the MPI collbench is built against: openmpi (mpicc.openmpi) or mpich (mpicc.mpich) @<:@the one mpicc (or MPICC) builds with@:>@])],
    [], [with_mpi=auto])
  AS_CASE([$with_mpi],
    [auto|yes], [ct_mpicc_names="mpicc mpicc.openmpi"],
    [openmpi], [ct_mpicc_names="mpicc.openmpi mpicc"],
    [mpich], [ct_mpicc_names="mpicc.mpich"],
    [no], [AC_MSG_ERROR([--without-mpi: MPI is required (collbench is an MPI program)])],
    [AC_MSG_ERROR([--with-mpi=$with_mpi: expected openmpi or mpich])])
  AS_IF([test -z "$MPICC"], [AC_CHECK_PROGS([MPICC], [$ct_mpicc_names], [])])
])

# CT_MPI_WRAPPER_FLAGS(WRAPPER): ct_mpi_c and ct_mpi_l, the compile and link
# flags WRAPPER adds, and ct_mpi_from, how they were found (empty when
# WRAPPER tells neither).  Open MPI answers --showme:compile/link; MPICH's
# wrappers answer -compile_info/-link_info with a whole command line (both
# the same on Debian: "gcc -Wl,-z,relro -I... -L... -lmpich"): the
# compiler is dropped, -I/-D kept for compiling, the rest for linking.
AC_DEFUN([CT_MPI_WRAPPER_FLAGS], [
  ct_mpi_from=
  AS_IF([test -n "$1" &&
         ct_mpi_c=`$1 --showme:compile 2>/dev/null` &&
         ct_mpi_l=`$1 --showme:link 2>/dev/null`], [
    ct_mpi_from="$1 --showme"
  ], [test -n "$1" &&
      ct_mpi_c_all=`$1 -compile_info 2>/dev/null` &&
      ct_mpi_l_all=`$1 -link_info 2>/dev/null`], [
    ct_mpi_c=
    ct_mpi_l=
    ct_mpi_first=yes
    for ct_mpi_w in $ct_mpi_c_all; do
      AS_IF([test -n "$ct_mpi_first"], [ct_mpi_first=], [
        AS_CASE([$ct_mpi_w], [-I*|-D*|-pthread], [ct_mpi_c="${ct_mpi_c:+$ct_mpi_c }$ct_mpi_w"])])
    done
    ct_mpi_first=yes
    for ct_mpi_w in $ct_mpi_l_all; do
      AS_IF([test -n "$ct_mpi_first"], [ct_mpi_first=], [
        AS_CASE([$ct_mpi_w], [-I*|-D*|-c], [], [ct_mpi_l="${ct_mpi_l:+$ct_mpi_l }$ct_mpi_w"])])
    done
    ct_mpi_from="$1 -compile_info/-link_info"
  ])
])

# CT_MPI_LIBRARY(CFLAGS, LIBS): which MPI <mpi.h> under CFLAGS is, from its
# own version macros at compile time: ct_mpi_flavor (mpich, openmpi or
# other) and ct_mpi_name ("MPICH 4.0.2", "Open MPI 4.1.4").
# MPICH_NUMVERSION is MAJOR*10^7 + MINOR*10^5 + REVISION*10^3 + release.
AC_DEFUN([CT_MPI_LIBRARY], [
  ct_save_CPPFLAGS=$CPPFLAGS
  ct_save_LIBS=$LIBS
  CPPFLAGS="$CPPFLAGS $1"
  LIBS="$2 $LIBS"
  ct_mpi_flavor=other
  ct_mpi_name="an MPI that is neither MPICH nor Open MPI"
  AC_COMPUTE_INT([ct_mpi_num], [MPICH_NUMVERSION], [[#include <mpi.h>]], [ct_mpi_num=])
  AS_IF([test -n "$ct_mpi_num"], [
    ct_mpi_flavor=mpich
    ct_mpi_name="MPICH `expr $ct_mpi_num / 10000000`.`expr $ct_mpi_num / 100000 % 100`.`expr $ct_mpi_num / 1000 % 100`"
  ], [
    AC_COMPUTE_INT([ct_mpi_num], [OMPI_MAJOR_VERSION * 10000 + OMPI_MINOR_VERSION * 100 + OMPI_RELEASE_VERSION],
                   [[#include <mpi.h>]], [ct_mpi_num=])
    AS_IF([test -n "$ct_mpi_num"], [
      ct_mpi_flavor=openmpi
      ct_mpi_name="Open MPI `expr $ct_mpi_num / 10000`.`expr $ct_mpi_num / 100 % 100`.`expr $ct_mpi_num % 100`"
    ])
  ])
  CPPFLAGS=$ct_save_CPPFLAGS
  LIBS=$ct_save_LIBS
])

# CT_CHECK_MPI: MPI_CFLAGS and MPI_LIBS, which Makefile.am applies only to
# the MPI targets (collbench and its library, the MPI test shims).  Taken
# from the user, else from the wrapper (CT_MPI_WRAPPER_FLAGS), else from
# pkg-config (ompi-c, mpich; mpich first for --with-mpi=mpich).  Proves
# that CC links an MPI program with them, saving and restoring the flags
# around the check, names the library (the summary), refuses a library
# other than the one --with-mpi asked for, and finds the launcher for the
# tests: mpirun for Open MPI, mpiexec.hydra for MPICH.  Fails configure:
# MPI is not optional.
AC_DEFUN([CT_CHECK_MPI], [
  AC_ARG_VAR([MPI_CFLAGS], [compiler flags for MPI (default: from mpicc --showme:compile or pkg-config)])
  AC_ARG_VAR([MPI_LIBS], [linker flags for MPI (default: from mpicc --showme:link or pkg-config)])
  ct_mpi_flags_from="MPI_CFLAGS/MPI_LIBS"
  AS_IF([test -z "$MPI_CFLAGS$MPI_LIBS"], [
    CT_MPI_WRAPPER_FLAGS([$MPICC])
    AS_IF([test -n "$ct_mpi_from"], [
      MPI_CFLAGS=$ct_mpi_c
      MPI_LIBS=$ct_mpi_l
      ct_mpi_flags_from=$ct_mpi_from
    ], [
      AC_PATH_PROG([PKG_CONFIG], [pkg-config], [])
      ct_mpi_pcs="ompi-c mpich"
      AS_IF([test "$with_mpi" = mpich], [ct_mpi_pcs=mpich])
      for ct_mpi_pc in $ct_mpi_pcs; do
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
  AC_MSG_CHECKING([which MPI library])
  CT_MPI_LIBRARY([$MPI_CFLAGS], [$MPI_LIBS])
  AC_MSG_RESULT([$ct_mpi_name])
  AS_IF([test "$with_mpi" = mpich && test "$ct_mpi_flavor" != mpich],
        [AC_MSG_ERROR([--with-mpi=mpich, but ${MPICC:-MPI_CFLAGS} builds against $ct_mpi_name: install mpich and libmpich-dev (Debian), or set MPICC=mpicc.mpich])])
  AS_IF([test "$with_mpi" = openmpi && test "$ct_mpi_flavor" != openmpi],
        [AC_MSG_ERROR([--with-mpi=openmpi, but ${MPICC:-MPI_CFLAGS} builds against $ct_mpi_name: install openmpi-bin and libopenmpi-dev (Debian), or set MPICC=mpicc.openmpi])])
  ct_mpi_summary="$ct_mpi_name (${MPICC:-$ct_mpi_flags_from})"
  AC_SUBST([MPI_CFLAGS])
  AC_SUBST([MPI_LIBS])
  AC_ARG_VAR([MPIRUN], [MPI launcher used by the tests])
  AS_IF([test "$ct_mpi_flavor" = mpich],
        [AC_PATH_PROGS([MPIRUN], [mpiexec.hydra mpiexec.mpich mpirun.mpich mpiexec], [])],
        [test "$with_mpi" = openmpi],
        [AC_PATH_PROGS([MPIRUN], [mpirun.openmpi mpirun mpiexec], [])],
        [AC_PATH_PROGS([MPIRUN], [mpirun mpiexec], [])])
])

# CT_CHECK_MPICH_SECOND: where the main build is not MPICH, MPICH beside it
# (Debian's mpich and libmpich-dev: mpicc.mpich, mpiexec.hydra) for make
# check's second collbench (build-mpich/collbench, the tests/mpi/mpich_*
# tests).  Optional: without it those tests skip.  MPICH_CFLAGS and
# MPICH_LIBS as CT_CHECK_MPI finds MPI's, proved to link and to be MPICH.
AC_DEFUN([CT_CHECK_MPICH_SECOND], [
  AC_ARG_VAR([MPICC_MPICH], [MPICH's compiler wrapper for make check's second collbench (default: mpicc.mpich)])
  AC_ARG_VAR([MPIEXEC_HYDRA], [MPICH's launcher for the MPICH tests (default: mpiexec.hydra)])
  ct_mpich_summary="not built (install mpich and libmpich-dev, then configure again)"
  ct_mpich_second=
  AS_IF([test "$ct_mpi_flavor" = mpich], [
    ct_mpich_summary="not built (collbench itself is MPICH)"
  ], [
    AC_PATH_PROGS([MPICC_MPICH], [mpicc.mpich], [])
    AC_PATH_PROGS([MPIEXEC_HYDRA], [mpiexec.hydra], [])
    ct_mpi_from=
    AS_IF([test -n "$MPICC_MPICH" && test -n "$MPIEXEC_HYDRA"], [CT_MPI_WRAPPER_FLAGS([$MPICC_MPICH])])
    AS_IF([test -n "$ct_mpi_from"], [
      AC_MSG_CHECKING([whether $CC links MPICH programs with $ct_mpi_from])
      ct_save_CPPFLAGS=$CPPFLAGS
      ct_save_LIBS=$LIBS
      CPPFLAGS="$CPPFLAGS $ct_mpi_c"
      LIBS="$ct_mpi_l $LIBS"
      AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]],
          [[int n; MPI_Init(0, 0); MPI_Comm_size(MPI_COMM_WORLD, &n); MPI_Finalize();]])],
        [ct_mpich_second=yes], [ct_mpich_second=])
      CPPFLAGS=$ct_save_CPPFLAGS
      LIBS=$ct_save_LIBS
      AC_MSG_RESULT([${ct_mpich_second:-no}])
      AS_IF([test -n "$ct_mpich_second"], [
        MPICH_CFLAGS=$ct_mpi_c
        MPICH_LIBS=$ct_mpi_l
        ct_save_flavor=$ct_mpi_flavor
        ct_save_name=$ct_mpi_name
        CT_MPI_LIBRARY([$MPICH_CFLAGS], [$MPICH_LIBS])
        AS_IF([test "$ct_mpi_flavor" = mpich],
              [ct_mpich_summary="$ct_mpi_name (build-mpich/collbench, $MPIEXEC_HYDRA)"],
              [ct_mpich_second=])
        ct_mpi_flavor=$ct_save_flavor
        ct_mpi_name=$ct_save_name
      ])
    ])
  ])
  AC_SUBST([MPICH_CFLAGS])
  AC_SUBST([MPICH_LIBS])
  AM_CONDITIONAL([CT_MPICH_SECOND], [test -n "$ct_mpich_second"])
])
