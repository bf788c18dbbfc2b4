# SPDX-License-Identifier: BSD-3-Clause
# tests/fuzz/fuzz.mk - a fuzz target for every parser of a user's file:
# the space, the weights, the journal, results (CSV and JSON), nccl-tests
# and OSU logs.  Each target is LLVMFuzzerTestOneInput in fuzz_<name>.c.
#
#   make check   replays each seed corpus (tests/fuzz/corpus/<name>/)
#                once through the target, built with the plain CC
#   make fuzz    builds every target (or FUZZ_TARGETS="space import") with clang's libFuzzer, AddressSanitizer
#                and UndefinedBehaviorSanitizer and runs each for
#                FUZZ_SECONDS (default 60) on a copy of its corpus
#                (tests/fuzz/fuzz.sh; Debian: apt-get install clang)
#
# Included from the top-level Makefile.am; every path is relative to
# $(top_srcdir) and every variable is appended to, never set.

FUZZ_COMMON = tests/fuzz/replay_main.c tests/fuzz/fuzz_input.c tests/fuzz/fuzz_input.h
FUZZ_REPLAYS = tests/fuzz/replay_space tests/fuzz/replay_weights tests/fuzz/replay_journal \
	tests/fuzz/replay_results tests/fuzz/replay_import
check_PROGRAMS += $(FUZZ_REPLAYS)
tests_fuzz_replay_space_SOURCES = tests/fuzz/fuzz_space.c $(FUZZ_COMMON)
tests_fuzz_replay_space_CPPFLAGS = $(TUNER_SPACE_CPPFLAGS)
tests_fuzz_replay_space_LDADD = tuner/space/libctspace.la src/lib/libcolltune.la $(INIH_LIBS) -lm
tests_fuzz_replay_weights_SOURCES = tests/fuzz/fuzz_weights.c $(FUZZ_COMMON)
tests_fuzz_replay_weights_CPPFLAGS = $(TUNER_TUNE_CPPFLAGS)
tests_fuzz_replay_weights_LDADD = $(TUNER_TUNE_LIBS)
tests_fuzz_replay_journal_SOURCES = tests/fuzz/fuzz_journal.c $(FUZZ_COMMON)
tests_fuzz_replay_journal_CPPFLAGS = $(TUNER_TUNE_CPPFLAGS)
tests_fuzz_replay_journal_LDADD = $(TUNER_TUNE_LIBS)
tests_fuzz_replay_results_SOURCES = tests/fuzz/fuzz_results.c $(FUZZ_COMMON)
tests_fuzz_replay_results_CPPFLAGS = $(AM_CPPFLAGS) $(JANSSON_CFLAGS)
tests_fuzz_replay_results_LDADD = src/lib/libcolltune.la -lm
tests_fuzz_replay_import_SOURCES = tests/fuzz/fuzz_import.c $(FUZZ_COMMON)
tests_fuzz_replay_import_CPPFLAGS = $(TUNER_IMPORT_CPPFLAGS)
tests_fuzz_replay_import_LDADD = tuner/import/libctimport.la $(TUNER_TUNE_LIBS)

TESTS += tests/fuzz/replay.sh
EXTRA_DIST += tests/fuzz/replay.sh tests/fuzz/fuzz.sh tests/fuzz/corpus

.PHONY: fuzz
fuzz: all
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	    $(SHELL) $(srcdir)/tests/fuzz/fuzz.sh $(FUZZ_SECONDS)

clean-local: clean-local-fuzz
clean-local-fuzz:
	-rm -rf tests/fuzz/build
.PHONY: clean-local-fuzz
