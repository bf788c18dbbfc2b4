/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * space_known.c - value checks for the variables colltune knows, as one
 * table (name, how to check, argument), so adding a variable is one line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ct_library.h"
#include "ct_names.h"
#include "ct_nccl_list.h"
#include "ct_size.h"
#include "space.h"
#include "space_known.h"

typedef ct_status_t (*ct_known_fn)(const char *value, const void *arg, char *why, size_t whylen);

typedef struct {
    const char *name;
    ct_known_fn check;
    const void *arg;
} ct_known_t;

/* An integer range, or a set of integers when set is not NULL. */
typedef struct {
    long long lo, hi;
    const long long *set;
    size_t nset;
} ct_int_rule_t;

/* A set of words; list: a comma-separated list of them, with an optional
 * leading '^' (exclude), as Open MPI's framework selectors take. */
typedef struct {
    const char *const *words;
    size_t n;
    int list;
} ct_word_rule_t;

#define CT_COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int ct_known_int(const char *text, long long *v_p)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || end == text || *end != '\0')
        return -1;
    *v_p = v;
    return 0;
}

static ct_status_t ct_known_check_int(const char *value, const void *arg, char *why, size_t whylen)
{
    const ct_int_rule_t *r = arg;
    long long v;
    if (ct_known_int(value, &v) != 0) {
        snprintf(why, whylen, "\"%s\" is not an integer", value);
        return CT_ERR_USAGE;
    }
    if (r->set) {
        for (size_t i = 0; i < r->nset; i++)
            if (r->set[i] == v)
                return CT_OK;
        char list[128] = "";
        for (size_t i = 0; i < r->nset; i++) {
            size_t used = strlen(list);
            snprintf(list + used, sizeof list - used, "%s%lld", i ? "," : "", r->set[i]);
        }
        snprintf(why, whylen, "%lld is not one of %s", v, list);
        return CT_ERR_USAGE;
    }
    if (v < r->lo || v > r->hi) {
        snprintf(why, whylen, "%lld is outside %lld..%lld", v, r->lo, r->hi);
        return CT_ERR_USAGE;
    }
    return CT_OK;
}

static ct_status_t ct_known_check_words(const char *value, const void *arg, char *why,
                                        size_t whylen)
{
    const ct_word_rule_t *r = arg;
    const char *p = value;
    if (r->list && *p == '^')
        p++;
    for (;;) {
        size_t len = r->list ? strcspn(p, ",") : strlen(p);
        int found = 0;
        for (size_t i = 0; i < r->n && !found; i++)
            found = strlen(r->words[i]) == len && strncasecmp(r->words[i], p, len) == 0;
        if (!found) {
            char list[256] = "";
            for (size_t i = 0; i < r->n; i++) {
                size_t used = strlen(list);
                snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", r->words[i]);
            }
            snprintf(why, whylen, "\"%.*s\" is not one of %s", (int)len, p, list);
            return CT_ERR_USAGE;
        }
        if (p[len] == '\0')
            return CT_OK;
        p += len + 1;
    }
}

/* NCCL_ALGO and NCCL_PROTO: "ring,tree", "^nvls", or since NCCL 2.24 per
 * collective, "allreduce:tree;broadcast:ring".  NCCL fails every
 * communicator on an unknown token, so the value is read by the same
 * parser the emitters use, which follows NCCL's (src/lib/ct_nccl_list.h). */
static ct_status_t ct_known_check_nccl_list(const char *value, const void *arg, char *why,
                                            size_t whylen)
{
    ct_nccl_list_t list;
    return ct_nccl_list_parse(*(const ct_nccl_list_kind_t *)arg, value, &list, why, whylen);
}

static const ct_nccl_list_kind_t ct_list_algo = CT_NCCL_LIST_ALGO;
static const ct_nccl_list_kind_t ct_list_proto = CT_NCCL_LIST_PROTO;

/* A byte count (64K, 8192), or one of UCX's words ("auto", "inf"). */
static ct_status_t ct_known_check_ucx_size(const char *value, const void *arg, char *why,
                                           size_t whylen)
{
    (void)arg;
    size_t bytes;
    if (strcasecmp(value, "auto") == 0 || strcasecmp(value, "inf") == 0 ||
        ct_size_parse(value, &bytes) == CT_OK)
        return CT_OK;
    snprintf(why, whylen, "\"%s\" is not a size, auto or inf", value);
    return CT_ERR_USAGE;
}

static ct_status_t ct_known_check_bool(const char *value, const void *arg, char *why, size_t whylen)
{
    static const char *const words[] = {"0", "1", "true", "false", "yes", "no"};
    static const ct_word_rule_t rule = {words, CT_COUNT(words), 0};
    (void)arg;
    return ct_known_check_words(value, &rule, why, whylen);
}

static const long long ct_nthreads[] = {64, 128, 256, 512};
static const ct_int_rule_t ct_rule_nthreads = {0, 0, ct_nthreads, CT_COUNT(ct_nthreads)};
static const ct_int_rule_t ct_rule_ctas = {1, 64, NULL, 0};
static const ct_int_rule_t ct_rule_positive = {1, (long long)1 << 40, NULL, 0};
static const ct_int_rule_t ct_rule_nonneg = {0, (long long)1 << 40, NULL, 0};
static const ct_int_rule_t ct_rule_0_2 = {0, 2, NULL, 0};
static const ct_int_rule_t ct_rule_socket_threads = {1, 16, NULL, 0};
static const ct_int_rule_t ct_rule_nsocks = {1, 64, NULL, 0};
static const ct_int_rule_t ct_rule_qps = {1, 128, NULL, 0};
/* coll/tuned algorithm ids in Open MPI 4.1 (ompi_info --all --level 9). */

static const char *const ct_pmls[] = {"ob1", "ucx", "cm"};
static const ct_word_rule_t ct_rule_pml = {ct_pmls, CT_COUNT(ct_pmls), 1};
static const char *const ct_btls[] = {"self", "vader",  "sm",  "tcp",
                                      "uct",  "openib", "ofi", "smcuda"};
static const ct_word_rule_t ct_rule_btl = {ct_btls, CT_COUNT(ct_btls), 1};
static const char *const ct_rndv[] = {"auto",     "get_zcopy", "put_zcopy", "get_ppln",
                                      "put_ppln", "am",        "rkey_ptr"};
static const ct_word_rule_t ct_rule_rndv = {ct_rndv, CT_COUNT(ct_rndv), 0};
static const char *const ct_single_copy[] = {"cma", "emulated", "none"};
static const ct_word_rule_t ct_rule_single_copy = {ct_single_copy, CT_COUNT(ct_single_copy), 0};

static const ct_known_t ct_known[] = {
    {"NCCL_ALGO", ct_known_check_nccl_list, &ct_list_algo},
    {"NCCL_PROTO", ct_known_check_nccl_list, &ct_list_proto},
    {"NCCL_NTHREADS", ct_known_check_int, &ct_rule_nthreads},
    {"NCCL_MIN_CTAS", ct_known_check_int, &ct_rule_ctas},
    {"NCCL_MAX_CTAS", ct_known_check_int, &ct_rule_ctas},
    {"NCCL_MIN_NCHANNELS", ct_known_check_int, &ct_rule_ctas},
    {"NCCL_MAX_NCHANNELS", ct_known_check_int, &ct_rule_ctas},
    {"NCCL_BUFFSIZE", ct_known_check_int, &ct_rule_positive},
    {"NCCL_SOCKET_NTHREADS", ct_known_check_int, &ct_rule_socket_threads},
    {"NCCL_NSOCKS_PERTHREAD", ct_known_check_int, &ct_rule_nsocks},
    {"NCCL_IB_QPS_PER_CONNECTION", ct_known_check_int, &ct_rule_qps},
    {"NCCL_IB_SPLIT_DATA_ON_QPS", ct_known_check_bool, NULL},
    {"NCCL_IB_PCI_RELAXED_ORDERING", ct_known_check_int, &ct_rule_0_2},
    {"NCCL_CROSS_NIC", ct_known_check_int, &ct_rule_0_2},
    {"NCCL_NVLS_ENABLE", ct_known_check_int, &ct_rule_0_2},
    {"UCX_RNDV_THRESH", ct_known_check_ucx_size, NULL},
    {"UCX_ZCOPY_THRESH", ct_known_check_ucx_size, NULL},
    {"UCX_RNDV_SCHEME", ct_known_check_words, &ct_rule_rndv},
    {"pml", ct_known_check_words, &ct_rule_pml},
    {"btl", ct_known_check_words, &ct_rule_btl},
    {"btl_vader_single_copy_mechanism", ct_known_check_words, &ct_rule_single_copy},
    {"coll_hcoll_enable", ct_known_check_bool, NULL},
    {"coll_tuned_use_dynamic_rules", ct_known_check_bool, NULL},
    /* coll_tuned_<stem>_algorithm: ranges from src/lib's collective rows. */
};

static int ct_known_has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

ct_status_t ct_space_known_check(const char *name, const char *value, char *why, size_t whylen)
{
    for (size_t i = 0; i < CT_COUNT(ct_known); i++)
        if (strcmp(ct_known[i].name, name) == 0)
            return ct_known[i].check(value, ct_known[i].arg, why, whylen);
    if (ct_library_is_coll_var(CT_LIB_OMPI, name)) {
        /* 0 (coll/tuned's own decision) up to the collective's last id. */
        const ct_coll_name_t *coll = ct_coll_name_of_tuned_var(name);
        if (coll != NULL && strcmp(name, coll->tuned.alg) == 0) {
            const ct_int_rule_t algs = {0, coll->tuned.alg_max, NULL, 0};
            return ct_known_check_int(value, &algs, why, whylen);
        }
        if (ct_known_has_suffix(name, "_segmentsize") || ct_known_has_suffix(name, "_max_requests"))
            return ct_known_check_int(value, &ct_rule_nonneg, why, whylen);
        if (ct_known_has_suffix(name, "_fanout") || ct_known_has_suffix(name, "_radix"))
            return ct_known_check_int(value, &ct_rule_positive, why, whylen);
    }
    return CT_OK;
}

ct_status_t ct_space_known_scope(const char *name, int *scope_p, char *why, size_t whylen)
{
    *scope_p = -2;
    if (!ct_library_is_coll_var(CT_LIB_OMPI, name)) {
        for (size_t i = 0; i < CT_COUNT(ct_known); i++)
            if (strcmp(ct_known[i].name, name) == 0)
                *scope_p = CT_SCOPE_GLOBAL;
        return CT_OK;
    }
    const ct_coll_name_t *coll = ct_coll_name_of_tuned_var(name);
    if (coll != NULL) {
        *scope_p = coll->id;
        return CT_OK;
    }
    /* collbench's reduce_scatter is MPI_Reduce_scatter_block: forcing
     * MPI_Reduce_scatter's algorithm would change nothing it measures. */
    if (strncmp(name, "coll_tuned_reduce_scatter_", 26) == 0) {
        snprintf(why, whylen,
                 "collbench's reduce_scatter calls MPI_Reduce_scatter_block: use "
                 "coll_tuned_reduce_scatter_block_%s",
                 name + 26);
        return CT_ERR_USAGE;
    }
    *scope_p = CT_SCOPE_GLOBAL; /* use_dynamic_rules, priority, ... */
    return CT_OK;
}

long ct_space_known_max_ranks(const char *name, const char *value, const char **why_p)
{
    /* Open MPI 4.1's two_proc algorithms abort on more than 2 ranks; the
     * value is compared as written, as the space file spells it. */
    const ct_coll_name_t *coll = ct_coll_name_of_tuned_var(name);
    if (coll != NULL && coll->tuned.two_proc_alg > 0 && strcmp(name, coll->tuned.alg) == 0) {
        char id[16];
        snprintf(id, sizeof id, "%d", coll->tuned.two_proc_alg);
        if (strcmp(value, id) == 0) {
            *why_p = "two_proc algorithm, aborts beyond 2 ranks";
            return 2;
        }
    }
    *why_p = NULL;
    return 0;
}

int ct_space_known_runtime(const char *name)
{
    if (strcmp(name, "NCCL_ALGO") == 0 || strcmp(name, "NCCL_PROTO") == 0)
        return 1;
    /* MPICH 4's blocking algorithm choices, a global int MPIR_<Coll>_impl
     * switches on at every call (MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM);
     * not the nonblocking MPIR_CVAR_I* (no blocking collective starts with
     * I) nor the ch4 POSIX ones: not measured. */
    static const char mpich[] = "MPIR_CVAR_", intra[] = "_INTRA_ALGORITHM";
    size_t n = strlen(name), np = sizeof mpich - 1, ni = sizeof intra - 1;
    if (strncmp(name, mpich, np) == 0 && n > np + ni && strcmp(name + n - ni, intra) == 0)
        return name[np] != 'I' && strstr(name, "_POSIX_") == NULL;
    /* Its guard, an int every forced call's restriction check reads
     * (MPII_COLLECTIVE_FALLBACK_CHECK): set per configuration, so that the
     * baseline, a site's default included, runs as the site has it. */
    if (strcmp(name, "MPIR_CVAR_COLLECTIVE_FALLBACK") == 0)
        return 1;
    if (!ct_library_is_coll_var(CT_LIB_OMPI, name))
        return 0;
    const char *alg = strstr(name + strlen(ct_library_get(CT_LIB_OMPI)->coll_prefix), "_algorithm");
    return alg != NULL && (alg[10] == '\0' || alg[10] == '_');
}
