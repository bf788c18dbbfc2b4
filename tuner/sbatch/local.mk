# tuner/sbatch/local.mk - colltune sbatch: a commented Slurm batch script
# for a sweep, a tune or the nightly recipe.  Above health.

TUNER_SBATCH_CPPFLAGS = $(TUNER_HEALTH_CPPFLAGS) -I$(top_srcdir)/tuner/sbatch

noinst_LTLIBRARIES += tuner/sbatch/libctsbatch.la
tuner_sbatch_libctsbatch_la_SOURCES = \
	tuner/sbatch/sbatch.c tuner/sbatch/sbatch.h tuner/sbatch/sbatch_script.c
tuner_sbatch_libctsbatch_la_CPPFLAGS = $(TUNER_SBATCH_CPPFLAGS) \
	-DCT_CONTRIB_DIR='"$(contribdir)"' -DCT_CONTRIB_SRCDIR='"$(abs_top_srcdir)/contrib"'

# The nightly recipe, installed where `colltune sbatch nightly` finds it.
contribdir = $(pkgdatadir)/contrib
dist_contrib_SCRIPTS = contrib/nightly.sh
