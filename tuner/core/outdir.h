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
#include "ct_status.h"

/* Creates dir (and missing parents) unless it exists, then proves it is a
 * directory we can create files in by creating and removing one.
 * CT_ERR_USAGE with a message in err (not naming dir; the caller does)
 * otherwise. */
ct_status_t ct_outdir_prepare(const char *dir, char *err, size_t errlen);

/* Finishes a file written beside its target: closes f (opened on tmp),
 * then renames tmp to path.  On a write, close or rename error, tells
 * stderr "colltune WHO: cannot write PATH: why", removes tmp and returns
 * -1; else 0.  Every output goes this way, so a reader never sees half of
 * one. */
int ct_outdir_commit(FILE *f, const char *tmp, const char *path, const char *who);

/* dir + "/" + name into buf; CT_ERR_USAGE when it does not fit. */
ct_status_t ct_outdir_path(const char *dir, const char *name, char *buf, size_t buflen);

#endif
