/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_num.h - decimal numbers as users type them ("5", "0.5", "-2.5e3").
 *
 * strtod alone also takes what nobody means in a seconds, percent or
 * weight field: hexadecimal ("0x10" is 16, "0x1p-6" a fraction), "inf",
 * "nan" and leading white space (issue 15, E24).  These take only an
 * optional sign, digits with an optional fraction, and an optional
 * exponent, with nothing before or after.
 */
#ifndef CT_NUM_H
#define CT_NUM_H

#include "ct_status.h"

/* Is text spelled [+-]DIGITS[.DIGITS][e[+-]DIGITS] (or [+-].DIGITS...)? */
int ct_num_is_decimal(const char *text);

/* A finite decimal number (ct_num_is_decimal) into *out (set only on
 * success); CT_ERR_USAGE otherwise, overflow ("1e999") included. */
ct_status_t ct_num_parse(const char *text, double *out);

#endif
