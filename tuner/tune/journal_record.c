/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * journal_record.c - one trial record: from a configuration and a results
 * CSV, to JSON and back.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_json.h"
#include "ct_results_read.h"
#include "journal.h"

static const char *const ct_journal_status_names[CT_JOURNAL_STATUS_COUNT] = {
    [CT_JOURNAL_OK] = "ok",
    [CT_JOURNAL_WRONG] = "wrong",
    [CT_JOURNAL_CRASH] = "crash",
    [CT_JOURNAL_TIMEOUT] = "timeout",
    [CT_JOURNAL_UNAVAILABLE] = "unavailable",
    [CT_JOURNAL_BAD_INPUT] = "bad-input",
    [CT_JOURNAL_SKIPPED_INVALID] = "skipped-invalid",
};

const char *ct_journal_status_name(ct_journal_status_t status)
{
    return (int)status >= 0 && status < CT_JOURNAL_STATUS_COUNT ? ct_journal_status_names[status]
                                                                : "?";
}

int ct_journal_status_parse(const char *name)
{
    for (int i = 0; i < CT_JOURNAL_STATUS_COUNT; i++)
        if (strcmp(ct_journal_status_names[i], name) == 0)
            return i;
    return -1;
}

static void ct_trial_settings_free(ct_trial_t *trial)
{
    for (size_t i = 0; i < trial->nsettings; i++) {
        free(trial->settings[i].name);
        free(trial->settings[i].value);
    }
    free(trial->settings);
    trial->settings = NULL;
    trial->nsettings = 0;
}

ct_status_t ct_trial_set_config(ct_trial_t *trial, const ct_space_config_t *config,
                                const char *scope)
{
    ct_trial_settings_free(trial);
    trial->settings = calloc(config->n ? config->n : 1, sizeof *trial->settings);
    if (trial->settings == NULL)
        return CT_ERR_NOMEM;
    for (size_t i = 0; i < config->n; i++) {
        ct_space_setting_t *s = &trial->settings[trial->nsettings++];
        s->name = strdup(config->settings[i].name);
        s->value = strdup(config->settings[i].value);
        s->via = config->settings[i].via;
        if (s->name == NULL || s->value == NULL)
            return CT_ERR_NOMEM;
    }
    snprintf(trial->key, sizeof trial->key, "%s", config->key);
    snprintf(trial->scope, sizeof trial->scope, "%s", scope);
    return CT_OK;
}

ct_status_t ct_trial_add_refusal(ct_trial_t *trial, const char *collective, const char *dtype,
                                 const char *reason)
{
    ct_trial_refusal_t *r = realloc(trial->refused, (trial->nrefused + 1) * sizeof *r);
    if (r == NULL)
        return CT_ERR_NOMEM;
    trial->refused = r;
    r = &r[trial->nrefused];
    snprintf(r->collective, sizeof r->collective, "%s", collective);
    snprintf(r->dtype, sizeof r->dtype, "%s", dtype);
    if ((r->reason = strdup(reason)) == NULL)
        return CT_ERR_NOMEM;
    trial->nrefused++;
    return CT_OK;
}

void ct_trial_free(ct_trial_t *trial)
{
    ct_trial_settings_free(trial);
    free(trial->reason);
    free(trial->rows);
    for (size_t i = 0; i < trial->nrefused; i++)
        free(trial->refused[i].reason);
    free(trial->refused);
    memset(trial, 0, sizeof *trial);
}

/* collbench's results CSV is read by the one reader every part of colltune
 * shares (ct_results_read), so the journal accepts and refuses the same
 * files as import, plot and regress; a trial keeps only what the search
 * needs of each row. */
/* The config_id of configuration k in res: collbench measures every size
 * in configuration 0, 1, ... in turn, so the ids first appear in that
 * order.  NULL when res has fewer. */
static const char *ct_trial_config_id(const ct_results_t *res, long k)
{
    const char *seen[CT_TRIAL_MAX_CONFIGS];
    long n = 0;
    for (size_t i = 0; i < res->n && n <= k; i++) {
        long j = 0;
        while (j < n && strcmp(seen[j], res->v[i].config_id) != 0)
            j++;
        if (j == n && n < CT_TRIAL_MAX_CONFIGS)
            seen[n++] = res->v[i].config_id;
    }
    return k < n ? seen[k] : NULL;
}

ct_status_t ct_trial_read_csv_config(ct_trial_t *trial, const char *path, long config,
                                     const char *config_id, char *err, size_t errlen)
{
    ct_results_t res = {0};
    ct_status_t st = ct_results_read(path, &res, NULL, err, errlen);
    ct_trial_row_t *rows = NULL;
    if (st == CT_OK && res.n > 0 && (rows = calloc(res.n, sizeof *rows)) == NULL) {
        snprintf(err, errlen, "%s: out of memory", path);
        st = CT_ERR_NOMEM;
    }
    if (st != CT_OK) {
        ct_results_free(&res);
        return st;
    }
    const char *id = config < 0                          ? NULL
                     : config_id != NULL && config_id[0] ? config_id
                                                         : ct_trial_config_id(&res, config);
    size_t n = 0;
    for (size_t i = 0; i < res.n; i++) {
        const ct_result_t *r = &res.v[i];
        if (config >= 0 && (id == NULL || strcmp(r->config_id, id) != 0))
            continue;
        ct_trial_row_t *row = &rows[n++];
        snprintf(row->collective, sizeof row->collective, "%s", r->collective);
        snprintf(row->dtype, sizeof row->dtype, "%s", r->dtype);
        snprintf(row->placement, sizeof row->placement, "%s", r->placement);
        row->bytes = r->bytes;
        row->median_us = r->median_us;
        row->ci_low_us = r->ci_low_us;
        row->ci_high_us = r->ci_high_us;
        row->busbw_gbps = r->busbw_gbps;
        row->samples = r->samples;
        row->wrong = r->wrong;
        row->nranks = r->nranks;
        row->nnodes = r->nnodes;
        /* The scale collbench saw: the last row's, as every row has it. */
        trial->nranks = (long)r->nranks;
        trial->nnodes = (long)r->nnodes;
    }
    free(trial->rows);
    trial->rows = rows;
    trial->nrows = n;
    ct_results_free(&res);
    return CT_OK;
}

ct_status_t ct_trial_read_csv(ct_trial_t *trial, const char *path, char *err, size_t errlen)
{
    return ct_trial_read_csv_config(trial, path, -1, NULL, err, errlen);
}

/* The config_id of entry config of collbench's "configs" (its index). */
static int ct_trial_json_config_id(const json_t *doc, long config, char *id, size_t idlen)
{
    const json_t *configs = json_object_get(doc, "configs"), *c;
    size_t i;
    json_array_foreach(configs, i, c)
    {
        const json_t *index = json_object_get(c, "index"), *cid = json_object_get(c, "config_id");
        if (json_is_integer(index) && json_integer_value(index) == config && json_is_string(cid)) {
            snprintf(id, idlen, "%s", json_string_value(cid));
            return 0;
        }
    }
    return -1;
}

/* The path of the library whose name starts with prefix in doc's
 * fingerprint.libraries, malloc'ed; NULL when there is none. */
static char *ct_trial_json_lib(const json_t *doc, const char *prefix)
{
    const json_t *libs = json_object_get(json_object_get(doc, "fingerprint"), "libraries"), *l;
    const char *name;
    char *found = NULL;
    json_object_foreach((json_t *)libs, name, l)
    {
        const json_t *p = json_object_get(l, "path");
        if (found == NULL && strncmp(name, prefix, strlen(prefix)) == 0 && json_is_string(p))
            found = strdup(json_string_value(p));
    }
    return found;
}

ct_status_t ct_trial_read_json(ct_trial_t *trial, const char *path, long config, char *id,
                               ct_trial_libs_t *libs, char *err, size_t errlen)
{
    json_error_t je;
    id[0] = '\0';
    json_t *doc = json_load_file(path, 0, &je);
    if (doc == NULL) {
        snprintf(err, errlen, "%s:%d: %s", path, je.line, je.text);
        return je.line <= 0 ? CT_ERR_USAGE : CT_ERR_PARSE;
    }
    const json_t *refused = json_object_get(doc, "refused");
    ct_status_t st = CT_OK;
    if (!json_is_object(doc)) {
        snprintf(err, errlen, "%s: not collbench's JSON (not an object)", path);
        st = CT_ERR_PARSE;
    } else if (config >= 0 && ct_trial_json_config_id(doc, config, id, 24) != 0) {
        snprintf(err, errlen, "%s: no configuration %ld in its \"configs\"", path, config);
        st = CT_ERR_PARSE;
    }
    /* Older collbench wrote no "refused": nothing was. */
    size_t i;
    const json_t *e;
    json_array_foreach(refused, i, e)
    {
        const json_t *cfg = json_object_get(e, "config"), *coll = json_object_get(e, "collective"),
                     *dtype = json_object_get(e, "dtype"), *msg = json_object_get(e, "message");
        long k = json_is_integer(cfg) ? (long)json_integer_value(cfg) : -1;
        if (st != CT_OK || k != config)
            continue;
        if (!json_is_string(coll) || !json_is_string(dtype)) {
            snprintf(err, errlen, "%s: refused[%zu]: no collective or dtype", path, i);
            st = CT_ERR_PARSE;
            break;
        }
        st = ct_trial_add_refusal(trial, json_string_value(coll), json_string_value(dtype),
                                  json_is_string(msg) ? json_string_value(msg) : "refused");
        if (st == CT_ERR_NOMEM)
            snprintf(err, errlen, "%s: out of memory", path);
    }
    if (st == CT_OK && libs != NULL && libs->mpich_lib == NULL)
        libs->mpich_lib = ct_trial_json_lib(doc, "libmpich.so");
    const json_t *ver = json_object_get(doc, "mpi_library_version");
    if (st == CT_OK && libs != NULL && libs->mpi_library == NULL && json_is_string(ver))
        libs->mpi_library = strdup(json_string_value(ver));
    json_decref(doc);
    return st;
}

json_t *ct_trial_json(const ct_trial_t *trial)
{
    json_t *obj = json_object(), *config = json_object(), *rows = json_array();
    int bad = obj == NULL;
    bad |= ct_json_set(obj, "key", ct_json_str(trial->key));
    bad |= ct_json_set(obj, "scope", ct_json_str(trial->scope));
    for (size_t i = 0; i < trial->nsettings && config; i++) {
        json_t *s = json_object();
        bad |= ct_json_set(s, "value", ct_json_str(trial->settings[i].value));
        bad |= ct_json_set(s, "via", ct_json_str(ct_space_via_name(trial->settings[i].via)));
        bad |= ct_json_set(config, trial->settings[i].name, s);
    }
    bad |= ct_json_set(obj, "config", config);
    bad |= ct_json_set(obj, "launch", json_integer(trial->launch));
    bad |= ct_json_set(obj, "status", ct_json_str(ct_journal_status_name(trial->status)));
    bad |= ct_json_set(obj, "reason", trial->reason ? ct_json_str(trial->reason) : json_null());
    bad |= ct_json_set(obj, "exit_code", json_integer(trial->exit_code));
    bad |= ct_json_set(obj, "wall_s", ct_json_real(trial->wall_s));
    bad |= ct_json_set(obj, "nranks", json_integer(trial->nranks));
    bad |= ct_json_set(obj, "nnodes", json_integer(trial->nnodes));
    if (trial->group[0])
        bad |= ct_json_set(obj, "group", ct_json_str(trial->group));
    for (size_t i = 0; i < trial->nrows && rows; i++) {
        const ct_trial_row_t *r = &trial->rows[i];
        json_t *row = json_object();
        bad |= ct_json_set(row, "collective", ct_json_str(r->collective));
        if (r->dtype[0])
            bad |= ct_json_set(row, "dtype", ct_json_str(r->dtype));
        bad |= ct_json_set(row, "bytes", json_integer(r->bytes));
        bad |= ct_json_set(row, "placement", ct_json_str(r->placement));
        if (r->nranks > 0) {
            bad |= ct_json_set(row, "nranks", json_integer(r->nranks));
            bad |= ct_json_set(row, "nnodes", json_integer(r->nnodes));
        }
        bad |= ct_json_set(row, "median_us", ct_json_real(r->median_us));
        bad |= ct_json_set(row, "ci_low_us", ct_json_real(r->ci_low_us));
        bad |= ct_json_set(row, "ci_high_us", ct_json_real(r->ci_high_us));
        bad |= ct_json_set(row, "busbw_gbps", ct_json_real(r->busbw_gbps));
        bad |= ct_json_set(row, "samples", json_integer(r->samples));
        bad |= ct_json_set(row, "wrong", r->wrong < 0 ? json_null() : json_integer(r->wrong));
        bad |= ct_json_append(rows, row);
    }
    bad |= ct_json_set(obj, "rows", rows);
    if (trial->nrefused > 0) {
        json_t *refused = json_array();
        for (size_t i = 0; i < trial->nrefused && refused; i++) {
            json_t *e = json_object();
            bad |= ct_json_set(e, "collective", ct_json_str(trial->refused[i].collective));
            bad |= ct_json_set(e, "dtype", ct_json_str(trial->refused[i].dtype));
            bad |= ct_json_set(e, "reason", ct_json_str(trial->refused[i].reason));
            bad |= ct_json_append(refused, e);
        }
        bad |= ct_json_set(obj, "refused", refused);
    }
    if (bad) {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

/* Readers for the members: each returns 0, or -1 with why set. */
static int ct_get_str(const json_t *obj, const char *key, char *buf, size_t buflen, char *why,
                      size_t whylen)
{
    const json_t *v = json_object_get(obj, key);
    if (!json_is_string(v) || json_string_length(v) >= buflen) {
        snprintf(why, whylen, "%s: %s", key, v ? "not a string of the expected length" : "missing");
        return -1;
    }
    memcpy(buf, json_string_value(v), json_string_length(v) + 1);
    return 0;
}

static int ct_get_int(const json_t *obj, const char *key, long long *v_p, int nullable, char *why,
                      size_t whylen)
{
    const json_t *v = json_object_get(obj, key);
    if (nullable && json_is_null(v)) {
        *v_p = -1;
        return 0;
    }
    if (!json_is_integer(v)) {
        snprintf(why, whylen, "%s: %s", key, v ? "not an integer" : "missing");
        return -1;
    }
    *v_p = json_integer_value(v);
    return 0;
}

/* A number, or null (NaN). */
static int ct_get_real(const json_t *obj, const char *key, double *v_p, char *why, size_t whylen)
{
    const json_t *v = json_object_get(obj, key);
    if (json_is_null(v)) {
        *v_p = NAN;
        return 0;
    }
    if (!json_is_number(v)) {
        snprintf(why, whylen, "%s: %s", key, v ? "not a number" : "missing");
        return -1;
    }
    *v_p = json_number_value(v);
    return 0;
}

static int ct_trial_row_from_json(const json_t *r, ct_trial_row_t *row, char *why, size_t whylen)
{
    if (!json_is_object(r)) {
        snprintf(why, whylen, "rows: an element is not an object");
        return -1;
    }
    /* dtype is optional: journals before it was recorded lack it. */
    if (json_object_get(r, "dtype") != NULL &&
        ct_get_str(r, "dtype", row->dtype, sizeof row->dtype, why, whylen))
        return -1;
    /* So are the shape's: journals before --shapes lack them. */
    if (json_object_get(r, "nranks") != NULL &&
        (ct_get_int(r, "nranks", &row->nranks, 0, why, whylen) ||
         ct_get_int(r, "nnodes", &row->nnodes, 0, why, whylen)))
        return -1;
    return ct_get_str(r, "collective", row->collective, sizeof row->collective, why, whylen) ||
           ct_get_int(r, "bytes", &row->bytes, 0, why, whylen) ||
           ct_get_str(r, "placement", row->placement, sizeof row->placement, why, whylen) ||
           ct_get_real(r, "median_us", &row->median_us, why, whylen) ||
           ct_get_real(r, "ci_low_us", &row->ci_low_us, why, whylen) ||
           ct_get_real(r, "ci_high_us", &row->ci_high_us, why, whylen) ||
           ct_get_real(r, "busbw_gbps", &row->busbw_gbps, why, whylen) ||
           ct_get_int(r, "samples", &row->samples, 0, why, whylen) ||
           ct_get_int(r, "wrong", &row->wrong, 1, why, whylen);
}

static int ct_trial_config_from_json(const json_t *config, ct_trial_t *t, char *why, size_t whylen)
{
    if (!json_is_object(config)) {
        snprintf(why, whylen, "config: %s", config ? "not an object" : "missing");
        return -1;
    }
    t->settings = calloc(json_object_size(config) + 1, sizeof *t->settings);
    if (t->settings == NULL) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    const char *name;
    json_t *s;
    json_object_foreach((json_t *)config, name, s)
    {
        const json_t *value = json_object_get(s, "value"), *via = json_object_get(s, "via");
        if (!json_is_string(value) || !json_is_string(via) ||
            (strcmp(json_string_value(via), "mca") != 0 &&
             strcmp(json_string_value(via), "env") != 0)) {
            snprintf(why, whylen, "config: %s: not {\"value\": string, \"via\": mca|env}", name);
            return -1;
        }
        ct_space_setting_t *set = &t->settings[t->nsettings++];
        set->name = strdup(name);
        set->value = strdup(json_string_value(value));
        set->via = strcmp(json_string_value(via), "mca") == 0 ? CT_VIA_MCA : CT_VIA_ENV;
        if (set->name == NULL || set->value == NULL) {
            snprintf(why, whylen, "out of memory");
            return -1;
        }
    }
    return 0;
}

ct_status_t ct_trial_from_json(const json_t *obj, ct_trial_t *trial_p, char *why, size_t whylen)
{
    ct_trial_t t;
    memset(&t, 0, sizeof t);
    char status[32];
    long long launch, exit_code;
    int bad = !json_is_object(obj);
    if (bad)
        snprintf(why, whylen, "not a JSON object");
    bad = bad || ct_get_str(obj, "key", t.key, sizeof t.key, why, whylen) ||
          ct_get_str(obj, "scope", t.scope, sizeof t.scope, why, whylen) ||
          ct_trial_config_from_json(json_object_get(obj, "config"), &t, why, whylen) ||
          ct_get_int(obj, "launch", &launch, 0, why, whylen) ||
          ct_get_str(obj, "status", status, sizeof status, why, whylen) ||
          ct_get_int(obj, "exit_code", &exit_code, 0, why, whylen) ||
          ct_get_real(obj, "wall_s", &t.wall_s, why, whylen);
    if (!bad) {
        int s = ct_journal_status_parse(status);
        if (s < 0) {
            snprintf(why, whylen, "status: unknown \"%s\"", status);
            bad = 1;
        }
        t.status = (ct_journal_status_t)s;
        t.launch = (long)launch;
        t.exit_code = (int)exit_code;
        /* Optional: journals before they were recorded lack them. */
        const json_t *nr = json_object_get(obj, "nranks"), *nn = json_object_get(obj, "nnodes");
        t.nranks = json_is_integer(nr) ? (long)json_integer_value(nr) : 0;
        t.nnodes = json_is_integer(nn) ? (long)json_integer_value(nn) : 0;
        /* Optional: only a trial measured inside a shared launch has one. */
        if (json_object_get(obj, "group") != NULL)
            bad = ct_get_str(obj, "group", t.group, sizeof t.group, why, whylen);
    }
    const json_t *reason = bad ? NULL : json_object_get(obj, "reason");
    if (!bad && reason && !json_is_null(reason)) {
        if (!json_is_string(reason)) {
            snprintf(why, whylen, "reason: not a string");
            bad = 1;
        } else if ((t.reason = strdup(json_string_value(reason))) == NULL) {
            snprintf(why, whylen, "out of memory");
            bad = 1;
        }
    }
    const json_t *rows = bad ? NULL : json_object_get(obj, "rows");
    if (!bad && !json_is_array(rows)) {
        snprintf(why, whylen, "rows: %s", rows ? "not an array" : "missing");
        bad = 1;
    }
    if (!bad && json_array_size(rows)) {
        t.rows = calloc(json_array_size(rows), sizeof *t.rows);
        bad = t.rows == NULL;
        if (bad)
            snprintf(why, whylen, "out of memory");
        for (size_t i = 0; !bad && i < json_array_size(rows); i++, t.nrows++)
            bad = ct_trial_row_from_json(json_array_get(rows, i), &t.rows[i], why, whylen) != 0;
    }
    const json_t *refused = bad ? NULL : json_object_get(obj, "refused");
    if (!bad && refused != NULL && !json_is_array(refused)) {
        snprintf(why, whylen, "refused: not an array");
        bad = 1;
    }
    for (size_t i = 0; !bad && i < json_array_size(refused); i++) {
        const json_t *e = json_array_get(refused, i);
        char coll[24], dtype[16];
        const json_t *reason = json_object_get(e, "reason");
        bad = !json_is_object(e) || ct_get_str(e, "collective", coll, sizeof coll, why, whylen) ||
              ct_get_str(e, "dtype", dtype, sizeof dtype, why, whylen);
        if (!bad && !json_is_string(reason)) {
            snprintf(why, whylen, "refused: reason: %s", reason ? "not a string" : "missing");
            bad = 1;
        }
        if (!bad && ct_trial_add_refusal(&t, coll, dtype, json_string_value(reason)) != CT_OK) {
            snprintf(why, whylen, "out of memory");
            bad = 1;
        }
    }
    if (bad) {
        ct_trial_free(&t);
        return CT_ERR_PARSE;
    }
    *trial_p = t;
    return CT_OK;
}
