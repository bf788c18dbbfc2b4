/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_table.c - the nccl-tests stdout table: header, rows and footer
 * byte for byte as nccl-tests' util.cu prints them, and its fixed-width
 * number format.
 */
#include <stdlib.h>
#include <string.h>

#include "ct_test.h"
#include "report_table.h"

static ct_test_tally_t tally;

/* Output of fn(fp, arg) as a malloc'd string. */
typedef void (*emit_fn)(FILE *fp, const void *arg);

static char *capture(emit_fn fn, const void *arg)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    if (fp == NULL)
        return NULL;
    fn(fp, arg);
    fclose(fp);
    return buf;
}

static void emit_header(FILE *fp, const void *arg)
{
    (void)arg;
    ct_table_header(fp);
}

static void emit_row(FILE *fp, const void *arg) { ct_table_row(fp, arg); }

typedef struct {
    long long oob;
    double bw;
} footer_args_t;

static void emit_footer(FILE *fp, const void *arg)
{
    const footer_args_t *f = arg;
    ct_table_footer(fp, f->oob, f->bw);
}

static void check_number(double v, int width, const char *want)
{
    char buf[64];
    ct_table_number(v, width, buf, sizeof buf);
    CT_CHECK_STR(&tally, buf, want);
}

/* Splits s on blanks into at most max tokens; returns how many, and the
 * end offset (one past the last character) of each. */
static int token_ends(const char *s, size_t *ends, int max)
{
    int n = 0;
    size_t i = 0;
    while (s[i] && s[i] != '\n') {
        while (s[i] == ' ')
            i++;
        if (!s[i] || s[i] == '\n')
            break;
        while (s[i] && s[i] != ' ' && s[i] != '\n')
            i++;
        if (n < max)
            ends[n] = i;
        n++;
    }
    return n;
}

static const char *const names_line =
    "#       size         count      type   redop    root     time   algbw   busbw  #wrong"
    "     time   algbw   busbw  #wrong";

int main(void)
{
    /* Header: four lines. */
    char *h = capture(emit_header, NULL);
    CT_CHECK(&tally, h != NULL);
    if (h) {
        const char *want =
            "#\n"
            "#                                                              out-of-place       "
            "                in-place          \n"
            "#       size         count      type   redop    root     time   algbw   busbw  "
            "#wrong     time   algbw   busbw  #wrong \n"
            "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)     "
            "        (us)  (GB/s)  (GB/s)         \n";
        CT_CHECK_STR(&tally, h, want);
        /* The column-name line on its own; like nccl-tests it ends with
         * the space of its (empty) timestamp column. */
        const char *l3 = strstr(h, "#       size");
        CT_CHECK(&tally, l3 && strncmp(l3, names_line, strlen(names_line)) == 0 &&
                             strncmp(l3 + strlen(names_line), " \n", 2) == 0);
    }

    /* A row: 13 fields under the right-aligned column names. */
    ct_table_row_t row = {
        .bytes = 1048576,
        .count = 262144,
        .dtype = "float",
        .op = "sum",
        .root = -1,
        .out_of_place = {123.456, 8.49, 12.74, 0},
        .in_place = {120.5, 8.7, 13.05, -1},
    };
    char *r = capture(emit_row, &row);
    CT_CHECK(&tally, r != NULL);
    if (r) {
        CT_CHECK_STR(&tally, r,
                     "     1048576        262144     float     sum      -1   123.46    8.49   "
                     "12.74       0   120.50    8.70   13.05    N/A\n");
        size_t row_ends[32], name_ends[32];
        int nr = token_ends(r, row_ends, 32);
        int nn = token_ends(names_line + 1, name_ends, 32); /* skip the '#' */
        CT_CHECK(&tally, nr == 13);
        CT_CHECK(&tally, nn == 13);
        /* Each value ends under its column name ('#' skipped: +1) ... */
        int aligned = nr == 13 && nn == 13;
        for (int i = 0; aligned && i < 12; i++)
            aligned = row_ends[i] == name_ends[i] + 1;
        CT_CHECK(&tally, aligned);
        /* ... except N/A, which nccl-tests prints as "    N/A", one
         * column short of the 6-wide #wrong. */
        CT_CHECK(&tally, nr == 13 && nn == 13 && row_ends[12] == name_ends[12]);
        CT_CHECK(&tally, strncmp(r, "     1048576", 12) == 0); /* size: 12 wide */
        CT_CHECK(&tally, strstr(r, "    N/A\n") != NULL);
    }

    /* Rows with wide and small values keep the layout. */
    {
        ct_table_row_t big = {
            .bytes = 17179869184ULL,
            .count = 4294967296ULL,
            .dtype = "bfloat16",
            .op = "none",
            .root = 63,
            .out_of_place = {1.5e8, 0.114, 0.2, 7},
            .in_place = {9999.99, 1234.5, 99.999, 1234567},
        };
        char *b = capture(emit_row, &big);
        CT_CHECK(&tally, b != NULL);
        if (b) {
            CT_CHECK_STR(&tally, b,
                         " 17179869184    4294967296  bfloat16    none      63  1.5e+08    "
                         "0.11    0.20       7  9999.99  1234.5  100.00  1.23457e+06\n");
            size_t ends[32];
            CT_CHECK(&tally, token_ends(b, ends, 32) == 13);
            free(b);
        }
        ct_table_row_t small = {
            .bytes = 8,
            .count = 2,
            .dtype = "int32",
            .op = "max",
            .root = 0,
            .out_of_place = {0.0, 0.0, 0.0, -1},
            .in_place = {5.0, 0.0, 0.0, 0},
        };
        char *s = capture(emit_row, &small);
        CT_CHECK(&tally, s != NULL);
        if (s) {
            CT_CHECK_STR(&tally, s,
                         "           8             2     int32     max       0     0.00    0.00"
                         "    0.00    N/A     5.00    0.00    0.00       0\n");
            free(s);
        }
    }

    /* Footer. */
    {
        footer_args_t ok = {0, 12.7402};
        char *f = capture(emit_footer, &ok);
        CT_CHECK_STR(&tally, f,
                     "# Out of bounds values : 0 OK\n"
                     "# Avg bus bandwidth    : 12.7402 \n"
                     "#\n");
        free(f);
        footer_args_t bad = {3, 0.5};
        f = capture(emit_footer, &bad);
        CT_CHECK_STR(&tally, f,
                     "# Out of bounds values : 3 FAILED\n"
                     "# Avg bus bandwidth    : 0.5 \n"
                     "#\n");
        free(f);
        footer_args_t many = {1234567890123LL, 232.16666};
        f = capture(emit_footer, &many);
        CT_CHECK(&tally, f && strstr(f, ": 1234567890123 FAILED\n") &&
                             strstr(f, "# Avg bus bandwidth    : 232.167 \n"));
        free(f);
    }

    /* ct_table_number: d integer digits; two decimals while d < width-2,
     * one while d < width-1, none while d <= width, then %.1e. */
    check_number(0.0, 7, "   0.00");
    check_number(0.004, 7, "   0.00");
    check_number(0.5, 7, "   0.50");
    check_number(2.346, 7, "   2.35");
    check_number(9.999, 7, "  10.00");
    check_number(99.5, 7, "  99.50");
    check_number(123.456, 7, " 123.46");
    check_number(9999.994, 7, "9999.99");
    check_number(12345.67, 7, "12345.7");
    check_number(99999.9, 7, "99999.9");
    check_number(123456.7, 7, " 123457");
    check_number(1234567.0, 7, "1234567");
    check_number(12345678.0, 7, "1.2e+07");
    check_number(1.5e8, 7, "1.5e+08");
    check_number(0.0, 6, "  0.00");
    check_number(8.49, 6, "  8.49");
    check_number(12.74, 6, " 12.74");
    check_number(999.99, 6, "999.99");
    check_number(1234.5, 6, "1234.5");
    check_number(12345.6, 6, " 12346");
    check_number(123456.0, 6, "123456");
    /* nccl-tests drops the decimal at width 6 so the column stays 6 wide. */
    check_number(12345678.0, 6, " 1e+07");
    return CT_DONE(&tally);
}
