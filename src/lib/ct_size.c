/* SPDX-License-Identifier: BSD-3-Clause */
#include "ct_size.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>

ct_status_t ct_size_parse(const char *text, size_t *bytes_p)
{
    const char *p = text;
    uint64_t value = 0;
    unsigned shift = 0;

    if (p == NULL || !isdigit((unsigned char)*p))
        return CT_ERR_USAGE;
    for (; isdigit((unsigned char)*p); p++) {
        unsigned digit = (unsigned)(*p - '0');
        if (value > (UINT64_MAX - digit) / 10)
            return CT_ERR_USAGE;
        value = value * 10 + digit;
    }
    switch (toupper((unsigned char)*p)) {
    case 'K':
        shift = 10;
        p++;
        break;
    case 'M':
        shift = 20;
        p++;
        break;
    case 'G':
        shift = 30;
        p++;
        break;
    case 'T':
        shift = 40;
        p++;
        break;
    default: break;
    }
    if (shift && *p == 'i')
        p++; /* "KiB" */
    if (toupper((unsigned char)*p) == 'B')
        p++;
    if (*p != '\0')
        return CT_ERR_USAGE;
    if (shift && value > (UINT64_MAX >> shift))
        return CT_ERR_USAGE;
    value <<= shift;
    if (value > SIZE_MAX)
        return CT_ERR_USAGE;
    *bytes_p = (size_t)value;
    return CT_OK;
}

void ct_size_format(size_t bytes, char *buf, size_t buflen)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)bytes;
    unsigned u = 0;

    while (v >= 1024.0 && u + 1 < sizeof(units) / sizeof(units[0])) {
        v /= 1024.0;
        u++;
    }
    if (u == 0 || v == (double)(uint64_t)v)
        snprintf(buf, buflen, "%.0f %s", v, units[u]);
    else
        snprintf(buf, buflen, "%.1f %s", v, units[u]);
}
