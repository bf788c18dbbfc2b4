/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * merge_site.c - what a merge writes against besides the choices: the
 * site the tunes ran on (report.json's "site") and MPICH's own selection
 * tree (read again from the library the tune ran, "mpich_lib").
 *
 * The emitters write the form that wins against the site (mpich.env sets
 * a forced CVAR to auto, nccl.env keeps the site's NCCL_ALGO), so a merge
 * writes against the same site, and merges only tunes that saw the same
 * settings of the libraries (a test double's --env may differ).  The
 * report keeps each setting's origin, not its source (site.h): the source
 * is read back from it (colltune's --env / --mca, the environment, else
 * a file; Open MPI's override file by its name).  Whether a UCX file came
 * after colltune's ("late") is not kept: it decides only whether a choice
 * is outranked, and merge takes only choices the tune found were not.
 */
#define _XOPEN_SOURCE 700

#include "merge.h"

#include <stdlib.h>
#include <string.h>

#include "ct_library.h"
#include "ct_status.h"
#include "emit.h"

#define CT_MERGE_OMPI_OVERRIDE "openmpi-mca-params-override.conf"

static ct_site_source_t ct_merge_site_source(const char *origin, int mca)
{
    const char *base = strrchr(origin, '/');
    if (strcmp(origin, "--env") == 0 || strcmp(origin, "--mca") == 0)
        return CT_SITE_CMDLINE;
    if (strcmp(origin, "environment") == 0)
        return CT_SITE_ENV;
    if (mca && base != NULL && strcmp(base + 1, CT_MERGE_OMPI_OVERRIDE) == 0)
        return CT_SITE_OVERRIDE;
    return CT_SITE_FILE;
}

/* Entry i of the report's site into m->site. */
static int ct_merge_site_add(ct_merge_t *m, const char *path, size_t i, const json_t *e)
{
    const char *name = json_string_value(json_object_get(e, "name"));
    const char *value = json_string_value(json_object_get(e, "value"));
    const char *origin = json_string_value(json_object_get(e, "origin"));
    const json_t *mca = json_object_get(e, "mca");
    if (name == NULL || value == NULL || origin == NULL || !json_is_boolean(mca)) {
        fprintf(stderr,
                "colltune merge: %s: site[%zu]: not a setting (\"name\", \"value\", \"origin\" "
                "strings, \"mca\" true or false)\n",
                path, i);
        return CT_EXIT_USAGE;
    }
    ct_site_t *s = &m->site;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 8;
        ct_site_setting_t *v = realloc(s->v, cap * sizeof *v);
        if (v == NULL)
            goto nomem;
        s->v = v;
        s->cap = cap;
    }
    ct_site_setting_t *x = &s->v[s->n];
    *x = (ct_site_setting_t){strdup(name),      strdup(value),
                             strdup(origin),    ct_merge_site_source(origin, json_is_true(mca)),
                             json_is_true(mca), 0};
    s->n++;
    if (x->name != NULL && x->value != NULL && x->origin != NULL)
        return CT_EXIT_OK;
nomem:
    fprintf(stderr, "colltune merge: out of memory\n");
    return CT_EXIT_FAILURE;
}

/* Whether site entry e is a library's setting (ct_library.h): what the
 * emitters weigh.  Others (a test double's --env) differ harmlessly. */
static int ct_merge_site_claimed(const json_t *e)
{
    const char *name = json_string_value(json_object_get(e, "name"));
    return name != NULL && ct_library_of(name, json_is_true(json_object_get(e, "mca"))) != NULL;
}

/* A library's setting in a's site that b's lacks (NULL: none). */
static const json_t *ct_merge_site_extra(const json_t *a, const json_t *b)
{
    size_t i, k;
    const json_t *e, *f;
    json_array_foreach(a, i, e)
    {
        int found = !ct_merge_site_claimed(e);
        json_array_foreach(b, k, f) found |= json_equal(e, f);
        if (!found)
            return e;
    }
    return NULL;
}

/* Tune t's site against the first tune's: the same libraries' settings
 * (in any order), or refused naming one that differs. */
static int ct_merge_site_same(const ct_merge_t *m, int t, const json_t *site)
{
    const json_t *first = json_object_get(m->tunes[0].report, "site");
    const json_t *e = ct_merge_site_extra(site, first);
    const ct_merge_tune_t *has = &m->tunes[t], *not = &m->tunes[0];
    if (e == NULL) {
        e = ct_merge_site_extra(first, site);
        has = &m->tunes[0];
        not = &m->tunes[t];
    }
    if (e == NULL)
        return CT_EXIT_OK;
    fprintf(stderr,
            "colltune merge: %s was tuned against the site setting %s=%s (%s), %s was not "
            "(report.json \"site\"): the files are written in the form that wins against "
            "one site, so merge tunes made on the same one\n",
            has->dir, json_string_value(json_object_get(e, "name")),
            json_string_value(json_object_get(e, "value")),
            json_string_value(json_object_get(e, "origin")), not ->dir);
    return CT_EXIT_USAGE;
}

int ct_merge_read_site(ct_merge_t *m, int t, const char *path)
{
    const json_t *site = json_object_get(m->tunes[t].report, "site");
    if (site != NULL && json_is_null(site))
        site = NULL;
    if (site != NULL && !json_is_array(site)) {
        fprintf(stderr, "colltune merge: %s: \"site\" is not a list\n", path);
        return CT_EXIT_USAGE;
    }
    if (t > 0)
        return ct_merge_site_same(m, t, site);
    if (site == NULL)
        return CT_EXIT_OK;
    size_t i;
    const json_t *e;
    int rc = CT_EXIT_OK;
    json_array_foreach(site, i, e)
    {
        if (rc == CT_EXIT_OK)
            rc = ct_merge_site_add(m, path, i, e);
    }
    m->has_site = 1;
    return rc;
}

int ct_merge_tree_lib(const ct_tune_choice_t *c)
{
    const ct_library_t *lib = ct_library_of(c->name, c->via == CT_VIA_MCA);
    const ct_library_file_t *f;
    for (size_t k = 0; lib != NULL && (f = ct_library_file_at(k)) != NULL; k++)
        if (f->carries == lib->id && f->syntax == CT_FILE_SYNTAX_JSON_TREE)
            return 1;
    return 0;
}

int ct_merge_read_tree(ct_merge_t *m, int t, const char *path)
{
    const char *lib = json_string_value(json_object_get(m->tunes[t].report, "mpich_lib"));
    for (int k = 0; lib != NULL && k < t; k++) {
        const char *seen = json_string_value(json_object_get(m->tunes[k].report, "mpich_lib"));
        if (seen != NULL && strcmp(seen, lib) == 0)
            return CT_EXIT_OK; /* read already */
    }
    /* A tune that names none but chose for a library whose files hold
     * its own tree leaves no tree: another tune's might not be its. */
    int needs = 0;
    for (size_t i = 0; lib == NULL && i < m->r.nchoices; i++)
        needs |= (m->src[i].from >> t & 1) && ct_merge_tree_lib(&m->r.choices[i]);
    if (lib == NULL && (needs || (m->tree == NULL && m->tree_why[0] == '\0')))
        snprintf(m->tree_why, sizeof m->tree_why,
                 "%s names no MPICH library (\"mpich_lib\") to read MPICH's own selection "
                 "tree from",
                 path);
    if (lib == NULL && needs) {
        m->tree_failed = 1;
        free(m->tree);
        m->tree = NULL;
    }
    if (lib == NULL)
        return CT_EXIT_OK;
    char err[PATH_MAX + 256], *tree = NULL;
    ct_status_t st = ct_emit_mpich_tree_read(lib, &tree, err, sizeof err);
    if (st == CT_ERR_NOMEM) {
        fprintf(stderr, "colltune merge: out of memory\n");
        return CT_EXIT_FAILURE;
    }
    /* One library that cannot be read leaves no tree: the others' might
     * not be its. */
    if (st != CT_OK || m->tree_failed) {
        if (st != CT_OK)
            snprintf(m->tree_why, sizeof m->tree_why, "MPICH's own selection tree (%s): %s", path,
                     err);
        m->tree_failed = 1;
        free(m->tree);
        free(tree);
        m->tree = NULL;
        return CT_EXIT_OK;
    }
    if (m->tree == NULL) {
        m->tree = tree;
        return CT_EXIT_OK;
    }
    int same = strcmp(m->tree, tree) == 0;
    free(tree);
    if (same)
        return CT_EXIT_OK;
    fprintf(stderr,
            "colltune merge: %s: its MPICH library %s holds another selection tree than the "
            "library of the tunes before it: merge tunes of one MPICH\n",
            path, lib);
    return CT_EXIT_USAGE;
}
