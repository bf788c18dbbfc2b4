/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * argv.h - a growable, NULL-terminated argument vector, and the one
 * tiny word splitter colltune has.
 *
 * Trials are started with execvp(), never through a shell, so every
 * argument a user gives stays one element, byte for byte.  The only place
 * a string is split into words is ct_argv_split(), for --launcher: its
 * rules are written out below and it expands nothing.
 */
#ifndef CT_ARGV_H
#define CT_ARGV_H

#include <stddef.h>
#include "ct_status.h"

typedef struct {
    char **v; /* n strings, then NULL; owned */
    size_t n;
    size_t cap;
} ct_argv_t;

#define CT_ARGV_INIT                                                                               \
    {                                                                                              \
        NULL, 0, 0                                                                                 \
    }

/* Appends a copy of s.  On failure (CT_ERR_NOMEM) the vector is unchanged. */
ct_status_t ct_argv_push(ct_argv_t *a, const char *s);

/* Appends the concatenation a_part + b_part + c_part (for "NAME=VALUE",
 * "--export=..."), without a format string so that no byte of a value is
 * ever interpreted. */
ct_status_t ct_argv_push3(ct_argv_t *a, const char *a_part, const char *b_part, const char *c_part);

/* Appends every string of src (n of them). */
ct_status_t ct_argv_append(ct_argv_t *a, char *const *src, size_t n);

void ct_argv_free(ct_argv_t *a);

/* Whether args (n of them) name the long option flag ("--size-budget"),
 * alone or as "--size-budget=...": a setting of colltune's own that the
 * user's collbench arguments override. */
int ct_argv_names(char *const *args, size_t n, const char *flag);

/* Splits line into words and appends them to out:
 *   - words are separated by spaces, tabs and newlines;
 *   - '...' groups everything up to the next ' literally;
 *   - "..." groups everything up to the next unescaped "; inside it a
 *     backslash escapes only " and \ ;
 *   - outside quotes a backslash makes the next character literal;
 *   - quotes may join parts into one word (a'b c'd is "ab cd"), and ''
 *     is an empty word;
 *   - nothing else is special: no $, `, *, ~, ; or redirection.
 * An unterminated quote or a trailing backslash fails with CT_ERR_USAGE
 * and a message in err; out then holds none of line's words. */
ct_status_t ct_argv_split(const char *line, ct_argv_t *out, char *err, size_t errlen);

#endif
