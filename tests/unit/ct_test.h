/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_test.h - a tiny assertion kit for colltune's C unit tests.
 *
 * Each test is a program run by automake's harness: exit 0 passes, 77 skips,
 * anything else fails.  CT_CHECK records a failure and goes on, so one run
 * reports every broken case; CT_DONE turns the tally into the exit status.
 */
#ifndef CT_TEST_H
#define CT_TEST_H

#include <stdio.h>
#include <string.h>

typedef struct {
    int checks;
    int failures;
} ct_test_tally_t;

#define CT_CHECK(tally, cond)                                                                      \
    do {                                                                                           \
        (tally)->checks++;                                                                         \
        if (!(cond)) {                                                                             \
            (tally)->failures++;                                                                   \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
        }                                                                                          \
    } while (0)

#define CT_CHECK_STR(tally, got, want)                                                             \
    do {                                                                                           \
        const char *ct_got_ = (got), *ct_want_ = (want);                                           \
        (tally)->checks++;                                                                         \
        if (ct_got_ == NULL || strcmp(ct_got_, ct_want_) != 0) {                                   \
            (tally)->failures++;                                                                   \
            fprintf(stderr, "%s:%d: got \"%s\", want \"%s\"\n", __FILE__, __LINE__,                \
                    ct_got_ ? ct_got_ : "(null)", ct_want_);                                       \
        }                                                                                          \
    } while (0)

#define CT_DONE(tally)                                                                             \
    (fprintf(stderr, "%d checks, %d failed\n", (tally)->checks, (tally)->failures),                \
     (tally)->failures ? 1 : 0)

#endif
