# SPDX-License-Identifier: BSD-3-Clause
# tuner/space/local.mk - search spaces: the .ini parser, the known
# variables and their values, enumeration and sampling.  Above core.

TUNER_SPACE_CPPFLAGS = $(TUNER_CORE_CPPFLAGS) -I$(top_srcdir)/tuner/space $(INIH_CFLAGS)

noinst_LTLIBRARIES += tuner/space/libctspace.la
tuner_space_libctspace_la_SOURCES = \
	tuner/space/space.c tuner/space/space.h \
	tuner/space/space_enum.c tuner/space/space_sample.c \
	tuner/space/space_known.c tuner/space/space_known.h \
	tuner/space/space_list.c tuner/space/space_list.h \
	tuner/space/space_find.c tuner/space/space_find.h \
	tuner/space/file_values.c tuner/space/file_values.h
tuner_space_libctspace_la_CPPFLAGS = $(TUNER_SPACE_CPPFLAGS) \
	-DCT_SPACES_DIR='"$(spacesdir)"' -DCT_SPACES_SRCDIR='"$(abs_top_srcdir)/tuner/spaces"'

# The shipped search spaces stay where users find them (tuner/spaces/;
# tuner/spaces/README.md has the format).
spacesdir = $(pkgdatadir)/spaces
dist_spaces_DATA = \
	tuner/spaces/openmpi-coll.ini \
	tuner/spaces/openmpi-transport.ini \
	tuner/spaces/ucx.ini \
	tuner/spaces/nccl.ini \
	tuner/spaces/local.ini \
	tuner/spaces/mpich-coll.ini \
	tuner/spaces/mvapich-coll.ini \
	tuner/spaces/oneccl.ini \
	tuner/spaces/README.md

check_PROGRAMS += tests/unit/test_space
TESTS += tests/unit/test_space
tests_unit_test_space_SOURCES = tests/unit/test_space.c tests/unit/ct_test.h
tests_unit_test_space_CPPFLAGS = $(TUNER_SPACE_CPPFLAGS) -I$(top_srcdir)/tests/unit $(JANSSON_CFLAGS)
tests_unit_test_space_LDADD = tuner/space/libctspace.la src/lib/libcolltune.la $(INIH_LIBS) -lm
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
	tests/unit/spaces/huge_scope.ini \
	tests/unit/spaces/no_values.ini \
	tests/unit/spaces/overflow_constraint.ini \
	tests/unit/spaces/per_collective.ini \
	tests/unit/spaces/unknown_key.ini \
	tests/unit/spaces/unknown_kind.ini \
	tests/unit/spaces/two_space_sections.ini \
	tests/unit/spaces/unsat_constraint.ini \
	tests/unit/spaces/wrong_scope.ini
