# SPDX-License-Identifier: BSD-3-Clause
# tuner/local.mk - colltune: one folder per link unit, lowest first.
#
#   core  <  space  <  emit  <  tune  <  import  <  plot  <  regress  <
#   sweep  <  health  <  sbatch  <  install  <  colltune.c + commands.c (this folder)
#
# A folder includes its own headers and those of the folders before it in
# this list, never one after it (each folder's CPPFLAGS carry exactly
# those; tests/unit/tuner_layers.sh checks the sources).  colltune is plain
# C: built with the plain CC and without MPI's flags, linking only src/lib,
# jansson and inih (tests/unit/colltune_cli.sh checks with nm).  A new
# subcommand is one folder with its local.mk, one include here and one line
# in tuner/commands.c.
#
# Included from the top-level Makefile.am, as is every folder's local.mk
# it includes: every path is relative to $(top_srcdir), and every
# variable is appended to, never set.

include $(srcdir)/tuner/core/local.mk
include $(srcdir)/tuner/space/local.mk
include $(srcdir)/tuner/emit/local.mk
include $(srcdir)/tuner/tune/local.mk
include $(srcdir)/tuner/import/local.mk
include $(srcdir)/tuner/plot/local.mk
include $(srcdir)/tuner/regress/local.mk
include $(srcdir)/tuner/sweep/local.mk
include $(srcdir)/tuner/health/local.mk
include $(srcdir)/tuner/sbatch/local.mk
include $(srcdir)/tuner/install/local.mk

bin_PROGRAMS += tuner/colltune
tuner_colltune_SOURCES = tuner/colltune.c tuner/commands.c tuner/commands.h
tuner_colltune_CPPFLAGS = $(TUNER_INSTALL_CPPFLAGS)
# Highest first, so each library finds what it needs in those after it.
tuner_colltune_LDADD = tuner/install/libctinstall.la tuner/sbatch/libctsbatch.la tuner/health/libcthealth.la \
	tuner/sweep/libctsweep.la tuner/regress/libctregress.la tuner/plot/libctplot.la \
	tuner/import/libctimport.la $(TUNER_TUNE_LIBS)

# The command line and the trial runner end to end; no MPI.
TESTS += tests/unit/colltune_cli.sh tests/unit/colltune_trial.sh tests/unit/colltune_relay.sh
EXTRA_DIST += tests/unit/colltune_cli.sh tests/unit/colltune_trial.sh tests/unit/colltune_relay.sh

# No tuner folder includes a header of a folder above it.
TESTS += tests/unit/tuner_layers.sh tests/unit/file_names_guard.sh
EXTRA_DIST += tests/unit/tuner_layers.sh tests/unit/file_names_guard.sh
