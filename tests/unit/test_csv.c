/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_csv.c - ct_csv quoting on write and splitting on read.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <stdlib.h>
#include <string.h>

#include "ct_csv.h"
#include "ct_test.h"

#define MAX_FIELDS 16

/* Writes fields as one record into a tmpfile; returns the text. */
static char *write_record(const char *const *fields, int n)
{
    FILE *fp = tmpfile();
    char *buf;
    long len;

    if (fp == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        if (i > 0)
            fputc(',', fp);
        ct_csv_write_field(fp, fields[i]);
    }
    fflush(fp);
    len = ftell(fp);
    rewind(fp);
    buf = malloc((size_t)len + 1);
    if (buf && fread(buf, 1, (size_t)len, fp) != (size_t)len) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        buf[len] = '\0';
    fclose(fp);
    return buf;
}

static void test_write_and_split(ct_test_tally_t *t)
{
    static const char *const fields[] = {
        "plain",    "",           "with,comma",  "say \"hi\"", "\"", "line\nbreak",
        "cr\rhere", "  spaces  ", "caf\xc3\xa9", "a\"\"b",     "",
    };
    static const char want[] = "plain,,\"with,comma\",\"say \"\"hi\"\"\",\"\"\"\","
                               "\"line\nbreak\",\"cr\rhere\",  spaces  ,caf\xc3\xa9,"
                               "\"a\"\"\"\"b\",";
    const int n = (int)(sizeof(fields) / sizeof(fields[0]));
    char *text = write_record(fields, n);
    char *got[MAX_FIELDS];
    int ngot = -1;

    CT_CHECK(t, text != NULL);
    if (text == NULL)
        return;
    CT_CHECK_STR(t, text, want);
    CT_CHECK(t, ct_csv_split(text, got, MAX_FIELDS, &ngot) == CT_OK);
    CT_CHECK(t, ngot == n);
    for (int i = 0; i < n && i < ngot; i++)
        CT_CHECK_STR(t, got[i], fields[i]);
    free(text);
}

static void test_write_null(ct_test_tally_t *t)
{
    const char *const fields[] = {NULL, "x"};
    char *text = write_record(fields, 2);

    CT_CHECK_STR(t, text, ",x");
    free(text);
}

/* Splits a copy of line and compares against want[0..nwant). */
static void expect_split(ct_test_tally_t *t, const char *line, const char *const *want, int nwant)
{
    char *copy = strdup(line);
    char *got[MAX_FIELDS];
    int ngot = -1;

    CT_CHECK(t, copy != NULL);
    if (copy == NULL)
        return;
    CT_CHECK(t, ct_csv_split(copy, got, MAX_FIELDS, &ngot) == CT_OK);
    CT_CHECK(t, ngot == nwant);
    for (int i = 0; i < nwant && i < ngot; i++)
        CT_CHECK_STR(t, got[i], want[i]);
    free(copy);
}

static void test_split_cases(ct_test_tally_t *t)
{
    static const char *const empty1[] = {""};
    static const char *const empty3[] = {"", "", ""};
    static const char *const mixed[] = {"a", "", "b c", "", "d"};
    static const char *const quoted[] = {"", "x", "\"", "\"\"", ","};
    static const char *const trail[] = {"a", ""};

    expect_split(t, "", empty1, 1);
    expect_split(t, ",,", empty3, 3);
    expect_split(t, "\"\",\"\",\"\"", empty3, 3);
    expect_split(t, "a,,b c,\"\",d", mixed, 5);
    expect_split(t, "\"\",\"x\",\"\"\"\",\"\"\"\"\"\",\",\"", quoted, 5);
    expect_split(t, "a,", trail, 2);
}

static void expect_reject(ct_test_tally_t *t, const char *line, int max_fields)
{
    char *copy = strdup(line);
    char *got[MAX_FIELDS];
    int ngot = -1;

    CT_CHECK(t, copy != NULL);
    if (copy == NULL)
        return;
    CT_CHECK(t, ct_csv_split(copy, got, max_fields, &ngot) == CT_ERR_PARSE);
    CT_CHECK(t, ngot == -1);
    free(copy);
}

static void test_malformed(ct_test_tally_t *t)
{
    expect_reject(t, "\"open", MAX_FIELDS); /* unterminated quote */
    expect_reject(t, "a,\"open,b", MAX_FIELDS);
    expect_reject(t, "\"ends with escaped\"\"", MAX_FIELDS);
    expect_reject(t, "\"ab\"c,d", MAX_FIELDS); /* junk after quote */
    expect_reject(t, "x,\"ab\" ,d", MAX_FIELDS);
    expect_reject(t, "ab\"c", MAX_FIELDS); /* bare quote */
    expect_reject(t, "a,b,c,d", 3);        /* too many fields */
    expect_reject(t, "a,b,", 2);
    expect_reject(t, "a", 0);

    /* Exactly max_fields is fine. */
    static const char *const three[] = {"a", "b", "c"};
    char line[] = "a,b,c";
    char *got[3];
    int ngot = -1;
    CT_CHECK(t, ct_csv_split(line, got, 3, &ngot) == CT_OK);
    CT_CHECK(t, ngot == 3);
    for (int i = 0; i < 3 && i < ngot; i++)
        CT_CHECK_STR(t, got[i], three[i]);
}

int main(void)
{
    ct_test_tally_t tally = {0, 0};

    test_write_and_split(&tally);
    test_write_null(&tally);
    test_split_cases(&tally);
    test_malformed(&tally);
    return CT_DONE(&tally);
}
