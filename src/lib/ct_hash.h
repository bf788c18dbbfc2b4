/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_hash.h - FNV-1a 64-bit, used for configuration ids.
 */
#ifndef CT_HASH_H
#define CT_HASH_H

#include <stddef.h>
#include <stdint.h>

#define CT_HASH_INIT UINT64_C(0xcbf29ce484222325)

uint64_t ct_hash_bytes(uint64_t hash, const void *data, size_t len);
uint64_t ct_hash_string(uint64_t hash, const char *text);

#endif
