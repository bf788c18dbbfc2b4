/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * install.c - colltune install TUNE_DIR --to DIR: the verified files a
 * tune wrote, copied where a site keeps them, with the paths between them
 * rewritten (mca-params.conf names the rules file by its absolute path,
 * and Open MPI ignores a missing one without a word), and the lines a
 * site adds to its configuration printed.
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
#include "ct_outfile.h"
#include "ct_outfile_set.h"
#include "ct_tmpname.h"
#include "outdir.h"

/* Every file tuner/emit writes into a tune's directory (never verify/,
 * where the A/B's candidates live), rules files before the mca-params.conf
 * that names them. */
static const ct_install_file_t ct_install_table[] = {
    {"coll-tuned-rules.conf", NULL, 0},
    {"coll-tuned-rules.json", NULL, 0},
    {"mca-params.conf", "OMPI_MCA_mca_base_param_files", 0},
    {"ucx.conf", "UCX_CONFIG_DIR", 1},
    {"nccl.conf", "NCCL_CONF_FILE", 0},
    {"nccl.env", NULL, 0},
    {"nccl_tuner.conf", "NCCL_TUNER_CONFIG_FILE", 0},
    {"mpich.env", NULL, 0},     /* sourced: MPICH reads no file of CVARs */
    {"intel-mpi.env", NULL, 0}, /* sourced; Intel MPI has not run here */
    /* MPICH's selection tree, read at MPI_Init by every rank */
    {"mpich-coll-selection.json", "MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE", 0},
    {NULL, NULL, 0},
};
#define CT_INSTALL_MAX (sizeof ct_install_table / sizeof ct_install_table[0] - 1)

const ct_install_file_t *ct_install_files(void) { return ct_install_table; }

static char *ct_install_trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

long ct_install_read_settings(const char *path, const char *lead, char **names, char **values,
                              size_t max)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    char line[8192];
    long n = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        char *s = ct_install_trim(line);
        if (lead != NULL) { /* "export NAME=VALUE": a sourced file's settings */
            if (strncmp(s, lead, strlen(lead)) != 0)
                continue;
            s += strlen(lead);
        }
        char *eq = strchr(s, '=');
        if (*s == '#' || *s == '\0' || eq == NULL)
            continue;
        *eq = '\0';
        if ((size_t)n >= max) {
            n = (long)max + 1; /* the caller says "too many" */
            break;
        }
        names[n] = strdup(ct_install_trim(s));
        values[n] = strdup(ct_install_trim(eq + 1));
        if (names[n] == NULL || values[n] == NULL) {
            free(names[n]);
            free(values[n]);
            break;
        }
        n++;
    }
    fclose(f);
    return n;
}

void ct_install_free_mca(char **names, char **values, long n)
{
    for (long i = 0; i < n; i++) {
        free(names[i]);
        free(values[i]);
    }
}

enum { CT_INSTALL_TO = 1, CT_INSTALL_FORCE };

static const ct_cli_opt_t ct_install_opts[] = {
    {CT_INSTALL_TO, "to", "DIR", "where the files go (created if missing; not TUNE_DIR)"},
    {CT_INSTALL_FORCE, "force", NULL, "replace files of the same names already in DIR"},
};
#define CT_INSTALL_NOPTS (sizeof ct_install_opts / sizeof ct_install_opts[0])

static void ct_install_usage(FILE *f)
{
    fprintf(f, "usage: colltune install TUNE_DIR --to DIR [--force]\n\n"
               "Copies the files a tune wrote into TUNE_DIR (mca-params.conf,\n"
               "coll-tuned-rules.conf/.json, ucx.conf, nccl.conf, nccl.env,\n"
               "nccl_tuner.conf, mpich.env, intel-mpi.env, mpich-coll-selection.json: those\n"
               "present) into DIR, all or none, with every path\n"
               "that named TUNE_DIR rewritten to name DIR, and prints the lines a site\n"
               "adds to its configuration (shell and module file).  TUNE_DIR's files\n"
               "carry only the choices the tune's A/B verified; a TUNE_DIR whose\n"
               "report.json is missing or verified nothing is refused.  Every path\n"
               "written into DIR is checked to exist.  Check the result with\n"
               "`colltune verify-install DIR`.\n\noptions:\n");
    ct_cli_print_options(f, ct_install_opts, CT_INSTALL_NOPTS);
    fprintf(f, "\nexit codes: 0 installed, 2 bad input (nothing written), 3 a path written\n"
               "does not exist or a write failed.\n");
}

/* report.json must say the A/B ran and wrote a choice; a line of
 * mca-params.conf that only a dropped choice sets is refused (the files
 * should never carry one: this guards a hand-edited TUNE_DIR). */
int ct_install_check_report(const char *who, const char *tune)
{
    char path[PATH_MAX + 32], mca[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/report.json", tune);
    snprintf(mca, sizeof mca, "%s/mca-params.conf", tune);
    json_error_t jerr;
    json_t *doc = json_load_file(path, 0, &jerr);
    if (doc == NULL) {
        if (access(path, F_OK) != 0)
            fprintf(stderr,
                    "colltune %s: %s: no report.json, so nothing says its files were "
                    "verified (not a finished tune's directory)\n",
                    who, tune);
        else
            fprintf(stderr, "colltune %s: %s: line %d: %s\n", who, path, jerr.line, jerr.text);
        return CT_EXIT_USAGE;
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
    char *names[256], *values[256];
    long n = rc == CT_EXIT_OK ? ct_install_read_settings(mca, NULL, names, values, 256) : -1;
    for (long k = 0; k < n && k < 256 && rc == CT_EXIT_OK; k++) {
        int kept = 0, dropped = 0;
        json_array_foreach(choices, i, c)
        {
            const char *cn = json_string_value(json_object_get(c, "name"));
            const char *cv = json_string_value(json_object_get(c, "value"));
            if (cn == NULL || cv == NULL || strcmp(cn, names[k]) != 0 || strcmp(cv, values[k]) != 0)
                continue;
            if (json_is_true(json_object_get(c, "written")))
                kept = 1;
            else
                dropped = 1;
        }
        if (dropped && !kept) {
            fprintf(stderr,
                    "colltune %s: %s sets %s = %s, a choice %s marks dropped: not "
                    "installing it (re-run the tune's emit, or remove the line)\n",
                    who, mca, names[k], values[k], path);
            rc = CT_EXIT_USAGE;
        }
    }
    if (n > 0)
        ct_install_free_mca(names, values, n > 256 ? 256 : n);
    json_decref(doc);
    return rc;
}

static int ct_install_path_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '/' || ch == '.' || ch == '_' || ch == '-' || ch == '+' || ch == '~';
}

/* text with every whole occurrence of an old directory (not part of a
 * longer path: the character after it ends the path or is '/') replaced
 * by to; *nrep counts them.  NULL when out of memory. */
static char *ct_install_rewrite(const char *text, const char *const *olds, size_t nold,
                                const char *to, size_t *nrep)
{
    size_t cap = strlen(text) + 1, n = 0;
    for (size_t k = 0; k < nold; k++)
        cap += strlen(to) > strlen(olds[k]) ? (strlen(to) - strlen(olds[k])) * strlen(text) : 0;
    char *out = malloc(cap);
    if (out == NULL)
        return NULL;
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
            memcpy(out + n, to, strlen(to));
            n += strlen(to);
            p += hit;
            (*nrep)++;
        } else {
            out[n++] = *p++;
        }
    }
    out[n] = '\0';
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

/* s for a shell, single-quoted when it has anything but path characters. */
static void ct_install_put_sh(FILE *f, const char *s)
{
    int plain = 1;
    for (const char *p = s; *p; p++)
        plain &= ct_install_path_char(*p) || *p == ',' || *p == ':';
    if (plain) {
        fputs(s, f);
        return;
    }
    fputc('\'', f);
    for (const char *p = s; *p; p++)
        fputs(*p == '\'' ? "'\\''" : (char[]){*p, '\0'}, f);
    fputc('\'', f);
}

/* The lines a site adds: shell, then an Environment Modules / Lmod file. */
static void ct_install_print(const char *to, const int *present)
{
    const ct_install_file_t *t = ct_install_table;
    char value[CT_INSTALL_MAX][PATH_MAX + 160];
    printf("\nAdd to the site's configuration (job script, /etc/profile.d, ...):\n");
    for (size_t i = 0; t[i].name != NULL; i++) {
        if (!present[i] || t[i].var == NULL)
            continue;
        if (t[i].names_dir)
            snprintf(value[i], sizeof value[i], "%s", to);
        else
            snprintf(value[i], sizeof value[i], "%s/%s", to, t[i].name);
        printf("  export %s=", t[i].var);
        ct_install_put_sh(stdout, value[i]);
        if (strcmp(t[i].name, "mca-params.conf") == 0)
            /* The parameter replaces Open MPI's own list: keep its files. */
            printf(",\"$HOME/.openmpi/mca-params.conf\",/etc/openmpi/openmpi-mca-params.conf\n"
                   "    (the files after it: Open MPI's default list, as `ompi_info --level 9 "
                   "--param mca base`\n"
                   "    shows it; or copy its lines into PREFIX/etc/openmpi-mca-params.conf)\n");
        else if (strcmp(t[i].name, "nccl_tuner.conf") == 0)
            printf("\n  export NCCL_TUNER_PLUGIN=/path/to/lib/libnccl-tuner-colltune.so\n");
        else
            putchar('\n');
    }
    int conf = 0, env = 0;
    for (size_t i = 0; t[i].name != NULL; i++) {
        conf |= present[i] && strcmp(t[i].name, "nccl.conf") == 0;
        env |= present[i] && strcmp(t[i].name, "nccl.env") == 0;
    }
    if (env) {
        printf("  %sset -a; . ", conf ? "# or, instead of NCCL_CONF_FILE: " : "");
        ct_install_put_sh(stdout, to);
        printf("/nccl.env; set +a\n");
    }
    /* Sourced, exported: the launcher passes the environment on. */
    for (size_t i = 0; t[i].name != NULL; i++) {
        if (!present[i] ||
            (strcmp(t[i].name, "mpich.env") != 0 && strcmp(t[i].name, "intel-mpi.env") != 0))
            continue;
        printf("  %sset -a; . ",
               strcmp(t[i].name, "intel-mpi.env") == 0 ? "# Intel MPI (not run here): " : "");
        ct_install_put_sh(stdout, to);
        printf("/%s; set +a\n", t[i].name);
    }
    printf("\nOr as an Environment Modules / Lmod module file:\n  #%%Module1.0\n");
    for (size_t i = 0; t[i].name != NULL; i++) {
        if (!present[i] || t[i].var == NULL)
            continue;
        printf("  setenv %s {%s", t[i].var, value[i]);
        if (strcmp(t[i].name, "mca-params.conf") == 0)
            printf(",}$env(HOME){/.openmpi/mca-params.conf,/etc/openmpi/openmpi-mca-params.conf");
        printf("}\n");
    }
    printf("\nCheck with: colltune verify-install ");
    ct_install_put_sh(stdout, to);
    printf(" --np 2\n");
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

static int ct_install_main(int argc, char **argv)
{
    ct_install_args_t a = {0};
    int rc = ct_install_parse(argc, argv, &a);
    if (rc != CT_EXIT_OK)
        return rc < 0 ? CT_EXIT_OK : rc;

    char tune[PATH_MAX], to[PATH_MAX], err[512];
    if (realpath(a.tune, tune) == NULL) {
        fprintf(stderr, "colltune install: TUNE_DIR %s: %s\n", a.tune, strerror(errno));
        return CT_EXIT_USAGE;
    }
    if ((rc = ct_install_check_report("install", tune)) != CT_EXIT_OK)
        return rc;
    if (ct_outdir_prepare(a.to, err, sizeof err) != CT_OK) {
        fprintf(stderr, "colltune install: --to %s: %s\n", a.to, err);
        return CT_EXIT_USAGE;
    }
    if (realpath(a.to, to) == NULL) {
        fprintf(stderr, "colltune install: --to %s: %s\n", a.to, strerror(errno));
        return CT_EXIT_USAGE;
    }
    if (strcmp(to, tune) == 0) {
        fprintf(stderr,
                "colltune install: --to %s is TUNE_DIR itself (%s): its files are the "
                "tune's, never written over\n",
                a.to, tune);
        return CT_EXIT_USAGE;
    }
    /* mca_base_param_files is a comma-separated list. */
    if (strpbrk(to, ",\n\r") != NULL) {
        fprintf(stderr,
                "colltune install: --to %s: its path %s has a comma or newline, which "
                "Open MPI's comma-separated mca_base_param_files cannot carry\n",
                a.to, to);
        return CT_EXIT_USAGE;
    }

    /* The directory the files name: TUNE_DIR as the tune saw it, which is
     * the rules file's directory when TUNE_DIR was moved since. */
    const ct_install_file_t *t = ct_install_table;
    char *text[CT_INSTALL_MAX] = {NULL}, rules_dir[PATH_MAX] = "";
    int present[CT_INSTALL_MAX] = {0}, nfiles = 0;
    {
        char mca[PATH_MAX + 32], *names[256], *values[256];
        snprintf(mca, sizeof mca, "%s/mca-params.conf", tune);
        long n = ct_install_read_settings(mca, NULL, names, values, 256);
        for (long k = 0; k < n && k < 256; k++)
            if (strcmp(names[k], CT_INSTALL_RULES_PARAM) == 0 && values[k][0] == '/') {
                snprintf(rules_dir, sizeof rules_dir, "%s", values[k]);
                char *slash = strrchr(rules_dir, '/');
                *slash = '\0';
            }
        if (n > 0)
            ct_install_free_mca(names, values, n > 256 ? 256 : n);
    }
    const char *olds[2] = {tune, rules_dir};
    size_t nold = rules_dir[0] && strcmp(rules_dir, tune) != 0 ? 2 : 1;

    char dst[CT_INSTALL_MAX][PATH_MAX + 64];
    const char *names[CT_INSTALL_MAX];
    size_t n = 0, idx[CT_INSTALL_MAX];
    int exists = 0;
    for (size_t i = 0; t[i].name != NULL && rc == CT_EXIT_OK; i++) {
        char src[PATH_MAX + 64];
        struct stat sb;
        snprintf(src, sizeof src, "%s/%s", tune, t[i].name);
        if (stat(src, &sb) != 0)
            continue;
        char *raw = NULL, why[PATH_MAX + 256] = "not a regular file";
        size_t nrep, rawlen;
        if (S_ISREG(sb.st_mode) &&
            ct_input_slurp(src, CT_INPUT_MAX_CONFIG, 1, &raw, &rawlen, why, sizeof why) != CT_OK)
            raw = NULL;
        if (raw == NULL || (text[i] = ct_install_rewrite(raw, olds, nold, to, &nrep)) == NULL) {
            fprintf(stderr, "colltune install: cannot read %s: %s\n", src, why);
            rc = CT_EXIT_USAGE;
        }
        free(raw);
        present[i] = 1;
        snprintf(dst[n], sizeof dst[n], "%s/%s", to, t[i].name);
        if (lstat(dst[n], &sb) == 0) {
            if (!S_ISREG(sb.st_mode) && !S_ISLNK(sb.st_mode)) {
                fprintf(stderr, "colltune install: %s exists and is not a regular file\n", dst[n]);
                rc = CT_EXIT_USAGE;
            } else if (!a.force) {
                fprintf(stderr, "colltune install: %s exists (give --force to replace it)\n",
                        dst[n]);
                exists = 1;
            }
        }
        names[n] = t[i].name;
        idx[n++] = i;
        nfiles++;
    }
    if (rc == CT_EXIT_OK && nfiles == 0) {
        fprintf(stderr, "colltune install: %s has none of the files a tune writes\n", tune);
        rc = CT_EXIT_USAGE;
    }
    if (rc == CT_EXIT_OK && exists)
        rc = CT_EXIT_USAGE;
    /* Every path the copies will name, checked before anything is written. */
    int bad = 0;
    for (size_t k = 0; k < n && rc == CT_EXIT_OK; k++)
        bad += ct_install_check_paths(t[idx[k]].name, text[idx[k]], to, names, n, 0);
    if (rc == CT_EXIT_OK && bad)
        rc = CT_EXIT_FAILURE;

    /* Temporaries beside the targets, then renamed all or nothing
     * (ct_outfile_set.h): the files name each other. */
    ct_outfile_t out[CT_INSTALL_MAX];
    const char *tmps[CT_INSTALL_MAX], *dsts[CT_INSTALL_MAX];
    char msg[PATH_MAX + 600];
    size_t made = 0;
    for (; made < n && rc == CT_EXIT_OK; made++) {
        ct_status_t st = ct_outfile_open(&out[made], dst[made], 0644, msg, sizeof msg);
        if (st == CT_OK) {
            fputs(text[idx[made]], out[made].fp);
            st = ct_outfile_finish(&out[made], msg, sizeof msg);
        }
        if (st != CT_OK) {
            fprintf(stderr, "colltune install: %s\n", msg);
            rc = st == CT_ERR_USAGE ? CT_EXIT_USAGE : CT_EXIT_FAILURE;
            break; /* finish and open left nothing behind */
        }
        tmps[made] = out[made].tmp;
        dsts[made] = dst[made];
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
        if (ct_install_check_paths(dst[k], text[idx[k]], to, names, n, 1) > 0)
            rc = CT_EXIT_FAILURE;
    if (rc == CT_EXIT_OK) {
        printf("colltune install: %zu file%s from %s into %s:", n, n == 1 ? "" : "s", tune, to);
        for (size_t k = 0; k < n; k++)
            printf(" %s", names[k]);
        putchar('\n');
        ct_install_print(to, present);
    }
    for (size_t i = 0; i < CT_INSTALL_MAX; i++)
        free(text[i]);
    return rc;
}

const ct_command_t ct_command_install = {
    .name = "install",
    .summary = "copy a tune's verified files to where a site keeps them",
    .run = ct_install_main,
    .usage = ct_install_usage,
};
