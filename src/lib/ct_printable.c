/* SPDX-License-Identifier: BSD-3-Clause */
#include "ct_printable.h"

int ct_printable_byte(unsigned char c) { return c < 0x20 || c == 0x7f ? '?' : c; }

void ct_printable_put(FILE *fp, const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i] != '\0'; i++)
        fputc(ct_printable_byte((unsigned char)s[i]), fp);
}
