/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_path.h - where a write to an output path would land.
 *
 * Output files are checked before anything is measured, and two flags
 * naming one file must be caught even when one of them names it through a
 * symlink or the file does not exist yet.  So a path is resolved the way
 * open() would follow it: every symlink, a dangling one included, down to
 * the file it names, in a directory made absolute and canonical.
 */
#ifndef CT_PATH_H
#define CT_PATH_H

#include <stddef.h>
#include <sys/stat.h>
#include "ct_status.h"

typedef struct {
    char path[4096]; /* the resolved target (canonical when it is a regular
                         file or does not exist yet; else as given) */
    char dir[4096];  /* its directory, canonical ("" for a non-regular target) */
    int exists;
    struct stat st; /* the target's, when it exists */
} ct_path_target_t;

/* Resolves path.  Fails with CT_ERR_USAGE and a message in err (without
 * the path itself, which the caller names) when its directory does not
 * exist or is not a directory, on a symlink loop, or when path names a
 * directory that does not exist ("dir/").  An existing directory, device or
 * FIFO resolves fine: the caller decides what it accepts from target->st. */
ct_status_t ct_path_target(const char *path, ct_path_target_t *target, char *err, size_t errlen);

/* Whether path names the existing target (the same device and inode,
 * through any link): an output that is one of a command's inputs would
 * destroy the input, so every command refuses it.  0 when either does not
 * exist. */
int ct_path_is_target(const char *path, const ct_path_target_t *target);

/* Whether a and b both exist and are one file (device and inode). */
int ct_path_same_file(const char *a, const char *b);

/* "a regular file", "a directory", "a FIFO", "a character device", ... */
const char *ct_path_kind(mode_t mode);

#endif
