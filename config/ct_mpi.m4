# CT_PROG_MPICC: use mpicc as CC unless the user set CC.  MPI is required.
AC_DEFUN([CT_PROG_MPICC], [
  AC_ARG_VAR([MPICC], [MPI C compiler wrapper])
  AS_IF([test -z "$CC"], [
    AC_CHECK_PROGS([MPICC], [mpicc mpicc.openmpi], [])
    AS_IF([test -n "$MPICC"], [CC=$MPICC])
  ])
])

# CT_CHECK_MPI: prove that CC can compile and link an MPI program, and find
# mpirun for the tests.  Fails configure: MPI is not optional.
AC_DEFUN([CT_CHECK_MPI], [
  AC_MSG_CHECKING([whether $CC compiles and links MPI programs])
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]],
      [[int n; MPI_Init(0, 0); MPI_Comm_size(MPI_COMM_WORLD, &n); MPI_Finalize();]])],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([MPI is required: install openmpi-bin and libopenmpi-dev (Debian), or set CC=mpicc])])
  AC_CHECK_DECLS([MPI_VERSION], [], [], [[#include <mpi.h>]])
  ct_mpi_summary=`$CC -showme:version 2>/dev/null || echo "usable"`
  AC_ARG_VAR([MPIRUN], [MPI launcher used by the tests])
  AC_PATH_PROGS([MPIRUN], [mpirun mpiexec], [])
])
