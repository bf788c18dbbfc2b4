/* SPDX-License-Identifier: BSD-3-Clause */
#include "launcher_words.h"

#include <stdlib.h>
#include <string.h>

int ct_launcher_has(const ct_launcher_t *l, const char *flag)
{
    size_t len = strlen(flag);
    for (size_t i = 1; i < l->words.n; i++)
        if (strncmp(l->words.v[i], flag, len) == 0)
            return 1;
    for (size_t i = 0; i < l->extra.n; i++)
        if (strncmp(l->extra.v[i], flag, len) == 0)
            return 1;
    return 0;
}

long ct_launcher_count(const char *s)
{
    char *end = NULL;
    long v = s != NULL && *s >= '0' && *s <= '9' ? strtol(s, &end, 10) : 0;
    return end != NULL && *end == '\0' && v > 0 ? v : 0;
}

long ct_launcher_flag(const ct_launcher_t *l, const char *const *flags)
{
    long found = -1;
    const ct_argv_t *lists[] = {&l->words, &l->extra};
    for (size_t k = 0; k < 2; k++) {
        const ct_argv_t *w = lists[k];
        for (size_t i = k == 0 ? 1 : 0; i < w->n; i++) {
            for (size_t f = 0; flags[f] != NULL; f++) {
                size_t len = strlen(flags[f]);
                const char *a = w->v[i];
                long v = -1;
                if (strcmp(a, flags[f]) == 0)
                    v = ct_launcher_count(i + 1 < w->n ? w->v[i + 1] : NULL);
                else if (strncmp(a, flags[f], len) == 0 && a[len] == '=' && flags[f][1] == '-')
                    v = ct_launcher_count(a + len + 1);
                else if (strncmp(a, flags[f], len) == 0 && len == 2 && a[len] != '\0')
                    v = ct_launcher_count(a + len);
                if (v >= 0) {
                    found = v;
                    break; /* the first flag that fits: "-np" before "-n" */
                }
            }
        }
    }
    return found;
}

ct_status_t ct_launcher_push2(ct_argv_t *argv, const char *flag, const char *value)
{
    ct_status_t st = ct_argv_push(argv, flag);
    if (st == CT_OK && value != NULL)
        st = ct_argv_push(argv, value);
    return st;
}
