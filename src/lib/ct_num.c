/* SPDX-License-Identifier: BSD-3-Clause */
#include "ct_num.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>

int ct_num_is_decimal(const char *text)
{
    const char *p = text;
    if (p == NULL)
        return 0;
    if (*p == '+' || *p == '-')
        p++;
    size_t digits = 0;
    for (; isdigit((unsigned char)*p); p++)
        digits++;
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++)
            digits++;
    if (digits == 0)
        return 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!isdigit((unsigned char)*p))
            return 0;
        while (isdigit((unsigned char)*p))
            p++;
    }
    return *p == '\0';
}

ct_status_t ct_num_parse(const char *text, double *out)
{
    if (!ct_num_is_decimal(text))
        return CT_ERR_USAGE;
    char *end;
    double v = strtod(text, &end); /* an overflow is HUGE_VAL, an underflow ~0 */
    if (*end != '\0' || !isfinite(v))
        return CT_ERR_USAGE;
    *out = v;
    return CT_OK;
}
