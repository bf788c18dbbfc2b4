/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_csv.c - RFC 4180 field quoting and in-place record splitting.
 */
#include "ct_csv.h"

#include <string.h>

void ct_csv_write_field(FILE *fp, const char *field)
{
    if (field == NULL)
        field = "";
    if (strpbrk(field, ",\"\r\n") == NULL) {
        fputs(field, fp);
        return;
    }
    fputc('"', fp);
    for (const char *p = field; *p; p++) {
        if (*p == '"')
            fputc('"', fp); /* a quote inside quotes is doubled */
        fputc(*p, fp);
    }
    fputc('"', fp);
}

/* Unquotes a quoted field in place.  *src is at the opening quote; on
 * success it is left at the ',' or NUL that ends the field. */
static ct_status_t split_quoted(char **src_p)
{
    char *src = *src_p + 1;
    char *dst = *src_p;

    for (;;) {
        if (*src == '\0')
            return CT_ERR_PARSE; /* unterminated quote */
        if (*src != '"') {
            *dst++ = *src++;
            continue;
        }
        if (src[1] == '"') {
            *dst++ = '"';
            src += 2;
            continue;
        }
        src++; /* closing quote */
        break;
    }
    if (*src != ',' && *src != '\0')
        return CT_ERR_PARSE; /* junk after the closing quote */
    /* The field shrank by at least the two quotes, so this NUL never
     * overwrites the separator still to be read at *src. */
    *dst = '\0';
    *src_p = src;
    return CT_OK;
}

/* Finds the end of an unquoted field; RFC 4180 allows no quotes in it. */
static ct_status_t split_plain(char **src_p)
{
    char *end = *src_p + strcspn(*src_p, ",\"");

    if (*end == '"')
        return CT_ERR_PARSE;
    *src_p = end;
    return CT_OK;
}

ct_status_t ct_csv_split(char *line, char **fields, int max_fields, int *nfields_p)
{
    char *p = line;
    int n = 0;

    for (;;) {
        char *start = p;
        ct_status_t st;

        if (n >= max_fields)
            return CT_ERR_PARSE;
        st = *p == '"' ? split_quoted(&p) : split_plain(&p);
        if (st != CT_OK)
            return st;
        fields[n++] = start;
        if (*p == '\0')
            break;
        *p++ = '\0'; /* the comma ends this field; another one follows */
    }
    *nfields_p = n;
    return CT_OK;
}
