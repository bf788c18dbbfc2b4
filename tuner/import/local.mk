# SPDX-License-Identifier: BSD-3-Clause
# tuner/import/local.mk - colltune import: nccl-tests (text and JSON) and
# OSU logs into colltune's results schema.  Above core.

TUNER_IMPORT_CPPFLAGS = $(TUNER_TUNE_CPPFLAGS) -I$(top_srcdir)/tuner/import

noinst_LTLIBRARIES += tuner/import/libctimport.la
tuner_import_libctimport_la_SOURCES = \
	tuner/import/import.c tuner/import/import.h tuner/import/import_common.c \
	tuner/import/import_nccl.c tuner/import/import_nccl_json.c tuner/import/import_osu.c
tuner_import_libctimport_la_CPPFLAGS = $(TUNER_IMPORT_CPPFLAGS)

# Sample logs written from the published formats, their golden CSVs, and
# bad input (tests/unit/import/).
TESTS += tests/unit/colltune_import.sh
IMPORT_SAMPLES = \
	tests/unit/import/nccl_allreduce.log tests/unit/import/nccl_allreduce.csv \
	tests/unit/import/nccl_two_tests.log tests/unit/import/nccl_two_tests.csv \
	tests/unit/import/nccl_per_iter.log tests/unit/import/nccl_per_iter.csv \
	tests/unit/import/nccl_truncated.log tests/unit/import/nccl_truncated.csv \
	tests/unit/import/nccl_allreduce.json tests/unit/import/nccl_allreduce_json.csv \
	tests/unit/import/osu_mixed.log tests/unit/import/osu_mixed.csv \
	tests/unit/import/bad_missing_column.log tests/unit/import/bad_other_tool.log
EXTRA_DIST += tests/unit/colltune_import.sh $(IMPORT_SAMPLES)

# Hostile input (issue 15): every reader of a user file refuses /dev/zero,
# FIFOs, directories and NUL bytes at once (src/lib/ct_input.c; E2, E17);
# no subcommand writes over one of its inputs (E11, E14, E15); a signal
# during an import leaves neither a temporary file nor --out (E17); every
# bad option value and file field is named, exit 2 (E23, E24).
IMPORT_HOSTILE_TESTS = tests/unit/colltune_inputs.sh tests/unit/colltune_output_is_input.sh \
	tests/unit/colltune_import_signal.sh tests/unit/colltune_messages.sh
TESTS += $(IMPORT_HOSTILE_TESTS)
EXTRA_DIST += $(IMPORT_HOSTILE_TESTS)
