/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * space_list.h - the comma-separated lists of a space file.
 *
 * Items are trimmed; an item holding a comma (NCCL_ALGO=ring,tree,
 * UCX_TLS=sm,self) is written in double quotes: values = ring, "ring,tree".
 * A trailing comma is allowed (the list may go on on an indented line).
 */
#ifndef CT_SPACE_LIST_H
#define CT_SPACE_LIST_H

#include <stddef.h>
#include "ct_status.h"

typedef struct {
    char **items;
    size_t n, cap;
} ct_space_list_t;

/* Splits text; an empty or blank text gives no items.  CT_ERR_USAGE with
 * the reason in why for an unclosed quote, text after a closing quote or an
 * empty item ("a,,b"). */
ct_status_t ct_space_list_split(const char *text, ct_space_list_t *list_p, char *why,
                                size_t whylen);
void ct_space_list_free(ct_space_list_t *list);

#endif
