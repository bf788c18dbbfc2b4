/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * names.h - the words a rules file may use for collectives, algorithms and
 * protocols, as one table per kind.
 *
 * The words themselves live once, in src/lib/ct_names.c, shared with
 * collbench and the tuner; this file only presents them from NCCL's side
 * (a collective is its ncclFunc_t).  The same tables drive parsing, the
 * "expected one of" list in error messages, and the names printed in log
 * lines, so they cannot disagree.  Matching is case-insensitive.  Unknown
 * words are an error for the caller to report; nothing is ever mapped to a
 * default.
 */
#ifndef CT_PLUGIN_NAMES_H
#define CT_PLUGIN_NAMES_H

#include <stddef.h>

#include "ct_names.h"

typedef struct {
    const char *kind; /* "collective", "algorithm", "protocol" */
    /* Algorithms and protocols: NCCL's values as they are.  NULL for
     * collectives, which come from ct_names' collective table by their
     * ncclFunc_t (alltoall has none: NCCL's tuner never sees it). */
    const ct_name_table_t *names;
} ct_plugin_name_table_t;

extern const ct_plugin_name_table_t ct_plugin_colls;
extern const ct_plugin_name_table_t ct_plugin_algos;
extern const ct_plugin_name_table_t ct_plugin_protos;

/* Looks word up in table; sets *value_p and returns 0, or returns -1. */
int ct_plugin_name_lookup(const ct_plugin_name_table_t *table, const char *word, int *value_p);

/* The canonical spelling of value, or "?" when the table lacks it. */
const char *ct_plugin_name_of(const ct_plugin_name_table_t *table, int value);

/* Writes the canonical spellings, comma separated, into buf (truncated to
 * buflen, always terminated) for "expected one of ..." messages. */
void ct_plugin_name_list(const ct_plugin_name_table_t *table, char *buf, size_t buflen);

#endif
