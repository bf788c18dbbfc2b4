# SPDX-License-Identifier: BSD-3-Clause
# tuner/regress/local.mk - colltune regress: the newest runs of a results
# history against a baseline window, the diagnosis, the time-series plots.
# Above plot.

TUNER_REGRESS_CPPFLAGS = $(TUNER_PLOT_CPPFLAGS) -I$(top_srcdir)/tuner/regress

noinst_LTLIBRARIES += tuner/regress/libctregress.la
tuner_regress_libctregress_la_SOURCES = \
	tuner/regress/regress.c tuner/regress/regress.h tuner/regress/regress_cmd.h \
	tuner/regress/regress_stats.c tuner/regress/regress_event.c tuner/regress/regress_diag.c \
	tuner/regress/regress_json.c tuner/regress/regress_plot.c tuner/regress/regress_index.c
tuner_regress_libctregress_la_CPPFLAGS = $(TUNER_REGRESS_CPPFLAGS)

# The decision rule's quality on synthetic histories with fixed seeds (A/A
# false alarms, detection rates, the change point), then the subcommand on
# small histories and bad input; no MPI.
check_PROGRAMS += tests/unit/test_regress
TESTS += tests/unit/test_regress
tests_unit_test_regress_SOURCES = tests/unit/test_regress.c tests/unit/ct_test.h
tests_unit_test_regress_CPPFLAGS = $(TUNER_REGRESS_CPPFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_regress_LDADD = tuner/regress/libctregress.la $(TUNER_TUNE_LIBS)
TESTS += tests/unit/colltune_regress.sh
EXTRA_DIST += tests/unit/colltune_regress.sh
# regress under hostile histories (issue 38): a run named RUN, links,
# raw values, a FIFO regress.json; no MPI.
TESTS += tests/unit/colltune_regress_hostile.sh
EXTRA_DIST += tests/unit/colltune_regress_hostile.sh
# regress on runs of 200k fingerprint variables each, under a 20 s limit a
# quadratic diff cannot meet (issue 38, H8); no MPI.
TESTS += tests/unit/colltune_regress_keys.sh
EXTRA_DIST += tests/unit/colltune_regress_keys.sh

# The nightly recipe night by night in the scenarios of issue 23 (a
# preloaded delay, recovery, a forced algorithm by --mca and OMPI_MCA_*),
# through the real mpirun and collbench.
TESTS += tests/mpi/nightly_scenarios.sh
EXTRA_DIST += tests/mpi/nightly_scenarios.sh
