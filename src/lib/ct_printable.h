/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_printable.h - text from a run or a user, written into a line that it
 * must not end: a comment of a sourced file, a report line.  A control
 * byte (newline, CR, any below 0x20, and DEL) is written as '?', so no
 * value can end the line and have the rest read as a command or a line of
 * its own.
 */
#ifndef CT_PRINTABLE_H
#define CT_PRINTABLE_H

#include <stddef.h>
#include <stdio.h>

/* c itself, or '?' where it is a control byte. */
int ct_printable_byte(unsigned char c);

/* Writes the first n bytes of s (n: up to its NUL, for (size_t)-1) to fp,
 * each control byte as '?'. */
void ct_printable_put(FILE *fp, const char *s, size_t n);

#endif
