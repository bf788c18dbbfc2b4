/* SPDX-License-Identifier: BSD-3-Clause */
#include "ct_hash.h"

#include <string.h>

uint64_t ct_hash_bytes(uint64_t hash, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        hash ^= p[i];
        hash *= UINT64_C(0x100000001b3);
    }
    return hash;
}

uint64_t ct_hash_string(uint64_t hash, const char *text)
{
    /* The terminator is hashed too, so "ab"+"c" differs from "a"+"bc". */
    return ct_hash_bytes(hash, text, strlen(text) + 1);
}
