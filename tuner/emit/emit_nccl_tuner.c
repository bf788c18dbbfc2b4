/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit_nccl_tuner.c - nccl_tuner.conf: the rules colltune's NCCL tuner
 * plugin reads (tuner/plugin/README.md; parsed by tuner/plugin/rules.c).
 *
 * One rule per collective and size span where the tune chose NCCL_ALGO,
 * NCCL_PROTO or both over a range of sizes (ct_emit_nccl_is_rule):
 *   collective,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks
 * carrying exactly the measured span.  An algorithm chosen alone gets
 * protocol -1 (the plugin then makes it win with NCCL's cheapest protocol
 * for it), a protocol alone algorithm -1; both over the same span are one
 * rule.  Where an algorithm's span and a protocol's overlap only in part,
 * the spans are cut at every bound so each piece carries what covers it.
 * A value is the choice's entry for the collective (ct_nccl_list.h), which
 * must hold exactly one algorithm or protocol.  Names are ct_names'
 * canonical spellings, which the plugin reads.  A rule holds only at the
 * shape it was measured at (nNodes, nRanks: the choice's own, so a result
 * of several shapes writes each collective's rules at every one, and a
 * shape never measured matches none); channels stay NCCL's (-1).  A rule
 * for the site's element everywhere else (nNodes -1) comes after its
 * collective's rules at every shape.
 * Sizes are collbench's, which are NCCL's nBytes: the total for allgather
 * and reduce_scatter.
 */
#include "emit_format.h"
#include "ct_vec.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const ct_coll_name_t *cn;
    long long lo, hi;    /* inclusive; hi LLONG_MAX: no top */
    int algo, proto;     /* NCCL's ids, or -1: the plugin's "any" */
    int any_shape;       /* nNodes and nRanks -1: the site's decision, kept */
    long nnodes, nranks; /* the shape it holds at */
} ct_nccl_rule_t;

/* One range choice, resolved. */
typedef struct {
    const ct_tune_choice_t *c;
    ct_nccl_list_kind_t kind;
    int id;                /* the one algorithm or protocol */
    long long lo, hi_excl; /* hi_excl LLONG_MAX: no top */
} ct_span_t;

static int ct_nccl_tuner_wanted(const ct_tune_result_t *r)
{
    for (size_t i = 0; i < r->nchoices; i++)
        if (ct_emit_nccl_is_rule(r, &r->choices[i]))
            return 1;
    return 0;
}

/* c as a span with its one element; the writer's reasons match
 * ct_emit_cannot_carry's. */
static ct_status_t ct_span_of(const ct_tune_choice_t *c, ct_span_t *s_p, char *err, size_t errlen)
{
    ct_nccl_list_kind_t kind;
    const ct_coll_name_t *cn;
    ct_nccl_list_func_t proj;
    char why[768];

    (void)ct_emit_nccl_list_kind(c, &kind);
    const ct_coll_name_t *row = ct_coll_name_find(ct_coll_name((ct_coll_id_t)c->scope));
    if (row == NULL || row->nccl_func < 0) {
        snprintf(err, errlen, "nccl_tuner.conf: %s for %s: NCCL never asks the tuner about it",
                 c->name, row ? row->name : "?");
        return CT_ERR_USAGE;
    }
    if (ct_emit_nccl_project(c, kind, &cn, &proj, why, sizeof why) != CT_OK) {
        snprintf(err, errlen, "nccl_tuner.conf: %s", why);
        return CT_ERR_USAGE;
    }
    int id = ct_nccl_list_only(proj.mask);
    if (id < 0) {
        snprintf(err, errlen,
                 "nccl_tuner.conf: %s=%s for %s over %lld..%lld bytes: it leaves %s %d %ss, "
                 "and a rule names one (NCCL reads %s for every size)",
                 c->name, c->value, cn->name, c->min_bytes, c->max_bytes, cn->nccl_name,
                 ct_nccl_list_count(proj.mask),
                 kind == CT_NCCL_LIST_ALGO ? "algorithm" : "protocol", c->name);
        return CT_ERR_USAGE;
    }
    s_p->c = c;
    s_p->kind = kind;
    s_p->id = id;
    s_p->lo = c->min_bytes < 0 ? 0 : c->min_bytes;
    s_p->hi_excl = c->max_bytes < 0 || c->max_bytes == LLONG_MAX ? LLONG_MAX : c->max_bytes + 1;
    return CT_OK;
}

/* The element of kind the spans give [lo, ..), or -1; two different ones
 * overlapping there is CT_ERR_USAGE. */
static ct_status_t ct_cover(const ct_span_t *spans, size_t n, ct_nccl_list_kind_t kind,
                            long long lo, int *id_p, char *err, size_t errlen)
{
    const ct_span_t *found = NULL;
    for (size_t i = 0; i < n; i++) {
        const ct_span_t *s = &spans[i];
        if (s->kind != kind || lo < s->lo || lo >= s->hi_excl)
            continue;
        if (found != NULL && found->id != s->id) {
            snprintf(err, errlen,
                     "nccl_tuner.conf: %s for %s: %s over %lld..%lld bytes and %s over "
                     "%lld..%lld bytes overlap",
                     s->c->name, ct_coll_name((ct_coll_id_t)s->c->scope), found->c->value,
                     found->c->min_bytes, found->c->max_bytes, s->c->value, s->c->min_bytes,
                     s->c->max_bytes);
            return CT_ERR_USAGE;
        }
        found = s;
    }
    *id_p = found ? found->id : -1;
    return CT_OK;
}

/* One collective's rules at one shape (r: the result seen there), in size
 * order, appended to *rules_p; *ns_p: how many choices gave them. */
static ct_status_t ct_coll_rules(const ct_tune_result_t *r, int coll, ct_nccl_rule_t **rules_p,
                                 size_t *n_p, size_t *cap_p, size_t *ns_p, char *err, size_t errlen)
{
    ct_span_t *spans = calloc(r->nchoices ? r->nchoices : 1, sizeof(*spans));
    long long *cuts = calloc(2 * (r->nchoices ? r->nchoices : 1), sizeof(*cuts));
    size_t ns = 0, nc = 0;
    ct_status_t st = spans && cuts ? CT_OK : CT_ERR_NOMEM;

    for (size_t i = 0; i < r->nchoices && st == CT_OK; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        if (c->scope != coll || !ct_emit_nccl_is_rule(r, c))
            continue;
        st = ct_span_of(c, &spans[ns], err, errlen);
        if (st == CT_OK) {
            cuts[nc++] = spans[ns].lo;
            cuts[nc++] = spans[ns].hi_excl;
            ns++;
        }
    }
    ct_vec_sort(cuts, nc, sizeof(*cuts), ct_vec_cmp_ll);
    for (size_t i = 0; i + 1 < nc && st == CT_OK; i++) {
        if (cuts[i] == cuts[i + 1])
            continue;
        int algo, proto;
        st = ct_cover(spans, ns, CT_NCCL_LIST_ALGO, cuts[i], &algo, err, errlen);
        if (st == CT_OK)
            st = ct_cover(spans, ns, CT_NCCL_LIST_PROTO, cuts[i], &proto, err, errlen);
        if (st != CT_OK || (algo < 0 && proto < 0))
            continue; /* a gap between spans: NCCL's */
        ct_nccl_rule_t rule = {ct_coll_name_find(ct_coll_name((ct_coll_id_t)coll)),
                               cuts[i],
                               cuts[i + 1] == LLONG_MAX ? LLONG_MAX : cuts[i + 1] - 1,
                               algo,
                               proto,
                               0,
                               r->nnodes,
                               r->nranks};
        st = CT_VEC_PUSH(*rules_p, *n_p, *cap_p, &rule);
    }
    *ns_p += ns;
    free(spans);
    free(cuts);
    return st;
}

/* Where nccl.env re-enables what the site's NCCL_ALGO / NCCL_PROTO
 * disabled (emit_nccl_site.c), the site's one element at every other size
 * and shape, after coll's rules at every shape: the plugin takes the
 * first rule that matches, and this one names coll only. */
static ct_status_t ct_site_rule(const ct_tune_result_t *r, int coll, ct_nccl_rule_t **rules_p,
                                size_t *n_p, size_t *cap_p)
{
    int keep_algo = ct_emit_nccl_site_keep(r, coll, CT_NCCL_LIST_ALGO, NULL);
    int keep_proto = ct_emit_nccl_site_keep(r, coll, CT_NCCL_LIST_PROTO, NULL);
    if (keep_algo < 0 && keep_proto < 0)
        return CT_OK;
    ct_nccl_rule_t rule = {ct_coll_name_find(ct_coll_name((ct_coll_id_t)coll)),
                           0,
                           LLONG_MAX,
                           keep_algo,
                           keep_proto,
                           1,
                           -1,
                           -1};
    return CT_VEC_PUSH(*rules_p, *n_p, *cap_p, &rule);
}

/* Every collective's rules: at each shape measured (ct_emit_shapes, in
 * its order), then the site's. */
static ct_status_t ct_all_rules(const ct_tune_result_t *r, ct_nccl_rule_t **rules_p, size_t *n_p,
                                char *err, size_t errlen)
{
    size_t nshapes = ct_emit_shapes(r, NULL, 0), cap = 0;
    ct_emit_shape_t *shapes = malloc((nshapes ? nshapes : 1) * sizeof *shapes);
    ct_tune_result_t *views = calloc(nshapes ? nshapes : 1, sizeof *views);
    ct_status_t st = shapes && views && nshapes ? CT_OK : CT_ERR_NOMEM;
    if (st == CT_OK)
        nshapes = ct_emit_shapes(r, shapes, nshapes);
    for (size_t v = 0; v < nshapes && st == CT_OK; v++)
        st = ct_emit_shape_view(r, shapes[v], &views[v]);
    for (int coll = 0; coll < CT_COLL_COUNT && st == CT_OK; coll++) {
        size_t ns = 0;
        for (size_t v = 0; v < nshapes && st == CT_OK; v++)
            st = ct_coll_rules(&views[v], coll, rules_p, n_p, &cap, &ns, err, errlen);
        if (st == CT_OK && ns > 0)
            st = ct_site_rule(r, coll, rules_p, n_p, &cap);
    }
    for (size_t v = 0; views != NULL && v < nshapes; v++)
        ct_emit_shape_view_free(&views[v]);
    free(views);
    free(shapes);
    if (st == CT_ERR_NOMEM)
        snprintf(err, errlen, "nccl_tuner.conf: out of memory");
    return st;
}

/* The header's install text (the entry carries it). */
static const char *const ct_emit_nccl_tuner_install[] = {
    "Build and install colltune's NCCL tuner plugin (libnccl-tuner-colltune.so,",
    "tuner/plugin/README.md), then on every rank:",
    "  export NCCL_TUNER_PLUGIN=/path/to/lib/libnccl-tuner-colltune.so",
    "  export NCCL_TUNER_CONFIG_FILE=@DIR@/nccl_tuner.conf",
    "Rules hold only at the shape tuned (nNodes, nRanks below); elsewhere NCCL",
    "decides.  An algorithm or protocol of -1 is NCCL's cheapest for the other",
    "one.  Check with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING.",
    NULL};

static ct_status_t ct_nccl_tuner_write(const ct_emit_ctx_t *ctx, FILE *fp, char *err, size_t errlen)
{
    const ct_tune_result_t *r = ctx->r;
    ct_nccl_rule_t *rules = NULL;
    size_t n = 0;
    ct_status_t st = ct_all_rules(r, &rules, &n, err, errlen);
    if (st == CT_OK) {
        ct_emit_header(ctx, fp, CT_EMIT_NCCL_TUNER_NAME,
                       "rules for colltune's NCCL tuner plugin (NVIDIA's example-plugin CSV)",
                       ct_emit_nccl_tuner.install);
        st = ct_emit_nccl_coverage(ctx, fp);
    }
    if (st == CT_OK)
        fputs("# collective,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks\n", fp);
    for (size_t i = 0; i < n && st == CT_OK; i++) {
        const ct_nccl_rule_t *u = &rules[i];
        const char *algo = u->algo < 0 ? "-1" : ct_name_of(&ct_nccl_algo_names, u->algo);
        const char *proto = u->proto < 0 ? "-1" : ct_name_of(&ct_nccl_proto_names, u->proto);
        if (u->any_shape)
            fprintf(fp, "%s,%lld,-1,%s,%s,-1,-1,-1   # the site's, everywhere else\n", u->cn->name,
                    u->lo, algo, proto);
        else
            fprintf(fp, "%s,%lld,%lld,%s,%s,-1,%ld,%ld\n", u->cn->name, u->lo,
                    u->hi == LLONG_MAX ? -1 : u->hi, algo, proto, u->nnodes, u->nranks);
    }
    free(rules);
    return st;
}

/* One collective's NCCL_ALGO / NCCL_PROTO over a size range, when its
 * value leaves the collective one element that nccl.conf's list does not
 * disable (ct_emit_nccl_cannot_carry says why not). */
static ct_emit_carry_t ct_nccl_tuner_carries(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                                             const char **why_p)
{
    ct_nccl_list_kind_t kind;
    if (c->scope == CT_SCOPE_GLOBAL || !ct_emit_nccl_list_kind(c, &kind) || ct_emit_full_range(c))
        return CT_EMIT_NOT_MINE;
    *why_p = ct_emit_nccl_cannot_carry(r, c);
    return *why_p != NULL ? CT_EMIT_REFUSES : CT_EMIT_CARRIES;
}

/* NCCL reads the rules only through a tuner plugin: the A/B names ours
 * (libnccl-tuner-colltune.so, found by this name on the library path)
 * unless the user chose one. */
const ct_emit_format_t ct_emit_nccl_tuner = {
    .name = CT_EMIT_NCCL_TUNER_NAME,
    .wanted = ct_nccl_tuner_wanted,
    .write = ct_nccl_tuner_write,
    .install = ct_emit_nccl_tuner_install,
    .outranked = ct_emit_nccl_site_outranked,
    .carries = ct_nccl_tuner_carries,
};
