/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_utf8.h - making arbitrary bytes safe for JSON.
 *
 * argv, --run-id, hostnames and the environment are bytes, not text; JSON
 * must be UTF-8 (RFC 8259) and jansson refuses anything else.  Rather than
 * dropping such a value, each byte that does not start a valid UTF-8
 * sequence becomes U+FFFD, so the document stays valid and the reader still
 * sees where the odd bytes were (doc/formats.md says so).
 */
#ifndef CT_UTF8_H
#define CT_UTF8_H

#include <stddef.h>

/* Length of the valid UTF-8 sequence at s[0..len) (1 to 4), or 0 when
 * s[0] does not start one: a stray continuation byte, a truncated or
 * overlong sequence, a surrogate, or a code point above U+10FFFF. */
size_t ct_utf8_sequence(const unsigned char *s, size_t len);

/* Whether the NUL-terminated s is valid UTF-8 throughout. */
int ct_utf8_valid(const char *s);

/* A copy of s (free() it) with every byte that does not start a valid
 * sequence replaced by U+FFFD; NULL only when memory runs out. */
char *ct_utf8_sanitize(const char *s);

#endif
