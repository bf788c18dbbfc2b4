/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * outdir.h - an output directory, checked before anything runs.
 *
 * A sweep or a tune that runs for an hour and then cannot write its
 * results has wasted the hour, so the directory is made and proven
 * writable first.
 */
#ifndef CT_OUTDIR_H
#define CT_OUTDIR_H

#include <stddef.h>
#include <stdio.h>
#include "ct_outfile.h"
#include "ct_path.h"
#include "ct_status.h"

/* Creates dir (and missing parents) unless it exists, then proves it is a
 * directory we can create files in by creating and removing one.
 * CT_ERR_USAGE with a message in err (not naming dir; the caller does)
 * otherwise. */
ct_status_t ct_outdir_prepare(const char *dir, char *err, size_t errlen);

/* The real path dir has, or will have once ct_outdir_prepare has made it
 * (its deepest existing part through realpath, then the rest), into buf:
 * a check of that path runs before anything is created, so a refused
 * directory is never left behind empty.  CT_ERR_USAGE with a message in
 * err (not naming dir) when it cannot be made or is too long. */
ct_status_t ct_outdir_realpath(const char *dir, char *buf, size_t buflen, char *err, size_t errlen);

/* Takes DIR/.lock (flock, exclusive, not waiting) and writes this pid in
 * it, so that two runs never write one directory at once (their journal
 * lines, trial rows and config files would mix).  The lock is held until
 * the process exits; its descriptor is close-on-exec, so a launched
 * collbench does not hold it after us.  0, or -1 after telling stderr
 * "colltune WHO: DIR is in use by pid N" (or why it cannot be taken): the
 * caller exits 2.  A .lock found there is opened without truncating and
 * refused unless it is a regular file with one link holding nothing or a
 * pid line: the pid is never written over another file's content. */
int ct_outdir_lock(const char *dir, const char *who);

/* Opens path's temporary (ct_outfile_open) and returns the FILE* to write,
 * or NULL after "colltune WHO: cannot create TMP: why" on stderr. */
FILE *ct_outdir_open(ct_outfile_t *out, const char *path, const char *who);

/* Commits what ct_outdir_open began (ct_outfile_commit: fsync, rename,
 * fsync of the directory).  On an error tells stderr "colltune WHO: cannot
 * write PATH: why", removes the temporary and returns -1; else 0. */
int ct_outdir_commit(ct_outfile_t *out, const char *who);

/* Checks that --out may name a single file (not a folder): its folder
 * exists, it is a regular file or nothing yet, and force is set when it
 * exists, so a user's file is never replaced unasked.  Fills *target_p and
 * gives CT_EXIT_OK; else CT_EXIT_USAGE with "colltune WHO: --out OUT: why"
 * on stderr. */
int ct_outdir_check_file(const char *who, const char *out, int force, ct_path_target_t *target_p);

/* dir + "/" + name into buf; CT_ERR_USAGE when it does not fit. */
ct_status_t ct_outdir_path(const char *dir, const char *name, char *buf, size_t buflen);

#endif
