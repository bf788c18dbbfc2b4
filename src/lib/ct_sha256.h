/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_sha256.h - SHA-256 of a file (nettle), as sha256sum prints it, and
 * of the same file with one directory's path written as "@DIR@": the
 * bytes of a file that names its own directory (mca-params.conf names the
 * rules file beside it), compared across two directories.
 */
#ifndef CT_SHA256_H
#define CT_SHA256_H

#include <stddef.h>

#include "ct_status.h"

#define CT_SHA256_HEX 65 /* 64 hex digits and the NUL */

/* hex gets the file's digest; rel (may be NULL) the digest of its text
 * with every occurrence of dir (not NULL, not "") replaced by "@DIR@".
 * CT_ERR_IO with the path and reason in err; CT_ERR_NOMEM. */
ct_status_t ct_sha256_file(const char *path, const char *dir, char hex[CT_SHA256_HEX],
                           char rel[CT_SHA256_HEX], char *err, size_t errlen);

#endif
