/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * install_settings.c - the settings of a file colltune writes, read as its
 * library (or sh) reads them (install.h's ct_install_read_settings): what
 * install's guard and verify-install compare.
 */
#define _XOPEN_SOURCE 700

#include "install.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_input.h"

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

int ct_install_syntax_settings(ct_file_syntax_t syntax)
{
    return ct_library_syntax_sh(syntax) || syntax == CT_FILE_SYNTAX_MCA ||
           syntax == CT_FILE_SYNTAX_NCCL_CONF || syntax == CT_FILE_SYNTAX_UCX_INI;
}

ct_status_t ct_install_read_settings(const char *path, ct_file_syntax_t syntax,
                                     ct_install_settings_t *s, char *err, size_t errlen)
{
    char *buf = NULL;
    size_t len = 0;
    memset(s, 0, sizeof *s);
    if (!ct_install_syntax_settings(syntax)) {
        snprintf(err, errlen, "%s: not a file of NAME=VALUE settings", path);
        return CT_ERR_USAGE;
    }
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
        if (ct_library_syntax_sh(syntax)) {
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
