# SPDX-License-Identifier: BSD-3-Clause
# tuner/health/local.mk - colltune health: the rule that names slow hosts
# and links, and the subcommand around it.  Above sweep.

TUNER_HEALTH_CPPFLAGS = $(TUNER_SWEEP_CPPFLAGS) -I$(top_srcdir)/tuner/health

noinst_LTLIBRARIES += tuner/health/libcthealth.la
tuner_health_libcthealth_la_SOURCES = \
	tuner/health/health.c tuner/health/health_input.c tuner/health/health_input.h \
	tuner/health/health_rule.c tuner/health/health_rule.h
tuner_health_libcthealth_la_CPPFLAGS = $(TUNER_HEALTH_CPPFLAGS)

# The rule on synthetic per-host and per-pair timings with fixed seeds; no MPI.
check_PROGRAMS += tests/unit/test_health
TESTS += tests/unit/test_health
tests_unit_test_health_SOURCES = tests/unit/test_health.c tests/unit/ct_test.h
tests_unit_test_health_CPPFLAGS = $(TUNER_HEALTH_CPPFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_health_LDADD = tuner/health/libcthealth.la src/lib/libcolltune.la -lm
