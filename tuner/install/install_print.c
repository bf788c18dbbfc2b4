/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * install_print.c - the lines install prints for a site: for each
 * installed file, what its row says loads it (the variable that names it,
 * the library's own files kept after it, a second variable), or the sh
 * line that sources it, and the same as a module file.
 */
#define _XOPEN_SOURCE 700

#include "install.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "ct_printable.h"

int ct_install_path_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '/' || ch == '.' || ch == '_' || ch == '-' || ch == '+' || ch == '~';
}

void ct_install_put_sh(FILE *f, const char *s)
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

size_t ct_install_names(char *buf, size_t len)
{
    const ct_library_file_t *row;
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; (row = ct_library_file_at(i)) != NULL && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", row->name);
    return n;
}

void ct_install_wrap(FILE *f, const char *text)
{
    size_t col = 0;
    for (const char *p = text; *p;) {
        size_t word = strcspn(p, " "), sp = strspn(p + word, " ");
        if (col > 0 && col + 1 + word > 72) {
            fputc('\n', f);
            col = 0;
        } else if (col > 0) {
            fputc(' ', f);
            col++;
        }
        fwrite(p, 1, word, f);
        col += word;
        p += word + sp;
    }
    fputc('\n', f);
}

/* The library's default files after ours ("$HOME/" for the home
 * directory): for sh (tcl 0), or inside a Tcl word in braces (tcl 1). */
static void ct_install_put_defaults(const char *const *defaults, int tcl)
{
    for (const char *const *d = defaults; d != NULL && *d != NULL; d++) {
        int home = strncmp(*d, "$HOME/", 6) == 0;
        putchar(',');
        if (home && tcl)
            printf("}$env(HOME){%s", *d + 5);
        else if (home)
            printf("\"%s\"", *d);
        else if (tcl)
            fputs(*d, stdout);
        else
            ct_install_put_sh(stdout, *d);
    }
}

/* A value a Tcl word in braces holds as itself. */
static int ct_install_tcl_plain(const char *v)
{
    for (const char *p = v; *p; p++)
        if (strchr("{}\\", *p) != NULL || (unsigned char)*p < ' ' || *p == 0x7f)
            return 0;
    return 1;
}

/* Whether the reader of a sourced file also reads a present file of the
 * same settings through a variable (nccl.env's are nccl.conf's): the
 * variable, which the sourced file replaces; NULL when none. */
static const char *ct_install_instead_of(const ct_library_file_t *sh,
                                         const ct_library_file_t *const *rows, size_t n, char *var,
                                         size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (rows[i]->reader == sh->reader && rows[i]->carries == sh->carries &&
            !ct_library_syntax_sh(rows[i]->syntax) && ct_install_syntax_settings(rows[i]->syntax) &&
            ct_library_file_env(rows[i], var, len))
            return var;
    return NULL;
}

/* A sourced file's settings as module setenv lines: a module loads no
 * file, so it carries every variable sourcing would set (read from the
 * installed copy, as sh reads it). */
static void ct_install_print_module_vars(const char *to, const ct_library_file_t *row)
{
    char path[PATH_MAX + 64], err[PATH_MAX + 300];
    ct_install_settings_t st;
    snprintf(path, sizeof path, "%s/%s", to, row->name);
    if (ct_install_read_settings(path, row->syntax, &st, err, sizeof err) != CT_OK) {
        printf("  # %s: not read (", row->name);
        ct_printable_put(stdout, err, (size_t)-1);
        printf("): source it instead\n");
        return;
    }
    printf("  # %s", row->name);
    if (row->load.kind == CT_FILE_LOAD_NONE)
        printf(" (%s; not run here)", ct_library_get(row->reader)->name);
    putchar('\n');
    for (size_t k = 0; k < st.n; k++) {
        if (ct_install_tcl_plain(st.value[k]))
            printf("  setenv %s {%s}\n", st.name[k], st.value[k]);
        else
            printf("  # %s: its value cannot be written as a Tcl word; set it by hand\n",
                   st.name[k]);
    }
    ct_install_settings_free(&st);
}

/* The value a row's variable takes: the file, or its directory. */
static void ct_install_value(const char *to, const ct_library_file_t *row, char *buf, size_t len)
{
    if (row->load.names_dir)
        snprintf(buf, len, "%s", to);
    else
        snprintf(buf, len, "%s/%s", to, row->name);
}

/* The shell lines: each variable, then each sourced file. */
static void ct_install_print_sh(const char *to, const ct_library_file_t *const *rows, size_t n)
{
    char var[256], value[PATH_MAX + 160];
    printf("\nAdd to the site's configuration (job script, /etc/profile.d, ...):\n");
    for (size_t i = 0; i < n; i++) {
        const ct_file_load_t *ld = &rows[i]->load;
        if (!ct_library_file_env(rows[i], var, sizeof var))
            continue;
        ct_install_value(to, rows[i], value, sizeof value);
        printf("  export %s=", var);
        ct_install_put_sh(stdout, value);
        /* The variable replaces the library's own list: keep its files. */
        ct_install_put_defaults(ld->defaults, 0);
        if (ld->defaults != NULL)
            printf("\n    (the files after it: %s)\n", ld->defaults_how ? ld->defaults_how : "");
        else if (ld->also != NULL && ld->also_install != NULL)
            printf("\n  export %s=%s\n", ld->also, ld->also_install);
        else
            putchar('\n');
    }
    /* Sourced, exported: the launcher passes the environment on. */
    for (size_t i = 0; i < n; i++) {
        if (!ct_library_syntax_sh(rows[i]->syntax))
            continue;
        if (ct_install_instead_of(rows[i], rows, n, var, sizeof var) != NULL)
            printf("  # or, instead of %s: ", var);
        else if (rows[i]->load.kind == CT_FILE_LOAD_NONE)
            printf("  # %s (not run here): ", ct_library_get(rows[i]->reader)->name);
        else
            printf("  ");
        printf("set -a; . ");
        ct_install_put_sh(stdout, to);
        printf("/%s; set +a\n", rows[i]->name);
    }
}

void ct_install_print(const char *to, const ct_library_file_t *const *rows, size_t n)
{
    char var[256], value[PATH_MAX + 160];
    ct_install_print_sh(to, rows, n);
    printf("\nOr as an Environment Modules / Lmod module file:\n  #%%Module1.0\n");
    for (size_t i = 0; i < n; i++) {
        if (!ct_library_file_env(rows[i], var, sizeof var))
            continue;
        ct_install_value(to, rows[i], value, sizeof value);
        printf("  setenv %s {%s", var, value);
        ct_install_put_defaults(rows[i]->load.defaults, 1);
        printf("}\n");
    }
    for (size_t i = 0; i < n; i++)
        if (ct_library_syntax_sh(rows[i]->syntax))
            ct_install_print_module_vars(to, rows[i]);
    printf("\nCheck with: colltune verify-install ");
    ct_install_put_sh(stdout, to);
    printf(" --np 2\n");
}
