/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_outfile_set.h - several finished temporaries (ct_outfile_finish)
 * renamed onto their targets all or nothing: what tune's emit and colltune
 * install write, where a set of files that name each other must never be
 * half replaced.
 */
#ifndef CT_OUTFILE_SET_H
#define CT_OUTFILE_SET_H

#include <stddef.h>
#include "ct_status.h"

/* Renames tmp[i] onto dst[i] for i < n, all or none: each existing target
 * is first hard-linked aside (beside it, under a ct_tmpname), and a failed
 * rename puts back the targets replaced before it (and removes those that
 * were new).  The copies aside are removed at the end, the directories
 * fsync'ed (ct_outfile.h's policy).  On an error err names the file and
 * the reason; the temporaries not yet renamed are the caller's to remove. */
ct_status_t ct_outfile_rename_all(size_t n, const char *const *tmp, const char *const *dst,
                                  char *err, size_t errlen);

#endif
