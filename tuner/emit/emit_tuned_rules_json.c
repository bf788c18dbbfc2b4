/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit_tuned_rules_json.c - coll-tuned-rules.json: the same coll/tuned
 * rules as coll-tuned-rules.conf, in the JSON format Open MPI 6 also reads
 * (its docs/tuning-apps/tuned_dynamic_file_schema.json), written when the
 * tune asks for it (--rules-json).
 *
 *   {"rule_file_version": 3, "module": "tuned",
 *    "collectives": {"bcast": [{"comm_size_min": N,
 *        "rules": [{"msg_size_min": A, "msg_size_max": B|"inf", "alg": K,
 *                   "faninout": F, "seg_size": S}, ...]}]}}
 *
 * Open MPI takes the first rule that matches and its own decision where
 * none does, so only tuned ranges are written (the classic file's alg-0
 * gap rules are left out).  A collective has one entry per rank count
 * measured, its comm_size_min and comm_size_max both that count: the
 * rules hold at the sizes measured only (main's coll_tuned_dynamic_file.c
 * reads both keys; a communicator no entry covers gets Open MPI's own
 * decision).  JSON has
 * no comments and the schema allows no extra keys, so this file has no
 * header: report.json records where it came from.  mca-params.conf names
 * the classic file, which Open MPI 6 still reads; point
 * coll_tuned_dynamic_rules_filename here to use this one.
 */
#include "emit_format.h"

#include <jansson.h>
#include <stdlib.h>

static int ct_rules_json_wanted(const ct_tune_result_t *r)
{
    return r->rules_json && ct_emit_tuned_rules_wanted(r);
}

/* t's entry at one rank count (r: the result seen there), appended to
 * list. */
static ct_status_t ct_rules_json_comm(const ct_tune_result_t *r, const ct_emit_tuned_coll_t *t,
                                      json_t *list, char *err, size_t errlen)
{
    ct_emit_rule_t *rules;
    size_t n;
    ct_status_t st = ct_emit_tuned_coll_rules(r, t, &rules, &n, err, errlen);
    if (st != CT_OK)
        return st;
    json_t *comm = json_object(), *sizes = json_array();
    int bad = comm == NULL || sizes == NULL;
    for (size_t k = 0; k < n && !bad; k++) {
        if (rules[k].alg == 0)
            continue;
        json_t *max = k + 1 < n ? json_integer(rules[k + 1].msgsize - 1) : json_string("inf");
        json_t *rule =
            json_pack("{s:I, s:o, s:i, s:i, s:i}", "msg_size_min", (json_int_t)rules[k].msgsize,
                      "msg_size_max", max, "alg", (int)rules[k].alg, "faninout", (int)rules[k].fan,
                      "seg_size", (int)rules[k].seg);
        bad |= rule == NULL || json_array_append_new(sizes, rule) != 0;
    }
    free(rules);
    bad |= bad || json_object_set_new(comm, "comm_size_min", json_integer(r->nranks)) != 0;
    bad |= bad || json_object_set_new(comm, "comm_size_max", json_integer(r->nranks)) != 0;
    bad |= bad || json_object_set_new(comm, "rules", sizes) != 0;
    sizes = NULL;
    bad |= bad || json_array_append_new(list, comm) != 0;
    comm = NULL;
    json_decref(sizes);
    json_decref(comm);
    return bad ? CT_ERR_NOMEM : CT_OK;
}

/* t's entries, one per rank count it was measured at (views). */
static ct_status_t ct_rules_json_coll(const ct_tune_result_t *views, size_t nviews,
                                      const ct_emit_tuned_coll_t *t, json_t *colls, char *err,
                                      size_t errlen)
{
    json_t *list = json_array();
    ct_status_t st = list ? CT_OK : CT_ERR_NOMEM;
    for (size_t v = 0; v < nviews && st == CT_OK; v++)
        if (ct_emit_tuned_has_alg(&views[v], t))
            st = ct_rules_json_comm(&views[v], t, list, err, errlen);
    if (st == CT_OK && json_object_set_new(colls, t->tuned.json_name, list) != 0)
        st = CT_ERR_NOMEM;
    else if (st != CT_OK)
        json_decref(list);
    return st;
}

static ct_status_t ct_rules_json_write(const ct_emit_ctx_t *ctx, FILE *fp, char *err, size_t errlen)
{
    const ct_tune_result_t *r = ctx->r;
    ct_tune_result_t *views;
    size_t nviews;
    ct_status_t st = ct_emit_tuned_views(r, &views, &nviews, err, errlen);
    if (st != CT_OK)
        return st;
    json_t *doc = json_pack("{s:i, s:s}", "rule_file_version", 3, "module", "tuned");
    json_t *colls = json_object();
    st = doc && colls ? CT_OK : CT_ERR_NOMEM;
    const ct_emit_tuned_coll_t *t;
    for (size_t i = 0; (t = ct_emit_tuned_coll_at(i)) != NULL && st == CT_OK; i++)
        if (ct_emit_tuned_has_alg(r, t))
            st = ct_rules_json_coll(views, nviews, t, colls, err, errlen);
    ct_emit_tuned_views_free(views, nviews);
    if (st == CT_OK && json_object_set_new(doc, "collectives", colls) != 0)
        st = CT_ERR_NOMEM;
    colls = NULL;
    if (st == CT_OK &&
        (json_dumpf(doc, fp, JSON_INDENT(4) | JSON_PRESERVE_ORDER) != 0 || fputc('\n', fp) == EOF))
        st = CT_ERR_IO;
    if (st == CT_ERR_NOMEM)
        snprintf(err, errlen, "%s: out of memory", CT_EMIT_TUNED_RULES_JSON_NAME);
    else if (st == CT_ERR_IO)
        snprintf(err, errlen, "%s: write error", CT_EMIT_TUNED_RULES_JSON_NAME);
    json_decref(colls);
    json_decref(doc);
    return st;
}

/* What the classic file carries, when this one is written too. */
static ct_emit_carry_t ct_rules_json_carries(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                                             const char **why_p)
{
    return r->rules_json ? ct_emit_tuned_rules_carries(r, c, why_p) : CT_EMIT_NOT_MINE;
}

/* Open MPI 6's format: not loaded by the A/B (4.1 reads the classic
 * rules file, which mca-params.conf names). */
const ct_emit_format_t ct_emit_tuned_rules_json = {
    .name = CT_EMIT_TUNED_RULES_JSON_NAME,
    .wanted = ct_rules_json_wanted,
    .write = ct_rules_json_write,
    .carries = ct_rules_json_carries,
};
