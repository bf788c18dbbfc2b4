# SPDX-License-Identifier: BSD-3-Clause
# tuner/core/local.mk - what every colltune subcommand shares: argv
# vectors, option parsing, launchers, trials, output directories, the
# binary's own path and gnuplot.  The lowest tuner folder: it includes
# nothing of tuner/ (tests/unit/tuner_layers.sh checks the order).

# Each tuner folder sees its own headers and those of the folders below
# it, never one above: a wrong include fails to compile.
TUNER_CORE_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tuner/core

noinst_LTLIBRARIES += tuner/core/libctcore.la
tuner_core_libctcore_la_SOURCES = \
	tuner/core/argv.c tuner/core/argv.h \
	tuner/core/cli.c tuner/core/cli.h \
	tuner/core/command.h \
	tuner/core/gnuplot.c tuner/core/gnuplot.h \
	tuner/core/launcher.c tuner/core/launcher.h \
	tuner/core/launcher_table.c \
	tuner/core/launcher_mpirun.c tuner/core/launcher_srun.c \
	tuner/core/launcher_hydra.c tuner/core/launcher_prefix.c \
	tuner/core/launcher_scale.c \
	tuner/core/launcher_words.c tuner/core/launcher_words.h \
	tuner/core/launch_opts.c tuner/core/launch_opts.h \
	tuner/core/outdir.c tuner/core/outdir.h \
	tuner/core/run_once.c tuner/core/run_dir.c tuner/core/run_once.h \
	tuner/core/self_path.c tuner/core/self_path.h \
	tuner/core/setting.h \
	tuner/core/site.c tuner/core/site_rank.c tuner/core/site.h \
	tuner/core/trial.c tuner/core/trial.h \
	tuner/core/trial_relay.c tuner/core/trial_relay.h \
	tuner/core/helper_run.c tuner/core/helper_run.h
# The launcher --np alone uses: configure's mpirun (empty: mpirun from
# PATH).  gnuplot.c finds the scripts of plots/ beside the binary in the
# build tree, else installed, else in the source tree (a VPATH build).
tuner_core_libctcore_la_CPPFLAGS = $(TUNER_CORE_CPPFLAGS) \
	-DCT_DEFAULT_MPIRUN='"$(MPIRUN)"' \
	-DCT_PLOTS_DIR='"$(pkgdatadir)/plots"' \
	-DCT_PLOTS_SRCDIR='"$(abs_top_srcdir)/plots"'

check_PROGRAMS += tests/unit/test_launcher
TESTS += tests/unit/test_launcher
tests_unit_test_launcher_SOURCES = tests/unit/test_launcher.c tests/unit/ct_test.h
tests_unit_test_launcher_CPPFLAGS = $(TUNER_CORE_CPPFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_launcher_LDADD = tuner/core/libctcore.la src/lib/libcolltune.la

# What the site sets and each library's precedence (site.c, site_rank.c).
check_PROGRAMS += tests/unit/test_site
TESTS += tests/unit/test_site
tests_unit_test_site_SOURCES = tests/unit/test_site.c tests/unit/ct_test.h
tests_unit_test_site_CPPFLAGS = $(TUNER_CORE_CPPFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_site_LDADD = tuner/core/libctcore.la src/lib/libcolltune.la

# mpiexec.hydra through a stub that records its argv; no MPI.
TESTS += tests/unit/colltune_hydra.sh
EXTRA_DIST += tests/unit/colltune_hydra.sh

# A trial that leaves a grandchild and ignores SIGTERM, for the timeout test.
check_PROGRAMS += tests/tools/ct_sleeper
tests_tools_ct_sleeper_SOURCES = tests/tools/ct_sleeper.c
