# SPDX-License-Identifier: BSD-3-Clause
# man/local.mk - the man pages, made from --help by help2man.
#
# --help is the one source of the flag text: collbench(1), colltune(1) and
# colltune-SUB(1) (one per subcommand) are help2man's reading of
# `collbench --help`, `colltune --help` and `colltune SUB --help`, plus the
# SEE ALSO of man/*.h2m.  A subcommand page's NAME line is that
# subcommand's summary in `colltune --help`.  The version is
# configure's, given as --version-string (the subcommands have no
# --version, and collbench's carries the git revision).
#
# The pages ship in the tarball (dist_man_MANS), so that a build from it
# needs no help2man.  Each page depends on its program: where help2man is
# found (configure's HELP2MAN) a page older than its program is made again
# from the program just built; where it is not, the shipped page is kept
# (a VPATH build copies it from the source tree), with a note.  A checkout
# has no pages until the first `make` (man/.gitignore).
#
# Included from the top-level Makefile.am; paths relative to $(top_srcdir).

COLLTUNE_SUB_MANS = man/colltune-sweep.1 man/colltune-tune.1 man/colltune-import.1 \
	man/colltune-plot.1 man/colltune-regress.1 man/colltune-health.1 man/colltune-sbatch.1 \
	man/colltune-install.1 man/colltune-verify-install.1 man/colltune-merge.1
dist_man_MANS = man/collbench.1 man/colltune.1 $(COLLTUNE_SUB_MANS)
COLLTUNE_SUB_H2M = man/colltune-sweep.h2m man/colltune-tune.h2m man/colltune-import.h2m \
	man/colltune-plot.h2m man/colltune-regress.h2m man/colltune-health.h2m man/colltune-sbatch.h2m
EXTRA_DIST += man/collbench.h2m man/colltune.h2m man/colltune-sub.h2m man/colltune-common.h2m \
	$(COLLTUNE_SUB_H2M)
MAINTAINERCLEANFILES = $(dist_man_MANS)

# Without help2man: keep the shipped page (exit 0), or fail with the package
# to install.  Ends the recipe's shell when it has dealt with the page.
CT_MAN_FALLBACK = \
	$(MKDIR_P) man; \
	if test -z '$(HELP2MAN)'; then \
	  if test -f '$(srcdir)/$@'; then \
	    echo "$@: help2man not found, keeping the shipped page" >&2; \
	    cmp -s '$(srcdir)/$@' '$@' || cp '$(srcdir)/$@' '$@' || exit 1; \
	    touch '$@'; exit 0; \
	  fi; \
	  echo "$@: help2man is needed to make it (Debian: apt-get install help2man)" >&2; \
	  exit 1; \
	fi

CT_H2M = $(HELP2MAN) --no-info --no-discard-stderr

man/collbench.1: src/collbench$(EXEEXT) $(srcdir)/man/collbench.h2m
	$(AM_V_GEN)$(CT_MAN_FALLBACK); \
	$(CT_H2M) --version-string='collbench ($(PACKAGE_NAME)) $(PACKAGE_VERSION)' \
	  --name='collective-communication benchmark (nccl-tests table, CSV, JSON)' \
	  --include='$(srcdir)/man/collbench.h2m' --output='$@.tmp' src/collbench$(EXEEXT) && \
	mv '$@.tmp' '$@'

man/colltune.1: tuner/colltune$(EXEEXT) $(srcdir)/man/colltune.h2m $(srcdir)/man/colltune-common.h2m
	$(AM_V_GEN)$(CT_MAN_FALLBACK); \
	$(CT_H2M) --version-string='colltune ($(PACKAGE_NAME)) $(PACKAGE_VERSION)' \
	  --name='sweep, tune, plot and judge collective communication through a launcher' \
	  --include='$(srcdir)/man/colltune.h2m' --include='$(srcdir)/man/colltune-common.h2m' \
	  --output='$@.tmp' tuner/colltune$(EXEEXT) && \
	mv '$@.tmp' '$@'

# A page with examples of its own also depends on them.
man/colltune-sweep.1: $(srcdir)/man/colltune-sweep.h2m
man/colltune-tune.1: $(srcdir)/man/colltune-tune.h2m
man/colltune-import.1: $(srcdir)/man/colltune-import.h2m
man/colltune-plot.1: $(srcdir)/man/colltune-plot.h2m
man/colltune-regress.1: $(srcdir)/man/colltune-regress.h2m
man/colltune-health.1: $(srcdir)/man/colltune-health.h2m
man/colltune-sbatch.1: $(srcdir)/man/colltune-sbatch.h2m

$(COLLTUNE_SUB_MANS): tuner/colltune$(EXEEXT) $(srcdir)/man/colltune-sub.h2m \
	$(srcdir)/man/colltune-common.h2m
	$(AM_V_GEN)$(CT_MAN_FALLBACK); \
	sub=`echo '$@' | sed 's|.*/colltune-||; s|\.1$$||'`; \
	name=`tuner/colltune$(EXEEXT) --help | sed -n "s/^  $$sub  *//p"`; \
	test -n "$$name" || { echo "$@: no '$$sub' in colltune --help" >&2; exit 1; }; \
	$(CT_H2M) --version-string="colltune-$$sub ($(PACKAGE_NAME)) $(PACKAGE_VERSION)" \
	  --help-option="$$sub --help" --name="$$name" \
	  --opt-include="$(srcdir)/man/colltune-$$sub.h2m" \
	  --include='$(srcdir)/man/colltune-sub.h2m' --include='$(srcdir)/man/colltune-common.h2m' \
	  --output='$@.tmp' tuner/colltune$(EXEEXT) && \
	mv '$@.tmp' '$@'

# Each page has EXAMPLES, FILES and ENVIRONMENT, and renders cleanly.
TESTS += tests/unit/man_pages.sh
EXTRA_DIST += tests/unit/man_pages.sh

# A VPATH build made its own pages (above); the source tree keeps the
# shipped ones.  distcleancheck wants the build tree empty.
distclean-local: distclean-local-man
distclean-local-man:
	if test '$(srcdir)' != .; then rm -f $(dist_man_MANS); fi
.PHONY: distclean-local-man
