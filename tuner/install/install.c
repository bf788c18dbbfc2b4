/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * install.c - colltune install TUNE_DIR --to DIR: the verified files a
 * tune wrote (the library table's rows, in their order: a file another
 * names before it; never verify/, where the A/B's candidates live),
 * copied where a site keeps them, with the paths between them rewritten
 * (mca-params.conf names the rules file by its absolute path, and Open
 * MPI ignores a missing one without a word), and the lines a site adds
 * to its configuration printed (install_print.c).
 */
#define _XOPEN_SOURCE 700

#include "install.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "command.h"
#include "ct_status.h"
#include "ct_input.h"
#include "ct_printable.h"
#include "ct_outfile.h"
#include "ct_outfile_set.h"
#include "ct_tmpname.h"
#include "ct_vec.h"
#include "outdir.h"

enum { CT_INSTALL_TO = 1, CT_INSTALL_FORCE };

static const ct_cli_opt_t ct_install_opts[] = {
    {CT_INSTALL_TO, "to", "DIR", "where the files go (created if missing; not TUNE_DIR or in it)"},
    {CT_INSTALL_FORCE, "force", NULL,
     "replace files of the same names already in DIR (refused while DIR holds another "
     "file a tune writes that TUNE_DIR lacks)"},
};
#define CT_INSTALL_NOPTS (sizeof ct_install_opts / sizeof ct_install_opts[0])

static void ct_install_usage(FILE *f)
{
    char names[2048], text[4096];
    ct_install_names(names, sizeof names);
    snprintf(text, sizeof text,
             "Copies the files a tune wrote into TUNE_DIR (%s: those present) into DIR, all or "
             "none, with every path that named TUNE_DIR rewritten to name DIR, and prints the "
             "lines a site adds to its configuration (shell and module file).  TUNE_DIR's files "
             "carry only the choices the tune's A/B verified; a TUNE_DIR whose report.json is "
             "missing or verified nothing is refused.  Every path written into DIR is checked to "
             "exist.  Check the result with `colltune verify-install DIR`.",
             names);
    fprintf(f, "usage: colltune install TUNE_DIR --to DIR [--force]\n\n");
    ct_install_wrap(f, text);
    fprintf(f, "\noptions:\n");
    ct_cli_print_options(f, ct_install_opts, CT_INSTALL_NOPTS);
    fprintf(f, "\nexit codes: 0 installed, 2 bad input (nothing written), 3 a path written\n"
               "does not exist or a write failed.\n");
}

/* One pass of ct_install_rewrite: the length of the result, written to
 * out unless it is NULL; *nrep counts the replacements. */
static size_t ct_install_rewrite_pass(const char *text, const char *const *olds, size_t nold,
                                      const char *to, char *out, size_t *nrep)
{
    size_t n = 0, tl = strlen(to);
    *nrep = 0;
    for (const char *p = text; *p;) {
        size_t hit = 0;
        for (size_t k = 0; k < nold && hit == 0; k++) {
            size_t ol = strlen(olds[k]);
            if (ol > 0 && strncmp(p, olds[k], ol) == 0 &&
                (p == text || !ct_install_path_char(p[-1]) || p[-1] == '=') &&
                (p[ol] == '/' || !ct_install_path_char(p[ol])))
                hit = ol;
        }
        if (hit) {
            if (out != NULL)
                memcpy(out + n, to, tl);
            n += tl;
            p += hit;
            (*nrep)++;
        } else {
            if (out != NULL)
                out[n] = *p;
            n++;
            p++;
        }
    }
    if (out != NULL)
        out[n] = '\0';
    return n;
}

/* text with every whole occurrence of an old directory (not part of a
 * longer path: the character after it ends the path or is '/') replaced
 * by to; *nrep counts them.  Measured first, so that the copy takes what
 * it needs and no more.  NULL when out of memory. */
static char *ct_install_rewrite(const char *text, const char *const *olds, size_t nold,
                                const char *to, size_t *nrep)
{
    char *out = malloc(ct_install_rewrite_pass(text, olds, nold, to, NULL, nrep) + 1);
    if (out != NULL)
        (void)ct_install_rewrite_pass(text, olds, nold, to, out, nrep);
    return out;
}

/* Every "to/NAME" in text names a file that will exist: one installed now
 * (names) or already in to.  Prints each that does not; returns how many. */
static int ct_install_check_paths(const char *file, const char *text, const char *to,
                                  const char *const *names, size_t nnames, int after)
{
    int bad = 0;
    size_t tl = strlen(to);
    for (const char *p = strstr(text, to); p != NULL; p = strstr(p + 1, to)) {
        if (p[tl] != '/')
            continue;
        const char *s = p + tl + 1;
        size_t len = 0;
        while (ct_install_path_char(s[len]) && s[len] != '/')
            len++;
        if (len == 0)
            continue;
        char path[PATH_MAX + 300];
        snprintf(path, sizeof path, "%s/%.*s", to, (int)len, s);
        int ok = access(path, R_OK) == 0;
        for (size_t i = 0; i < nnames && !ok && !after; i++)
            ok = strlen(names[i]) == len && strncmp(names[i], s, len) == 0;
        if (!ok) {
            fprintf(stderr, "colltune install: %s names %s, which %s\n", file, path,
                    after ? "does not exist after the copy" : "would not exist after it");
            bad++;
        }
    }
    return bad;
}

typedef struct {
    const char *tune, *to;
    int force;
} ct_install_args_t;

static int ct_install_parse(int argc, char **argv, ct_install_args_t *a)
{
    ct_cli_iter_t it = CT_CLI_ITER("install", argc, argv);
    const char *value;
    int id;
    for (;;) {
        if (ct_cli_operand(&it, &a->tune, "TUNE_DIR") != 0)
            return CT_EXIT_USAGE;
        if ((id = ct_cli_next(&it, ct_install_opts, CT_INSTALL_NOPTS, &value)) <= 0)
            break;
        if (id == CT_INSTALL_TO)
            a->to = value;
        else
            a->force = 1;
    }
    int rc = ct_cli_finish(id, ct_install_usage);
    if (rc != CT_EXIT_OK)
        return rc;
    if (it.next < argc) {
        fprintf(stderr, "colltune install: unexpected argument %s\n", argv[it.next]);
        return CT_EXIT_USAGE;
    }
    if (a->tune == NULL || a->to == NULL) {
        fprintf(stderr, "colltune install: %s missing (colltune install TUNE_DIR --to DIR)\n",
                a->tune == NULL ? "TUNE_DIR" : "--to DIR");
        return CT_EXIT_USAGE;
    }
    return CT_EXIT_OK;
}

/* With --force, whether to/name is there though the tune wrote no such
 * file (said on stderr): the earlier install's file would stay beside the
 * new set, and verify-install would pass the mix.  Refused rather than
 * removed: install writes all or nothing and removes nothing it did not
 * write (the file may be a site's own). */
static int ct_install_stale(const char *to, const char *name, const char *tune)
{
    char path[PATH_MAX + 64];
    struct stat sb;
    snprintf(path, sizeof path, "%s/%s", to, name);
    if (lstat(path, &sb) != 0)
        return 0;
    fprintf(stderr,
            "colltune install: %s is there, and %s wrote no %s: --force replaces the files "
            "of the new set only, so it would stay beside them and mix two tunes (remove it, "
            "or install into an empty DIR)\n",
            path, tune, name);
    return 1;
}

/* DIR (arg, its real path to) may take the files: not TUNE_DIR (real
 * path tune) nor a directory inside it (its verify/ holds the A/B's
 * candidates), no comma or newline (mca_base_param_files is a
 * comma-separated list).  CT_EXIT_OK or CT_EXIT_USAGE after saying why. */
static int ct_install_check_to(const char *arg, const char *to, const char *tune)
{
    size_t tl = strlen(tune);
    if (strcmp(to, tune) == 0) {
        fprintf(stderr,
                "colltune install: --to %s is TUNE_DIR itself (%s): its files are the "
                "tune's, never written over\n",
                arg, tune);
        return CT_EXIT_USAGE;
    }
    if (strncmp(to, tune, tl) == 0 && (to[tl] == '/' || tl == 1)) {
        fprintf(stderr,
                "colltune install: --to %s (%s) is inside TUNE_DIR %s (its verify/ holds the "
                "A/B's candidates): the tune's files are the tune's, never written over\n",
                arg, to, tune);
        return CT_EXIT_USAGE;
    }
    /* A row whose variable lists files (keeps_defaults) splits at commas. */
    const ct_library_file_t *row, *list = NULL;
    for (size_t i = 0; list == NULL && (row = ct_library_file_at(i)) != NULL; i++)
        if (row->load.keeps_defaults)
            list = row;
    if (strpbrk(to, list != NULL ? ",\n\r" : "\n\r") != NULL) {
        fprintf(stderr, "colltune install: --to %s: its path %s has a comma or newline, which ",
                arg, to);
        if (list != NULL)
            fprintf(stderr, "%s's comma-separated %s cannot carry\n",
                    ct_library_get(list->reader)->name, list->load.var);
        else
            fprintf(stderr, "a file's line cannot carry\n");
        return CT_EXIT_USAGE;
    }
    return CT_EXIT_OK;
}

/* The directory the tune's files name one another in: TUNE_DIR as the
 * tune saw it, which differs from tune when TUNE_DIR was moved since.
 * Read where a file names another (a row's named_by: mca-params.conf
 * names the rules file): a value that is an absolute path to that file.
 * "" when none. */
static void ct_install_named_dir(const char *tune, char *dir, size_t len)
{
    const ct_library_file_t *row;
    dir[0] = '\0';
    for (size_t i = 0; dir[0] == '\0' && (row = ct_library_file_at(i)) != NULL; i++) {
        const ct_library_file_t *by = ct_library_file_named(row->load.named_by);
        char path[PATH_MAX + 64], err[PATH_MAX + 300];
        ct_install_settings_t set;
        if (row->load.kind != CT_FILE_LOAD_NAMED_BY || by == NULL)
            continue;
        snprintf(path, sizeof path, "%s/%s", tune, by->name);
        /* Read (or found absent) by ct_install_check_report already. */
        if (ct_install_read_settings(path, by->syntax, &set, err, sizeof err) != CT_OK)
            continue;
        for (size_t k = 0; k < set.n; k++) {
            const char *v = set.value[k], *slash = strrchr(v, '/');
            if (v[0] == '/' && strcmp(slash + 1, row->name) == 0)
                snprintf(dir, len, "%.*s", (int)(slash - v), v);
        }
        ct_install_settings_free(&set);
    }
}

/* One file to install: its row, its text with the paths rewritten, where
 * it goes. */
typedef struct {
    const ct_library_file_t *row;
    char *text;
    char dst[PATH_MAX + 64];
} ct_install_copy_t;

/* The files install copies: n of them, in row order. */
typedef struct {
    ct_install_copy_t *v;
    const char **names;             /* each copy's name, for ct_install_check_paths */
    const ct_library_file_t **rows; /* each copy's row, for ct_install_print */
    size_t n;
} ct_install_set_t;

static void ct_install_set_free(ct_install_set_t *set)
{
    for (size_t k = 0; k < set->n; k++)
        free(set->v[k].text);
    free(set->v);
    free(set->names);
    free(set->rows);
}

/* One row's file of tune (present: stat'd) read and rewritten into c. */
static int ct_install_take(const ct_install_args_t *a, const char *tune, const char *to,
                           const char *const *olds, size_t nold, ct_install_copy_t *c, int *exists)
{
    char src[PATH_MAX + 64], *raw = NULL, why[PATH_MAX + 256];
    size_t nrep, rawlen;
    struct stat sb;
    int rc = CT_EXIT_OK;
    snprintf(src, sizeof src, "%s/%s", tune, c->row->name);
    /* ct_input_slurp refuses a FIFO or a device without opening it to wait. */
    if (ct_input_slurp(src, CT_INPUT_MAX_CONFIG, 1, &raw, &rawlen, why, sizeof why) != CT_OK) {
        fprintf(stderr, "colltune install: %s\n", why);
        rc = CT_EXIT_USAGE;
    } else if ((c->text = ct_install_rewrite(raw, olds, nold, to, &nrep)) == NULL) {
        fprintf(stderr, "colltune install: %s: out of memory\n", src);
        rc = CT_EXIT_FAILURE;
    }
    free(raw);
    snprintf(c->dst, sizeof c->dst, "%s/%s", to, c->row->name);
    if (lstat(c->dst, &sb) == 0) {
        if (!S_ISREG(sb.st_mode) && !S_ISLNK(sb.st_mode)) {
            fprintf(stderr, "colltune install: %s exists and is not a regular file\n", c->dst);
            rc = CT_EXIT_USAGE;
        } else if (!a->force) {
            fprintf(stderr, "colltune install: %s exists (give --force to replace it)\n", c->dst);
            *exists = 1;
        }
    }
    return rc;
}

/* Every row's file tune has, read into set; with --force, a file of the
 * rows in to that tune lacks refused (ct_install_stale). */
static int ct_install_gather(const ct_install_args_t *a, const char *tune, const char *to,
                             ct_install_set_t *set)
{
    size_t nrows = 0;
    while (ct_library_file_at(nrows) != NULL)
        nrows++;
    set->v = calloc(nrows, sizeof *set->v);
    set->names = calloc(nrows, sizeof *set->names);
    set->rows = calloc(nrows, sizeof *set->rows);
    if (set->v == NULL || set->names == NULL || set->rows == NULL) {
        fprintf(stderr, "colltune install: out of memory\n");
        return CT_EXIT_FAILURE;
    }
    char rules_dir[PATH_MAX];
    ct_install_named_dir(tune, rules_dir, sizeof rules_dir);
    const char *olds[2] = {tune, rules_dir};
    size_t nold = rules_dir[0] && strcmp(rules_dir, tune) != 0 ? 2 : 1;
    int rc = CT_EXIT_OK, exists = 0, stale = 0;
    for (size_t i = 0; i < nrows && rc == CT_EXIT_OK; i++) {
        const ct_library_file_t *row = ct_library_file_at(i);
        char src[PATH_MAX + 64];
        struct stat sb;
        snprintf(src, sizeof src, "%s/%s", tune, row->name);
        if (stat(src, &sb) != 0) {
            stale += a->force && ct_install_stale(to, row->name, tune);
            continue;
        }
        ct_install_copy_t *c = &set->v[set->n];
        c->row = set->rows[set->n] = row;
        set->names[set->n++] = row->name;
        rc = ct_install_take(a, tune, to, olds, nold, c, &exists);
    }
    if (rc == CT_EXIT_OK && set->n == 0) {
        fprintf(stderr, "colltune install: %s has none of the files a tune writes\n", tune);
        rc = CT_EXIT_USAGE;
    }
    if (rc == CT_EXIT_OK && (exists || stale))
        rc = CT_EXIT_USAGE;
    return rc;
}

/* The set written into to: every path its files name checked first,
 * temporaries beside the targets, then renamed all or nothing
 * (ct_outfile_set.h: the files name each other), and checked again. */
static int ct_install_write(const ct_install_set_t *set, const char *to)
{
    size_t n = set->n, made = 0;
    int bad = 0, rc = CT_EXIT_OK;
    for (size_t k = 0; k < n; k++)
        bad += ct_install_check_paths(set->v[k].row->name, set->v[k].text, to, set->names, n, 0);
    if (bad)
        return CT_EXIT_FAILURE;
    ct_outfile_t *out = calloc(n, sizeof *out);
    const char **tmps = calloc(n, sizeof *tmps), **dsts = calloc(n, sizeof *dsts);
    char msg[PATH_MAX + 600];
    if (out == NULL || tmps == NULL || dsts == NULL) {
        fprintf(stderr, "colltune install: out of memory\n");
        rc = CT_EXIT_FAILURE;
    }
    for (; made < n && rc == CT_EXIT_OK; made++) {
        ct_status_t st = ct_outfile_open(&out[made], set->v[made].dst, 0644, msg, sizeof msg);
        if (st == CT_OK) {
            fputs(set->v[made].text, out[made].fp);
            st = ct_outfile_finish(&out[made], msg, sizeof msg);
        }
        if (st != CT_OK) {
            fprintf(stderr, "colltune install: %s\n", msg);
            rc = st == CT_ERR_USAGE ? CT_EXIT_USAGE : CT_EXIT_FAILURE;
            break; /* finish and open left nothing behind */
        }
        tmps[made] = out[made].tmp;
        dsts[made] = set->v[made].dst;
    }
    if (rc == CT_EXIT_OK && ct_outfile_rename_all(n, tmps, dsts, msg, sizeof msg) != CT_OK) {
        fprintf(stderr, "colltune install: %s\n", msg);
        rc = CT_EXIT_FAILURE;
    }
    if (rc != CT_EXIT_OK)
        for (size_t k = 0; k < made; k++)
            (void)unlink(out[k].tmp); /* those renamed are gone: ENOENT */
    /* And again once they are in place. */
    for (size_t k = 0; k < n && rc == CT_EXIT_OK; k++)
        if (ct_install_check_paths(set->v[k].dst, set->v[k].text, to, set->names, n, 1) > 0)
            rc = CT_EXIT_FAILURE;
    free(out);
    free(tmps);
    free(dsts);
    return rc;
}

/* TUNE_DIR and DIR resolved into tune and to, checked, DIR made. */
static int ct_install_dirs(const ct_install_args_t *a, char *tune, char *to)
{
    char err[512];
    int rc;
    if (realpath(a->tune, tune) == NULL) {
        fprintf(stderr, "colltune install: TUNE_DIR %s: %s\n", a->tune, strerror(errno));
        return CT_EXIT_USAGE;
    }
    if ((rc = ct_install_check_report("install", tune, NULL)) != CT_EXIT_OK)
        return rc;
    /* DIR checked as it will be before it is made: a refused DIR is not
     * left behind, empty. */
    if (ct_outdir_realpath(a->to, to, PATH_MAX, err, sizeof err) != CT_OK) {
        fprintf(stderr, "colltune install: --to %s: %s\n", a->to, err);
        return CT_EXIT_USAGE;
    }
    if ((rc = ct_install_check_to(a->to, to, tune)) != CT_EXIT_OK)
        return rc;
    if (ct_outdir_prepare(a->to, err, sizeof err) != CT_OK) {
        fprintf(stderr, "colltune install: --to %s: %s\n", a->to, err);
        return CT_EXIT_USAGE;
    }
    /* Again as made (a link may have moved under it meanwhile). */
    if (realpath(a->to, to) == NULL) {
        fprintf(stderr, "colltune install: --to %s: %s\n", a->to, strerror(errno));
        return CT_EXIT_USAGE;
    }
    return ct_install_check_to(a->to, to, tune);
}

static int ct_install_main(int argc, char **argv)
{
    ct_install_args_t a = {0};
    int rc = ct_install_parse(argc, argv, &a);
    if (rc != CT_EXIT_OK)
        return rc < 0 ? CT_EXIT_OK : rc;
    char tune[PATH_MAX], to[PATH_MAX];
    if ((rc = ct_install_dirs(&a, tune, to)) != CT_EXIT_OK)
        return rc;
    ct_install_set_t set = {0};
    rc = ct_install_gather(&a, tune, to, &set);
    if (rc == CT_EXIT_OK)
        rc = ct_install_write(&set, to);
    if (rc == CT_EXIT_OK) {
        printf("colltune install: %zu file%s from %s into %s:", set.n, set.n == 1 ? "" : "s", tune,
               to);
        for (size_t k = 0; k < set.n; k++)
            printf(" %s", set.names[k]);
        putchar('\n');
        ct_install_print(to, set.rows, set.n);
    }
    ct_install_set_free(&set);
    return rc;
}

const ct_command_t ct_command_install = {
    .name = "install",
    .summary = "copy a tune's verified files to where a site keeps them",
    .run = ct_install_main,
    .usage = ct_install_usage,
};
