/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_mpich_names.c - the space's MPIR_CVAR_* names and algorithm values
 * against `mpivars` (tune_mpich_names.h).
 *
 * mpivars prints one line per CVAR:
 *   \tMPIR_CVAR_X<pad>=VALUE\tSCOPE\tbinding\ttype\tverbosity\tdescription
 * MPICH 4.0 keeps an algorithm CVAR's values only in its description
 * ("auto - Internal ...\nnb   - Force ..."): MPI_T exposes it as an int
 * with no enum, the value being the name's position.  mpivars drops the
 * line breaks, so each name follows the previous item's last word with no
 * space ("algorithmsmp   - Force smp algorithm").  The items are aligned
 * in MPICH's source (the names padded to one column), which tells
 * "algorithm"+"scattered" from "algorithms"+"cattered".
 */
#include "tune_mpich_names.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_input.h"
#include "ct_library.h"
#include "ct_mpich_desc.h"
#include "helper_run.h"

#define CT_MPICH_MAX_VALUES 64

/* The line of text listing CVAR name ("\tNAME<pad>=..."), NULL if none. */
static const char *ct_mpivars_line(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = text; p != NULL && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        const char *q = p;
        while (*q == '\t' || *q == ' ')
            q++;
        if (strncmp(q, name, n) != 0)
            continue;
        q += n;
        while (*q == ' ')
            q++;
        if (*q == '=')
            return p;
    }
    return NULL;
}

/* A helper's output (malloc'ed), or NULL with why in why. */
static char *ct_mpich_run(const char *prog, const char *arg, char *why, size_t whylen)
{
    char *argv[] = {(char *)prog, (char *)arg, NULL};
    return ct_helper_run(argv, why, whylen);
}

/* The CVAR (MPIR_CVAR_X) a space name stands for, when it is one. */
static int ct_mpich_cvar_of(const char *name, char *buf, size_t n)
{
    return strncmp(name, "MPIR_CVAR_", 10) == 0 && ct_library_cvar_name(name, 0, buf, n);
}

static int ct_ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

/* Checks one NAME and its values against text; 0 with err set when bad. */
static int ct_mpich_check_one(const ct_space_t *space, int line, const char *name,
                              char *const *values, size_t nvalues, const char *text,
                              const char *mpivars, const char *version, char *err, size_t errlen)
{
    char cvar[256];
    if (!ct_mpich_cvar_of(name, cvar, sizeof cvar))
        return 1;
    const char *l = ct_mpivars_line(text, cvar);
    if (l == NULL) {
        snprintf(err, errlen,
                 "%s:%d: %s: not a CVAR of %s (%s does not list it); MPICH would ignore it",
                 space->path, line, name, version, mpivars);
        return 0;
    }
    if (!ct_ends_with(cvar, "_ALGORITHM"))
        return 1;
    const char *eol = strchr(l, '\n');
    size_t ll = eol ? (size_t)(eol - l) : strlen(l);
    char *copy = strndup(l, ll);
    if (copy == NULL)
        return 1;
    const char *desc = strrchr(copy, '\t');
    char buf[4096];
    const char *words[CT_MPICH_MAX_VALUES];
    size_t nw =
        desc ? ct_mpich_alg_values(desc + 1, buf, sizeof buf, words, CT_MPICH_MAX_VALUES) : 0;
    int ok = 1;
    for (size_t i = 0; nw > 0 && ok && i < nvalues; i++) {
        int found = 0;
        for (size_t k = 0; k < nw; k++)
            found |= strcmp(values[i], words[k]) == 0;
        if (found)
            continue;
        char list[1024] = "";
        size_t used = 0;
        for (size_t k = 0; k < nw && used < sizeof list; k++) {
            int m = snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", words[k]);
            if (m > 0)
                used += (size_t)m;
        }
        snprintf(err, errlen, "%s:%d: %s: '%s' is not one of %s's values (%s)", space->path, line,
                 name, values[i], version, list);
        ok = 0;
    }
    free(copy);
    return ok;
}

int ct_mpich_mpit_value(const char *text, const char *name, const char *value, char *buf,
                        size_t len)
{
    char cvar[256];
    snprintf(buf, len, "%s", value);
    if (!ct_mpich_cvar_of(name, cvar, sizeof cvar) || !ct_ends_with(cvar, "_ALGORITHM"))
        return 1;
    const char *l = text ? ct_mpivars_line(text, cvar) : NULL;
    if (l == NULL)
        return 1;
    char *copy = strndup(l, strcspn(l, "\n"));
    if (copy == NULL)
        return 1;
    const char *desc = strrchr(copy, '\t');
    char words_buf[4096];
    const char *words[CT_MPICH_MAX_VALUES];
    size_t nw = desc ? ct_mpich_alg_values(desc + 1, words_buf, sizeof words_buf, words,
                                           CT_MPICH_MAX_VALUES)
                     : 0;
    free(copy);
    if (nw == 0)
        return 1;
    size_t used = 0;
    for (size_t k = 0; k < nw; k++)
        if (strcmp(words[k], value) == 0) {
            snprintf(buf, len, "%zu", k);
            return 1;
        }
    buf[0] = '\0';
    for (size_t k = 0; k < nw && used < len; k++) {
        int m = snprintf(buf + used, len - used, "%s%s", k ? ", " : "", words[k]);
        if (m > 0)
            used += (size_t)m;
    }
    return 0;
}

/* "MPICH 4.0.2" from mpichversion's "MPICH Version:    4.0.2", else
 * "the installed MPICH". */
static void ct_mpich_version(const char *mpichversion, char *buf, size_t n)
{
    char why[256];
    snprintf(buf, n, "the installed MPICH");
    if (mpichversion == NULL)
        return;
    char *text = ct_mpich_run(mpichversion, NULL, why, sizeof why);
    const char *p = text ? strstr(text, "MPICH Version:") : NULL;
    if (p != NULL) {
        p += strlen("MPICH Version:");
        p += strspn(p, " \t");
        size_t len = strcspn(p, " \t\r\n");
        if (len > 0 && len < 32)
            snprintf(buf, n, "MPICH %.*s", (int)len, p);
    }
    free(text);
}

ct_status_t ct_tune_check_mpich_names(const ct_space_t *space, const char *mpivars,
                                      const char *mpichversion, char *err, size_t errlen)
{
    char cvar[256];
    int named = 0;
    for (size_t i = 0; i < space->nvars; i++) {
        named |= ct_mpich_cvar_of(space->vars[i].name, cvar, sizeof cvar);
        for (size_t k = 0; k < space->vars[i].nrequires; k++)
            named |= ct_mpich_cvar_of(space->vars[i].requires[k].name, cvar, sizeof cvar);
    }
    if (!named)
        return CT_OK;
    char why[640];
    char *text = ct_mpich_run(mpivars, NULL, why, sizeof why);
    if (text != NULL && strstr(text, "MPIR_CVAR_") == NULL) {
        snprintf(why, sizeof why, "ran but printed no usable list (no MPIR_CVAR_ line)");
        free(text);
        text = NULL;
    }
    if (text == NULL) {
        fprintf(stderr,
                "colltune tune: note: %s %s, so the space's MPIR_CVAR_* names and values are not "
                "checked against the installed MPICH (Debian: mpich)\n",
                mpivars, why);
        return CT_OK;
    }
    char version[64];
    ct_mpich_version(mpichversion, version, sizeof version);
    int ok = 1;
    for (size_t i = 0; ok && i < space->nvars; i++) {
        const ct_space_var_t *v = &space->vars[i];
        ok = ct_mpich_check_one(space, v->line, v->name, v->values, v->nvalues, text, mpivars,
                                version, err, errlen);
        for (size_t k = 0; ok && k < v->nrequires; k++)
            ok = ct_mpich_check_one(space, v->line, v->requires[k].name, &v->requires[k].value, 1,
                                    text, mpivars, version, err, errlen);
    }
    free(text);
    return ok ? CT_OK : CT_ERR_USAGE;
}
