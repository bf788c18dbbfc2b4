/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_space.c - search-space files: every shipped space parses, every
 * malformed one is CT_ERR_USAGE naming file:line and the field, and the
 * enumeration has the counts the scopes promise (per-collective variables
 * cost N*K, not K^N; two_proc ids are skipped beyond 2 ranks, with why),
 * and a scope too large to list is indexed and sampled in that order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "ct_test.h"
#include "space.h"
#include "space_known.h"

static ct_test_tally_t tally;

static void path_of(char *buf, size_t len, const char *dir, const char *name)
{
    const char *top = getenv("top_srcdir");
    snprintf(buf, len, "%s/%s/%s", top ? top : ".", dir, name);
}

/* name (a fixture) must fail at "name.ini:line: field:" and mention word. */
static void check_bad(const char *name, int line, const char *field, const char *word)
{
    char path[4096], err[1024] = "", want[256];
    ct_space_t space;
    path_of(path, sizeof path, "tests/unit/spaces", name);
    ct_status_t st = ct_space_load(path, &space, err, sizeof err);
    CT_CHECK(&tally, st == CT_ERR_USAGE);
    snprintf(want, sizeof want, "%s:%d: %s:", name, line, field);
    int ok = strstr(err, want) != NULL && strstr(err, word) != NULL;
    CT_CHECK(&tally, ok);
    if (!ok || st != CT_ERR_USAGE)
        fprintf(stderr, "  %s: got \"%s\", want \"%s\" and \"%s\"\n", name, err, want, word);
    CT_CHECK(&tally, space.nvars == 0 && space.name == NULL);
    if (st == CT_OK)
        ct_space_free(&space);
}

/* Spaces written by the test itself, into tmpdir (made in main). */
static char tmpdir[] = "/tmp/ct-space.XXXXXX";

static void write_text(const char *name, const char *text, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    CT_CHECK(&tally, f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* text (written as name) must fail at "name:line: field:" and mention
 * word. */
static void check_bad_text(const char *name, const char *text, int line, const char *field,
                           const char *word)
{
    char path[4096], err[1024] = "", want[256];
    ct_space_t space;
    write_text(name, text, path, sizeof path);
    ct_status_t st = ct_space_load(path, &space, err, sizeof err);
    snprintf(want, sizeof want, "%s:%d: %s:", name, line, field);
    int ok = st == CT_ERR_USAGE && strstr(err, want) != NULL && strstr(err, word) != NULL;
    CT_CHECK(&tally, ok);
    if (!ok)
        fprintf(stderr, "  %s: got \"%s\", want \"%s\" and \"%s\"\n", name, err, want, word);
    if (st == CT_OK)
        ct_space_free(&space);
    unlink(path);
}

/* text (written as name) loads. */
static int load_text(const char *name, const char *text, ct_space_t *space)
{
    char path[4096], err[1024] = "";
    write_text(name, text, path, sizeof path);
    ct_status_t st = ct_space_load(path, space, err, sizeof err);
    CT_CHECK(&tally, st == CT_OK);
    if (st != CT_OK)
        fprintf(stderr, "  %s: %s\n", name, err);
    unlink(path);
    return st == CT_OK;
}

static int load(const char *dir, const char *name, ct_space_t *space)
{
    char path[4096], err[1024] = "";
    path_of(path, sizeof path, dir, name);
    ct_status_t st = ct_space_load(path, space, err, sizeof err);
    CT_CHECK(&tally, st == CT_OK);
    if (st != CT_OK)
        fprintf(stderr, "  %s: %s\n", name, err);
    return st == CT_OK;
}

static size_t count_scope(const ct_space_t *space, int scope, long nranks, size_t *skipped)
{
    ct_space_configs_t configs;
    char err[512];
    ct_status_t st = ct_space_enumerate(space, scope, nranks, &configs, err, sizeof err);
    CT_CHECK(&tally, st == CT_OK);
    if (st != CT_OK) {
        fprintf(stderr, "  enumerate: %s\n", err);
        return 0;
    }
    size_t n = configs.n;
    if (skipped)
        *skipped = n - ct_space_configs_runnable(&configs);
    /* The walk agrees with the list. */
    size_t runnable, skip;
    CT_CHECK(&tally,
             ct_space_count(space, scope, nranks, &runnable, &skip, err, sizeof err) == CT_OK);
    CT_CHECK(&tally, runnable + skip == n);
    ct_space_configs_free(&configs);
    return n;
}

static const char *setting(const ct_space_config_t *c, const char *name)
{
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->settings[i].name, name) == 0)
            return c->settings[i].value;
    return NULL;
}

static void test_malformed(void)
{
    check_bad("unknown_key.ini", 6, "colour", "unknown key");
    check_bad("unknown_kind.ini", 4, "section", "unknown section [knob UCX_TLS]");
    check_bad("empty_values.ini", 5, "values", "empty");
    check_bad("no_values.ini", 4, "NCCL_PROTO", "no values");
    /* NCCL's own words (parseList), then what to do about it. */
    check_bad("bad_nccl_algo.ini", 7, "values",
              "NCCL_ALGO: NCCL would fail: Unrecognized element token \"treee\"");
    check_bad("bad_nccl_algo_coll.ini", 5, "values",
              "Unrecognized prefix token \"alltoall\" when parsing "
              "\"allreduce:tree;alltoall:ring\"; NCCL runs alltoall as send/recv");
    check_bad("bad_nccl_algo_comma.ini", 7, "values",
              "Unrecognized element token \"broadcast\" when parsing "
              "\"allreduce:tree,broadcast:ring\"; \"broadcast\" is a collective: separate "
              "collectives with ';'");
    check_bad("bad_nccl_proto.ini", 5, "values",
              "NCCL_PROTO: NCCL would fail: Unrecognized element token \"LL256\"");
    check_bad("bad_tuned_id.ini", 7, "values", "6 is outside 0..5");
    check_bad("bad_range.ini", 5, "range", "low bound above high bound");
    check_bad("bad_pow2.ini", 5, "pow2", "powers of two");
    check_bad("unsat_constraint.ini", 12, "max", "socket_threads cannot be met");
    /* 2^32 x 2^33 overflows: saturated, it breaks max = 100 (wrapped, it
     * read 0 and let the combination run). */
    check_bad("overflow_constraint.ini", 15, "max", "small cannot be met");
    check_bad("two_space_sections.ini", 5, "space", "[space] must come first, and once");
    CT_CHECK(&tally,
             ct_space_constraint_step(CT_CONSTRAINT_PRODUCT, 1LL << 40, 1LL << 40) == LLONG_MAX);
    CT_CHECK(&tally,
             ct_space_constraint_step(CT_CONSTRAINT_PRODUCT, -(1LL << 40), 1LL << 40) == LLONG_MIN);
    CT_CHECK(&tally, ct_space_constraint_step(CT_CONSTRAINT_SUM, LLONG_MAX, 1) == LLONG_MAX);
    CT_CHECK(&tally, ct_space_constraint_step(CT_CONSTRAINT_SUM, LLONG_MIN, -1) == LLONG_MIN);
    CT_CHECK(&tally, ct_space_constraint_step(CT_CONSTRAINT_PRODUCT, 3, 4) == 12);
    check_bad("duplicate_var.ini", 10, "UCX_TLS", "declared twice (first at line 4)");
    check_bad("duplicate_key.ini", 7, "default", "given twice");
    check_bad("wrong_scope.ini", 5, "scope", "affects only allreduce");
    check_bad("bad_scope.ini", 5, "scope", "\"scatter\" is not one of global, allreduce");
    check_bad("bad_apply_env.ini", 4, "apply", "only an MPI control variable");
    check_bad("bad_apply_word.ini", 8, "apply", "is not runtime or launch");
    check_bad("bad_apply_mpich.ini", 5, "apply",
              "of MPICH's variables only the blocking MPIR_CVAR_<COLL>_INTRA_ALGORITHM");
    /* MPICH's blocking algorithms run in-process by default (MPI_T, read
     * at every call); its nonblocking and POSIX ones, its other CVARs and
     * the spellings MPI_T does not know stay launch settings. */
    ct_space_t ms;
    if (load("tests/unit/spaces", "mpich_runtime.ini", &ms)) {
        static const struct {
            const char *name;
            int runtime;
        } want[] = {{"MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM", 1},
                    {"MPIR_CVAR_IALLREDUCE_INTRA_ALGORITHM", 0},
                    {"MPIR_CVAR_ALLREDUCE_POSIX_INTRA_ALGORITHM", 0},
                    {"MPIR_CVAR_DEVICE_COLLECTIVES", 0},
                    {"MPIR_PARAM_BCAST_INTRA_ALGORITHM", 0}};
        for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
            long k = ct_space_find(&ms, want[i].name);
            CT_CHECK(&tally, k >= 0 && ms.vars[k].runtime == want[i].runtime);
        }
        ct_space_free(&ms);
    }

    char err[512];
    ct_space_t space;
    CT_CHECK(&tally, ct_space_load("/nonexistent/x.ini", &space, err, sizeof err) == CT_ERR_USAGE);
    CT_CHECK(&tally, strstr(err, "/nonexistent/x.ini: cannot read") != NULL);
}

/* A variable's apply (space.h: runtime), or -1 when the space lacks it. */
static int runtime_of(const char *file, const char *name)
{
    ct_space_t space;
    int r = -1;
    if (load("tuner/spaces", file, &space)) {
        long i = ct_space_find(&space, name);
        r = i < 0 ? -1 : space.vars[i].runtime;
        ct_space_free(&space);
    }
    return r;
}

static void test_shipped(void)
{
    CT_CHECK(&tally, runtime_of("nccl.ini", "NCCL_ALGO") == 1);
    CT_CHECK(&tally, runtime_of("nccl.ini", "NCCL_PROTO") == 1);
    CT_CHECK(&tally, runtime_of("nccl.ini", "NCCL_MIN_CTAS") == 0); /* once per process */
    CT_CHECK(&tally, runtime_of("openmpi-transport.ini", "pml") == 0);
    static const char *const shipped[] = {"openmpi-coll.ini", "openmpi-transport.ini",
                                          "nccl.ini",         "local.ini",
                                          "ucx.ini",          "mpich-coll.ini"};
    for (size_t i = 0; i < sizeof shipped / sizeof shipped[0]; i++) {
        ct_space_t space;
        if (!load("tuner/spaces", shipped[i], &space))
            continue;
        CT_CHECK(&tally, space.nvars > 0);
        /* Every per-collective scope lists at 4 ranks (the global product
         * of nccl.ini is only walked: it is far too large to list). */
        for (int scope = 0; scope < CT_COLL_COUNT; scope++)
            if (ct_space_scopes(&space) & (1u << (scope + 1)))
                CT_CHECK(&tally, count_scope(&space, scope, 4, NULL) > 1);
        ct_space_free(&space);
    }

    ct_space_t space;
    if (load("tuner/spaces", "mpich-coll.ini", &space)) {
        CT_CHECK_STR(&tally, space.name, "mpich-coll");
        CT_CHECK(&tally, ct_space_scopes(&space) == 0x3eu); /* five collectives, no global */
        for (size_t i = 0; i < space.nvars; i++) /* in-process (MPI_T), requires= at launch */
            CT_CHECK(&tally, space.vars[i].runtime == 1 && space.vars[i].via == CT_VIA_ENV &&
                                 space.vars[i].nrequires >= 1);
        /* allreduce: the baseline, then recursive_doubling and
         * reduce_scatter_allgather (auto is the default: the baseline
         * measures it; smp cannot run under the fallback error), each with
         * the fallback refused and ch4's own selection off for allreduce. */
        ct_space_configs_t c;
        char err[512];
        CT_CHECK(&tally,
                 ct_space_enumerate(&space, CT_COLL_ALLREDUCE, 4, &c, err, sizeof err) == CT_OK);
        CT_CHECK(&tally, c.n == 3 && c.configs[0].baseline && c.configs[0].n == 0);
        for (size_t i = 1; i < c.n; i++) {
            const char *alg = setting(&c.configs[i], "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM");
            CT_CHECK(&tally, alg != NULL && strcmp(alg, "auto") != 0 && strcmp(alg, "nb") != 0 &&
                                 strcmp(alg, "smp") != 0);
            CT_CHECK_STR(&tally, setting(&c.configs[i], "MPIR_CVAR_COLLECTIVE_FALLBACK"), "error");
            CT_CHECK_STR(&tally, setting(&c.configs[i], "MPIR_CVAR_ALLREDUCE_DEVICE_COLLECTIVE"),
                         "0");
        }
        ct_space_configs_free(&c);
        /* allgather needs no device switch: ch4 hands it to MPIR. */
        CT_CHECK(&tally,
                 ct_space_enumerate(&space, CT_COLL_ALLGATHER, 4, &c, err, sizeof err) == CT_OK);
        CT_CHECK(&tally, c.n == 4);
        for (size_t i = 1; i < c.n; i++)
            CT_CHECK(&tally, c.configs[i].n == 2 &&
                                 setting(&c.configs[i], "MPIR_CVAR_COLLECTIVE_FALLBACK") != NULL);
        ct_space_configs_free(&c);
        ct_space_free(&space);
    }
    if (load("tuner/spaces", "openmpi-coll.ini", &space)) {
        CT_CHECK_STR(&tally, space.name, "openmpi-coll");
        CT_CHECK(&tally, ct_space_scopes(&space) == 0x3eu); /* five collectives, no global */
        /* apply: coll/tuned's per-communicator variables run in-process. */
        for (size_t i = 0; i < space.nvars; i++)
            CT_CHECK(&tally, space.vars[i].runtime == 1);
        /* alltoall at 4 ranks: baseline, 5 (two_proc) skipped, 1 2 3, and
         * 4 (linear_sync) with max_requests 0, 4, 16. */
        ct_space_configs_t c;
        char err[512];
        CT_CHECK(&tally,
                 ct_space_enumerate(&space, CT_COLL_ALLTOALL, 4, &c, err, sizeof err) == CT_OK);
        CT_CHECK(&tally, c.n == 8 && ct_space_configs_runnable(&c) == 7);
        CT_CHECK(&tally, c.n > 1 && c.configs[0].baseline && c.configs[0].n == 0);
        int saw_skip = 0;
        for (size_t i = 0; i < c.n; i++) {
            const char *alg = setting(&c.configs[i], "coll_tuned_alltoall_algorithm");
            if (c.configs[i].skip) {
                saw_skip = 1;
                CT_CHECK_STR(&tally, alg, "5");
                CT_CHECK(&tally, strstr(c.configs[i].skip, "two_proc") != NULL);
                CT_CHECK(&tally,
                         strstr(c.configs[i].skip, "up to 2 ranks, this run has 4") != NULL);
            } else if (!c.configs[i].baseline) {
                CT_CHECK(&tally, alg && strcmp(alg, "0") != 0 && strcmp(alg, "5") != 0);
                CT_CHECK_STR(&tally, setting(&c.configs[i], "coll_tuned_use_dynamic_rules"), "1");
                CT_CHECK(&tally, c.configs[i].settings[0].via == CT_VIA_MCA);
            }
        }
        CT_CHECK(&tally, saw_skip);
        ct_space_configs_free(&c);
        /* At 2 ranks two_proc runs. */
        size_t skipped = 99;
        CT_CHECK(&tally, count_scope(&space, CT_COLL_ALLTOALL, 2, &skipped) == 8);
        CT_CHECK(&tally, skipped == 0);
        /* bcast: 1, chain x segsize x fanout (9), 3..6 x segsize (12),
         * knomial x segsize x radix (9), 8, 9: 33 and the baseline. */
        CT_CHECK(&tally, count_scope(&space, CT_COLL_BROADCAST, 4, NULL) == 34);
        ct_space_free(&space);
    }
    if (load("tuner/spaces", "openmpi-transport.ini", &space)) {
        ct_space_configs_t c;
        char err[512];
        /* Small enough to list: check the fixed HCOLL setting and quoting. */
        ct_status_t st = ct_space_enumerate(&space, CT_SCOPE_GLOBAL, 4, &c, err, sizeof err);
        CT_CHECK(&tally, st == CT_OK);
        for (size_t i = 0; st == CT_OK && i < c.n; i++) {
            CT_CHECK_STR(&tally, setting(&c.configs[i], "coll_hcoll_enable"), "0");
            const char *pml = setting(&c.configs[i], "pml");
            if (pml && strcmp(pml, "ucx") == 0)
                CT_CHECK_STR(&tally, setting(&c.configs[i], "pml_ucx_tls"), "any");
            /* when =: UCX settings only under pml ucx, btl ones only under ob1. */
            for (size_t k = 0; k < c.configs[i].n; k++) {
                const char *name = c.configs[i].settings[k].name;
                if (strncmp(name, "UCX_", 4) == 0)
                    CT_CHECK(&tally, pml && strcmp(pml, "ucx") == 0);
                if (strncmp(name, "btl", 3) == 0)
                    CT_CHECK(&tally, pml && strcmp(pml, "ob1") == 0);
            }
        }
        /* pml has no default (sites set their own): ob1 with its btl
         * settings all at their defaults is a candidate, not left out. */
        int ob1_defaults = 0;
        for (size_t i = 0; st == CT_OK && i < c.n; i++) {
            const ct_space_config_t *k = &c.configs[i];
            const char *pml = setting(k, "pml"), *btl = setting(k, "btl");
            const char *copy = setting(k, "btl_vader_single_copy_mechanism");
            ob1_defaults |= pml && strcmp(pml, "ob1") == 0 && btl &&
                            strcmp(btl, "self,vader,tcp") == 0 && copy && strcmp(copy, "cma") == 0;
        }
        CT_CHECK(&tally, ob1_defaults);
        if (st == CT_OK)
            ct_space_configs_free(&c);
        long tls = ct_space_find(&space, "UCX_TLS");
        CT_CHECK(&tally, tls >= 0 && space.vars[tls].via == CT_VIA_ENV &&
                             space.vars[tls].nvalues == 5 &&
                             strcmp(space.vars[tls].values[1], "sm,self") == 0);
        ct_space_free(&space);
    }
    if (load("tuner/spaces", "nccl.ini", &space)) {
        long algo = ct_space_find(&space, "NCCL_ALGO");
        CT_CHECK(&tally, algo >= 0 && space.vars[algo].nvalues == 6); /* a continued list */
        long topo = ct_space_find(&space, "NCCL_TOPO_FILE");
        CT_CHECK(&tally, topo >= 0 && space.vars[topo].kind == CT_SPACE_PASS);
        CT_CHECK(&tally, space.nconstraints == 1);
        ct_space_free(&space);
    }
}

static void test_enumeration(void)
{
    ct_space_t space;
    if (load("tests/unit/spaces", "per_collective.ini", &space)) {
        /* N*K: each collective alone, 4 candidates plus its baseline. */
        size_t total = 0;
        for (int scope = 0; scope < CT_COLL_COUNT; scope++) {
            size_t n = count_scope(&space, scope, 4, NULL);
            CT_CHECK(&tally, n == 5);
            total += n - 1;
        }
        CT_CHECK(&tally, total == 20);
        /* No global variable: the global scope is the baseline alone. */
        CT_CHECK(&tally, count_scope(&space, CT_SCOPE_GLOBAL, 4, NULL) == 1);
        ct_space_configs_t c;
        char err[512];
        CT_CHECK(&tally,
                 ct_space_enumerate(&space, CT_COLL_ALLREDUCE, 4, &c, err, sizeof err) == CT_OK);
        /* Fixed variables are in every configuration, sorted by name. */
        for (size_t i = 0; i < c.n; i++) {
            CT_CHECK_STR(&tally, setting(&c.configs[i], "coll_hcoll_enable"), "0");
            for (size_t j = 1; j < c.configs[i].n; j++)
                CT_CHECK(&tally, strcmp(c.configs[i].settings[j - 1].name,
                                        c.configs[i].settings[j].name) < 0);
        }
        /* Keys: distinct, and independent of the order of the settings. */
        for (size_t i = 0; i < c.n; i++)
            for (size_t j = i + 1; j < c.n; j++)
                CT_CHECK(&tally, strcmp(c.configs[i].key, c.configs[j].key) != 0);
        if (c.n > 1 && c.configs[1].n == 3) {
            ct_space_setting_t rev[3] = {c.configs[1].settings[2], c.configs[1].settings[0],
                                         c.configs[1].settings[1]};
            char key[17];
            ct_space_config_key(rev, 3, key, sizeof key);
            CT_CHECK_STR(&tally, key, c.configs[1].key);
        }
        ct_space_configs_free(&c);
        CT_CHECK(&tally, ct_space_enumerate(&space, 7, 4, &c, err, sizeof err) == CT_ERR_USAGE);
        ct_space_free(&space);
    }
    if (load("tests/unit/spaces", "huge_scope.ini", &space)) {
        /* 8^6 configurations: refused from the count, before any is
         * listed, naming the file and the first variable's line. */
        ct_space_configs_t c;
        char err[512] = "";
        CT_CHECK(&tally, ct_space_enumerate(&space, CT_SCOPE_GLOBAL, 2, &c, err, sizeof err) ==
                             CT_ERR_USAGE);
        CT_CHECK(&tally,
                 strstr(err, "huge_scope.ini:8: scope global has 262144 configurations") != NULL);
        CT_CHECK(&tally, c.n == 0 && c.configs == NULL);
        ct_space_free(&space);
    }
    if (load("tests/unit/spaces", "constraint.ini", &space)) {
        /* 4 x 3 combinations; product <= 4 holds for 7 of them. */
        size_t skipped = 0;
        CT_CHECK(&tally, count_scope(&space, CT_SCOPE_GLOBAL, 8, &skipped) == 13);
        CT_CHECK(&tally, skipped == 5);
        ct_space_configs_t c;
        char err[512];
        CT_CHECK(&tally,
                 ct_space_enumerate(&space, CT_SCOPE_GLOBAL, 8, &c, err, sizeof err) == CT_OK);
        for (size_t i = 0; i < c.n; i++)
            if (c.configs[i].skip)
                CT_CHECK(&tally, strstr(c.configs[i].skip, "constraint small:") != NULL &&
                                     strstr(c.configs[i].skip, "> max 4") != NULL);
        ct_space_configs_free(&c);
        ct_space_free(&space);
    }
}

/* Whether a and b are the same configuration (settings, key, skip). */
static int same_config(const ct_space_config_t *a, const ct_space_config_t *b)
{
    if (strcmp(a->key, b->key) != 0 || a->n != b->n || a->baseline != b->baseline ||
        (a->skip == NULL) != (b->skip == NULL) || (a->skip && strcmp(a->skip, b->skip) != 0))
        return 0;
    for (size_t i = 0; i < a->n; i++)
        if (strcmp(a->settings[i].name, b->settings[i].name) != 0 ||
            strcmp(a->settings[i].value, b->settings[i].value) != 0)
            return 0;
    return 1;
}

/* The listed indices, decoded in increasing order, are exactly what
 * ct_space_each visits after its head, and the head is the same too. */
static void check_index_order(const ct_space_t *space, int scope, long nranks, uint64_t want_size)
{
    ct_space_configs_t all, head;
    ct_space_index_t *ix;
    char err[512];
    CT_CHECK(&tally, ct_space_enumerate(space, scope, nranks, &all, err, sizeof err) == CT_OK);
    CT_CHECK(&tally, ct_space_index_open(space, scope, nranks, &ix, err, sizeof err) == CT_OK);
    CT_CHECK(&tally, ct_space_index_size(ix) == want_size);
    CT_CHECK(&tally, ct_space_index_head(ix, &head) == CT_OK);
    size_t j = 0, bad = 0;
    for (; j < head.n && j < all.n; j++)
        bad += !same_config(&head.configs[j], &all.configs[j]);
    for (uint64_t i = 0; i < ct_space_index_size(ix); i++) {
        ct_space_config_t c;
        int listed;
        CT_CHECK(&tally, ct_space_index_config(ix, i, &c, &listed) == CT_OK);
        if (!listed) {
            CT_CHECK(&tally, c.n == 0 && c.settings == NULL);
            continue;
        }
        bad += j >= all.n || !same_config(&c, &all.configs[j]);
        j++;
        ct_space_config_free(&c);
    }
    CT_CHECK(&tally, bad == 0);
    CT_CHECK(&tally, j == all.n);
    if (bad || j != all.n)
        fprintf(stderr, "  %s scope %d: %zu differ, %zu of %zu visited\n", space->name, scope, bad,
                j, all.n);
    ct_space_config_t c;
    int listed = 1;
    CT_CHECK(&tally, ct_space_index_config(ix, want_size, &c, &listed) == CT_ERR_USAGE && !listed);
    ct_space_configs_free(&head);
    ct_space_configs_free(&all);
    ct_space_index_close(ix);
}

static int keys_equal(const ct_space_configs_t *a, const ct_space_configs_t *b)
{
    if (a->n != b->n)
        return 0;
    for (size_t i = 0; i < a->n; i++)
        if (strcmp(a->configs[i].key, b->configs[i].key) != 0)
            return 0;
    return 1;
}

static void test_index(void)
{
    ct_space_t space;
    if (load("tuner/spaces", "openmpi-coll.ini", &space)) {
        /* broadcast: when= (segment sizes, fan-outs and the radix vary
         * only with some algorithms), the index over every value list;
         * alltoall: 5 (two_proc) is a limit skip beyond 2 ranks, out of
         * the digits there. */
        uint64_t size = 1;
        for (size_t i = 0; i < space.nvars; i++)
            if (space.vars[i].kind == CT_SPACE_VAR && space.vars[i].scope == CT_COLL_BROADCAST)
                size *= space.vars[i].nvalues;
        check_index_order(&space, CT_COLL_BROADCAST, 4, size);
        check_index_order(&space, CT_COLL_ALLTOALL, 4, 5 * 3); /* 0..4 x 3 */
        check_index_order(&space, CT_COLL_ALLTOALL, 2, 6 * 3);
        ct_space_free(&space);
    }
    if (load("tests/unit/spaces", "constraint.ini", &space)) {
        check_index_order(&space, CT_SCOPE_GLOBAL, 8, 4 * 3); /* constraint skips kept */
        ct_space_free(&space);
    }
    if (load("tests/unit/spaces", "per_collective.ini", &space)) {
        check_index_order(&space, CT_SCOPE_GLOBAL, 4, 1); /* no variable: nothing listed */
        ct_space_free(&space);
    }

    /* Distinct, in range, the same for the same seed, and a larger k
     * extends a smaller one. */
    uint64_t a[50], b[50], all[20];
    CT_CHECK(&tally, ct_space_sample_indices(7, 1000, 50, a) == CT_OK);
    CT_CHECK(&tally, ct_space_sample_indices(7, 1000, 50, b) == CT_OK);
    CT_CHECK(&tally, memcmp(a, b, sizeof a) == 0);
    CT_CHECK(&tally, ct_space_sample_indices(7, 1000, 10, b) == CT_OK);
    CT_CHECK(&tally, memcmp(a, b, 10 * sizeof *a) == 0);
    int distinct = 1;
    for (size_t i = 0; i < 50; i++) {
        distinct &= a[i] < 1000;
        for (size_t j = 0; j < i; j++)
            distinct &= a[i] != a[j];
    }
    CT_CHECK(&tally, distinct);
    CT_CHECK(&tally, ct_space_sample_indices(8, 1000, 50, b) == CT_OK);
    CT_CHECK(&tally, memcmp(a, b, sizeof a) != 0);
    /* k == n: every index once. */
    CT_CHECK(&tally, ct_space_sample_indices(3, 20, 20, all) == CT_OK);
    unsigned mask = 0;
    for (size_t i = 0; i < 20; i++)
        mask |= all[i] < 20 ? 1u << all[i] : 0;
    CT_CHECK(&tally, mask == 0xfffffu);
    CT_CHECK(&tally, ct_space_sample_indices(3, 19, 20, all) == CT_ERR_USAGE);
    /* A huge n costs k draws, not n. */
    CT_CHECK(&tally, ct_space_sample_indices(1, UINT64_MAX, 20, all) == CT_OK);
    /* Roughly uniform: 2000 draws of 1 from 4, each index 500 +- 100. */
    size_t hits[4] = {0, 0, 0, 0};
    for (uint64_t seed = 0; seed < 2000; seed++) {
        uint64_t one;
        ct_space_sample_indices(seed, 4, 1, &one);
        hits[one]++;
    }
    for (size_t i = 0; i < 4; i++)
        CT_CHECK(&tally, hits[i] > 400 && hits[i] < 600);

    if (load("tuner/spaces", "nccl.ini", &space)) {
        /* The global product, far too large to list, is sampled. */
        ct_space_index_t *ix;
        char err[512];
        CT_CHECK(&tally,
                 ct_space_index_open(&space, CT_SCOPE_GLOBAL, 2, &ix, err, sizeof err) == CT_OK);
        CT_CHECK(&tally, ct_space_index_size(ix) == 124416000ULL); /* 6*5*6*6*5*4*16*5*4*2*3*3 */
        ct_space_index_close(ix);
        ct_space_configs_t x, y, z;
        CT_CHECK(&tally, ct_space_enumerate(&space, CT_SCOPE_GLOBAL, 2, &x, err, sizeof err) ==
                             CT_ERR_USAGE);
        CT_CHECK(&tally,
                 ct_space_sample(&space, CT_SCOPE_GLOBAL, 2, 42, 20, &x, err, sizeof err) == CT_OK);
        CT_CHECK(&tally,
                 ct_space_sample(&space, CT_SCOPE_GLOBAL, 2, 42, 20, &y, err, sizeof err) == CT_OK);
        CT_CHECK(&tally,
                 ct_space_sample(&space, CT_SCOPE_GLOBAL, 2, 43, 20, &z, err, sizeof err) == CT_OK);
        CT_CHECK(&tally, x.n == 21 && x.configs[0].baseline && x.configs[0].n == 0);
        CT_CHECK(&tally, keys_equal(&x, &y));
        CT_CHECK(&tally, z.n == 21 && !keys_equal(&x, &z));
        /* More budget, same seed: a superset (a resumed tune keeps what it
         * ran). */
        ct_space_configs_free(&y);
        CT_CHECK(&tally,
                 ct_space_sample(&space, CT_SCOPE_GLOBAL, 2, 42, 40, &y, err, sizeof err) == CT_OK);
        CT_CHECK(&tally, y.n == 41);
        size_t found = 0;
        for (size_t i = 0; i < x.n; i++)
            for (size_t j = 0; j < y.n; j++)
                found += strcmp(x.configs[i].key, y.configs[j].key) == 0;
        CT_CHECK(&tally, found == x.n);
        for (size_t i = 1; i < x.n; i++) {
            CT_CHECK(&tally, !x.configs[i].baseline && x.configs[i].n >= 1);
            for (size_t j = 0; j < i; j++)
                CT_CHECK(&tally, strcmp(x.configs[i].key, x.configs[j].key) != 0);
        }
        ct_space_configs_free(&x);
        ct_space_configs_free(&y);
        ct_space_configs_free(&z);
        ct_space_free(&space);
    }
    if (load("tuner/spaces", "openmpi-coll.ini", &space)) {
        /* k past the count: the whole enumeration, in its order; k below
         * it: a subset of it, head first, in its order. */
        ct_space_configs_t all_c, x;
        char err[512];
        CT_CHECK(&tally, ct_space_enumerate(&space, CT_COLL_BROADCAST, 4, &all_c, err,
                                            sizeof err) == CT_OK);
        CT_CHECK(&tally, ct_space_sample(&space, CT_COLL_BROADCAST, 4, 5, 1000, &x, err,
                                         sizeof err) == CT_OK);
        CT_CHECK(&tally, keys_equal(&all_c, &x));
        ct_space_configs_free(&x);
        CT_CHECK(&tally,
                 ct_space_sample(&space, CT_COLL_BROADCAST, 4, 5, 6, &x, err, sizeof err) == CT_OK);
        CT_CHECK(&tally, x.n == 7 && x.configs[0].baseline);
        size_t at = 0, in_order = 1;
        for (size_t i = 0; i < x.n; i++) {
            while (at < all_c.n && strcmp(all_c.configs[at].key, x.configs[i].key) != 0)
                at++;
            in_order &= at < all_c.n;
        }
        CT_CHECK(&tally, in_order);
        ct_space_configs_free(&x);
        ct_space_configs_free(&all_c);
        ct_space_free(&space);
    }
}

/* Each known variable's rule at its edges: the lowest and highest value it
 * takes, one past each, and the message that names the rule. */
static void test_known_values(void)
{
    static const struct {
        const char *name, *value;
        const char *why; /* NULL: accepted; else a part of the refusal */
    } cases[] = {
        /* NCCL_NTHREADS: a list, not a range. */
        {"NCCL_NTHREADS", "64", NULL},
        {"NCCL_NTHREADS", "128", NULL},
        {"NCCL_NTHREADS", "512", NULL},
        {"NCCL_NTHREADS", "63", "63 is not one of 64,128,256,512"},
        {"NCCL_NTHREADS", "100", "100 is not one of 64,128,256,512"},
        {"NCCL_NTHREADS", "1024", "is not one of"},
        {"NCCL_NTHREADS", "64x", "\"64x\" is not an integer"},
        /* CTAS and channels 1..64. */
        {"NCCL_MIN_CTAS", "1", NULL},
        {"NCCL_MIN_CTAS", "64", NULL},
        {"NCCL_MIN_CTAS", "0", "0 is outside 1..64"},
        {"NCCL_MAX_CTAS", "65", "65 is outside 1..64"},
        {"NCCL_MIN_NCHANNELS", "64", NULL},
        {"NCCL_MAX_NCHANNELS", "0", "outside 1..64"},
        {"NCCL_SOCKET_NTHREADS", "16", NULL},
        {"NCCL_SOCKET_NTHREADS", "17", "17 is outside 1..16"},
        {"NCCL_SOCKET_NTHREADS", "0", "0 is outside 1..16"},
        {"NCCL_NSOCKS_PERTHREAD", "1", NULL},
        {"NCCL_NSOCKS_PERTHREAD", "64", NULL},
        {"NCCL_NSOCKS_PERTHREAD", "0", "0 is outside 1..64"},
        {"NCCL_NSOCKS_PERTHREAD", "65", "65 is outside 1..64"},
        {"NCCL_IB_QPS_PER_CONNECTION", "1", NULL},
        {"NCCL_IB_QPS_PER_CONNECTION", "128", NULL},
        {"NCCL_IB_QPS_PER_CONNECTION", "0", "0 is outside 1..128"},
        {"NCCL_IB_QPS_PER_CONNECTION", "129", "129 is outside 1..128"},
        {"NCCL_CROSS_NIC", "0", NULL},
        {"NCCL_CROSS_NIC", "2", NULL},
        {"NCCL_CROSS_NIC", "3", "3 is outside 0..2"},
        {"NCCL_CROSS_NIC", "-1", "-1 is outside 0..2"},
        {"NCCL_CROSS_NIC", "", "\"\" is not an integer"}, /* not 0 */
        {"NCCL_NVLS_ENABLE", "1", NULL},
        {"NCCL_IB_PCI_RELAXED_ORDERING", "2", NULL},
        /* 1..2^40; past long long is not an integer, not a big one. */
        {"NCCL_BUFFSIZE", "1", NULL},
        {"NCCL_BUFFSIZE", "1099511627776", NULL},
        {"NCCL_BUFFSIZE", "1099511627777", "is outside 1..1099511627776"},
        {"NCCL_BUFFSIZE", "0", "0 is outside"},
        {"NCCL_BUFFSIZE", "99999999999999999999", "\"99999999999999999999\" is not an integer"},
        /* Booleans: six words, any case, whole words only. */
        {"NCCL_IB_SPLIT_DATA_ON_QPS", "0", NULL},
        {"NCCL_IB_SPLIT_DATA_ON_QPS", "no", NULL},
        {"NCCL_IB_SPLIT_DATA_ON_QPS", "TRUE", NULL},
        {"NCCL_IB_SPLIT_DATA_ON_QPS", "2", "\"2\" is not one of 0, 1, true, false, yes, no"},
        {"NCCL_IB_SPLIT_DATA_ON_QPS", "tru", "\"tru\" is not one of"},
        {"NCCL_IB_SPLIT_DATA_ON_QPS", "truex", "\"truex\" is not one of"},
        {"coll_hcoll_enable", "yes", NULL},
        {"coll_tuned_use_dynamic_rules", "1", NULL},
        {"coll_tuned_use_dynamic_rules", "on", "\"on\" is not one of"},
        /* Open MPI's selectors: a list, '^' in front excludes. */
        {"pml", "ob1", NULL},
        {"pml", "CM", NULL},
        {"pml", "^ucx", NULL},
        {"pml", "ob1,cm", NULL},
        {"pml", "ob", "\"ob\" is not one of ob1, ucx, cm"},
        {"pml", "ob1x", "\"ob1x\" is not one of"},
        {"pml", "yalla", "\"yalla\" is not one of ob1, ucx, cm"},
        {"pml", "ob1,yalla", "\"yalla\" is not one of"},
        {"pml", "ob1,", "\"\" is not one of"},
        {"btl", "self,vader,tcp", NULL},
        {"btl", "smcuda", NULL},
        {"btl", "^openib", NULL},
        {"btl", "self,ugni",
         "\"ugni\" is not one of self, vader, sm, tcp, uct, openib, ofi, smcuda"},
        {"btl_vader_single_copy_mechanism", "cma", NULL},
        {"btl_vader_single_copy_mechanism", "none", NULL},
        {"btl_vader_single_copy_mechanism", "xpmem", "\"xpmem\" is not one of cma, emulated, none"},
        /* One word, not a list. */
        {"UCX_RNDV_SCHEME", "auto", NULL},
        {"UCX_RNDV_SCHEME", "rkey_ptr", NULL},
        {"UCX_RNDV_SCHEME", "am,auto", "\"am,auto\" is not one of"},
        {"UCX_RNDV_SCHEME", "^am", "\"^am\" is not one of"},
        /* UCX sizes. */
        {"UCX_RNDV_THRESH", "auto", NULL},
        {"UCX_RNDV_THRESH", "INF", NULL},
        {"UCX_RNDV_THRESH", "64K", NULL},
        {"UCX_ZCOPY_THRESH", "8192", NULL},
        {"UCX_ZCOPY_THRESH", "lots", "\"lots\" is not a size, auto or inf"},
        {"NCCL_ALGO", "ring,tree", NULL},
        {"NCCL_PROTO", "LL128", NULL},
        {"NCCL_PROTO", "LL256", "Unrecognized element token"},
        /* coll/tuned: 0 (its own choice) to the collective's last id. */
        {"coll_tuned_bcast_algorithm", "0", NULL},
        {"coll_tuned_bcast_algorithm", "9", NULL},
        {"coll_tuned_bcast_algorithm", "10", "10 is outside 0..9"},
        {"coll_tuned_bcast_algorithm", "-1", "-1 is outside 0..9"},
        {"coll_tuned_alltoall_algorithm", "6", "6 is outside 0..5"},
        /* Segment sizes and request counts from 0, fan-outs and radices
         * from 1. */
        {"coll_tuned_bcast_algorithm_segmentsize", "0", NULL},
        {"coll_tuned_bcast_algorithm_segmentsize", "-1", "-1 is outside 0..1099511627776"},
        {"coll_tuned_alltoall_algorithm_max_requests", "0", NULL},
        {"coll_tuned_alltoall_algorithm_max_requests", "-1", "-1 is outside 0.."},
        {"coll_tuned_bcast_algorithm_chain_fanout", "1", NULL},
        {"coll_tuned_bcast_algorithm_chain_fanout", "0", "0 is outside 1..1099511627776"},
        {"coll_tuned_bcast_algorithm_knomial_radix", "1", NULL},
        {"coll_tuned_bcast_algorithm_knomial_radix", "0", "0 is outside 1.."},
        {"coll_tuned_priority", "-5", NULL}, /* no rule */
        /* Not known: anything goes. */
        {"MY_OWN_VAR", "anything", NULL},
        {"NCCL_NTHREAD", "7", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char why[512] = "";
        ct_status_t st = ct_space_known_check(cases[i].name, cases[i].value, why, sizeof why);
        int ok =
            cases[i].why ? st == CT_ERR_USAGE && strstr(why, cases[i].why) != NULL : st == CT_OK;
        CT_CHECK(&tally, ok);
        if (!ok)
            fprintf(stderr, "  %s=%s: %d \"%s\"\n", cases[i].name, cases[i].value, (int)st, why);
    }
}

/* Which variables are set at run time, their scopes, the two_proc limit. */
static void test_known_scope(void)
{
    static const struct {
        const char *name;
        int runtime;
    } rt[] = {
        {"NCCL_ALGO", 1},
        {"NCCL_PROTO", 1},
        {"NCCL_MIN_CTAS", 0},
        {"MPIR_CVAR_BCAST_INTRA_ALGORITHM", 1},
        {"MPIR_CVAR_IBCAST_INTRA_ALGORITHM", 0},
        {"MPIR_CVAR_BCAST_POSIX_INTRA_ALGORITHM", 0},
        {"MPIR_CVAR_X_INTRA_ALGORITHM", 1},
        {"MPIR_CVAR__INTRA_ALGORITHM", 0},       /* nothing between the two */
        {"XPIR_CVAR_BCAST_INTRA_ALGORITHM", 0},  /* MPIR_CVAR_ only */
        {"MPIR_CVAR_BCAST_INTRA_ALGORITHMS", 0}, /* ends with it */
        {"MPIR_CVAR_COLLECTIVE_FALLBACK", 1},
        {"MPIR_CVAR_DEVICE_COLLECTIVES", 0},
        {"coll_tuned_bcast_algorithm", 1},
        {"coll_tuned_bcast_algorithm_segmentsize", 1},
        {"coll_tuned_bcast_algorithmx", 0},
        {"coll_tuned_use_dynamic_rules", 0}, /* no "_algorithm" at all */
        {"btl", 0},
    };
    for (size_t i = 0; i < sizeof rt / sizeof rt[0]; i++) {
        int got = ct_space_known_runtime(rt[i].name);
        CT_CHECK(&tally, got == rt[i].runtime);
        if (got != rt[i].runtime)
            fprintf(stderr, "  runtime %s: %d\n", rt[i].name, got);
    }

    int scope = 99;
    char why[256] = "";
    CT_CHECK(&tally, ct_space_known_scope("NCCL_ALGO", &scope, why, sizeof why) == CT_OK &&
                         scope == CT_SCOPE_GLOBAL);
    CT_CHECK(&tally,
             ct_space_known_scope("MY_OWN_VAR", &scope, why, sizeof why) == CT_OK && scope == -2);
    CT_CHECK(&tally,
             ct_space_known_scope("coll_tuned_bcast_algorithm", &scope, why, sizeof why) == CT_OK &&
                 scope == CT_COLL_BROADCAST);
    CT_CHECK(&tally,
             ct_space_known_scope("coll_tuned_priority", &scope, why, sizeof why) == CT_OK &&
                 scope == CT_SCOPE_GLOBAL);
    CT_CHECK(&tally, ct_space_known_scope("coll_tuned_reduce_scatter_algorithm", &scope, why,
                                          sizeof why) == CT_ERR_USAGE);
    CT_CHECK(&tally, strstr(why, "use coll_tuned_reduce_scatter_block_algorithm") != NULL);

    /* alltoall's 5 (two_proc) up to 2 ranks, compared as written. */
    const char *w = "x";
    CT_CHECK(&tally, ct_space_known_max_ranks("coll_tuned_alltoall_algorithm", "5", &w) == 2 &&
                         w != NULL && strstr(w, "two_proc") != NULL);
    CT_CHECK(&tally,
             ct_space_known_max_ranks("coll_tuned_alltoall_algorithm", "4", &w) == 0 && w == NULL);
    CT_CHECK(&tally, ct_space_known_max_ranks("coll_tuned_alltoall_algorithm", "05", &w) == 0);
    CT_CHECK(&tally, ct_space_known_max_ranks("coll_tuned_bcast_algorithm", "5", &w) == 0);
}

/* The parser's edges: the first and the last line, each key's field and
 * line in the message, names, bounds. */
static void test_parse_edges(void)
{
    /* Line 1 itself bad: that line, not "no [space] name". */
    check_bad_text("first.ini", "garbage\n[space]\nname = s\n", 1, "line",
                   "not [section], NAME = VALUE or a comment");
    /* The last line, without its newline. */
    check_bad_text("last.ini", "[space]\nname = s\n[var X]\nvalues = 1\ncolour = red", 5, "colour",
                   "unknown key in [var X]");
    /* Names: not from a digit; letters, digits and '_'. */
    check_bad_text("digit.ini", "[space]\nname = s\n[var 1X]\nvalues = 1\n", 3, "var",
                   "\"1X\" is not a variable name");
    check_bad_text("digit_fixed.ini", "[space]\nname = s\n[fixed 9]\nvalue = 1\n", 3, "fixed",
                   "\"9\" is not a variable name");
    check_bad_text("dash.ini", "[space]\nname = s\n[var A-B]\nvalues = 1\n", 3, "var",
                   "\"A-B\" is not a variable name");
    /* A value no file can carry, at the line of that value (a
     * continuation line). */
    check_bad_text("semicolon.ini",
                   "[space]\nname = s\n[var UCX_TLS]\nvalues = all,\n  \"tcp;x\"\n", 5, "UCX_TLS",
                   "ucx.conf: the value of UCX_TLS contains ';' or '#'");
    /* A known variable's rule, in the field that gave the value. */
    check_bad_text("nthreads.ini", "[space]\nname = s\n[var NCCL_NTHREADS]\nvalues = 64, 96\n", 4,
                   "values", "NCCL_NTHREADS: 96 is not one of 64,128,256,512");
    check_bad_text("default.ini",
                   "[space]\nname = s\n[var NCCL_MIN_CTAS]\nvalues = 1, 2\ndefault = 65\n", 5,
                   "default", "NCCL_MIN_CTAS: 65 is outside 1..64");
    check_bad_text(
        "requires.ini",
        "[space]\nname = s\n[var NCCL_MIN_CTAS]\nvalues = 1\nrequires = NCCL_CROSS_NIC=3\n", 5,
        "requires", "NCCL_CROSS_NIC: 3 is outside 0..2");
    /* max_ranks: at least 1 rank. */
    check_bad_text("max_ranks0.ini", "[space]\nname = s\n[var X]\nvalues = 1, 2\nmax_ranks = 1:0\n",
                   5, "max_ranks", "\"1:0\" is not VALUE:RANKS");
    /* when: a name before the '='. */
    /* when's NAME: 127 characters are a name (not declared here), 128 do
     * not fit the parser's buffer and are refused as such, not cut. */
    {
        char w[512], nm[130];
        memset(nm, 'W', sizeof nm);
        nm[127] = '\0';
        snprintf(w, sizeof w,
                 "[space]\nname = s\n[var X]\nvalues = 1, 2\n[var Y]\nvalues = 3\nwhen = %s=1\n",
                 nm);
        check_bad_text("when_127.ini", w, 7, "when", "is not a searched variable declared above");
        memset(nm, 'W', sizeof nm);
        nm[128] = '\0';
        snprintf(w, sizeof w,
                 "[space]\nname = s\n[var X]\nvalues = 1, 2\n[var Y]\nvalues = 3\nwhen = %s=1\n",
                 nm);
        check_bad_text("when_128.ini", w, 7, "when", "is not NAME=VALUE");
    }
    /* An unreadable space: "PATH: cannot read: REASON", the reason whole. */
    {
        char err[1024] = "", want[1200];
        ct_space_t sp;
        const char *missing = "/nonexistent-colltune-dir/space.ini";
        CT_CHECK(&tally, ct_space_load(missing, &sp, err, sizeof err) == CT_ERR_USAGE);
        snprintf(want, sizeof want, "%s: cannot read: No such file or directory", missing);
        CT_CHECK(&tally, strncmp(err, want, strlen(want)) == 0);
        if (strncmp(err, want, strlen(want)) != 0)
            fprintf(stderr, "  unreadable: got \"%s\", want \"%s...\"\n", err, want);
    }
    check_bad_text("when_noname.ini",
                   "[space]\nname = s\n[var X]\nvalues = 1, 2\n[var Y]\nvalues = 3\nwhen = =1\n", 7,
                   "when", "\"=1\" is not NAME=VALUE");
    /* when is for searched variables only. */
    check_bad_text("when_fixed.ini",
                   "[space]\nname = s\n[var X]\nvalues = 1, 2\n[fixed Y]\nvalue = 3\nwhen = X=1\n",
                   7, "when", "unknown key in [fixed Y]");
    /* A constraint over two scopes names the two variables. */
    check_bad_text("scopes.ini",
                   "[space]\nname = s\n[var A]\nvalues = 1, 2\n[var B]\nvalues = 1, 2\n"
                   "[var C]\nscope = allreduce\nvalues = 1, 2\n[constraint k]\nproduct = B, C\n"
                   "max = 4\n",
                   11, "product", "C and B have different scopes");
    /* range: LO of 63 characters is read, of 64 refused. */
    char text[512];
    ct_space_t space;
    snprintf(text, sizeof text, "[space]\nname = s\n[var X]\nrange = %062d1..2\n", 0);
    if (load_text("lo63.ini", text, &space)) {
        CT_CHECK(&tally, space.nvars == 1 && space.vars[0].nvalues == 2 &&
                             strcmp(space.vars[0].values[0], "1") == 0);
        ct_space_free(&space);
    }
    snprintf(text, sizeof text, "[space]\nname = s\n[var X]\nrange = %063d1..2\n", 0);
    check_bad_text("lo64.ini", text, 4, "range", "is not LO..HI[:STEP]");
    /* The last value of a range: the high bound when the step lands on
     * it, the last step below it otherwise, the low bound alone when the
     * step is larger than the high bound (hi - step once wrapped and ran
     * to the 4096-value cap); pow2 to the last power of two <= hi. */
    static const struct {
        const char *range;
        size_t n;
        const char *first, *last;
    } ranges[] = {
        {"range = 1..3:4", 1, "1", "1"}, {"range = 0..8:4", 3, "0", "8"},
        {"range = 0..9:4", 3, "0", "8"}, {"range = 5..5", 1, "5", "5"},
        {"range = 1..3:2", 2, "1", "3"}, {"pow2 = 1..1", 1, "1", "1"},
        {"pow2 = 4..64", 5, "4", "64"},  {"pow2 = 1..2", 2, "1", "2"},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        snprintf(text, sizeof text, "[space]\nname = s\n[var X]\n%s\n", ranges[i].range);
        if (!load_text("range_end.ini", text, &space)) {
            fprintf(stderr, "%s: refused\n", ranges[i].range);
            CT_CHECK(&tally, 0);
            continue;
        }
        const ct_space_var_t *x = &space.vars[0];
        int ok = x->nvalues == ranges[i].n && strcmp(x->values[0], ranges[i].first) == 0 &&
                 strcmp(x->values[x->nvalues - 1], ranges[i].last) == 0;
        CT_CHECK(&tally, ok);
        if (!ok)
            fprintf(stderr, "%s: %zu values, want %zu (%s..%s)\n", ranges[i].range, x->nvalues,
                    ranges[i].n, ranges[i].first, ranges[i].last);
        ct_space_free(&space);
    }

    /* via and scope in one section (distinct keys); the default via by
     * the name's first letter: lower case mca, else env. */
    if (load_text("via.ini",
                  "[space]\nname = s\n[var coll_tuned_bcast_algorithm]\nvia = mca\n"
                  "scope = broadcast\nvalues = 1, 2\n[var x]\nvalues = 1, 2\n[var Ab]\n"
                  "values = 1, 2\n[var aB]\nvalues = 1, 2\n",
                  &space)) {
        CT_CHECK(&tally, space.nvars == 4);
        CT_CHECK(&tally,
                 space.vars[0].via == CT_VIA_MCA && space.vars[0].scope == CT_COLL_BROADCAST);
        long x = ct_space_find(&space, "x"), ab = ct_space_find(&space, "Ab"),
             ab2 = ct_space_find(&space, "aB");
        CT_CHECK(&tally, x >= 0 && space.vars[x].via == CT_VIA_MCA);
        CT_CHECK(&tally, ab >= 0 && space.vars[ab].via == CT_VIA_ENV);
        CT_CHECK(&tally, ab2 >= 0 && space.vars[ab2].via == CT_VIA_MCA);
        ct_space_free(&space);
    }
}

int main(void)
{
    CT_CHECK(&tally, mkdtemp(tmpdir) != NULL);
    test_known_values();
    test_known_scope();
    test_parse_edges();
    test_malformed();
    test_shipped();
    test_enumeration();
    test_index();
    rmdir(tmpdir);
    return CT_DONE(&tally);
}
