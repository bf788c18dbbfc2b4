/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_outfile.h - the one way every output file is written: into a
 * temporary beside the target (ct_tmpname), then renamed onto it.  A
 * reader, a resumed run or a crash sees the old file or the new one whole,
 * never a part.
 *
 * The fsync policy, the same for every output: the temporary is fflush'ed,
 * checked with ferror and fsync'ed before the rename, and the directory is
 * fsync'ed after it, so that after a crash the target holds the new content
 * or the old, and the name survives too.  A failed step removes the
 * temporary and leaves the target as it was.
 *
 * Error messages name the target (or, for a temporary that cannot be
 * created, the temporary) and the errno text: "cannot write T: reason".
 */
#ifndef CT_OUTFILE_H
#define CT_OUTFILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include "ct_status.h"

typedef struct {
    FILE *fp; /* write here; NULL once finished or aborted */
    char target[4096];
    char tmp[4400]; /* "" when there is nothing to remove */
} ct_outfile_t;

/* Creates target's temporary (mode before the umask, e.g. 0666) after
 * removing a dead run's leftovers.  CT_ERR_USAGE when the name is too long,
 * CT_ERR_IO when it cannot be created; err says which. */
ct_status_t ct_outfile_open(ct_outfile_t *o, const char *target, mode_t mode, char *err,
                            size_t errlen);

/* Flushes, checks ferror, fsyncs and closes the temporary, without the
 * rename: for a caller that renames several files all or nothing (emit).
 * On an error the temporary is removed. */
ct_status_t ct_outfile_finish(ct_outfile_t *o, char *err, size_t errlen);

/* ct_outfile_finish, then the rename onto the target and the fsync of its
 * directory. */
ct_status_t ct_outfile_commit(ct_outfile_t *o, char *err, size_t errlen);

/* Closes and removes the temporary; the target is untouched. */
void ct_outfile_abort(ct_outfile_t *o);

/* The last steps for a temporary some other program wrote (gnuplot): fsync
 * it, rename it onto target, fsync the directory.  Removes tmp on error. */
ct_status_t ct_outfile_rename(const char *tmp, const char *target, char *err, size_t errlen);

/* fsync of the directory that holds path, so a rename in it survives a
 * crash; best effort (some file systems refuse to fsync a directory). */
void ct_outfile_sync_dir(const char *path);

/* The whole text into target, committed. */
ct_status_t ct_outfile_write_text(const char *target, const char *text, char *err, size_t errlen);

#endif
