# tuner/libtune.mk - the tuner's library: search spaces and the trial
# journal (plain C, never MPI: colltune runs collbench as a program).
#
# Included from the top-level Makefile.am; paths are relative to
# $(top_srcdir) and every variable is appended to, never set.

noinst_LTLIBRARIES += tuner/libtune.la
tuner_libtune_la_SOURCES = \
	tuner/space.c tuner/space.h \
	tuner/space_enum.c tuner/space_sample.c \
	tuner/space_known.c tuner/space_known.h \
	tuner/space_list.c tuner/space_list.h \
	tuner/journal.c tuner/journal.h \
	tuner/journal_record.c \
	tuner/tune_weights.c tuner/tune_weights.h
tuner_libtune_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tuner $(JANSSON_CFLAGS) $(INIH_CFLAGS)
tuner_libtune_la_LIBADD = src/lib/libcolltune.la $(JANSSON_LIBS) $(INIH_LIBS) -lm

# The shipped search spaces (tuner/spaces/README.md has the format).
spacesdir = $(pkgdatadir)/spaces
dist_spaces_DATA = \
	tuner/spaces/openmpi-coll.ini \
	tuner/spaces/openmpi-transport.ini \
	tuner/spaces/nccl.ini \
	tuner/spaces/local.ini
EXTRA_DIST += tuner/spaces/README.md

TUNE_UNIT_TESTS = tests/unit/test_space tests/unit/test_journal tests/unit/test_tune_weights
check_PROGRAMS += $(TUNE_UNIT_TESTS)
TESTS += $(TUNE_UNIT_TESTS)
TUNE_UNIT_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tuner -I$(top_srcdir)/tests/unit \
	$(JANSSON_CFLAGS)
tests_unit_test_space_SOURCES = tests/unit/test_space.c tests/unit/ct_test.h
tests_unit_test_space_CPPFLAGS = $(TUNE_UNIT_CPPFLAGS)
tests_unit_test_space_LDADD = tuner/libtune.la
tests_unit_test_journal_SOURCES = tests/unit/test_journal.c tests/unit/ct_test.h
tests_unit_test_journal_CPPFLAGS = $(TUNE_UNIT_CPPFLAGS)
tests_unit_test_journal_LDADD = tuner/libtune.la
tests_unit_test_tune_weights_SOURCES = tests/unit/test_tune_weights.c tests/unit/ct_test.h
tests_unit_test_tune_weights_CPPFLAGS = $(TUNE_UNIT_CPPFLAGS)
tests_unit_test_tune_weights_LDADD = tuner/libtune.la
EXTRA_DIST += $(TUNE_SPACE_FIXTURES)
TUNE_SPACE_FIXTURES = \
	tests/unit/spaces/bad_nccl_algo.ini \
	tests/unit/spaces/bad_nccl_algo_coll.ini \
	tests/unit/spaces/bad_nccl_proto.ini \
	tests/unit/spaces/bad_pow2.ini \
	tests/unit/spaces/bad_range.ini \
	tests/unit/spaces/bad_scope.ini \
	tests/unit/spaces/bad_tuned_id.ini \
	tests/unit/spaces/constraint.ini \
	tests/unit/spaces/duplicate_key.ini \
	tests/unit/spaces/duplicate_var.ini \
	tests/unit/spaces/empty_values.ini \
	tests/unit/spaces/no_values.ini \
	tests/unit/spaces/per_collective.ini \
	tests/unit/spaces/unknown_key.ini \
	tests/unit/spaces/unknown_kind.ini \
	tests/unit/spaces/unsat_constraint.ini \
	tests/unit/spaces/wrong_scope.ini
