/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * launcher_words.h - what the launchers' own files share: finding a flag
 * in the user's launcher words and pushing flags.  Private to
 * tuner/core/launcher*.c.
 */
#ifndef CT_LAUNCHER_WORDS_H
#define CT_LAUNCHER_WORDS_H

#include "ct_library.h"
#include "launcher.h"

/* OMPI_MCA_name: the table's environment form of an MCA parameter. */
#define CT_MCA_ENV_PREFIX CT_LIBRARY_MCA_ENV_PREFIX

/* Whether the user already gave a flag starting with flag (in the words
 * after the program, or in --launcher-arg). */
int ct_launcher_has(const ct_launcher_t *l, const char *flag);

/* A whole number > 0, or 0. */
long ct_launcher_count(const char *s);

/* The last value given to any of flags in the launcher's words or extra
 * arguments: "FLAG N", "--flag=N", or a one-letter "-nN"; -1 when none
 * is given, 0 when the value is not a plain count.  Within one word the
 * first flag that fits wins, so list "-np" before "-n". */
long ct_launcher_flag(const ct_launcher_t *l, const char *const *flags);

/* Pushes flag, then value (when not NULL). */
ct_status_t ct_launcher_push2(ct_argv_t *argv, const char *flag, const char *value);

#endif
