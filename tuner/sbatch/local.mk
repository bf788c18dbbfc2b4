# SPDX-License-Identifier: BSD-3-Clause
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
dist_contrib_SCRIPTS = contrib/nightly.sh contrib/nccl-test-double.sh

# The NCCL test double's sources, where contrib/nccl-test-double.sh finds
# them once installed (a user without a GPU builds them with mpicc).
nccltestdoubledir = $(contribdir)/nccl-test-double
nccltestdouble_DATA = tests/nccl/fake_nccl_mpi.c tests/nccl/stub_cudart.c

# The cron and Slurm examples, installed beside the recipe with the paths
# of this install (make install prefix=... included): the source tree's
# copies name /opt/colltune and a relative contrib/nightly.sh.  The
# top-level Makefile.am hooks these into install-data-local.
EXTRA_DIST += contrib/nightly.cron contrib/nightly.sbatch
install-contrib-examples:
	$(MKDIR_P) '$(DESTDIR)$(contribdir)'
	sed -e 's|/opt/colltune/bin/colltune|$(bindir)/colltune|g' \
	    -e 's|/opt/colltune/contrib|$(contribdir)|g' \
	    '$(srcdir)/contrib/nightly.cron' >'$(DESTDIR)$(contribdir)/nightly.cron.tmp'
	mv '$(DESTDIR)$(contribdir)/nightly.cron.tmp' '$(DESTDIR)$(contribdir)/nightly.cron'
	sed -e "s|NIGHTLY:-'contrib/nightly.sh'|NIGHTLY:-'$(contribdir)/nightly.sh'|" \
	    -e "s|COLLTUNE:-'colltune'|COLLTUNE:-'$(bindir)/colltune'|" \
	    '$(srcdir)/contrib/nightly.sbatch' >'$(DESTDIR)$(contribdir)/nightly.sbatch.tmp'
	mv '$(DESTDIR)$(contribdir)/nightly.sbatch.tmp' '$(DESTDIR)$(contribdir)/nightly.sbatch'
uninstall-contrib-examples:
	rm -f '$(DESTDIR)$(contribdir)/nightly.cron' '$(DESTDIR)$(contribdir)/nightly.sbatch'
.PHONY: install-contrib-examples uninstall-contrib-examples
