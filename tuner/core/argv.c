/* SPDX-License-Identifier: BSD-3-Clause */
#include "argv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_vec.h"

static ct_status_t ct_argv_reserve(ct_argv_t *a, size_t extra)
{
    /* Room for extra more strings and the terminating NULL. */
    return ct_vec_reserve(&a->v, &a->cap, a->n + extra + 1, sizeof *a->v);
}

static ct_status_t ct_argv_take(ct_argv_t *a, char *s)
{
    if (s == NULL || ct_argv_reserve(a, 1) != CT_OK) {
        free(s);
        return CT_ERR_NOMEM;
    }
    a->v[a->n++] = s;
    a->v[a->n] = NULL;
    return CT_OK;
}

ct_status_t ct_argv_push(ct_argv_t *a, const char *s) { return ct_argv_take(a, strdup(s)); }

ct_status_t ct_argv_push3(ct_argv_t *a, const char *a_part, const char *b_part, const char *c_part)
{
    size_t la = strlen(a_part), lb = strlen(b_part), lc = strlen(c_part);
    char *s = malloc(la + lb + lc + 1);
    if (s != NULL) {
        memcpy(s, a_part, la);
        memcpy(s + la, b_part, lb);
        memcpy(s + la + lb, c_part, lc + 1);
    }
    return ct_argv_take(a, s);
}

ct_status_t ct_argv_append(ct_argv_t *a, char *const *src, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        ct_status_t st = ct_argv_push(a, src[i]);
        if (st != CT_OK)
            return st;
    }
    return CT_OK;
}

int ct_argv_names(char *const *args, size_t n, const char *flag)
{
    size_t len = strlen(flag);
    for (size_t i = 0; i < n; i++)
        if (strncmp(args[i], flag, len) == 0 && (args[i][len] == '\0' || args[i][len] == '='))
            return 1;
    return 0;
}

void ct_argv_free(ct_argv_t *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    a->v = NULL;
    a->n = a->cap = 0;
}

ct_status_t ct_argv_split(const char *line, ct_argv_t *out, char *err, size_t errlen)
{
    size_t first = out->n;
    size_t len = strlen(line);
    /* A word is never longer than the line. */
    char *word = malloc(len + 1);
    if (word == NULL)
        return CT_ERR_NOMEM;

    const char *p = line;
    ct_status_t st = CT_OK;
    while (st == CT_OK) {
        while (*p == ' ' || *p == '\t' || *p == '\n')
            p++;
        if (*p == '\0')
            break;
        size_t w = 0;
        /* A word ends at unquoted whitespace or the end of the line. */
        while (st == CT_OK && *p != '\0' && *p != ' ' && *p != '\t' && *p != '\n') {
            if (*p == '\'') {
                const char *close = strchr(p + 1, '\'');
                if (close == NULL) {
                    snprintf(err, errlen, "unterminated ' at character %zu",
                             (size_t)(p - line) + 1);
                    st = CT_ERR_USAGE;
                    break;
                }
                memcpy(word + w, p + 1, (size_t)(close - p - 1));
                w += (size_t)(close - p - 1);
                p = close + 1;
            } else if (*p == '"') {
                const char *open = p++;
                while (*p != '\0' && *p != '"') {
                    if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
                        p++;
                    word[w++] = *p++;
                }
                if (*p != '"') {
                    snprintf(err, errlen, "unterminated \" at character %zu",
                             (size_t)(open - line) + 1);
                    st = CT_ERR_USAGE;
                    break;
                }
                p++;
            } else if (*p == '\\') {
                if (p[1] == '\0') {
                    snprintf(err, errlen, "trailing backslash");
                    st = CT_ERR_USAGE;
                    break;
                }
                word[w++] = p[1];
                p += 2;
            } else {
                word[w++] = *p++;
            }
        }
        if (st == CT_OK) {
            word[w] = '\0';
            st = ct_argv_push(out, word);
        }
    }
    free(word);
    if (st != CT_OK) {
        while (out->n > first)
            free(out->v[--out->n]);
        if (out->v != NULL)
            out->v[out->n] = NULL;
    }
    return st;
}
