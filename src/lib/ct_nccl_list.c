/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_nccl_list.c - NCCL_ALGO / NCCL_PROTO list values (see ct_nccl_list.h).
 *
 * Tokens are found the way strtok finds them (leading separators skipped,
 * empty tokens never returned), because that is how NCCL splits the value,
 * and what counts as "the first entry" is NCCL's test too: the entry that
 * starts at the value's first byte.
 */
#define _POSIX_C_SOURCE 200809L

#include "ct_nccl_list.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "ct_names.h"

/* NCCL's spellings (ncclAlgoStr, ncclProtoStr in src/init.cc, the same in
 * 2.24 and 2.28), at NCCL's ids, which ct_names.h's CT_NCCL_* match. */
static const char *const ct_nccl_algo_str[] = {
    "Tree", "Ring", "CollNetDirect", "CollNetChain", "NVLS", "NVLSTree", "PAT"};
static const char *const ct_nccl_proto_str[] = {"LL", "LL128", "Simple"};

_Static_assert(sizeof ct_nccl_algo_str / sizeof ct_nccl_algo_str[0] == CT_NCCL_NUM_ALGORITHMS,
               "one spelling per NCCL algorithm");
_Static_assert(sizeof ct_nccl_proto_str / sizeof ct_nccl_proto_str[0] == CT_NCCL_NUM_PROTOCOLS,
               "one spelling per NCCL protocol");

int ct_nccl_list_kind_of(const char *name, ct_nccl_list_kind_t *kind_p)
{
    if (strcmp(name, "NCCL_ALGO") == 0)
        *kind_p = CT_NCCL_LIST_ALGO;
    else if (strcmp(name, "NCCL_PROTO") == 0)
        *kind_p = CT_NCCL_LIST_PROTO;
    else
        return -1;
    return 0;
}

const char *ct_nccl_list_var(ct_nccl_list_kind_t kind)
{
    return kind == CT_NCCL_LIST_ALGO ? "NCCL_ALGO" : "NCCL_PROTO";
}

int ct_nccl_list_nelems(ct_nccl_list_kind_t kind)
{
    return kind == CT_NCCL_LIST_ALGO ? CT_NCCL_NUM_ALGORITHMS : CT_NCCL_NUM_PROTOCOLS;
}

const char *ct_nccl_list_elem_name(ct_nccl_list_kind_t kind, int id)
{
    if (id < 0 || id >= ct_nccl_list_nelems(kind))
        return "?";
    return kind == CT_NCCL_LIST_ALGO ? ct_nccl_algo_str[id] : ct_nccl_proto_str[id];
}

const char *ct_nccl_list_func_name(int func)
{
    const ct_coll_name_t *c =
        func >= 0 && func < CT_NCCL_LIST_NFUNCS ? ct_coll_name_of_nccl(func) : NULL;
    return c && c->nccl_name ? c->nccl_name : "?";
}

int ct_nccl_list_count(unsigned mask)
{
    int n = 0;
    for (; mask; mask &= mask - 1)
        n++;
    return n;
}

int ct_nccl_list_only(unsigned mask)
{
    if (ct_nccl_list_count(mask) != 1)
        return -1;
    int id = 0;
    while (!(mask & 1u)) {
        mask >>= 1;
        id++;
    }
    return id;
}

/* The next token of [*s, end) between delim characters, as strtok finds
 * it; 0 when only delimiters are left. */
static int ct_next_token(const char **s, const char *end, char delim, const char **tok_p,
                         size_t *len_p)
{
    const char *p = *s;
    while (p < end && *p == delim)
        p++;
    if (p == end) {
        *s = p;
        return 0;
    }
    const char *q = p;
    while (q < end && *q != delim)
        q++;
    *tok_p = p;
    *len_p = (size_t)(q - p);
    *s = q;
    return 1;
}

static int ct_word_is(const char *tok, size_t len, const char *word)
{
    return strlen(word) == len && strncasecmp(tok, word, len) == 0;
}

static int ct_elem_id(ct_nccl_list_kind_t kind, const char *tok, size_t len)
{
    for (int e = 0; e < ct_nccl_list_nelems(kind); e++)
        if (ct_word_is(tok, len, ct_nccl_list_elem_name(kind, e)))
            return e;
    return -1;
}

static int ct_func_id(const char *tok, size_t len)
{
    for (int f = 0; f < CT_NCCL_LIST_NFUNCS; f++)
        if (ct_word_is(tok, len, ct_nccl_list_func_name(f)))
            return f;
    return -1;
}

/* "A, B, C" of kind's elements or of NCCL's functions (kind < 0). */
static void ct_names_of(int kind, char *buf, size_t len)
{
    size_t used = 0;
    int n = kind < 0 ? CT_NCCL_LIST_NFUNCS : ct_nccl_list_nelems((ct_nccl_list_kind_t)kind);
    buf[0] = '\0';
    for (int i = 0; i < n && used < len; i++) {
        const char *w = kind < 0 ? ct_nccl_list_func_name(i)
                                 : ct_nccl_list_elem_name((ct_nccl_list_kind_t)kind, i);
        int k = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", w);
        if (k < 0)
            return;
        used += (size_t)k;
    }
}

/* The collective a word names in colltune's tables, if any: for hints. */
static const ct_coll_name_t *ct_coll_word(const char *tok, size_t len)
{
    char word[64];
    if (len == 0 || len >= sizeof word)
        return NULL;
    memcpy(word, tok, len);
    word[len] = '\0';
    return ct_coll_name_find(word);
}

static ct_status_t ct_unknown_element(ct_nccl_list_kind_t kind, const char *value, const char *tok,
                                      size_t len, char *err, size_t errlen)
{
    char names[128];
    const ct_coll_name_t *c = ct_coll_word(tok, len);
    if (ct_func_id(tok, len) >= 0 || c != NULL) {
        snprintf(err, errlen,
                 "NCCL would fail: Unrecognized element token \"%.*s\" when parsing \"%s\"; "
                 "\"%.*s\" is a collective: separate collectives with ';', not ',' "
                 "(allreduce:tree;broadcast:ring)",
                 (int)len, tok, value, (int)len, tok);
        return CT_ERR_USAGE;
    }
    ct_names_of((int)kind, names, sizeof names);
    snprintf(err, errlen,
             "NCCL would fail: Unrecognized element token \"%.*s\" when parsing \"%s\"; "
             "%s takes %s",
             (int)len, tok, value, ct_nccl_list_var(kind), names);
    return CT_ERR_USAGE;
}

static ct_status_t ct_unknown_prefix(ct_nccl_list_kind_t kind, const char *value, const char *tok,
                                     size_t len, char *err, size_t errlen)
{
    char names[128];
    const ct_coll_name_t *c = ct_coll_word(tok, len);
    if (c != NULL && c->nccl_func == CT_NCCL_FUNC_NONE) {
        snprintf(err, errlen,
                 "NCCL would fail: Unrecognized prefix token \"%.*s\" when parsing \"%s\"; "
                 "NCCL runs %s as send/recv, which %s cannot name",
                 (int)len, tok, value, c->name, ct_nccl_list_var(kind));
        return CT_ERR_USAGE;
    }
    ct_names_of(-1, names, sizeof names);
    snprintf(err, errlen,
             "NCCL would fail: Unrecognized prefix token \"%.*s\" when parsing \"%s\"; "
             "NCCL's collectives are %s",
             (int)len, tok, value, names);
    return CT_ERR_USAGE;
}

/* One ';' entry [tok, tok+len); first: it starts the value. */
static ct_status_t ct_parse_entry(ct_nccl_list_kind_t kind, const char *value, const char *tok,
                                  size_t len, int first, ct_nccl_list_t *list, char *err,
                                  size_t errlen)
{
    const char *s = tok, *end = tok + len, *prefix = NULL, *elems, *extra;
    size_t prefix_len = 0, elems_len = 0, extra_len;

    if (!ct_next_token(&s, end, ':', &elems, &elems_len)) {
        /* Only ':'s: NCCL 2.24-2.28 reads a NULL element list here. */
        snprintf(err, errlen, "\"%.*s\" in \"%s\" names neither a collective nor an element",
                 (int)len, tok, value);
        return CT_ERR_USAGE;
    }
    const char *second;
    size_t second_len;
    if (ct_next_token(&s, end, ':', &second, &second_len)) {
        prefix = elems;
        prefix_len = elems_len;
        elems = second;
        elems_len = second_len;
    } else if (!first) {
        snprintf(err, errlen,
                 "NCCL would fail: All entries except the first must have a prefix: \"%s\"; "
                 "write COLLECTIVE:%.*s",
                 value, (int)elems_len, elems);
        return CT_ERR_USAGE;
    }

    int func = -1;
    if (prefix != NULL && (func = ct_func_id(prefix, prefix_len)) < 0)
        return ct_unknown_prefix(kind, value, prefix, prefix_len, err, errlen);

    const char *e = elems, *e_end = elems + elems_len, *el;
    size_t el_len;
    int negate = *e == '^';
    unsigned named = 0, all = (1u << ct_nccl_list_nelems(kind)) - 1u;
    if (negate)
        e++;
    while (ct_next_token(&e, e_end, ',', &el, &el_len)) {
        int id = ct_elem_id(kind, el, el_len);
        if (id < 0)
            return ct_unknown_element(kind, value, el, el_len, err, errlen);
        named |= 1u << id;
    }
    /* After NCCL's own errors, which come first in NCCL. */
    if (prefix != NULL && ct_next_token(&s, end, ':', &extra, &extra_len)) {
        snprintf(err, errlen,
                 "\"%.*s\" in \"%s\": NCCL reads only \"%.*s:%.*s\" and silently ignores "
                 "\":%.*s\"",
                 (int)len, tok, value, (int)prefix_len, prefix, (int)elems_len, elems,
                 (int)(end - extra), extra);
        return CT_ERR_USAGE;
    }
    unsigned mask = negate ? all & ~named : named;
    if (mask == 0) {
        snprintf(err, errlen, "\"%.*s\" in \"%s\" leaves %s no %s: every call would fail", (int)len,
                 tok, value, func < 0 ? "any collective" : ct_nccl_list_func_name(func),
                 kind == CT_NCCL_LIST_ALGO ? "algorithm" : "protocol");
        return CT_ERR_USAGE;
    }
    for (int f = 0; f < CT_NCCL_LIST_NFUNCS; f++) {
        if (func >= 0 && f != func)
            continue;
        list->func[f].named = 1;
        list->func[f].mask = mask;
        list->func[f].elems = elems;
        list->func[f].elems_len = elems_len;
    }
    return CT_OK;
}

ct_status_t ct_nccl_list_parse(ct_nccl_list_kind_t kind, const char *value, ct_nccl_list_t *list_p,
                               char *err, size_t errlen)
{
    ct_nccl_list_t list;
    const char *s = value, *end = value + strlen(value), *tok;
    size_t len;
    int entries = 0;

    memset(&list, 0, sizeof list);
    while (ct_next_token(&s, end, ';', &tok, &len)) {
        ct_status_t st = ct_parse_entry(kind, value, tok, len, tok == value, &list, err, errlen);
        if (st != CT_OK)
            return st;
        entries++;
    }
    if (entries == 0) {
        snprintf(err, errlen, "\"%s\" names no %s: NCCL would keep its own choice", value,
                 kind == CT_NCCL_LIST_ALGO ? "algorithm" : "protocol");
        return CT_ERR_USAGE;
    }
    *list_p = list;
    return CT_OK;
}

ct_status_t ct_nccl_list_project(ct_nccl_list_kind_t kind, const char *value, int func,
                                 ct_nccl_list_func_t *proj_p, char *err, size_t errlen)
{
    ct_nccl_list_t list;
    if (func < 0 || func >= CT_NCCL_LIST_NFUNCS) {
        snprintf(err, errlen, "NCCL function %d is not one %s can name", func,
                 ct_nccl_list_var(kind));
        return CT_ERR_USAGE;
    }
    ct_status_t st = ct_nccl_list_parse(kind, value, &list, err, errlen);
    if (st == CT_OK)
        *proj_p = list.func[func];
    return st;
}
