# SPDX-License-Identifier: BSD-3-Clause
# tuner/tune/local.mk - colltune tune: the search, the trial journal,
# the decision rule, verification and the report.  Above emit.

TUNER_TUNE_CPPFLAGS = $(TUNER_EMIT_CPPFLAGS) -I$(top_srcdir)/tuner/tune $(JANSSON_CFLAGS)

noinst_LTLIBRARIES += tuner/tune/libcttune.la
tuner_tune_libcttune_la_SOURCES = \
	tuner/tune/evidence.c tuner/tune/evidence.h \
	tuner/tune/journal.c tuner/tune/journal.h tuner/tune/journal_record.c \
	tuner/tune/tune.c tuner/tune/tune_state.h \
	tuner/tune/tune_cli.c tuner/tune/tune_cli.h \
	tuner/tune/tune_choices.c tuner/tune/tune_choices.h \
	tuner/tune/tune_decide.c tuner/tune/tune_decide.h \
	tuner/tune/tune_decision.c tuner/tune/tune_decision.h \
	tuner/tune/tune_inproc.c tuner/tune/tune_inproc.h \
	tuner/tune/tune_launch.c tuner/tune/tune_launch.h \
	tuner/tune/tune_report.c tuner/tune/tune_report.h \
	tuner/tune/tune_search.c tuner/tune/tune_search.h \
	tuner/tune/tune_trial.c tuner/tune/tune_trial.h \
	tuner/tune/tune_ucx_names.c tuner/tune/tune_ucx_names.h \
	tuner/tune/tune_mpich_names.c tuner/tune/tune_mpich_names.h \
	tuner/tune/tune_ab.c tuner/tune/tune_ab.h \
	tuner/tune/tune_ab_turns.c tuner/tune/tune_ab_turns.h \
	tuner/tune/tune_neighbours.c tuner/tune/tune_neighbours.h \
	tuner/tune/tune_verify.c tuner/tune/tune_verify.h \
	tuner/tune/tune_weights.c tuner/tune/tune_weights.h
tuner_tune_libcttune_la_CPPFLAGS = $(TUNER_TUNE_CPPFLAGS)

# Everything a tune test links, lowest last.
TUNER_TUNE_LIBS = tuner/tune/libcttune.la tuner/emit/libctemit.la tuner/space/libctspace.la \
	tuner/core/libctcore.la src/lib/libcolltune.la $(JANSSON_LIBS) $(INIH_LIBS) -lm

TUNE_UNIT_TESTS = tests/unit/test_journal tests/unit/test_tune_weights tests/unit/test_tune_decide \
	tests/unit/test_tune_evidence tests/unit/test_tune_verify tests/unit/test_tune_turns
check_PROGRAMS += $(TUNE_UNIT_TESTS)
TESTS += $(TUNE_UNIT_TESTS)
TUNE_UNIT_CPPFLAGS = $(TUNER_TUNE_CPPFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_journal_CPPFLAGS = $(TUNE_UNIT_CPPFLAGS)
tests_unit_test_journal_LDADD = $(TUNER_TUNE_LIBS)
tests_unit_test_tune_weights_CPPFLAGS = $(TUNE_UNIT_CPPFLAGS)
tests_unit_test_tune_weights_LDADD = $(TUNER_TUNE_LIBS)
# The decision rule and bucket merging on synthetic numbers.
tests_unit_test_tune_decide_CPPFLAGS = $(TUNE_UNIT_CPPFLAGS)
tests_unit_test_tune_decide_LDADD = $(TUNER_TUNE_LIBS)
# The evidence index on synthetic trials; decide on synthetic evidence.
tests_unit_test_tune_evidence_CPPFLAGS = $(TUNE_UNIT_CPPFLAGS)
tests_unit_test_tune_evidence_LDADD = $(TUNER_TUNE_LIBS)
tests_unit_test_tune_verify_CPPFLAGS = $(TUNE_UNIT_CPPFLAGS)
tests_unit_test_tune_verify_LDADD = $(TUNER_TUNE_LIBS)
# How many app contexts a turns launch of the A/B may hold.
tests_unit_test_tune_turns_CPPFLAGS = $(TUNE_UNIT_CPPFLAGS)
tests_unit_test_tune_turns_LDADD = $(TUNER_TUNE_LIBS)

# A tune journal's evidence as text, for the benches (bench/inproc-agreement).
check_PROGRAMS += tests/tools/journal_medians
tests_tools_journal_medians_SOURCES = tests/tools/journal_medians.c
tests_tools_journal_medians_CPPFLAGS = $(TUNE_UNIT_CPPFLAGS)
tests_tools_journal_medians_LDADD = $(TUNER_TUNE_LIBS)

# End to end through mpirun: a tiny tune, a failing configuration, SIGKILL
# and --resume, SIGINT and --resume, the random strategy on a small space
# and on one too large to list; NCCL_ALGO searched in-process against the
# NCCL test double; two collectives' searches sharing their launches.
TESTS += tests/mpi/colltune_tune.sh tests/mpi/colltune_tune_resume.sh tests/mpi/colltune_verify.sh \
	tests/mpi/colltune_tune_sigint.sh tests/mpi/colltune_tune_random.sh \
	tests/mpi/colltune_tune_nccl.sh tests/mpi/colltune_no_harm.sh \
	tests/mpi/colltune_nccl_no_harm.sh tests/mpi/colltune_tune_shared.sh \
	tests/mpi/colltune_tune_turns.sh
EXTRA_DIST += tests/mpi/colltune_tune.sh tests/mpi/colltune_tune_resume.sh tests/mpi/tune_tiny.ini \
	tests/mpi/colltune_verify.sh tests/mpi/tune_verify.ini \
	tests/mpi/colltune_tune_sigint.sh tests/mpi/colltune_tune_random.sh \
	tests/mpi/colltune_tune_nccl.sh tests/mpi/tune_nccl_algo.ini tests/mpi/colltune_no_harm.sh \
	tests/mpi/colltune_nccl_no_harm.sh tests/mpi/colltune_tune_shared.sh \
	tests/mpi/colltune_tune_turns.sh

# A site whose NCCL_ALGO excludes the faster algorithm (issue 35): the
# tune writes the form that wins, and the installed files beat the site.
TESTS += tests/mpi/colltune_site_nccl.sh
EXTRA_DIST += tests/mpi/colltune_site_nccl.sh

# Open MPI 4.1 really reads the emitted rules file (directly, and through
# the emitted mca-params.conf), and UCX the emitted ucx.conf: a forced slow
# algorithm makes broadcast several times slower.
TESTS += tests/mpi/emitted_files_apply.sh
EXTRA_DIST += tests/mpi/emitted_files_apply.sh

# Hostile input (issue 15): a run-wide failure stops the tune at the
# defaults' first trial, a busy --out is refused (E8, E3); a journal that
# is a link, a directory, not a journal, another tune's, or lists a trial
# twice is refused before any launch (E4, E12, E16).
TUNE_HOSTILE_TESTS = tests/mpi/colltune_tune_reliability.sh tests/unit/colltune_journal.sh
TESTS += $(TUNE_HOSTILE_TESTS)
EXTRA_DIST += $(TUNE_HOSTILE_TESTS)

# --objective: every launch's collbench -a (3 by default, 1 for avg); -a
# among the collbench arguments refused; --resume keeps the journal's.
TESTS += tests/unit/colltune_objective.sh
TESTS += tests/unit/colltune_resume_launch.sh
EXTRA_DIST += tests/unit/colltune_objective.sh tests/unit/fake_mpirun.sh
EXTRA_DIST += tests/unit/colltune_resume_launch.sh
# Progress lines count the planned trials (issue 38: "trial 1/0").
TESTS += tests/unit/colltune_progress.sh
EXTRA_DIST += tests/unit/colltune_progress.sh
# --out checked before any launch: a comma (mca_base_param_files is a
# comma-separated list), a target that is a directory (issue 26).
TESTS += tests/unit/colltune_out_checked.sh
EXTRA_DIST += tests/unit/colltune_out_checked.sh
# Refused at load / option parsing (issue 26): space values no emitted
# file can carry (item 7), a rank count out of range (E8).
TESTS += tests/unit/colltune_space_files.sh
EXTRA_DIST += tests/unit/colltune_space_files.sh

# A space's UCX_* names against the installed UCX (ucx_info -c).
TESTS += tests/unit/colltune_ucx_names.sh
EXTRA_DIST += tests/unit/colltune_ucx_names.sh

# A space's MPIR_CVAR_* names and algorithm values against mpivars: a
# fake one on PATH, and the installed MPICH's (skipped without it).
TESTS += tests/unit/colltune_mpich_names.sh tests/unit/colltune_mpich_names_real.sh
EXTRA_DIST += tests/unit/colltune_mpich_names.sh tests/unit/colltune_mpich_names_real.sh

# Every helper (ucx_info, gnuplot, the launcher) under a time limit and an
# output cap, with a message naming the limit hit (issue 26 item 9).
TESTS += tests/unit/colltune_children.sh
EXTRA_DIST += tests/unit/colltune_children.sh

# The transport layer against a planted bad site (pml ucx over TCP only):
# found, verified with the written files over the site's, written, and in
# force when run by hand (the JSON's "transport").
TESTS += tests/mpi/colltune_tune_transport.sh
EXTRA_DIST += tests/mpi/colltune_tune_transport.sh tests/mpi/tune_transport.ini

# A site file forcing an Open MPI algorithm (issue 35): the tune writes
# rules, which 4.1 reads before a forced algorithm; installed, they win.
TESTS += tests/mpi/colltune_site_ompi.sh
EXTRA_DIST += tests/mpi/colltune_site_ompi.sh
