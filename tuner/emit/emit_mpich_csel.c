/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit_mpich_csel.c - mpich-coll-selection.json: MPICH 4's own collective
 * selection tree (CSEL, MPIR level), for choices that differ by size.
 *
 * MPICH reads MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE once at MPI_Init
 * and the file replaces its whole built-in MPIR tree: a collective the
 * tree does not cover asserts (MPIR_Assert(cnt)) on its first call.  So
 * the file is the installed library's own tree (r->mpich_tree, read out of
 * libmpich by ct_emit_mpich_tree_read) with one subtree per tuned
 * collective replaced: at each measured communicator size (one per rank
 * count the choices were measured at; two shapes of one count must agree,
 * ct_emit_shape_conflict), each verified size range selects the chosen
 * algorithm; other sizes and other communicator sizes keep the library's
 * subtree, and every other
 * collective keeps its tree byte for byte (compact, in key order, which
 * CSEL follows: the first matching key wins).  Written only where a
 * choice holds over a size range: a choice for every size is a CVAR in
 * mpich.env, which needs no copy of MPICH's tree.
 */
#define _XOPEN_SOURCE 700

#include "emit_format.h"

#include "ct_input.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "ct_library.h"

#define CT_CSEL_COLL_KEY "collective="
#define CT_CSEL_MPIR_LEAF "\"algorithm=MPIR_"

/* How CSEL names and sizes a collbench collective. */
typedef struct {
    int id;           /* ct_coll_id_t */
    const char *cvar; /* its MPIR algorithm CVAR */
    const char *csel; /* "collective=..." */
    const char *fn;   /* MPIR function stem: fn + "_intra_" + algorithm */
    const char *key;  /* the size test CSEL defines for it (csel.c) */
    int per_peer;     /* avg_msg_size of alltoall: collbench's size / ranks */
    /* The CVAR's forcing values in MPICH 4.0 (mpivars; csel.c names each
     * as fn + "_intra_" + it, nb as fn + "_allcomm_nb"), space-separated. */
    const char *algs;
} ct_csel_coll_t;

static const ct_csel_coll_t ct_csel_colls[] = {
    {CT_COLL_ALLREDUCE, "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM", "allreduce", "MPIR_Allreduce",
     "avg_msg_size", 0, "nb smp recursive_doubling reduce_scatter_allgather"},
    {CT_COLL_ALLGATHER, "MPIR_CVAR_ALLGATHER_INTRA_ALGORITHM", "allgather", "MPIR_Allgather",
     "total_msg_size", 0, "brucks nb recursive_doubling ring"},
    {CT_COLL_ALLTOALL, "MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM", "alltoall", "MPIR_Alltoall",
     "avg_msg_size", 1, "brucks nb pairwise pairwise_sendrecv_replace scattered"},
    {CT_COLL_BROADCAST, "MPIR_CVAR_BCAST_INTRA_ALGORITHM", "bcast", "MPIR_Bcast", "avg_msg_size", 0,
     "binomial nb smp scatter_recursive_doubling_allgather scatter_ring_allgather"},
    {CT_COLL_REDUCE_SCATTER, "MPIR_CVAR_REDUCE_SCATTER_BLOCK_INTRA_ALGORITHM",
     "reduce_scatter_block", "MPIR_Reduce_scatter_block", "total_msg_size", 0,
     "noncommutative recursive_doubling pairwise recursive_halving nb"},
};
#define CT_CSEL_NCOLLS (sizeof ct_csel_colls / sizeof ct_csel_colls[0])

/* Sets key to v (owned); nonzero when v is NULL or on failure. */
static int ct_csel_set(json_t *o, const char *key, json_t *v)
{
    return v == NULL || json_object_set_new(o, key, v) != 0;
}

/*
 * A CSEL leaf runs its algorithm unchecked, where the CVAR path first
 * checks the algorithm's restrictions (coll_algorithms.txt) and falls back
 * to MPICH's choice: a reduce_scatter_allgather leaf asserts on a user op,
 * a recursive_doubling allgather on 3 ranks.  Each restriction becomes a
 * test in front of the leaf, its other branch the library's subtree.
 */
typedef struct {
    int id;
    const char *alg;
    const char *pass[2]; /* tests the leaf needs, in order (NULL: none) */
    const char *fail[2]; /* the sibling each falls back through */
    int fail_first[2];   /* the failing test comes first (count<pow2) */
} ct_csel_guard_t;

static const ct_csel_guard_t ct_csel_guards[] = {
    {CT_COLL_BROADCAST, "smp", {"comm_hierarchy=parent"}, {"comm_hierarchy=any"}, {0}},
    {CT_COLL_ALLGATHER, "recursive_doubling", {"comm_size=pow2"}, {"comm_size=any"}, {0}},
    {CT_COLL_ALLTOALL, "brucks", {"is_sendbuf_inplace=no"}, {"is_sendbuf_inplace=yes"}, {0}},
    {CT_COLL_ALLTOALL, "pairwise", {"is_sendbuf_inplace=no"}, {"is_sendbuf_inplace=yes"}, {0}},
    {CT_COLL_ALLTOALL, "scattered", {"is_sendbuf_inplace=no"}, {"is_sendbuf_inplace=yes"}, {0}},
    {CT_COLL_ALLTOALL,
     "pairwise_sendrecv_replace",
     {"is_sendbuf_inplace=yes"},
     {"is_sendbuf_inplace=no"},
     {0}},
    {CT_COLL_ALLREDUCE,
     "smp",
     {"is_commutative=yes", "comm_hierarchy=parent"},
     {"is_commutative=no", "comm_hierarchy=any"},
     {0, 0}},
    {CT_COLL_ALLREDUCE,
     "reduce_scatter_allgather",
     {"is_op_built_in=yes", "count=any"},
     {"is_op_built_in=no", "count<pow2"},
     {0, 1}},
    {CT_COLL_REDUCE_SCATTER, "noncommutative", {"comm_size=pow2"}, {"comm_size=any"}, {0}},
    {CT_COLL_REDUCE_SCATTER, "pairwise", {"is_commutative=yes"}, {"is_commutative=no"}, {0}},
    {CT_COLL_REDUCE_SCATTER,
     "recursive_halving",
     {"is_commutative=yes"},
     {"is_commutative=no"},
     {0}},
};
#define CT_CSEL_NGUARDS (sizeof ct_csel_guards / sizeof ct_csel_guards[0])

/* leaf (taken) behind the restrictions of algorithm alg of collective id,
 * each failing one leading to a copy of orig; NULL without memory. */
static json_t *ct_csel_guard(int id, const char *alg, json_t *leaf, json_t *orig)
{
    const ct_csel_guard_t *g = NULL;
    for (size_t i = 0; i < CT_CSEL_NGUARDS && g == NULL; i++)
        if (ct_csel_guards[i].id == id && strcmp(ct_csel_guards[i].alg, alg) == 0)
            g = &ct_csel_guards[i];
    for (int t = 1; g != NULL && leaf != NULL && t >= 0; t--) {
        if (g->pass[t] == NULL)
            continue;
        json_t *o = json_object();
        int bad = o == NULL;
        if (!bad && g->fail_first[t]) {
            bad |= ct_csel_set(o, g->fail[t], json_deep_copy(orig));
            bad |= ct_csel_set(o, g->pass[t], leaf);
        } else if (!bad) {
            bad |= ct_csel_set(o, g->pass[t], leaf);
            bad |= ct_csel_set(o, g->fail[t], json_deep_copy(orig));
        } else
            json_decref(leaf);
        if (bad) {
            json_decref(o);
            return NULL;
        }
        leaf = o;
    }
    return leaf;
}

/* c's collective when c is its MPIR algorithm CVAR over a size range. */
static const ct_csel_coll_t *ct_csel_coll_of(const ct_tune_choice_t *c)
{
    char buf[256];
    if (c->via != CT_VIA_ENV || ct_emit_full_range(c) ||
        !ct_setting_is(c->name, c->via, CT_LIB_MPICH) ||
        !ct_library_cvar_name(c->name, 0, buf, sizeof buf))
        return NULL;
    for (size_t i = 0; i < CT_CSEL_NCOLLS; i++)
        if (ct_csel_colls[i].id == c->scope && strcmp(ct_csel_colls[i].cvar, buf) == 0)
            return &ct_csel_colls[i];
    return NULL;
}

/* As ct_csel_coll_of, for a choice the file may carry. */
static const ct_csel_coll_t *ct_csel_range_choice(const ct_tune_choice_t *c)
{
    return ct_emit_usable(c) ? ct_csel_coll_of(c) : NULL;
}

/* The leaf that runs algorithm alg of k, in CSEL's words, into buf; 0
 * when the file cannot name it: not one of MPICH 4.0's values for k's CVAR
 * nor a leaf the installed tree already uses (a newer MPICH's name). */
static int ct_csel_leaf(const ct_csel_coll_t *k, const char *alg, const char *tree, char *buf,
                        size_t len)
{
    size_t n = strlen(alg);
    if (n == 0 || strspn(alg, "abcdefghijklmnopqrstuvwxyz0123456789_") != n)
        return 0;
    if (strcmp(alg, "nb") == 0)
        snprintf(buf, len, "algorithm=%s_allcomm_nb", k->fn);
    else
        snprintf(buf, len, "algorithm=%s_intra_%s", k->fn, alg);
    for (const char *p = strstr(k->algs, alg); p != NULL; p = strstr(p + 1, alg))
        if ((p == k->algs || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    char quoted[200];
    snprintf(quoted, sizeof quoted, "\"%s\"", buf);
    return tree != NULL && strstr(tree, quoted) != NULL;
}

/* The site's setting that outranks this file for choice c (its algorithm
 * CVAR forced in the environment: ct_site_outranks), or NULL. */
static const ct_site_setting_t *ct_csel_site_of(const ct_tune_result_t *r,
                                                const ct_tune_choice_t *c)
{
    return ct_site_outranks(r->site, CT_EMIT_MPICH_CSEL_NAME, c->name, c->value, c->scope, NULL);
}

/* The site setting this file overrides for collective k (through
 * mpich.env's =auto), or NULL: the first of k's choices it outranks. */
static const ct_site_setting_t *ct_csel_site_for(const ct_tune_result_t *r, const ct_csel_coll_t *k)
{
    for (size_t i = 0; i < r->nchoices; i++)
        if (ct_csel_range_choice(&r->choices[i]) == k) {
            const ct_site_setting_t *e = ct_csel_site_of(r, &r->choices[i]);
            if (e != NULL)
                return e;
        }
    return NULL;
}

const ct_site_setting_t *ct_emit_mpich_csel_overrides(const ct_tune_result_t *r,
                                                      const ct_tune_choice_t *c)
{
    return r->mpich_tree != NULL && ct_csel_range_choice(c) != NULL ? ct_csel_site_of(r, c) : NULL;
}

int ct_emit_mpich_csel_carries(const ct_tune_result_t *r, const ct_tune_choice_t *c)
{
    return r->mpich_tree != NULL && ct_csel_coll_of(c) != NULL;
}

int ct_emit_mpich_csel_needs(const ct_tune_result_t *r, const ct_tune_choice_t *c)
{
    char buf[256];
    if (r->mpich_tree == NULL || c->via != CT_VIA_ENV || ct_emit_full_range(c) ||
        !ct_setting_is(c->name, c->via, CT_LIB_MPICH) ||
        !ct_library_cvar_name(c->name, 0, buf, sizeof buf))
        return 0;
    size_t n = strlen(buf), t = strlen("_DEVICE_COLLECTIVE");
    if (strcmp(buf, "MPIR_CVAR_DEVICE_COLLECTIVES") != 0 &&
        (n <= t || strcmp(buf + n - t, "_DEVICE_COLLECTIVE") != 0))
        return 0;
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *d = &r->choices[i];
        if (ct_csel_coll_of(d) != NULL && d->scope == c->scope && d->min_bytes == c->min_bytes &&
            d->max_bytes == c->max_bytes)
            return 1;
    }
    return 0;
}

static int ct_csel_wanted(const ct_tune_result_t *r)
{
    for (size_t i = 0; i < r->nchoices; i++)
        if (r->mpich_tree != NULL && ct_csel_range_choice(&r->choices[i]) != NULL)
            return 1;
    return 0;
}

/* A size bound in CSEL's unit: collbench's size, or per peer. */
static long long ct_csel_bytes(const ct_csel_coll_t *k, long long b, long nranks, int up)
{
    if (!k->per_peer || nranks < 1)
        return b;
    return up ? (b + nranks - 1) / nranks : b / nranks;
}

/* The subtree for the measured communicator size: each range of k's
 * choices (in size order) its algorithm, the gaps and what lies beyond
 * base (the library's own subtree orig, or the site's forced algorithm);
 * an "auto" choice and a leaf's failed restriction take orig. */
static json_t *ct_csel_sizes(const ct_tune_result_t *r, const ct_csel_coll_t *k, json_t *orig,
                             json_t *base, char *err, size_t errlen)
{
    json_t *o = json_object();
    /* The first size not yet covered, in collbench's bytes (to pick the
     * next choice) and in CSEL's unit (to see a gap: per peer, for
     * alltoall, a total of 16 KiB at 16 ranks is 1 KiB). */
    long long next = 0, next_key = 0;
    int open = 0, bad = o == NULL;
    for (;;) {
        const ct_tune_choice_t *c = NULL;
        for (size_t i = 0; i < r->nchoices; i++) {
            const ct_tune_choice_t *d = &r->choices[i];
            long long lo = d->min_bytes < 0 ? 0 : d->min_bytes;
            if (ct_csel_range_choice(d) == k && lo >= next &&
                (c == NULL || lo < (c->min_bytes < 0 ? 0 : c->min_bytes)))
                c = d;
        }
        if (c == NULL || open || bad)
            break;
        char key[96], leaf[160];
        long long lo = ct_csel_bytes(k, c->min_bytes < 0 ? 0 : c->min_bytes, r->nranks, 1);
        if (lo > next_key) {
            snprintf(key, sizeof key, "%s<=%lld", k->key, lo - 1);
            bad |= ct_csel_set(o, key, json_deep_copy(base));
        }
        if (strcmp(c->value, "auto") == 0)
            snprintf(leaf, sizeof leaf, "%s", "");
        else if (strcmp(c->value, "nb") == 0)
            snprintf(leaf, sizeof leaf, "algorithm=%s_allcomm_nb", k->fn);
        else
            snprintf(leaf, sizeof leaf, "algorithm=%s_intra_%s", k->fn, c->value);
        json_t *alg = json_object();
        bad |= alg == NULL;
        if (!bad && leaf[0] != '\0') {
            bad |= ct_csel_set(alg, leaf, json_object());
            alg = bad ? NULL : ct_csel_guard(k->id, c->value, alg, orig);
        } else if (!bad) {
            json_decref(alg);
            alg = json_deep_copy(orig);
        }
        if (c->max_bytes < 0) {
            snprintf(key, sizeof key, "%s=any", k->key);
            open = 1;
        } else {
            long long hi = ct_csel_bytes(k, c->max_bytes, r->nranks, 0);
            snprintf(key, sizeof key, "%s<=%lld", k->key, hi);
            next = c->max_bytes + 1;
            next_key = hi + 1;
        }
        bad |= ct_csel_set(o, key, alg);
    }
    if (!open && !bad) {
        char key[96];
        snprintf(key, sizeof key, "%s=any", k->key);
        bad |= ct_csel_set(o, key, json_deep_copy(base));
    }
    if (bad) {
        json_decref(o);
        snprintf(err, errlen, "mpich-coll-selection.json: out of memory");
        return NULL;
    }
    return o;
}

/* Whether r (a view at one rank count) has a choice of k's. */
static int ct_csel_has(const ct_tune_result_t *r, const ct_csel_coll_t *k)
{
    for (size_t i = 0; i < r->nchoices; i++)
        if (ct_csel_range_choice(&r->choices[i]) == k)
            return 1;
    return 0;
}

/* k's intra subtree into *intra_p: each communicator size measured its
 * tuned sizes (CSEL has no "comm_size=N": below it, N itself), every size
 * below, between and above them base. */
static ct_status_t ct_csel_intra(const ct_tune_result_t *r, const ct_csel_coll_t *k, json_t *orig,
                                 json_t *base, json_t **intra_p, char *err, size_t errlen)
{
    long *counts;
    size_t n;
    if (ct_emit_rank_counts(r, &counts, &n) != CT_OK)
        return CT_ERR_NOMEM;
    json_t *intra = json_object();
    int bad = intra == NULL, one = 0;
    long prev = 0; /* the largest communicator size a key covers so far */
    for (size_t v = 0; v < n && !bad && !one; v++) {
        ct_tune_result_t view;
        char key[64];
        if (ct_emit_ranks_view(r, counts[v], &view) != CT_OK) {
            bad = 1;
            break;
        }
        if (ct_csel_has(&view, k) && view.nranks < 2) {
            snprintf(err, errlen, "mpich-coll-selection.json: measured at %ld ranks", view.nranks);
            one = 1;
        } else if (ct_csel_has(&view, k)) {
            snprintf(key, sizeof key, "comm_size<=%ld", view.nranks - 1);
            if (view.nranks - 1 > prev)
                bad |= ct_csel_set(intra, key, json_deep_copy(base));
            snprintf(key, sizeof key, "comm_size<=%ld", view.nranks);
            bad |= ct_csel_set(intra, key, ct_csel_sizes(&view, k, orig, base, err, errlen));
            prev = view.nranks;
        }
        ct_emit_shape_view_free(&view);
    }
    free(counts);
    if (!bad && !one)
        bad |= ct_csel_set(intra, "comm_size=any", json_deep_copy(base));
    if (bad || one) {
        json_decref(intra);
        return one ? CT_ERR_USAGE : CT_ERR_NOMEM;
    }
    *intra_p = intra;
    return CT_OK;
}

/* Replaces k's intra subtree in tree: each measured communicator size
 * gets its tuned sizes, the others the library's subtree. */
static ct_status_t ct_csel_splice(const ct_tune_result_t *r, json_t *tree, const ct_csel_coll_t *k,
                                  char *err, size_t errlen)
{
    char ckey[64];
    snprintf(ckey, sizeof ckey, CT_CSEL_COLL_KEY "%s", k->csel);
    json_t *coll = json_object_get(tree, ckey);
    json_t *orig = coll ? json_object_get(coll, "comm_type=intra") : NULL;
    if (!json_is_object(orig)) {
        snprintf(err, errlen,
                 "mpich-coll-selection.json: the installed MPICH's selection tree has no "
                 "\"%s\" / \"comm_type=intra\" to put %s's choices in",
                 ckey, ct_coll_name((ct_coll_id_t)k->id));
        return CT_ERR_USAGE;
    }
    json_incref(orig);
    /* A site that forces k's algorithm in the environment keeps it
     * wherever the tune chose nothing: mpich.env sets the CVAR to auto so
     * that MPICH reads this file, which then holds the site's decision
     * (behind its restrictions, as the CVAR path checks them). */
    json_t *base = orig;
    const ct_site_setting_t *e = ct_csel_site_for(r, k);
    char leaf[160];
    if (e != NULL && !ct_csel_leaf(k, e->value, r->mpich_tree, leaf, sizeof leaf)) {
        snprintf(err, errlen,
                 "mpich-coll-selection.json: the site's %s=%s (%s) names no algorithm this "
                 "file can hold",
                 e->name, e->value, e->origin);
        json_decref(orig);
        return CT_ERR_USAGE;
    }
    if (e != NULL) {
        json_t *l = json_object();
        if (l != NULL && ct_csel_set(l, leaf, json_object()) != 0) {
            json_decref(l);
            l = NULL;
        }
        base = l != NULL ? ct_csel_guard(k->id, e->value, l, orig) : NULL;
    } else
        json_incref(base);
    json_t *intra = NULL;
    ct_status_t st = base ? ct_csel_intra(r, k, orig, base, &intra, err, errlen) : CT_ERR_NOMEM;
    json_decref(base);
    /* Replacing the value keeps the key's place (jansson keeps insertion
     * order), so the collectives stay in the library's order. */
    if (st == CT_OK && json_object_set_new(coll, "comm_type=intra", intra) != 0)
        st = CT_ERR_NOMEM;
    json_decref(orig);
    if (st == CT_ERR_NOMEM && err[0] == '\0')
        snprintf(err, errlen, "mpich-coll-selection.json: out of memory");
    return st;
}

static ct_status_t ct_csel_write(const ct_emit_ctx_t *ctx, FILE *fp, char *err, size_t errlen)
{
    const ct_tune_result_t *r = ctx->r;
    json_error_t jerr;
    err[0] = '\0';
    json_t *tree = json_loads(r->mpich_tree, 0, &jerr);
    if (!json_is_object(tree)) {
        json_decref(tree);
        snprintf(err, errlen, "mpich-coll-selection.json: MPICH's selection tree: %s", jerr.text);
        return CT_ERR_USAGE;
    }
    ct_status_t st = CT_OK;
    /* A communicator size has one subtree: its shapes must agree. */
    for (size_t i = 0; i < r->nchoices && st == CT_OK; i++)
        if (ct_csel_range_choice(&r->choices[i]) != NULL &&
            ct_emit_shape_conflict_in(r, &r->choices[i], CT_EMIT_MPICH_CSEL_NAME, err, errlen) !=
                NULL)
            st = CT_ERR_USAGE;
    for (size_t i = 0; i < CT_CSEL_NCOLLS && st == CT_OK; i++) {
        int has = 0;
        for (size_t j = 0; j < r->nchoices; j++)
            has |= ct_csel_range_choice(&r->choices[j]) == &ct_csel_colls[i];
        if (has && r->mpich_tree != NULL)
            st = ct_csel_splice(r, tree, &ct_csel_colls[i], err, errlen);
    }
    if (st == CT_OK && (json_dumpf(tree, fp, JSON_COMPACT) != 0 || fputc('\n', fp) == EOF)) {
        snprintf(err, errlen, "mpich-coll-selection.json: write failed");
        st = CT_ERR_IO;
    }
    json_decref(tree);
    return st;
}

ct_status_t ct_emit_mpich_tree_read(const char *lib, char **tree_p, char *err, size_t errlen)
{
    char *buf;
    size_t len;
    ct_status_t st = ct_input_slurp(lib, CT_INPUT_MAX_DATA, 0, &buf, &len, err, errlen);
    if (st != CT_OK)
        return st;
    /* json_gen.sh compiles each tree in as one NUL-terminated string with
     * no white space, opening with its first collective; the MPIR tree is
     * the one whose leaves are MPIR functions (ch4's are compositions). */
    const char *open = "{\"" CT_CSEL_COLL_KEY;
    size_t olen = strlen(open);
    for (size_t i = 0; i + olen < len; i++) {
        if (memcmp(buf + i, open, olen) != 0)
            continue;
        const char *s = buf + i;
        size_t n = strnlen(s, len - i);
        char *t = malloc(n + 1);
        if (t == NULL) {
            free(buf);
            return CT_ERR_NOMEM;
        }
        memcpy(t, s, n);
        t[n] = '\0';
        i += n;
        json_t *j = strstr(t, CT_CSEL_MPIR_LEAF) ? json_loads(t, 0, NULL) : NULL;
        if (json_is_object(j)) {
            json_decref(j);
            free(buf);
            *tree_p = t;
            return CT_OK;
        }
        json_decref(j);
        free(t);
    }
    free(buf);
    snprintf(err, errlen, "%s: no built-in MPIR collective selection tree in it (not MPICH 4?)",
             lib);
    return CT_ERR_USAGE;
}

/* A range choice of c's collective goes here; a site that forces the
 * algorithm is overridden (mpich.env: =auto, this file: the site's
 * algorithm elsewhere) unless the file cannot name the site's algorithm:
 * then =auto would change what runs at every other size, and the choice
 * is dropped with the setting named. */
static const char *ct_csel_outranked(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                                     char *buf, size_t len)
{
    const ct_csel_coll_t *k = r->mpich_tree != NULL ? ct_csel_coll_of(c) : NULL;
    const char *why = NULL;
    const ct_site_setting_t *e =
        k ? ct_site_outranks(r->site, CT_EMIT_MPICH_CSEL_NAME, c->name, c->value, c->scope, &why)
          : NULL;
    char leaf[160];
    if (e == NULL || ct_csel_leaf(k, e->value, r->mpich_tree, leaf, sizeof leaf))
        return NULL;
    snprintf(
        buf, len,
        "outranked by the site's %s=%s (%s): %s; setting it to auto beside " CT_EMIT_MPICH_CSEL_NAME
        " would lose the site's '%s' at every other size, which "
        "the file cannot name (not one of MPICH 4.0's %s algorithms nor in the installed "
        "tree); unset it in the job, or tune with --extend-ranges (mpich.env, every size)",
        e->name, e->value, e->origin, why ? why : "MPICH reads the file only for auto", e->value,
        k->csel);
    return buf;
}

/* An MPIR algorithm CVAR over a size range, with MPICH's own tree known,
 * and a setting such a choice needs (mpich.env writes that one for every
 * size; it is keyed with the range it serves). */
static ct_emit_carry_t ct_csel_carries(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                                       const char **why_p)
{
    (void)why_p;
    return ct_emit_mpich_csel_carries(r, c) || ct_emit_mpich_csel_needs(r, c) ? CT_EMIT_CARRIES
                                                                              : CT_EMIT_NOT_MINE;
}

/* MPICH reads it through its CVAR at MPI_Init, on every rank.  JSON has
 * no comments and CSEL takes every key as a test: mpich.env's header
 * names what this file overrides. */
const ct_emit_format_t ct_emit_mpich_csel = {
    .name = CT_EMIT_MPICH_CSEL_NAME,
    .wanted = ct_csel_wanted,
    .write = ct_csel_write,
    .install = NULL,
    .outranked = ct_csel_outranked,
    .carries = ct_csel_carries,
};
