# SPDX-License-Identifier: BSD-3-Clause
# tuner/emit/local.mk - the config-file emitters (one file per format,
# one table in emit.c) and the result type they read.  Above space, but
# the result type (tune_result.h) needs nothing of the space parser.

TUNER_EMIT_CPPFLAGS = $(TUNER_SPACE_CPPFLAGS) -I$(top_srcdir)/tuner/emit

noinst_LTLIBRARIES += tuner/emit/libctemit.la
tuner_emit_libctemit_la_SOURCES = \
	tuner/emit/emit.c tuner/emit/emit.h tuner/emit/emit_format.h tuner/emit/tune_result.h \
	tuner/emit/emit_choice.c tuner/emit/emit_carry.c tuner/emit/emit_common.c \
	tuner/emit/emit_nccl_list.c tuner/emit/emit_nccl_vars.c tuner/emit/emit_nccl_site.c \
	tuner/emit/emit_nccl_env.c tuner/emit/emit_nccl_conf.c tuner/emit/emit_nccl_tuner.c \
	tuner/emit/emit_ucx.c tuner/emit/emit_mca.c tuner/emit/emit_tuned_rules.c \
	tuner/emit/emit_tuned_rules_json.c tuner/emit/emit_mpich_env.c tuner/emit/emit_intel_mpi_env.c \
	tuner/emit/emit_mpich_csel.c tuner/emit/emit_shape.c tuner/emit/emit_shape_conflict.c \
	tuner/emit/emit_mvapich_env.c \
	tuner/emit/emit_oneccl_env.c
tuner_emit_libctemit_la_CPPFLAGS = $(TUNER_EMIT_CPPFLAGS)

# The emitters against golden files; nccl_tuner.conf is read back with the
# plugin's own rules parser (tuner/plugin/libctrules.la).
check_PROGRAMS += tests/unit/test_emit
TESTS += tests/unit/test_emit
tests_unit_test_emit_SOURCES = tests/unit/test_emit.c tests/unit/ct_test.h
tests_unit_test_emit_CPPFLAGS = $(TUNER_EMIT_CPPFLAGS) -I$(top_srcdir)/tests/unit \
	-I$(top_srcdir)/tuner/plugin \
	-DEMIT_GOLDEN_DIR='"$(abs_top_srcdir)/tests/unit/emit_golden"'
tests_unit_test_emit_LDADD = tuner/emit/libctemit.la tuner/space/libctspace.la tuner/plugin/libctrules.la \
	tuner/core/libctcore.la src/lib/libcolltune.la
# intel-mpi.env's "Left out" comment with hostile values (issue 38, M9).
check_PROGRAMS += tests/unit/test_emit_intel_safe
TESTS += tests/unit/test_emit_intel_safe
tests_unit_test_emit_intel_safe_SOURCES = tests/unit/test_emit_intel_safe.c tests/unit/ct_test.h
tests_unit_test_emit_intel_safe_CPPFLAGS = $(TUNER_EMIT_CPPFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_emit_intel_safe_LDADD = tuner/emit/libctemit.la tuner/space/libctspace.la \
	tuner/plugin/libctrules.la tuner/core/libctcore.la src/lib/libcolltune.la
# The NCCL files against a site's NCCL_ALGO (issue 35): the form that wins.
check_PROGRAMS += tests/unit/test_emit_nccl_site
TESTS += tests/unit/test_emit_nccl_site
tests_unit_test_emit_nccl_site_SOURCES = tests/unit/test_emit_nccl_site.c tests/unit/ct_test.h
tests_unit_test_emit_nccl_site_CPPFLAGS = $(TUNER_EMIT_CPPFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_emit_nccl_site_LDADD = tuner/emit/libctemit.la tuner/space/libctspace.la \
	tuner/plugin/libctrules.la tuner/core/libctcore.la src/lib/libcolltune.la
# Two libraries that do not run here, each one row, one emitter, one space
# and this test: MVAPICH 3 (mvapich.env, MVP_ aliases of MPICH's CVARs,
# written when MVAPICH ran) and oneCCL (oneccl.env, CCL_<COLL> by size).
EMIT_ONE_LIB_CPPFLAGS = $(TUNER_EMIT_CPPFLAGS) -I$(top_srcdir)/tests/unit \
	-DEMIT_GOLDEN_DIR='"$(abs_top_srcdir)/tests/unit/emit_golden"' \
	-DEMIT_SPACES_DIR='"$(abs_top_srcdir)/tuner/spaces"'
EMIT_ONE_LIB_LDADD = tuner/emit/libctemit.la tuner/space/libctspace.la \
	tuner/plugin/libctrules.la tuner/core/libctcore.la src/lib/libcolltune.la $(INIH_LIBS) -lm
check_PROGRAMS += tests/unit/test_emit_mvapich tests/unit/test_emit_oneccl
TESTS += tests/unit/test_emit_mvapich tests/unit/test_emit_oneccl
tests_unit_test_emit_mvapich_SOURCES = tests/unit/test_emit_mvapich.c tests/unit/emit_golden.h \
	tests/unit/ct_test.h
tests_unit_test_emit_mvapich_CPPFLAGS = $(EMIT_ONE_LIB_CPPFLAGS)
tests_unit_test_emit_mvapich_LDADD = $(EMIT_ONE_LIB_LDADD)
tests_unit_test_emit_oneccl_SOURCES = tests/unit/test_emit_oneccl.c tests/unit/emit_golden.h \
	tests/unit/ct_test.h
tests_unit_test_emit_oneccl_CPPFLAGS = $(EMIT_ONE_LIB_CPPFLAGS)
tests_unit_test_emit_oneccl_LDADD = $(EMIT_ONE_LIB_LDADD)
EXTRA_DIST += tests/unit/emit_golden/mvapich/mvapich.env tests/unit/emit_golden/oneccl/oneccl.env

# Choices at several job shapes: a block per shape in every keyed file,
# read back (4.1's comm-size lookup, the plugin's parser); differing
# values refused where a file keys by nothing (issue 36).
check_PROGRAMS += tests/unit/test_emit_shapes
TESTS += tests/unit/test_emit_shapes
tests_unit_test_emit_shapes_SOURCES = tests/unit/test_emit_shapes.c tests/unit/ct_test.h
tests_unit_test_emit_shapes_CPPFLAGS = $(TUNER_EMIT_CPPFLAGS) -I$(top_srcdir)/tests/unit \
	-I$(top_srcdir)/tuner/plugin \
	-DEMIT_GOLDEN_DIR='"$(abs_top_srcdir)/tests/unit/emit_golden"'
tests_unit_test_emit_shapes_LDADD = tuner/emit/libctemit.la tuner/space/libctspace.la \
	tuner/plugin/libctrules.la tuner/core/libctcore.la src/lib/libcolltune.la $(JANSSON_LIBS)
EMIT_GOLDEN = \
	tests/unit/emit_golden/full/nccl.env \
	tests/unit/emit_golden/full/nccl.conf \
	tests/unit/emit_golden/full/nccl_tuner.conf \
	tests/unit/emit_golden/full/ucx.conf \
	tests/unit/emit_golden/full/mca-params.conf \
	tests/unit/emit_golden/full/coll-tuned-rules.conf \
	tests/unit/emit_golden/full/coll-tuned-rules.json \
	tests/unit/emit_golden/nccl/nccl.env \
	tests/unit/emit_golden/nccl/nccl.conf \
	tests/unit/emit_golden/nccl/nccl_tuner.conf \
	tests/unit/emit_golden/ompi/mca-params.conf \
	tests/unit/emit_golden/mpich/mpich.env \
	tests/unit/emit_golden/mpich/intel-mpi.env \
	tests/unit/emit_golden/mpich-csel/mpich.env \
	tests/unit/emit_golden/mpich-csel/mpich-coll-selection.json \
	tests/unit/emit_golden/shapes/coll-tuned-rules.conf \
	tests/unit/emit_golden/shapes/coll-tuned-rules.json \
	tests/unit/emit_golden/shapes/nccl_tuner.conf \
	tests/unit/emit_golden/shapes/mpich-coll-selection.json \
	tests/unit/emit_golden/shapes/intel-mpi.env
EXTRA_DIST += $(EMIT_GOLDEN)

# tests/mpi/mpich_csel.sh's writer: one range choice, MPICH's tree from
# the installed libmpich, into a directory.
check_PROGRAMS += tests/mpi/mpich_csel_emit
tests_mpi_mpich_csel_emit_SOURCES = tests/mpi/mpich_csel_emit.c
tests_mpi_mpich_csel_emit_CPPFLAGS = $(TUNER_EMIT_CPPFLAGS)
tests_mpi_mpich_csel_emit_LDADD = tuner/emit/libctemit.la tuner/space/libctspace.la \
	tuner/plugin/libctrules.la tuner/core/libctcore.la src/lib/libcolltune.la
