/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * install_guard.c - what install and merge demand of a tune's directory
 * (install.h's ct_install_check_report): a report.json that says the A/B
 * ran and wrote a choice, and files that set nothing only a dropped
 * choice sets.
 */
#define _XOPEN_SOURCE 700

#include "install.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ct_input.h"
#include "ct_status.h"
#include "ct_vec.h"

/* A choice's name and value, as the guard compares them. */
typedef struct {
    const char *name, *value;
} ct_install_pair_t;

static int ct_install_pair_cmp(const void *x, const void *y)
{
    const ct_install_pair_t *a = x, *b = y;
    int c = strcmp(a->name, b->name);
    return c != 0 ? c : strcmp(a->value, b->value);
}

/* The (name, value) pairs that only choices marked dropped set, sorted:
 * each setting is then looked up, not compared with every choice (a
 * large file against a large report stays fast).  *n_p of them; NULL
 * with *n_p 0 when there are none, or when out of memory (*nomem). */
static ct_install_pair_t *ct_install_dropped_pairs(const json_t *choices, size_t *n_p, int *nomem)
{
    size_t nc = json_array_size(choices), nd = 0, nw = 0, i;
    const json_t *c;
    *n_p = 0;
    *nomem = 0;
    if (nc == 0)
        return NULL;
    ct_install_pair_t *dropped = malloc(nc * sizeof *dropped);
    ct_install_pair_t *written = malloc(nc * sizeof *written);
    if (dropped == NULL || written == NULL) {
        free(dropped);
        free(written);
        *nomem = 1;
        return NULL;
    }
    json_array_foreach(choices, i, c)
    {
        ct_install_pair_t p = {json_string_value(json_object_get(c, "name")),
                               json_string_value(json_object_get(c, "value"))};
        if (p.name == NULL || p.value == NULL)
            continue;
        if (json_is_true(json_object_get(c, "written")))
            written[nw++] = p;
        else
            dropped[nd++] = p;
    }
    ct_vec_sort(written, nw, sizeof *written, ct_install_pair_cmp);
    size_t n = 0;
    for (size_t k = 0; k < nd; k++)
        if (nw == 0 ||
            bsearch(&dropped[k], written, nw, sizeof *written, ct_install_pair_cmp) == NULL)
            dropped[n++] = dropped[k];
    free(written);
    ct_vec_sort(dropped, n, sizeof *dropped, ct_install_pair_cmp);
    *n_p = n;
    return dropped;
}

/* Every setting of tune/file (when present) against report.json's
 * dropped choices. */
static int ct_install_check_file(const char *who, const char *tune, const char *file,
                                 ct_file_syntax_t syntax, const json_t *choices, const char *report)
{
    char path[PATH_MAX + 32], err[PATH_MAX + 512];
    snprintf(path, sizeof path, "%s/%s", tune, file);
    struct stat sb;
    if (lstat(path, &sb) != 0 && errno == ENOENT)
        return CT_EXIT_OK;
    ct_install_settings_t set;
    ct_status_t st = ct_install_read_settings(path, syntax, &set, err, sizeof err);
    if (st != CT_OK) {
        fprintf(stderr, "colltune %s: %s\n", who, err);
        return st == CT_ERR_NOMEM ? CT_EXIT_FAILURE : CT_EXIT_USAGE;
    }
    size_t nd;
    int nomem;
    ct_install_pair_t *dropped = ct_install_dropped_pairs(choices, &nd, &nomem);
    int rc = nomem ? CT_EXIT_FAILURE : CT_EXIT_OK;
    if (nomem)
        fprintf(stderr, "colltune %s: out of memory\n", who);
    for (size_t k = 0; k < set.n && rc == CT_EXIT_OK; k++) {
        ct_install_pair_t p = {set.name[k], set.value[k]};
        if (nd > 0 && bsearch(&p, dropped, nd, sizeof *dropped, ct_install_pair_cmp) != NULL) {
            fprintf(stderr,
                    "colltune %s: %s:%ld sets %s = %s, a choice %s marks dropped: not "
                    "installing it (re-run the tune's emit, or remove the line)\n",
                    who, path, set.line[k], set.name[k], set.value[k], report);
            rc = CT_EXIT_USAGE;
        }
    }
    free(dropped);
    ct_install_settings_free(&set);
    return rc;
}

/* Whether the guard reads row's file: settings (NAME=VALUE lines) named
 * as the choices name them (its reader's own choices: intel-mpi.env's
 * I_MPI_ADJUST_ ids are not MPICH's names). */
static int ct_install_guarded(const ct_library_file_t *row)
{
    return ct_install_syntax_settings(row->syntax) && row->carries == row->reader;
}

/* report.json must say the A/B ran and wrote a choice; a setting of a
 * file of settings (ct_install_guarded) that only a dropped choice sets is
 * refused (the files should never carry one: this guards a hand-edited
 * TUNE_DIR).  Every setting is read: one past a fixed count would be
 * installed. */
int ct_install_check_report(const char *who, const char *tune, json_t **report_p)
{
    char path[PATH_MAX + 32], err[PATH_MAX + 512];
    snprintf(path, sizeof path, "%s/report.json", tune);
    struct stat sb;
    if (lstat(path, &sb) != 0 && errno == ENOENT) {
        fprintf(stderr,
                "colltune %s: %s: no report.json, so nothing says its files were "
                "verified (not a finished tune's directory)\n",
                who, tune);
        return CT_EXIT_USAGE;
    }
    json_t *doc = NULL;
    ct_status_t st = ct_input_json(path, CT_INPUT_MAX_CONFIG, &doc, err, sizeof err);
    if (st != CT_OK) {
        fprintf(stderr, "colltune %s: %s\n", who, err);
        return st == CT_ERR_NOMEM ? CT_EXIT_FAILURE : CT_EXIT_USAGE;
    }
    int rc = CT_EXIT_OK;
    json_t *choices = json_object_get(doc, "choices");
    size_t written = 0, i;
    json_t *c;
    json_array_foreach(choices, i, c) written += json_is_true(json_object_get(c, "written"));
    if (!json_is_true(json_object_get(doc, "verified"))) {
        fprintf(stderr,
                "colltune %s: %s: the tune ran no A/B verification (\"verified\": "
                "false), so none of its choices is verified\n",
                who, path);
        rc = CT_EXIT_USAGE;
    } else if (written == 0) {
        fprintf(stderr, "colltune %s: %s: no choice was verified and written\n", who, path);
        rc = CT_EXIT_USAGE;
    }
    const ct_library_file_t *row;
    for (size_t k = 0; rc == CT_EXIT_OK && (row = ct_library_file_at(k)) != NULL; k++)
        if (ct_install_guarded(row))
            rc = ct_install_check_file(who, tune, row->name, row->syntax, choices, path);
    if (rc == CT_EXIT_OK && report_p != NULL)
        *report_p = doc; /* the caller's now */
    else
        json_decref(doc);
    return rc;
}
