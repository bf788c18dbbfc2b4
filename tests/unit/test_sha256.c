/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_sha256.c - ct_sha256_file: the digest sha256sum prints, and the
 * digest with a directory's path written as @DIR@ (report.json's
 * sha256_rel: one file emitted into two directories compares equal).
 */
#define _XOPEN_SOURCE 700

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_sha256.h"
#include "ct_test.h"

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f != NULL) {
        fputs(text, f);
        fclose(f);
    }
}

int main(void)
{
    ct_test_tally_t t = {0, 0};
    char tmpl[] = "/tmp/ct-sha256.XXXXXX";
    const char *dir = mkdtemp(tmpl);
    if (dir == NULL)
        return 99;
    char a[256], b[256], hex[CT_SHA256_HEX], rel[CT_SHA256_HEX], hex2[CT_SHA256_HEX],
        rel2[CT_SHA256_HEX], err[256];
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/b", dir);

    /* FIPS 180-2's "abc". */
    put(a, "abc");
    CT_CHECK(&t, ct_sha256_file(a, NULL, hex, rel, err, sizeof err) == CT_OK);
    CT_CHECK_STR(&t, hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CT_CHECK_STR(&t, rel, hex); /* no directory: nothing replaced */

    /* The same file naming two directories: raw digests differ, the
     * @DIR@ ones agree, and agree with the file written with @DIR@. */
    put(a, "rules = /x/verify/r.conf\nagain /x/verify\n");
    put(b, "rules = /x/out/r.conf\nagain /x/out\n");
    CT_CHECK(&t, ct_sha256_file(a, "/x/verify", hex, rel, err, sizeof err) == CT_OK);
    CT_CHECK(&t, ct_sha256_file(b, "/x/out", hex2, rel2, err, sizeof err) == CT_OK);
    CT_CHECK(&t, strcmp(hex, hex2) != 0);
    CT_CHECK_STR(&t, rel, rel2);
    put(b, "rules = @DIR@/r.conf\nagain @DIR@\n");
    CT_CHECK(&t, ct_sha256_file(b, NULL, hex2, NULL, err, sizeof err) == CT_OK);
    CT_CHECK_STR(&t, rel, hex2);
    /* One byte elsewhere differs. */
    put(b, "rules = /x/out/r.conf\nagain /x/out!\n");
    CT_CHECK(&t, ct_sha256_file(b, "/x/out", hex2, rel2, err, sizeof err) == CT_OK);
    CT_CHECK(&t, strcmp(rel, rel2) != 0);

    /* More than one read's worth (the buffer grows past 8 KiB). */
    FILE *f = fopen(a, "w");
    for (int i = 0; f != NULL && i < 20000; i++)
        fputc('a', f);
    if (f != NULL)
        fclose(f);
    CT_CHECK(&t, ct_sha256_file(a, NULL, hex, NULL, err, sizeof err) == CT_OK);
    CT_CHECK_STR(&t, hex, "cc17faaad36649c4603dda4d8ff97cb149722af0bcac0746305a2134ad2d0b97");
    /* The directory at the file's very start and very end. */
    put(b, "/x/out/r.conf\nend /x/out");
    CT_CHECK(&t, ct_sha256_file(b, "/x/out", hex2, rel2, err, sizeof err) == CT_OK);
    CT_CHECK_STR(&t, rel2, "f03c27893d1a31833ba59bdb56ef30230b2035affef31665cf59e86c4e4b4472");

    /* A missing file names itself. */
    CT_CHECK(&t, ct_sha256_file("/nonexistent/x", NULL, hex, NULL, err, sizeof err) == CT_ERR_IO);
    CT_CHECK(&t, strstr(err, "/nonexistent/x") != NULL);

    unlink(a);
    unlink(b);
    rmdir(dir);
    return CT_DONE(&t);
}
