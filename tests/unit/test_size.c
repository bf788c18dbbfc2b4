/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_size.c - ct_size_parse / ct_size_format: binary suffixes, an optional
 * "B" or "iB", and rejection of empty text, signs, junk and overflow.
 */
#include <stdint.h>

#include "ct_size.h"
#include "ct_test.h"

static ct_test_tally_t tally;

static void check_ok(const char *text, size_t want)
{
    size_t got = 12345;
    ct_status_t st = ct_size_parse(text, &got);
    CT_CHECK(&tally, st == CT_OK);
    CT_CHECK(&tally, got == want);
    if (st != CT_OK || got != want)
        fprintf(stderr, "  ct_size_parse(\"%s\"): status %d, got %zu, want %zu\n", text, (int)st,
                got, want);
}

static void check_bad(const char *text)
{
    size_t got = 12345;
    ct_status_t st = ct_size_parse(text, &got);
    CT_CHECK(&tally, st == CT_ERR_USAGE);
    /* The output is set only on success. */
    CT_CHECK(&tally, got == 12345);
    if (st != CT_ERR_USAGE || got != 12345)
        fprintf(stderr, "  ct_size_parse(\"%s\") accepted: status %d, got %zu\n", text, (int)st,
                got);
}

static void check_format(size_t bytes, const char *want)
{
    char buf[32];
    ct_size_format(bytes, buf, sizeof buf);
    CT_CHECK_STR(&tally, buf, want);
}

int main(void)
{
    /* Plain numbers and every suffix. */
    check_ok("0", 0);
    check_ok("8", 8);
    check_ok("1024", 1024);
    check_ok("1K", 1024);
    check_ok("1k", 1024);
    check_ok("16M", (size_t)16 << 20);
    check_ok("1G", (size_t)1 << 30);
    check_ok("64KB", (size_t)64 << 10);
    check_ok("64kb", (size_t)64 << 10);
    check_ok("2KiB", 2048);
    check_ok("3MiB", (size_t)3 << 20);
    check_ok("8B", 8);
    if (sizeof(size_t) >= 8) {
        check_ok("1T", (size_t)1 << 40);
        check_ok("16G", (size_t)16 << 30);
        check_ok("18446744073709551615", SIZE_MAX);    /* 2^64-1 */
        check_ok("16777215T", (size_t)16777215 << 40); /* just under 2^64 */
    }

    /* Rejected. */
    check_bad("");
    check_bad("-1");
    check_bad("+1");
    check_bad(" 1");
    check_bad("1 ");
    check_bad("1X");
    check_bad("K");
    check_bad("1.5K");
    check_bad("1KK");
    check_bad("1KBB");
    check_bad("1iB"); /* "i" only after a suffix */
    check_bad("0x10");
    check_bad("99999999999999999999"); /* > 2^64 */
    check_bad("18446744073709551616"); /* 2^64 */
    check_bad("17179869184G");         /* 2^34 * 2^30 = 2^64 */
    check_bad("16777216T");            /* 2^24 * 2^40 = 2^64 */
    {
        size_t untouched = 7;
        CT_CHECK(&tally, ct_size_parse(NULL, &untouched) == CT_ERR_USAGE && untouched == 7);
    }

    /* Human form. */
    check_format(0, "0 B");
    check_format(8, "8 B");
    check_format(1023, "1023 B");
    check_format(1024, "1 KiB");
    check_format(1536, "1.5 KiB");
    check_format((size_t)16 << 20, "16 MiB");
    check_format((size_t)1 << 30, "1 GiB");
    check_format(((size_t)5 << 29), "2.5 GiB");
    if (sizeof(size_t) >= 8) {
        check_format((size_t)1 << 40, "1 TiB");
        check_format((size_t)2048 << 40, "2048 TiB"); /* no unit above TiB */
    }
    {
        char small[4];
        ct_size_format((size_t)16 << 20, small, sizeof small); /* truncates, terminates */
        CT_CHECK_STR(&tally, small, "16 ");
    }
    return CT_DONE(&tally);
}
