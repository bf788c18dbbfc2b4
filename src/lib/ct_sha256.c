/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_sha256.c - SHA-256 of a file (ct_sha256.h).
 */
#define _XOPEN_SOURCE 700

#include "ct_sha256.h"

#include <errno.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void ct_sha256_hex(struct sha256_ctx *ctx, char hex[CT_SHA256_HEX])
{
    uint8_t d[SHA256_DIGEST_SIZE];
    sha256_digest(ctx, sizeof d, d);
    for (size_t i = 0; i < sizeof d; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

/* The whole file into *buf_p (malloc'ed), its length into *n_p. */
static ct_status_t ct_sha256_slurp(const char *path, char **buf_p, size_t *n_p, char *err,
                                   size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return CT_ERR_IO;
    }
    char *buf = NULL;
    size_t n = 0, cap = 0;
    ct_status_t st = CT_OK;
    for (;;) {
        if (n == cap) {
            size_t ncap = cap ? 2 * cap : 8192;
            char *nb = realloc(buf, ncap);
            if (nb == NULL) {
                st = CT_ERR_NOMEM;
                break;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (st == CT_OK && ferror(f)) {
        snprintf(err, errlen, "%s: read error", path);
        st = CT_ERR_IO;
    }
    fclose(f);
    if (st != CT_OK) {
        free(buf);
        return st;
    }
    *buf_p = buf;
    *n_p = n;
    return CT_OK;
}

ct_status_t ct_sha256_file(const char *path, const char *dir, char hex[CT_SHA256_HEX],
                           char rel[CT_SHA256_HEX], char *err, size_t errlen)
{
    char *buf = NULL;
    size_t n = 0;
    ct_status_t st = ct_sha256_slurp(path, &buf, &n, err, errlen);
    if (st != CT_OK)
        return st;
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    sha256_update(&ctx, n, (const uint8_t *)buf);
    ct_sha256_hex(&ctx, hex);
    if (rel != NULL) {
        size_t dl = dir != NULL ? strlen(dir) : 0;
        sha256_init(&ctx);
        size_t i = 0, from = 0;
        while (dl > 0 && i + dl <= n) {
            if (memcmp(buf + i, dir, dl) == 0) {
                sha256_update(&ctx, i - from, (const uint8_t *)buf + from);
                sha256_update(&ctx, 5, (const uint8_t *)"@DIR@");
                i += dl;
                from = i;
            } else {
                i++;
            }
        }
        sha256_update(&ctx, n - from, (const uint8_t *)buf + from);
        ct_sha256_hex(&ctx, rel);
    }
    free(buf);
    return CT_OK;
}
