# SPDX-License-Identifier: BSD-3-Clause
# tuner/install/local.mk - colltune install (a tune's verified files
# copied where a site keeps them, paths rewritten) and verify-install (a
# launch that reads the installed values back through MPI_T).  Above
# sbatch.

TUNER_INSTALL_CPPFLAGS = $(TUNER_SBATCH_CPPFLAGS) -I$(top_srcdir)/tuner/install

noinst_LTLIBRARIES += tuner/install/libctinstall.la
tuner_install_libctinstall_la_SOURCES = \
	tuner/install/install.c tuner/install/install.h tuner/install/install_guard.c \
	tuner/install/install_print.c tuner/install/install_settings.c \
	tuner/install/verify_install.c tuner/install/verify_install.h tuner/install/verify_install_launch.c \
	tuner/install/merge.c tuner/install/merge.h tuner/install/merge_read.c \
	tuner/install/merge_site.c tuner/install/merge_join.c tuner/install/merge_report.c \
	tuner/install/merge_out.c
tuner_install_libctinstall_la_CPPFLAGS = $(TUNER_INSTALL_CPPFLAGS)

# install's guard, case by case, without MPI.
TESTS += tests/unit/colltune_install_guard.sh
EXTRA_DIST += tests/unit/colltune_install_guard.sh
# install and verify-install under hostile inputs (FIFOs, giant files,
# --to with a comma, --force over another tune, mpich.env read as sh
# reads it), without MPI (issue 38).
TESTS += tests/unit/colltune_install_inputs.sh tests/unit/colltune_install_verify.sh
EXTRA_DIST += tests/unit/colltune_install_inputs.sh tests/unit/colltune_install_verify.sh
# Every row of the library table in install, verify-install and help
# (issue 36), without MPI.
TESTS += tests/unit/colltune_rows.sh
EXTRA_DIST += tests/unit/colltune_rows.sh
# merge's joins and refusals, and its inputs under hostile content (issue
# 38), without MPI.
TESTS += tests/unit/colltune_merge_inputs.sh
EXTRA_DIST += tests/unit/colltune_merge_inputs.sh
# install and verify-install end to end at np=2 with the real Open MPI.
TESTS += tests/mpi/colltune_install.sh
EXTRA_DIST += tests/mpi/colltune_install.sh
# merge: tunes at 2 and 4 ranks joined, read by the real Open MPI at np 2,
# 3 and 4; NCCL tunes at 2 and 4 ranks on the test double.  (MPICH's:
# Makefile.am's MPICH_TESTS.)
TESTS += tests/mpi/colltune_merge.sh tests/mpi/colltune_merge_nccl.sh
EXTRA_DIST += tests/mpi/colltune_merge.sh tests/mpi/colltune_merge_nccl.sh \
	tests/unit/colltune_merge_lib.sh
