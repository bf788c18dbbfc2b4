/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Every output collbench can write, in the order they are opened (and so
 * the order their problems are reported). */
static const ct_report_ops_t *const ct_report_all[] = {
    &ct_report_table,
    &ct_report_csv,
    &ct_report_json,
};

_Static_assert(sizeof ct_report_all / sizeof ct_report_all[0] <= CT_REPORT_MAX,
               "CT_REPORT_MAX too small for the outputs");

ct_status_t ct_report_io_error(const char *flag, const char *path, const char *what, int err)
{
    fprintf(stderr, "collbench: error: %s%s%s: %s: %s\n", flag, path ? " " : "", path ? path : "",
            what, strerror(err));
    return CT_ERR_IO;
}

static ct_status_t ct_report_refuse(const char *flag, const char *path, const char *why)
{
    fprintf(stderr, "collbench: error: %s %s: %s\n", flag, path, why);
    return CT_ERR_USAGE;
}

static int ct_report_same_file(const ct_path_target_t *a, const ct_path_target_t *b)
{
    if (a->exists && b->exists && a->st.st_dev == b->st.st_dev && a->st.st_ino == b->st.st_ino)
        return 1;
    return strcmp(a->path, b->path) == 0;
}

ct_status_t ct_report_claim(ct_report_files_t *files, const char *flag, const char *path,
                            const ct_path_target_t **target_p)
{
    char err[512], why[700];
    ct_path_target_t *t;

    if (files->n == CT_REPORT_MAX)
        return ct_report_refuse(flag, path, "too many output files");
    t = &files->target[files->n];
    if (ct_path_target(path, t, err, sizeof err) != CT_OK)
        return ct_report_refuse(flag, path, err);
    if (t->exists && !S_ISREG(t->st.st_mode)) {
        snprintf(why, sizeof why, "is %s, not a regular file%s", ct_path_kind(t->st.st_mode),
                 S_ISFIFO(t->st.st_mode) && strcmp(flag, "--csv") == 0
                     ? " (use --csv - to stream the CSV to stdout)"
                     : "");
        return ct_report_refuse(flag, path, why);
    }
    for (size_t i = 0; i < files->n; i++) {
        if (ct_report_same_file(&files->target[i], t)) {
            snprintf(why, sizeof why, "is the same file as %s %s", files->flag[i],
                     files->target[i].path);
            return ct_report_refuse(flag, path, why);
        }
    }
    /* As root access() still says EROFS for a read-only file system. */
    if (t->exists && access(t->path, W_OK) != 0) {
        snprintf(why, sizeof why, "cannot write: %s", strerror(errno));
        return ct_report_refuse(flag, path, why);
    }
    if (access(t->dir, W_OK | X_OK) != 0 && (!t->exists || strcmp(flag, "--json") == 0)) {
        snprintf(why, sizeof why, "cannot create files in %s: %s", t->dir, strerror(errno));
        return ct_report_refuse(flag, path, why);
    }
    files->flag[files->n++] = flag;
    *target_p = t;
    return CT_OK;
}

ct_status_t ct_reports_open(ct_reports_t *r, const ct_report_run_t *run)
{
    ct_report_files_t files;
    ct_status_t st = CT_OK;

    memset(r, 0, sizeof *r);
    memset(&files, 0, sizeof files);
    for (size_t i = 0; i < sizeof ct_report_all / sizeof ct_report_all[0]; i++) {
        const ct_report_ops_t *ops = ct_report_all[i];
        void *state = NULL;
        if (!ops->wanted(run->opts))
            continue;
        /* Every output is checked, so the user sees all problems at once. */
        ct_status_t ost = ops->open(run, &files, &state);
        if (ost != CT_OK) {
            if (st == CT_OK)
                st = ost;
            continue;
        }
        r->ops[r->n] = ops;
        r->state[r->n++] = state;
    }
    if (st != CT_OK) {
        ct_reports_close(r);
        memset(r, 0, sizeof *r);
    }
    return st;
}

/* Calls one hook of every report until one fails. */
#define CT_REPORTS_EACH(r, hook, ...)                                                              \
    do {                                                                                           \
        for (size_t i_ = 0; (r) && (r)->status == CT_OK && i_ < (r)->n; i_++)                      \
            if ((r)->ops[i_]->hook)                                                                \
                (r)->status = (r)->ops[i_]->hook((r)->state[i_], __VA_ARGS__);                     \
    } while (0)

void ct_reports_begin(ct_reports_t *r)
{
    for (size_t i = 0; r && r->status == CT_OK && i < r->n; i++)
        if (r->ops[i]->begin)
            r->status = r->ops[i]->begin(r->state[i]);
}

void ct_reports_coll_begin(ct_reports_t *r, const ct_coll_desc_t *coll)
{
    CT_REPORTS_EACH(r, coll_begin, coll);
}

void ct_reports_row(ct_reports_t *r, const ct_report_row_t *row) { CT_REPORTS_EACH(r, row, row); }

void ct_reports_refused(ct_reports_t *r, const ct_report_refusal_t *refusal)
{
    CT_REPORTS_EACH(r, refused, refusal);
}

void ct_reports_coll_end(ct_reports_t *r, const ct_coll_desc_t *coll)
{
    CT_REPORTS_EACH(r, coll_end, coll);
}

void ct_reports_pair(ct_reports_t *r, const ct_report_pair_t *pair)
{
    CT_REPORTS_EACH(r, pair, pair);
}

void ct_reports_shape(ct_reports_t *r, const ct_report_shape_t *shape)
{
    CT_REPORTS_EACH(r, shape, shape);
}

ct_status_t ct_reports_status(const ct_reports_t *r) { return r ? r->status : CT_OK; }

ct_status_t ct_reports_end(ct_reports_t *r, ct_status_t run_status)
{
    if (r == NULL)
        return CT_OK;
    /* Unlike the other events, end reaches every report: a CSV that failed
     * must not also cost the JSON of a sweep that finished. */
    ct_status_t first = r->status;
    for (size_t i = 0; first == CT_OK && i < r->n; i++) {
        ct_status_t st = r->ops[i]->end ? r->ops[i]->end(r->state[i], run_status) : CT_OK;
        r->ended[i] = st == CT_OK;
        if (st != CT_OK && r->status == CT_OK)
            r->status = st;
    }
    return r->status;
}

void ct_reports_close(ct_reports_t *r)
{
    /* Reverse order, as cleanup should be. */
    for (size_t i = r ? r->n : 0; i-- > 0;) {
        if (r->ended[i] && r->ops[i]->close)
            r->ops[i]->close(r->state[i]);
        else if (!r->ended[i] && r->ops[i]->abort)
            r->ops[i]->abort(r->state[i]);
    }
    if (r)
        r->n = 0;
}
