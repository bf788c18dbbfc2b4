/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_mpich_names.h - a space's MPIR_CVAR_* names, and the values of its
 * algorithm CVARs, checked against the installed MPICH (mpivars) before
 * any trial.  MPICH ignores an environment variable it does not know, so a
 * misspelt CVAR (or one of another MPICH version, MPIR_CVAR_ALLREDUCE_
 * TREE_KVAL, which 4.0.2 lacks) would be "tuned" without effect; an
 * algorithm name it does not know fails every trial at MPI_Init.
 */
#ifndef CT_TUNE_MPICH_NAMES_H
#define CT_TUNE_MPICH_NAMES_H

#include <stddef.h>

#include "ct_status.h"
#include "space.h"

/* CT_OK when the space names no MPIR_CVAR_* variable (searched or in a
 * requires=), when every one is listed by `mpivars` (argv[0] mpivars: the
 * MPICH on PATH) and every value of an *_ALGORITHM CVAR is one of the
 * names its description lists, or when mpivars cannot be run (a note on
 * stderr: the check is skipped, not failed).  CT_ERR_USAGE with
 * "path:line: NAME: ..." for the first unknown name or value.
 * mpichversion (argv[0], may be NULL) names the version in the message. */
ct_status_t ct_tune_check_mpich_names(const ct_space_t *space, const char *mpivars,
                                      const char *mpichversion, char *err, size_t errlen);

/* The integer MPI_T reads back for CVAR name (MPIR_CVAR_X) set to value
 * in the environment, as decimal text into buf: value itself unless name
 * is an *_ALGORITHM CVAR and value one of the names mpivars' output text
 * lists for it, then the name's position in that list (MPICH's MPI_T has
 * no enum for them).  0 when value is a name text does not list (buf
 * then holds the names). */
int ct_mpich_mpit_value(const char *text, const char *name, const char *value, char *buf,
                        size_t len);

#endif
