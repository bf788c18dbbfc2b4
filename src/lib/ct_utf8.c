/* SPDX-License-Identifier: BSD-3-Clause */
#include "ct_utf8.h"

#include <stdlib.h>
#include <string.h>

size_t ct_utf8_sequence(const unsigned char *s, size_t len)
{
    unsigned int cp;
    size_t n;

    if (len == 0)
        return 0;
    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        n = 2, cp = s[0] & 0x1f;
    else if (s[0] >= 0xe0 && s[0] <= 0xef)
        n = 3, cp = s[0] & 0x0f;
    else if (s[0] >= 0xf0 && s[0] <= 0xf4)
        n = 4, cp = s[0] & 0x07;
    else
        return 0; /* continuation byte, 0xc0/0xc1 (always overlong), 0xf5+ */
    if (len < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000)) /* overlong */
        return 0;
    if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
        return 0;
    return n;
}

int ct_utf8_valid(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len = strlen(s);

    for (size_t i = 0, n; i < len; i += n)
        if ((n = ct_utf8_sequence(p + i, len - i)) == 0)
            return 0;
    return 1;
}

char *ct_utf8_sanitize(const char *s)
{
    static const char replacement[] = "\xef\xbf\xbd"; /* U+FFFD */
    const unsigned char *p = (const unsigned char *)s;
    size_t len = strlen(s);
    /* At worst every byte becomes the three-byte replacement. */
    char *out = malloc(3 * len + 1);
    size_t k = 0;

    if (out == NULL)
        return NULL;
    for (size_t i = 0; i < len;) {
        size_t n = ct_utf8_sequence(p + i, len - i);
        if (n == 0) {
            memcpy(out + k, replacement, 3);
            k += 3;
            i++;
        } else {
            memcpy(out + k, p + i, n);
            k += n;
            i += n;
        }
    }
    out[k] = '\0';
    return out;
}
