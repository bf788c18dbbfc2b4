# tuner/colltune.mk - the colltune driver (subcommands, launchers, trials)
# and its tests.
#
# Included from the top-level Makefile.am; every path is relative to
# $(top_srcdir) and every variable is appended to, never set.  colltune is
# plain C: built with the plain CC and without MPI's flags, linking only
# src/lib and jansson (tests/unit/colltune_cli.sh checks with nm).  A new
# subcommand is one file in tuner_colltune_SOURCES and one line in
# tuner/commands.c.

# What the subcommands share, as a convenience library the tests link too.
noinst_LTLIBRARIES += tuner/libctdriver.la
tuner_libctdriver_la_SOURCES = \
	tuner/argv.c tuner/argv.h \
	tuner/cli.c tuner/cli.h \
	tuner/launcher.c tuner/launcher.h \
	tuner/outdir.c tuner/outdir.h \
	tuner/trial.c tuner/trial.h
tuner_libctdriver_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tuner
tuner_libctdriver_la_LIBADD = src/lib/libcolltune.la

bin_PROGRAMS += tuner/colltune
tuner_colltune_SOURCES = \
	tuner/colltune.c \
	tuner/commands.c tuner/commands.h \
	tuner/sweep.c \
	tuner/tune.c tuner/tune.h \
	tuner/tune_launch.c tuner/tune_launch.h \
	tuner/tune_search.c tuner/tune_search.h \
	tuner/tune_report.c \
	tuner/tune_decide.c tuner/tune_decide.h \
	tuner/tune_result.h
# The launcher --np alone uses: configure's mpirun (empty: mpirun from PATH).
tuner_colltune_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tuner $(JANSSON_CFLAGS) \
	-DCT_DEFAULT_MPIRUN='"$(MPIRUN)"' $(INIH_CFLAGS)
tuner_colltune_LDADD = tuner/libctdriver.la tuner/libtune.la src/lib/libcolltune.la \
	$(JANSSON_LIBS) $(INIH_LIBS) -lm

# --- tests ---
check_PROGRAMS += tests/unit/test_launcher
TESTS += tests/unit/test_launcher
tests_unit_test_launcher_SOURCES = tests/unit/test_launcher.c tests/unit/ct_test.h
tests_unit_test_launcher_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tuner \
	-I$(top_srcdir)/tests/unit
tests_unit_test_launcher_LDADD = tuner/libctdriver.la

# A trial that leaves a grandchild and ignores SIGTERM, for the timeout test.
check_PROGRAMS += tests/tools/ct_sleeper
tests_tools_ct_sleeper_SOURCES = tests/tools/ct_sleeper.c

TESTS += tests/unit/colltune_cli.sh tests/unit/colltune_trial.sh tests/mpi/colltune_sweep.sh
EXTRA_DIST += tests/unit/colltune_cli.sh tests/unit/colltune_trial.sh tests/mpi/colltune_sweep.sh

# colltune tune: the decision rule and bucket merging on synthetic numbers,
# then end to end through mpirun (a tiny tune, a failing configuration,
# SIGKILL and --resume).
check_PROGRAMS += tests/unit/test_tune_decide
TESTS += tests/unit/test_tune_decide
tests_unit_test_tune_decide_SOURCES = tests/unit/test_tune_decide.c tests/unit/ct_test.h \
	tuner/tune_decide.c tuner/tune_decide.h
tests_unit_test_tune_decide_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tuner \
	-I$(top_srcdir)/tests/unit
TESTS += tests/mpi/colltune_tune.sh tests/mpi/colltune_tune_resume.sh
EXTRA_DIST += tests/mpi/colltune_tune.sh tests/mpi/colltune_tune_resume.sh tests/mpi/tune_tiny.ini
