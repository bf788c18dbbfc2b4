/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * space_list.c - splitting "a, b, \"c,d\"" into its items.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_vec.h"
#include "space_list.h"

static ct_status_t ct_space_list_push(ct_space_list_t *list, const char *s, size_t len)
{
    char *item = strndup(s, len);
    if (item == NULL || CT_VEC_PUSH(list->items, list->n, list->cap, &item) != CT_OK) {
        free(item);
        return CT_ERR_NOMEM;
    }
    return CT_OK;
}

ct_status_t ct_space_list_split(const char *text, ct_space_list_t *list_p, char *why, size_t whylen)
{
    ct_space_list_t list = {0};
    const char *p = text;
    ct_status_t st = CT_OK;
    while (isspace((unsigned char)*p))
        p++;
    while (*p && st == CT_OK) {
        const char *start = p, *end;
        if (*p == '"') {
            start = ++p;
            end = strchr(p, '"');
            if (end == NULL) {
                snprintf(why, whylen, "unclosed quote in \"%s\"", text);
                st = CT_ERR_USAGE;
                break;
            }
            p = end + 1;
            while (isspace((unsigned char)*p))
                p++;
            if (*p && *p != ',') {
                snprintf(why, whylen, "text after a closing quote in \"%s\"", text);
                st = CT_ERR_USAGE;
                break;
            }
        } else {
            p += strcspn(p, ",");
            end = p;
            while (end > start && isspace((unsigned char)end[-1]))
                end--;
        }
        if (end == start) {
            snprintf(why, whylen, "an empty item in \"%s\"", text);
            st = CT_ERR_USAGE;
            break;
        }
        st = ct_space_list_push(&list, start, (size_t)(end - start));
        if (*p == ',') { /* a trailing one is fine: the list goes on below */
            p++;
            while (isspace((unsigned char)*p))
                p++;
        }
    }
    if (st != CT_OK) {
        ct_space_list_free(&list);
        if (st == CT_ERR_NOMEM)
            snprintf(why, whylen, "out of memory");
        return st;
    }
    *list_p = list;
    return CT_OK;
}

void ct_space_list_free(ct_space_list_t *list)
{
    for (size_t i = 0; i < list->n; i++)
        free(list->items[i]);
    free(list->items);
    list->items = NULL;
    list->n = 0;
    list->cap = 0;
}
