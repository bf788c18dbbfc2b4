/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * merge_report.c - the merged directory's report.json: what colltune
 * install checks (verified, choices written), and what a later merge
 * reads back as it reads a tune's (each choice with its shape; the site
 * and MPICH's library the files were written against), so that merged
 * directories merge again.  Each choice keeps its record from the first
 * tune that wrote it, with "from" naming every such tune.
 */
#define _XOPEN_SOURCE 700

#include "merge.h"

#include <string.h>

#include "config.h"
#include "emit.h"

/* Choice i's record: its tune's, "written" as the merge writes it. */
static json_t *ct_merge_report_choice(const ct_merge_t *m, size_t i)
{
    const ct_tune_choice_t *c = &m->r.choices[i];
    json_t *j = json_deep_copy(m->src[i].json), *from = json_array();
    int written = ct_emit_usable(c) && ct_emit_cannot_carry(&m->r, c) == NULL;
    int bad = j == NULL || from == NULL;
    for (int t = 0; t < m->ntunes && !bad; t++)
        if (m->src[i].from >> t & 1)
            bad |= json_array_append_new(from, json_string(m->tunes[t].dir)) != 0;
    if (!bad)
        bad = json_object_set_new(j, "written", json_boolean(written)) != 0;
    if (!bad) {
        bad = json_object_set_new(j, "from", from) != 0;
        from = NULL; /* j's, even on failure */
    }
    json_decref(from);
    if (bad) {
        json_decref(j);
        return NULL;
    }
    return j;
}

/* The first tune's value of key, copied; JSON null when none has it. */
static json_t *ct_merge_report_first(const ct_merge_t *m, const char *key)
{
    for (int t = 0; t < m->ntunes; t++) {
        json_t *v = json_object_get(m->tunes[t].report, key);
        if (v != NULL && !json_is_null(v))
            return json_deep_copy(v);
    }
    return json_null();
}

json_t *ct_merge_report(const ct_merge_t *m)
{
    json_t *doc = json_object(), *from = json_array(), *choices = json_array();
    int bad = doc == NULL || from == NULL || choices == NULL;
    for (int t = 0; t < m->ntunes && !bad; t++) {
        const ct_merge_tune_t *tu = &m->tunes[t];
        bad |=
            json_array_append_new(from, json_pack("{s:s, s:s, s:I, s:I}", "dir", tu->dir, "run_id",
                                                  tu->run_id, "nranks", (json_int_t)tu->nranks,
                                                  "nnodes", (json_int_t)tu->nnodes)) != 0;
    }
    for (size_t i = 0; i < m->r.nchoices && !bad; i++)
        bad |= json_array_append_new(choices, ct_merge_report_choice(m, i)) != 0;
    bad |= json_object_set_new(doc, "generator", json_string("colltune merge " PACKAGE_VERSION));
    bad |= json_object_set_new(doc, "run_id", json_string(m->r.run_id));
    bad |= json_object_set_new(doc, "date", json_string(m->r.date));
    bad |= json_object_set_new(doc, "space", json_string(m->r.space_name));
    bad |= json_object_set_new(doc, "space_path", json_string(m->r.space_path));
    bad |= json_object_set_new(doc, "nranks", json_integer(m->r.nranks));
    bad |= json_object_set_new(doc, "nnodes", json_integer(m->r.nnodes));
    bad |= json_object_set_new(doc, "verified", json_true());
    bad |= json_object_set_new(doc, "site",
                               m->has_site ? ct_merge_report_first(m, "site") : json_null());
    bad |= json_object_set_new(doc, "mpich_lib",
                               m->tree ? ct_merge_report_first(m, "mpich_lib") : json_null());
    bad |= json_object_set_new(doc, "merged_from", from) != 0;
    bad |= json_object_set_new(doc, "choices", choices) != 0;
    if (bad) {
        json_decref(doc);
        return NULL;
    }
    return doc;
}
