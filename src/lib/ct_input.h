/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_input.h - opening a file a user named, for reading, safely.
 *
 * Every reader of a user's file (results, logs, spaces, weights, the
 * journal, hostfiles) opens it here, so that none of them can be made to
 * block on a FIFO, read /dev/zero until the kernel's OOM killer ends it,
 * or take a directory for an empty file: only a regular file of a bounded
 * size is read.
 */
#ifndef CT_INPUT_H
#define CT_INPUT_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include "ct_status.h"

/* Data files: results, imported logs, the journal. */
#define CT_INPUT_MAX_DATA (1LL << 30)
/* Configuration: a space, a weights file, a hostfile, a tune's report. */
#define CT_INPUT_MAX_CONFIG (16LL << 20)

/* Opens path for reading when it is a regular file of at most max_bytes.
 * The open does not wait (O_NONBLOCK, then cleared), so a FIFO is refused
 * rather than blocking; a symlink to a regular file is fine.  On failure
 * CT_ERR_USAGE (exit 2) with err "PATH: why" ("is a FIFO (named pipe), not a
 * regular file", "is 2147483648 bytes; colltune reads at most 1073741824", or
 * strerror), and *fp_p is untouched. */
ct_status_t ct_input_open(const char *path, long long max_bytes, FILE **fp_p, char *err,
                          size_t errlen);

/* The whole file, NUL-terminated, into *buf_p (malloc'd; *len_p without
 * the NUL), after ct_input_open's checks; also refuses a file that grew
 * past max_bytes while it was read.  A NUL byte inside is refused when
 * text is set (err "PATH:LINE: a NUL byte"): a text reader would silently
 * stop there. */
ct_status_t ct_input_slurp(const char *path, long long max_bytes, int text, char **buf_p,
                           size_t *len_p, char *err, size_t errlen);

/* A JSON document, after ct_input_open's checks; a key given twice in an
 * object is an error.  CT_ERR_USAGE as there, or CT_ERR_PARSE with err
 * "PATH:LINE: jansson's reason". */
ct_status_t ct_input_json(const char *path, long long max_bytes, json_t **doc_p, char *err,
                          size_t errlen);

#endif
