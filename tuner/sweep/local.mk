# SPDX-License-Identifier: BSD-3-Clause
# tuner/sweep/local.mk - colltune sweep: collbench through a launcher into
# an output directory, once or at several scales (--scales).  Above
# regress.

TUNER_SWEEP_CPPFLAGS = $(TUNER_REGRESS_CPPFLAGS) -I$(top_srcdir)/tuner/sweep

noinst_LTLIBRARIES += tuner/sweep/libctsweep.la
tuner_sweep_libctsweep_la_SOURCES = \
	tuner/sweep/sweep.c tuner/sweep/sweep.h tuner/sweep/sweep_scales.c
tuner_sweep_libctsweep_la_CPPFLAGS = $(TUNER_SWEEP_CPPFLAGS)

TESTS += tests/mpi/colltune_sweep.sh tests/mpi/colltune_sweep_scales.sh
EXTRA_DIST += tests/mpi/colltune_sweep.sh tests/mpi/colltune_sweep_scales.sh

# A missing --hostfile, a --collbench directory, --force over good results
# with a failing run, and two sweeps into one --out at once (issue 15).
TESTS += tests/mpi/colltune_sweep_reliability.sh
EXTRA_DIST += tests/mpi/colltune_sweep_reliability.sh
