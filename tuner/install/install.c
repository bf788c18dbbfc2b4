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
#include "ct_printable.h"
#include "ct_outfile.h"
#include "ct_outfile_set.h"
#include "ct_tmpname.h"
#include "ct_vec.h"
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

void ct_install_settings_free(ct_install_settings_t *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->name[i]);
        free(s->value[i]);
    }
    free(s->name);
    free(s->value);
    free(s->line);
    memset(s, 0, sizeof *s);
}

/* Appends copies of name and value (value: vlen bytes). */
static ct_status_t ct_install_settings_add(ct_install_settings_t *s, const char *name,
                                           const char *value, size_t vlen, long line)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        char **n = realloc(s->name, cap * sizeof *n);
        if (n != NULL)
            s->name = n;
        char **v = realloc(s->value, cap * sizeof *v);
        if (v != NULL)
            s->value = v;
        long *l = realloc(s->line, cap * sizeof *l);
        if (l != NULL)
            s->line = l;
        if (n == NULL || v == NULL || l == NULL)
            return CT_ERR_NOMEM;
        s->cap = cap;
    }
    s->name[s->n] = strdup(name);
    s->value[s->n] = strndup(value, vlen);
    s->line[s->n] = line;
    if (s->name[s->n] == NULL || s->value[s->n] == NULL) {
        free(s->name[s->n]);
        free(s->value[s->n]);
        return CT_ERR_NOMEM;
    }
    s->n++;
    return CT_OK;
}

/* Characters sh takes as themselves in an unquoted word of an assignment
 * ('#' only after the word's first: there it begins a comment). */
static int ct_install_sh_plain(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           strchr("_./:,+@%-=#", ch) != NULL;
}

/* The sh word at *p (an assignment's value), unquoted into out (at least
 * strlen(*p) + 1 bytes), *p moved past it.  NULL, or why sh would not
 * give it as it reads: an expansion, a glob, an unterminated quote. */
static const char *ct_install_sh_word(const char **p, char *out)
{
    const char *s = *p;
    size_t n = 0;
    for (; *s != '\0' && *s != ' ' && *s != '\t'; s++) {
        if (*s == '\'') {
            const char *end = strchr(s + 1, '\'');
            if (end == NULL)
                return "a quote ' that does not end on its line";
            memcpy(out + n, s + 1, (size_t)(end - s - 1));
            n += (size_t)(end - s - 1);
            s = end;
        } else if (*s == '"') {
            for (s++; *s != '"'; s++) {
                if (*s == '\0')
                    return "a quote \" that does not end on its line";
                if (*s == '$' || *s == '`')
                    return "a $ or ` inside \"...\", which sh would expand";
                if (*s == '\\' && s[1] != '\0' && strchr("$`\"\\", s[1]) != NULL)
                    s++;
                out[n++] = *s;
            }
        } else if (*s == '\\') {
            if (*++s == '\0')
                return "a backslash at the end of the line, which sh joins to the next";
            out[n++] = *s;
        } else if (ct_install_sh_plain(*s) && (*s != '#' || s != *p)) {
            out[n++] = *s;
        } else {
            return "a character sh would expand or treat specially (only letters, digits, "
                   "_./:,+@%-=# are read unquoted; quote the rest)";
        }
    }
    out[n] = '\0';
    *p = s;
    return NULL;
}

/* One line of a sourced file (s: the line, leading blanks gone, not a
 * comment): added to st when it sets a variable.  NULL, or why sh would
 * not read it as colltune does. */
static const char *ct_install_sh_line(const char *s, long line, ct_install_settings_t *st,
                                      ct_status_t *status)
{
    if (strncmp(s, "export", 6) == 0 && (s[6] == ' ' || s[6] == '\t'))
        for (s += 6; *s == ' ' || *s == '\t';)
            s++;
    size_t nl = 0;
    if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')
        while ((s[nl] >= 'a' && s[nl] <= 'z') || (s[nl] >= 'A' && s[nl] <= 'Z') ||
               (s[nl] >= '0' && s[nl] <= '9') || s[nl] == '_')
            nl++;
    if (nl == 0 || (s[nl] != '=' && s[nl] != '\0'))
        return "not NAME=VALUE or export NAME=VALUE (a name of letters, digits and _), "
               "so sourcing the file would run it as a command or fail";
    if (s[nl] == '\0')
        return NULL; /* "export NAME": a value from elsewhere */
    const char *p = s + nl + 1;
    char *name = strndup(s, nl), *value = malloc(strlen(p) + 1);
    if (name == NULL || value == NULL) {
        free(name);
        free(value);
        *status = CT_ERR_NOMEM;
        return "out of memory";
    }
    const char *why = ct_install_sh_word(&p, value);
    while (why == NULL && (*p == ' ' || *p == '\t'))
        p++;
    if (why == NULL && *p != '\0' && *p != '#')
        why = "more than one word after NAME=, which sh would read as another "
              "assignment or a command";
    if (why == NULL)
        *status = ct_install_settings_add(st, name, value, strlen(value), line);
    free(name);
    free(value);
    return why;
}

ct_status_t ct_install_read_settings(const char *path, ct_settings_syntax_t syntax,
                                     ct_install_settings_t *s, char *err, size_t errlen)
{
    char *buf = NULL;
    size_t len = 0;
    memset(s, 0, sizeof *s);
    ct_status_t st = ct_input_slurp(path, CT_INPUT_MAX_CONFIG, 1, &buf, &len, err, errlen);
    if (st != CT_OK)
        return st;
    /* Whole lines, however long: a cut line's tail would read as a setting. */
    char *next = buf;
    for (long line = 1; st == CT_OK && next != NULL && *next != '\0'; line++) {
        char *l = next;
        next = strchr(l, '\n');
        if (next != NULL)
            *next++ = '\0';
        l = ct_install_trim(l);
        if (*l == '#' || *l == '\0')
            continue;
        if (syntax == CT_SETTINGS_SH) {
            const char *why = ct_install_sh_line(l, line, s, &st);
            if (why != NULL && st == CT_OK) {
                snprintf(err, errlen, "%s:%ld: %.80s%s: %s", path, line, l,
                         strlen(l) > 80 ? "..." : "", why);
                st = CT_ERR_USAGE;
            }
            continue;
        }
        char *eq = strchr(l, '=');
        if (eq == NULL)
            continue;
        *eq = '\0';
        char *v = ct_install_trim(eq + 1);
        st = ct_install_settings_add(s, ct_install_trim(l), v, strlen(v), line);
    }
    free(buf);
    if (st == CT_ERR_NOMEM)
        snprintf(err, errlen, "%s: out of memory", path);
    if (st != CT_OK)
        ct_install_settings_free(s);
    return st;
}

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
                                 ct_settings_syntax_t syntax, const json_t *choices,
                                 const char *report)
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

/* report.json must say the A/B ran and wrote a choice; a setting of
 * mca-params.conf or mpich.env that only a dropped choice sets is refused
 * (the files should never carry one: this guards a hand-edited TUNE_DIR).
 * Every setting is read: one past a fixed count would be installed. */
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
    if (rc == CT_EXIT_OK)
        rc = ct_install_check_file(who, tune, "mca-params.conf", CT_SETTINGS_MCA, choices, path);
    if (rc == CT_EXIT_OK)
        rc = ct_install_check_file(who, tune, "mpich.env", CT_SETTINGS_SH, choices, path);
    if (rc == CT_EXIT_OK && report_p != NULL)
        *report_p = doc; /* the caller's now */
    else
        json_decref(doc);
    return rc;
}

static int ct_install_path_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '/' || ch == '.' || ch == '_' || ch == '-' || ch == '+' || ch == '~';
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

/* Whether a job sources file (its settings reach MPI only that way). */
static int ct_install_sourced(const char *file)
{
    return strcmp(file, "nccl.env") == 0 || strcmp(file, "mpich.env") == 0 ||
           strcmp(file, "intel-mpi.env") == 0;
}

/* A value a Tcl word in braces holds as itself. */
static int ct_install_tcl_plain(const char *v)
{
    for (const char *p = v; *p; p++)
        if (strchr("{}\\", *p) != NULL || (unsigned char)*p < ' ' || *p == 0x7f)
            return 0;
    return 1;
}

/* A sourced file's settings as module setenv lines: a module loads no
 * file, so it carries every variable sourcing would set (read from the
 * installed copy, as sh reads it). */
static void ct_install_print_module_vars(const char *to, const char *file)
{
    char path[PATH_MAX + 64], err[PATH_MAX + 300];
    ct_install_settings_t st;
    snprintf(path, sizeof path, "%s/%s", to, file);
    if (ct_install_read_settings(path, CT_SETTINGS_SH, &st, err, sizeof err) != CT_OK) {
        printf("  # %s: not read (", file);
        ct_printable_put(stdout, err, (size_t)-1);
        printf("): source it instead\n");
        return;
    }
    printf("  # %s%s\n", file,
           strcmp(file, "intel-mpi.env") == 0 ? " (Intel MPI; not run here)" : "");
    for (size_t k = 0; k < st.n; k++) {
        if (ct_install_tcl_plain(st.value[k]))
            printf("  setenv %s {%s}\n", st.name[k], st.value[k]);
        else
            printf("  # %s: its value cannot be written as a Tcl word; set it by hand\n",
                   st.name[k]);
    }
    ct_install_settings_free(&st);
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
    for (size_t i = 0; t[i].name != NULL; i++)
        if (present[i] && t[i].var == NULL && ct_install_sourced(t[i].name))
            ct_install_print_module_vars(to, t[i].name);
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
    if (strpbrk(to, ",\n\r") != NULL) {
        fprintf(stderr,
                "colltune install: --to %s: its path %s has a comma or newline, which "
                "Open MPI's comma-separated mca_base_param_files cannot carry\n",
                arg, to);
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
    if ((rc = ct_install_check_report("install", tune, NULL)) != CT_EXIT_OK)
        return rc;
    /* DIR checked as it will be before it is made: a refused DIR is not
     * left behind, empty. */
    if (ct_outdir_realpath(a.to, to, sizeof to, err, sizeof err) != CT_OK) {
        fprintf(stderr, "colltune install: --to %s: %s\n", a.to, err);
        return CT_EXIT_USAGE;
    }
    if ((rc = ct_install_check_to(a.to, to, tune)) != CT_EXIT_OK)
        return rc;
    if (ct_outdir_prepare(a.to, err, sizeof err) != CT_OK) {
        fprintf(stderr, "colltune install: --to %s: %s\n", a.to, err);
        return CT_EXIT_USAGE;
    }
    /* Again as made (a link may have moved under it meanwhile). */
    if (realpath(a.to, to) == NULL) {
        fprintf(stderr, "colltune install: --to %s: %s\n", a.to, strerror(errno));
        return CT_EXIT_USAGE;
    }
    if ((rc = ct_install_check_to(a.to, to, tune)) != CT_EXIT_OK)
        return rc;

    /* The directory the files name: TUNE_DIR as the tune saw it, which is
     * the rules file's directory when TUNE_DIR was moved since. */
    const ct_install_file_t *t = ct_install_table;
    char *text[CT_INSTALL_MAX] = {NULL}, rules_dir[PATH_MAX] = "";
    int present[CT_INSTALL_MAX] = {0}, nfiles = 0;
    {
        char mca[PATH_MAX + 32];
        ct_install_settings_t set = {0};
        snprintf(mca, sizeof mca, "%s/mca-params.conf", tune);
        /* Read (or found absent) by ct_install_check_report already. */
        if (ct_install_read_settings(mca, CT_SETTINGS_MCA, &set, err, sizeof err) != CT_OK)
            set.n = 0;
        for (size_t k = 0; k < set.n; k++)
            if (strcmp(set.name[k], CT_INSTALL_RULES_PARAM) == 0 && set.value[k][0] == '/') {
                snprintf(rules_dir, sizeof rules_dir, "%s", set.value[k]);
                char *slash = strrchr(rules_dir, '/');
                *slash = '\0';
            }
        ct_install_settings_free(&set);
    }
    const char *olds[2] = {tune, rules_dir};
    size_t nold = rules_dir[0] && strcmp(rules_dir, tune) != 0 ? 2 : 1;

    char dst[CT_INSTALL_MAX][PATH_MAX + 64];
    const char *names[CT_INSTALL_MAX];
    size_t n = 0, idx[CT_INSTALL_MAX];
    int exists = 0, stale = 0;
    for (size_t i = 0; t[i].name != NULL && rc == CT_EXIT_OK; i++) {
        char src[PATH_MAX + 64];
        struct stat sb;
        snprintf(src, sizeof src, "%s/%s", tune, t[i].name);
        if (stat(src, &sb) != 0) {
            stale += a.force && ct_install_stale(to, t[i].name, tune);
            continue;
        }
        char *raw = NULL, why[PATH_MAX + 256];
        size_t nrep, rawlen;
        /* ct_input_slurp refuses a FIFO or a device without opening it to wait. */
        if (ct_input_slurp(src, CT_INPUT_MAX_CONFIG, 1, &raw, &rawlen, why, sizeof why) != CT_OK) {
            fprintf(stderr, "colltune install: %s\n", why);
            rc = CT_EXIT_USAGE;
        } else if ((text[i] = ct_install_rewrite(raw, olds, nold, to, &nrep)) == NULL) {
            fprintf(stderr, "colltune install: %s: out of memory\n", src);
            rc = CT_EXIT_FAILURE;
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
    if (rc == CT_EXIT_OK && (exists || stale))
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
