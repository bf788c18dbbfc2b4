/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_csv.h - RFC 4180 CSV fields: quoting on write, splitting on read.
 */
#ifndef CT_CSV_H
#define CT_CSV_H

#include <stdio.h>
#include "ct_status.h"

/* Writes one field, quoted only when it holds a comma, quote, CR or LF. */
void ct_csv_write_field(FILE *fp, const char *field);

/* Splits one record in place.  line must hold a single record without its
 * line ending.  Fields point into line; quotes are removed and "" becomes ".
 * Fails with CT_ERR_PARSE on an unterminated quote, junk after a closing
 * quote, or more than max_fields fields. */
ct_status_t ct_csv_split(char *line, char **fields, int max_fields, int *nfields_p);

#endif
