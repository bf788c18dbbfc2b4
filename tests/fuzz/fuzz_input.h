/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_input.h - what every fuzz target shares: the fuzzer's bytes as a
 * file, because the parsers under test read files by path (and check
 * that a path names a regular file, which is part of what is tested).
 *
 * The targets define LLVMFuzzerTestOneInput and build two ways: with
 * clang's -fsanitize=fuzzer (make fuzz, tests/fuzz/fuzz.sh) and, with
 * replay_main.c, as plain programs that run every file of a seed corpus
 * once under make check.
 */
#ifndef CT_FUZZ_INPUT_H
#define CT_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* data written to this process's own temporary file (one name per
 * process and suffix, rewritten each call: a fuzzer calls millions of
 * times), its path into path; 0, or -1 when it cannot be written. */
int ct_fuzz_file(const uint8_t *data, size_t size, const char *suffix, char *path, size_t len);

#endif
