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
	tuner/launch_opts.c tuner/launch_opts.h \
	tuner/outdir.c tuner/outdir.h \
	tuner/self_path.c tuner/self_path.h \
	tuner/trial.c tuner/trial.h \
	$(EMIT_SOURCES)
# The config-file emitters: one file per format, one table in emit.c.
EMIT_SOURCES = \
	tuner/emit.c tuner/emit.h tuner/emit_format.h tuner/tune_result.h \
	tuner/emit_common.c tuner/emit_nccl_vars.c \
	tuner/emit_nccl_env.c tuner/emit_nccl_conf.c tuner/emit_nccl_tuner.c \
	tuner/emit_ucx.c tuner/emit_mca.c tuner/emit_tuned_rules.c tuner/emit_tuned_rules_json.c
# The launcher --np alone uses: configure's mpirun (empty: mpirun from PATH).
tuner_libctdriver_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tuner \
	-DCT_DEFAULT_MPIRUN='"$(MPIRUN)"'
tuner_libctdriver_la_LIBADD = src/lib/libcolltune.la

bin_PROGRAMS += tuner/colltune
tuner_colltune_SOURCES = \
	tuner/colltune.c \
	tuner/commands.c tuner/commands.h \
	tuner/sweep.c tuner/sweep.h tuner/sweep_scales.c \
	tuner/tune.c tuner/tune.h \
	tuner/tune_launch.c tuner/tune_launch.h \
	tuner/tune_search.c tuner/tune_search.h \
	tuner/tune_report.c \
	tuner/tune_decide.c tuner/tune_decide.h \
	tuner/tune_verify.c tuner/tune_verify.h \
	tuner/tune_result.h \
	tuner/import.c tuner/import.h tuner/import_common.c \
	tuner/import_nccl.c tuner/import_nccl_json.c tuner/import_osu.c \
	tuner/plot.c tuner/plot.h tuner/plot_input.c tuner/plot_tune.c tuner/plot_html.c \
	tuner/gnuplot.c tuner/gnuplot.h tuner/scaling.c tuner/scaling.h \
	tuner/regress.c tuner/regress.h tuner/regress_stats.c tuner/regress_cmd.h \
	tuner/regress_diag.c tuner/regress_plot.c \
	tuner/health.c tuner/health_input.c tuner/health_input.h tuner/health_rule.c \
	tuner/health_rule.h \
	tuner/sbatch.c tuner/sbatch.h tuner/sbatch_script.c
# gnuplot.c finds the scripts of plots/ beside the binary in the build tree, else
# installed, else in the source tree (a VPATH build).
tuner_colltune_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tuner $(JANSSON_CFLAGS) \
	$(INIH_CFLAGS) -DCT_PLOTS_DIR='"$(pkgdatadir)/plots"' \
	-DCT_PLOTS_SRCDIR='"$(abs_top_srcdir)/plots"' \
	-DCT_CONTRIB_DIR='"$(contribdir)"' -DCT_CONTRIB_SRCDIR='"$(abs_top_srcdir)/contrib"'

# The parameterised gnuplot scripts, usable alone (gnuplot -c plots/busbw.gp ...).
plotsdir = $(pkgdatadir)/plots
dist_plots_DATA = plots/busbw.gp plots/latency.gp plots/tuned.gp plots/scaling.gp \
	plots/timeseries.gp
# The nightly recipe, installed where `colltune sbatch nightly` finds it.
contribdir = $(pkgdatadir)/contrib
dist_contrib_SCRIPTS = contrib/nightly.sh
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

TESTS += tests/unit/colltune_cli.sh tests/unit/colltune_trial.sh tests/mpi/colltune_sweep.sh \
	tests/mpi/colltune_sweep_scales.sh

# colltune import: sample logs written from the published formats, their
# golden CSVs, and bad input (tests/unit/import/).
TESTS += tests/unit/colltune_import.sh
IMPORT_SAMPLES = \
	tests/unit/import/nccl_allreduce.log tests/unit/import/nccl_allreduce.csv \
	tests/unit/import/nccl_two_tests.log tests/unit/import/nccl_two_tests.csv \
	tests/unit/import/nccl_per_iter.log tests/unit/import/nccl_per_iter.csv \
	tests/unit/import/nccl_truncated.log tests/unit/import/nccl_truncated.csv \
	tests/unit/import/nccl_allreduce.json tests/unit/import/nccl_allreduce_json.csv \
	tests/unit/import/osu_mixed.log tests/unit/import/osu_mixed.csv \
	tests/unit/import/bad_missing_column.log tests/unit/import/bad_other_tool.log
EXTRA_DIST += tests/unit/colltune_import.sh $(IMPORT_SAMPLES)
EXTRA_DIST += tests/unit/colltune_cli.sh tests/unit/colltune_trial.sh tests/mpi/colltune_sweep.sh \
	tests/mpi/colltune_sweep_scales.sh

# colltune tune: the decision rule and bucket merging on synthetic numbers,
# then end to end through mpirun (a tiny tune, a failing configuration,
# SIGKILL and --resume, SIGINT and --resume, the random strategy on a
# small space and on one too large to list).
check_PROGRAMS += tests/unit/test_tune_decide
TESTS += tests/unit/test_tune_decide
tests_unit_test_tune_decide_SOURCES = tests/unit/test_tune_decide.c tests/unit/ct_test.h \
	tuner/tune_decide.c tuner/tune_decide.h
tests_unit_test_tune_decide_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tuner \
	-I$(top_srcdir)/tests/unit
TESTS += tests/mpi/colltune_tune.sh tests/mpi/colltune_tune_resume.sh tests/mpi/colltune_verify.sh \
	tests/mpi/colltune_tune_sigint.sh tests/mpi/colltune_tune_random.sh
EXTRA_DIST += tests/mpi/colltune_tune.sh tests/mpi/colltune_tune_resume.sh tests/mpi/tune_tiny.ini \
	tests/mpi/colltune_verify.sh tests/mpi/tune_verify.ini \
	tests/mpi/colltune_tune_sigint.sh tests/mpi/colltune_tune_random.sh

# The emitters against golden files; nccl_tuner.conf is read back with the
# plugin's own rules parser, compiled in.
check_PROGRAMS += tests/unit/test_emit
TESTS += tests/unit/test_emit
tests_unit_test_emit_SOURCES = tests/unit/test_emit.c tests/unit/ct_test.h \
	tuner/plugin/rules.c tuner/plugin/names.c
tests_unit_test_emit_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tuner -I$(top_srcdir)/tests/unit \
	-DEMIT_GOLDEN_DIR='"$(abs_top_srcdir)/tests/unit/emit_golden"'
tests_unit_test_emit_LDADD = tuner/libctdriver.la src/lib/libcolltune.la
EMIT_GOLDEN = \
	tests/unit/emit_golden/full/nccl.env \
	tests/unit/emit_golden/full/nccl.conf \
	tests/unit/emit_golden/full/nccl_tuner.conf \
	tests/unit/emit_golden/full/ucx.conf \
	tests/unit/emit_golden/full/mca-params.conf \
	tests/unit/emit_golden/full/coll-tuned-rules.conf \
	tests/unit/emit_golden/full/coll-tuned-rules.json \
	tests/unit/emit_golden/ompi/mca-params.conf
EXTRA_DIST += $(EMIT_GOLDEN)

# Open MPI 4.1 really reads the emitted rules file (directly, and through
# the emitted mca-params.conf), and UCX the emitted ucx.conf: a forced slow
# algorithm makes broadcast several times slower.
TESTS += tests/mpi/emitted_files_apply.sh
EXTRA_DIST += tests/mpi/emitted_files_apply.sh

# colltune plot: PNG/SVG files of the requested size, index.html's links,
# no gnuplot (exit 3), bad input (exit 2 naming file:line); no MPI.
TESTS += tests/unit/colltune_plot.sh
EXTRA_DIST += tests/unit/colltune_plot.sh tests/unit/plot_results.csv tests/unit/plot_results.json \
	tests/unit/plot_tune/report.json

# colltune regress: the decision rule's quality on synthetic histories
# with fixed seeds (A/A false alarms, detection rates, the change point),
# then the subcommand on small histories and bad input; no MPI.
check_PROGRAMS += tests/unit/test_regress
TESTS += tests/unit/test_regress
tests_unit_test_regress_SOURCES = tests/unit/test_regress.c tests/unit/ct_test.h \
	tuner/regress_stats.c tuner/regress.h tuner/tune_decide.c tuner/tune_decide.h
tests_unit_test_regress_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tuner \
	-I$(top_srcdir)/tests/unit
tests_unit_test_regress_LDADD = -lm
TESTS += tests/unit/colltune_regress.sh
EXTRA_DIST += tests/unit/colltune_regress.sh

# colltune health: the rule that names slow hosts and links, on synthetic
# per-host and per-pair timings with fixed seeds; no MPI.
check_PROGRAMS += tests/unit/test_health
TESTS += tests/unit/test_health
tests_unit_test_health_SOURCES = tests/unit/test_health.c tests/unit/ct_test.h \
	tuner/health_rule.c tuner/health_rule.h
tests_unit_test_health_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tuner \
	-I$(top_srcdir)/tests/unit
tests_unit_test_health_LDADD = -lm
