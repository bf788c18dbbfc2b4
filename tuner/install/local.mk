# SPDX-License-Identifier: BSD-3-Clause
# tuner/install/local.mk - colltune install (a tune's verified files
# copied where a site keeps them, paths rewritten) and verify-install (a
# launch that reads the installed values back through MPI_T).  Above
# sbatch.

TUNER_INSTALL_CPPFLAGS = $(TUNER_SBATCH_CPPFLAGS) -I$(top_srcdir)/tuner/install

noinst_LTLIBRARIES += tuner/install/libctinstall.la
tuner_install_libctinstall_la_SOURCES = \
	tuner/install/install.c tuner/install/install.h tuner/install/verify_install.c \
	tuner/install/merge.c
tuner_install_libctinstall_la_CPPFLAGS = $(TUNER_INSTALL_CPPFLAGS)

# install's guard, case by case, without MPI.
TESTS += tests/unit/colltune_install_guard.sh
EXTRA_DIST += tests/unit/colltune_install_guard.sh
# install and verify-install under hostile inputs (FIFOs, giant files,
# --to with a comma, --force over another tune, mpich.env read as sh
# reads it), without MPI (issue 38).
TESTS += tests/unit/colltune_install_inputs.sh tests/unit/colltune_install_verify.sh
EXTRA_DIST += tests/unit/colltune_install_inputs.sh tests/unit/colltune_install_verify.sh
# merge's inputs under hostile content (issue 38), without MPI.
TESTS += tests/unit/colltune_merge_inputs.sh
EXTRA_DIST += tests/unit/colltune_merge_inputs.sh
# install and verify-install end to end at np=2 with the real Open MPI.
TESTS += tests/mpi/colltune_install.sh
EXTRA_DIST += tests/mpi/colltune_install.sh
# merge: tunes at 4 and 8 ranks joined, and the real Open MPI at np=2 and 3.
TESTS += tests/mpi/colltune_merge.sh
EXTRA_DIST += tests/mpi/colltune_merge.sh
