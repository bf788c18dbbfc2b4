/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_size.h - byte sizes as users type them ("8", "64K", "16M", "1G").
 *
 * Suffixes are binary (K = 1024) as in nccl-tests; an optional trailing "B"
 * is accepted.  Parsing rejects empty strings, signs, junk and overflow.
 */
#ifndef CT_SIZE_H
#define CT_SIZE_H

#include <stddef.h>
#include "ct_status.h"

/* Parses text into *bytes_p (set only on success). */
ct_status_t ct_size_parse(const char *text, size_t *bytes_p);

/* Writes a short human form ("16 MiB", "1.5 KiB", "8 B") into buf. */
void ct_size_format(size_t bytes, char *buf, size_t buflen);

#endif
