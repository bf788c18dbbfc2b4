/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * merge_out.c - where colltune merge writes: OUT checked before it is
 * made and again once made, then report.json and the emitters' files
 * written into it all or none.
 */
#define _XOPEN_SOURCE 700

#include "merge.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "ct_input.h"
#include "ct_library.h"
#include "ct_outfile.h"
#include "ct_status.h"
#include "emit.h"

#define CT_MERGE_WRITER "colltune merge " PACKAGE_VERSION " (git " CT_GIT_REV ")"

/* Whether dir is a tune's own directory: it holds a journal, or a
 * report.json with choices that colltune merge did not write. */
static int ct_merge_is_tune_dir(const char *dir)
{
    char path[PATH_MAX + 32], err[PATH_MAX + 256];
    struct stat sb;
    json_t *doc = NULL;
    snprintf(path, sizeof path, "%s/journal.jsonl", dir);
    if (lstat(path, &sb) == 0)
        return 1;
    snprintf(path, sizeof path, "%s/report.json", dir);
    if (lstat(path, &sb) != 0 ||
        ct_input_json(path, CT_INPUT_MAX_CONFIG, &doc, err, sizeof err) != CT_OK)
        return 0;
    const char *gen = json_string_value(json_object_get(doc, "generator"));
    int tune = json_object_get(doc, "choices") != NULL &&
               (gen == NULL || strncmp(gen, "colltune merge", 14) != 0);
    json_decref(doc);
    return tune;
}

/* OUT (real, its real path): no tune's directory nor inside one (its
 * verify/ holds the A/B's candidates), a path the files can name, no
 * file of a row that this merge does not write (install would take it
 * with them: refused even with --force, since it may be a person's), and
 * no file it writes unless --force. */
int ct_merge_check_out(const ct_merge_t *m, const char *out_arg, const char *real, int force,
                       const char *const *names, size_t n)
{
    char dir[PATH_MAX], err[PATH_MAX + 512], path[PATH_MAX + 256];
    struct stat sb;
    snprintf(dir, sizeof dir, "%s", real);
    for (char *slash;; *slash = '\0') {
        int is = strcmp(dir, real) == 0, tune = 0;
        for (int t = 0; t < m->ntunes; t++)
            tune |= strcmp(dir, m->tunes[t].dir) == 0;
        if (tune || ct_merge_is_tune_dir(dir)) {
            fprintf(stderr,
                    "colltune merge: --out %s is %s tune's directory %s: a tune's files (and "
                    "the A/B's candidates in its verify/) are never written over\n",
                    out_arg, is ? "a" : "inside a", dir);
            return CT_EXIT_USAGE;
        }
        if ((slash = strrchr(dir, '/')) == NULL || slash == dir)
            break;
    }
    int mca = 0;
    for (size_t k = 0; k < n; k++)
        mca |=
            ct_library_file_named(names[k]) && ct_library_file_named(names[k])->load.keeps_defaults;
    if (ct_emit_check_real_dir(out_arg, real, mca, err, sizeof err) != CT_OK) {
        fprintf(stderr, "colltune merge: --out %s: %s\n", out_arg, err);
        return CT_EXIT_USAGE;
    }
    const ct_library_file_t *f;
    int listed;
    for (size_t i = 0; (f = ct_library_file_at(i)) != NULL; i++) {
        snprintf(path, sizeof path, "%s/%s", real, f->name);
        listed = 0;
        for (size_t k = 0; k < n; k++)
            listed |= strcmp(names[k], f->name) == 0;
        if (lstat(path, &sb) != 0)
            continue;
        if (!listed) {
            fprintf(stderr,
                    "colltune merge: %s is not one of the files this merge writes, and "
                    "colltune install would take it with them: remove it (--force does not), "
                    "or give another --out\n",
                    path);
            return CT_EXIT_USAGE;
        }
        if (!force) {
            fprintf(stderr, "colltune merge: %s exists (give --force to replace it)\n", path);
            return CT_EXIT_USAGE;
        }
    }
    snprintf(path, sizeof path, "%s/report.json", real);
    if (!force && lstat(path, &sb) == 0) {
        fprintf(stderr, "colltune merge: %s exists (give --force to replace it)\n", path);
        return CT_EXIT_USAGE;
    }
    return CT_EXIT_OK;
}

/* report.json and the emitters' files into out, all or none: report.json
 * to its temporary first, renamed once the emitters have written theirs. */
int ct_merge_write(const ct_merge_t *m, const char *out)
{
    char path[PATH_MAX + 32], err[PATH_MAX + 600];
    ct_outfile_t o;
    json_t *doc = ct_merge_report(m);
    snprintf(path, sizeof path, "%s/report.json", out);
    if (doc == NULL) {
        fprintf(stderr, "colltune merge: out of memory\n");
        return CT_EXIT_FAILURE;
    }
    ct_status_t st = ct_outfile_open(&o, path, 0644, err, sizeof err);
    if (st == CT_OK) {
        int bad = json_dumpf(doc, o.fp, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0 ||
                  fputc('\n', o.fp) == EOF;
        if (bad)
            ct_outfile_abort(&o);
        st = bad ? CT_ERR_IO : ct_outfile_finish(&o, err, sizeof err);
        if (bad)
            snprintf(err, sizeof err, "cannot write %s", path);
    }
    json_decref(doc);
    if (st == CT_OK) {
        st = ct_emit_all_as(&m->r, out, CT_MERGE_WRITER, err, sizeof err);
        if (st == CT_OK)
            st = ct_outfile_rename(o.tmp, path, err, sizeof err);
        else
            (void)unlink(o.tmp);
    }
    if (st != CT_OK) {
        fprintf(stderr, "colltune merge: %s\n", err);
        return st == CT_ERR_USAGE ? CT_EXIT_USAGE : CT_EXIT_FAILURE;
    }
    return CT_EXIT_OK;
}
