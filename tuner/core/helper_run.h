/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * helper_run.h - a helper program colltune asks something (ucx_info -c,
 * ompi_info, mpivars, mpichversion): run once under the trial runner with
 * a time limit and an exact cap on its output (a hung or endless one must
 * not stall a tune or fill $TMPDIR), its stdout read whole.
 */
#ifndef CT_HELPER_RUN_H
#define CT_HELPER_RUN_H

#include <stddef.h>

/* Each answers at once and prints at most a few thousand lines; the
 * environment's COLLTUNE_HELPER_TIMEOUT (seconds, 0.1 to 3600) replaces
 * the time limit, for a slow file system or a test. */
#define CT_HELPER_TIMEOUT_S 10.0
#define CT_HELPER_TIMEOUT_ENV "COLLTUNE_HELPER_TIMEOUT"
#define CT_HELPER_MAX_OUTPUT (16LL << 20)

/* argv[0]'s stdout (malloc'ed, NUL-terminated, no NUL inside), or NULL
 * with why: what follows the program's name in a note ("did not run
 * (cannot execute: No such file or directory)", "did not finish in 10 s",
 * "printed more than 16 MiB on stdout", "exited 3", "ran but printed no
 * usable list (a NUL byte at line 2)").  Its temporaries live in $TMPDIR
 * and are removed. */
char *ct_helper_run(char *const *argv, char *why, size_t whylen);

#endif
