# SPDX-License-Identifier: BSD-3-Clause
# tuner/plot/local.mk - colltune plot: busbw, latency, tune and scaling
# plots through gnuplot, and index.html.  Above import.

TUNER_PLOT_CPPFLAGS = $(TUNER_IMPORT_CPPFLAGS) -I$(top_srcdir)/tuner/plot

noinst_LTLIBRARIES += tuner/plot/libctplot.la
tuner_plot_libctplot_la_SOURCES = \
	tuner/plot/plot.c tuner/plot/plot.h tuner/plot/plot_tune.c \
	tuner/plot/plot_html.c tuner/plot/scaling.c tuner/plot/scaling.h
tuner_plot_libctplot_la_CPPFLAGS = $(TUNER_PLOT_CPPFLAGS)

# The parameterised gnuplot scripts, usable alone (gnuplot -c plots/busbw.gp ...).
plotsdir = $(pkgdatadir)/plots
dist_plots_DATA = plots/busbw.gp plots/latency.gp plots/tuned.gp plots/scaling.gp \
	plots/timeseries.gp

# PNG/SVG files of the requested size, index.html's links, no gnuplot
# (exit 3), bad input (exit 2 naming file:line); no MPI.
TESTS += tests/unit/colltune_plot.sh
EXTRA_DIST += tests/unit/colltune_plot.sh tests/unit/plot_results.csv tests/unit/plot_results.json \
	tests/unit/plot_tune/report.json

# Hostile output names ('<' or '|' first: gnuplot would run a shell) for
# every script, and a full disk that must not replace a good image.
TESTS += tests/unit/colltune_plot_hostile.sh
EXTRA_DIST += tests/unit/colltune_plot_hostile.sh

# A locked output directory (another run's) is refused naming the pid.
TESTS += tests/unit/colltune_outdir_lock.sh
EXTRA_DIST += tests/unit/colltune_outdir_lock.sh
# The paths an output directory will have (.., //, links, a comma after
# resolution, PATH_MAX) and the lock's failures (issue 34).
TESTS += tests/unit/colltune_outdir_paths.sh
EXTRA_DIST += tests/unit/colltune_outdir_paths.sh
