# SPDX-License-Identifier: BSD-3-Clause
# tuner/plugin/local.mk - colltune's NCCL tuner plugin and its test harness.
#
# Included from the top-level Makefile.am; every path is relative to
# $(top_srcdir) and every variable is appended to, never set.

lib_LTLIBRARIES += tuner/plugin/libnccl-tuner-colltune.la
tuner_plugin_libnccl_tuner_colltune_la_SOURCES = \
	tuner/plugin/abi.h \
	tuner/plugin/context.c tuner/plugin/context.h \
	tuner/plugin/log.c tuner/plugin/log.h \
	tuner/plugin/plugin.c
# The rules files' words are src/lib's (ct_names.c), linked in statically
# from their own small convenience library: nothing else of src/lib.
tuner_plugin_libnccl_tuner_colltune_la_LIBADD = tuner/plugin/libctrules.la src/lib/libctnames.la

# The rules parser and its names, a library of their own so that
# tests/unit/test_emit reads nccl_tuner.conf back with the plugin's parser.
noinst_LTLIBRARIES += tuner/plugin/libctrules.la
tuner_plugin_libctrules_la_SOURCES = \
	tuner/plugin/abi.h \
	tuner/plugin/names.c tuner/plugin/names.h \
	tuner/plugin/rules.c tuner/plugin/rules.h
tuner_plugin_libctrules_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
# NCCL dlopen()s the plugin into every rank: export only the
# ncclTunerPlugin_v* tables, and record no dependency it does not use
# (tests/unit/lib_no_mpi.sh checks both).
tuner_plugin_libnccl_tuner_colltune_la_CFLAGS = $(AM_CFLAGS) \
	-fvisibility=hidden
tuner_plugin_libnccl_tuner_colltune_la_LDFLAGS = \
	-module -avoid-version -shared -no-undefined \
	-export-symbols-regex '^ncclTunerPlugin_v[0-9]+$$' \
	-Wl,--as-needed

check_PROGRAMS += tests/unit/test_tuner_plugin
TESTS += tests/unit/test_tuner_plugin
tests_unit_test_tuner_plugin_SOURCES = tests/unit/test_tuner_plugin.c \
	tests/unit/ct_test.h
# The harness dlopen()s the freshly built plugin, as NCCL would, so
# building the harness builds the plugin first.
tests_unit_test_tuner_plugin_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/tests/unit \
	-DPLUGIN_PATH='"$(abs_top_builddir)/tuner/plugin/.libs/libnccl-tuner-colltune.so"' \
	-DPLUGIN_RULES_DIR='"$(abs_top_srcdir)/tests/unit/plugin_rules"'
EXTRA_tests_unit_test_tuner_plugin_DEPENDENCIES = \
	tuner/plugin/libnccl-tuner-colltune.la

docplugindir = $(docdir)/plugin
dist_docplugin_DATA = tuner/plugin/README.md
EXTRA_DIST += tests/unit/plugin_rules/example.conf \
	tests/unit/plugin_rules/nvidia_example.conf \
	tests/unit/plugin_rules/any.conf
