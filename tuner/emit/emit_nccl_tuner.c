/*
 * emit_nccl_tuner.c - nccl_tuner.conf: the rules colltune's NCCL tuner
 * plugin reads (tuner/plugin/README.md; parsed by tuner/plugin/rules.c).
 *
 * One rule per collective and size range where the tune chose an
 * algorithm and a protocol together:
 *   collective,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks
 * Names are ct_names' canonical spellings, which the plugin reads.  A rule
 * holds only at the shape it was measured at (nNodes, nRanks); channels
 * stay NCCL's (-1).  Sizes are collbench's, which are NCCL's nBytes: the
 * total for allgather and reduce_scatter.
 */
#include "emit_format.h"
#include "ct_vec.h"

#include <stdlib.h>
#include <string.h>

static int ct_nccl_tuner_wanted(const ct_tune_result_t *r)
{
    for (size_t i = 0; i < r->nchoices; i++)
        if (ct_emit_nccl_is_rule(r, &r->choices[i]))
            return 1;
    return 0;
}

static int ct_by_scope_then_size(const void *a, const void *b)
{
    const ct_tune_choice_t *x = *(const ct_tune_choice_t *const *)a;
    const ct_tune_choice_t *y = *(const ct_tune_choice_t *const *)b;
    if (x->scope != y->scope)
        return x->scope < y->scope ? -1 : 1;
    long long mx = x->min_bytes < 0 ? 0 : x->min_bytes, my = y->min_bytes < 0 ? 0 : y->min_bytes;
    return mx < my ? -1 : mx > my;
}

static const ct_tune_choice_t *ct_partner(const ct_tune_result_t *r, const ct_tune_choice_t *c)
{
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *o = &r->choices[i];
        if (ct_emit_usable(o) && o->scope == c->scope && o->min_bytes == c->min_bytes &&
            o->max_bytes == c->max_bytes && strcmp(o->name, "NCCL_PROTO") == 0)
            return o;
    }
    return NULL;
}

static ct_status_t ct_canonical(const ct_name_table_t *table, const ct_tune_choice_t *c,
                                const char **word_p, char *err, size_t errlen)
{
    int v;
    if (ct_name_lookup(table, c->value, &v) != 0) {
        char expected[256];
        ct_name_list(table, expected, sizeof expected);
        snprintf(err, errlen, "nccl_tuner.conf: %s=%s for %s: a rule takes one %s (one of: %s)",
                 c->name, c->value, ct_coll_name((ct_coll_id_t)c->scope), table->kind, expected);
        return CT_ERR_USAGE;
    }
    *word_p = ct_name_of(table, v);
    return CT_OK;
}

/* The header's install text (the entry carries it). */
static const char *const ct_emit_nccl_tuner_install[] = {
    "Build and install colltune's NCCL tuner plugin (libnccl-tuner-colltune.so,",
    "tuner/plugin/README.md), then on every rank:",
    "  export NCCL_TUNER_PLUGIN=/path/to/lib/libnccl-tuner-colltune.so",
    "  export NCCL_TUNER_CONFIG_FILE=@DIR@/nccl_tuner.conf",
    "Rules hold only at the shape tuned (nNodes, nRanks below); elsewhere NCCL",
    "decides.  Check with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING.",
    NULL};

static ct_status_t ct_nccl_tuner_write(const ct_emit_ctx_t *ctx, FILE *fp, char *err, size_t errlen)
{
    const ct_tune_result_t *r = ctx->r;
    const ct_tune_choice_t **algos = calloc(r->nchoices ? r->nchoices : 1, sizeof(*algos));
    size_t n = 0;
    ct_status_t st = CT_OK;

    if (algos == NULL)
        return CT_ERR_NOMEM;
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        if (ct_emit_nccl_is_rule(r, c) && strcmp(c->name, "NCCL_ALGO") == 0)
            algos[n++] = c;
    }
    ct_vec_sort(algos, n, sizeof(*algos), ct_by_scope_then_size);

    ct_emit_header(ctx, fp, "nccl_tuner.conf",
                   "rules for colltune's NCCL tuner plugin (NVIDIA's example-plugin CSV)",
                   ct_emit_nccl_tuner.install);
    fputs("# collective,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks\n", fp);
    for (size_t i = 0; i < n && st == CT_OK; i++) {
        const ct_tune_choice_t *a = algos[i], *p = ct_partner(r, a);
        const ct_coll_name_t *cn = ct_coll_name_find(ct_coll_name((ct_coll_id_t)a->scope));
        const char *algo = NULL, *proto = NULL;
        if (cn == NULL || cn->nccl_func < 0) {
            snprintf(err, errlen,
                     "nccl_tuner.conf: NCCL_ALGO for %s: NCCL never asks the tuner about it",
                     cn ? cn->name : "?");
            st = CT_ERR_USAGE;
            break;
        }
        st = ct_canonical(&ct_nccl_algo_names, a, &algo, err, errlen);
        if (st == CT_OK)
            st = ct_canonical(&ct_nccl_proto_names, p, &proto, err, errlen);
        if (st == CT_OK)
            fprintf(fp, "%s,%lld,%lld,%s,%s,-1,%ld,%ld\n", cn->name,
                    a->min_bytes < 0 ? 0 : a->min_bytes, a->max_bytes < 0 ? -1 : a->max_bytes, algo,
                    proto, r->nnodes, r->nranks);
    }
    free(algos);
    return st;
}

/* NCCL reads the rules only through a tuner plugin: the A/B names ours
 * (libnccl-tuner-colltune.so, found by this name on the library path)
 * unless the user chose one. */
const ct_emit_format_t ct_emit_nccl_tuner = {
    .name = "nccl_tuner.conf",
    .wanted = ct_nccl_tuner_wanted,
    .write = ct_nccl_tuner_write,
    .install = ct_emit_nccl_tuner_install,
    .load = {.var = "NCCL_TUNER_CONFIG_FILE",
             .via = CT_VIA_ENV,
             .also = "NCCL_TUNER_PLUGIN",
             .also_value = "colltune"},
};
