/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_fingerprint_text.c - a fingerprint's canonical text, its digest, and
 * the text read back.
 *
 * The text is what the digest hashes, so it is canonical: a header line,
 * then one line per item in a fixed order, each list sorted by name:
 *
 *   colltune-fingerprint 1
 *   kernel <TAB> 6.1.0-18-amd64 #1 SMP ...
 *   machine <TAB> x86_64
 *   cpu_model <TAB> Intel(R) Xeon(R) ...        (\N: none)
 *   cpus_online <TAB> 16
 *   governor <TAB> performance                  (\N: none)
 *   env <TAB> NAME <TAB> VALUE
 *   lib <TAB> NAME <TAB> PATH <TAB> BUILD_ID <TAB> VERSION   (\N: none)
 *   mpi_t <TAB> NAME <TAB> VALUE
 *
 * Every field escapes backslash, tab, newline and the other control bytes
 * (\\, \t, \n, \xHH), so a value holding any of them cannot forge a field
 * or a line.  The same text carries a host's fingerprint to rank 0.
 */
#include "ct_fingerprint.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_hash.h"
#include "ct_vec.h"

#define CT_FP_HEADER "colltune-fingerprint 1"

static void ct_fp_put(FILE *f, const char *s)
{
    if (s == NULL) {
        fputs("\\N", f);
        return;
    }
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '\\')
            fputs("\\\\", f);
        else if (*p == '\t')
            fputs("\\t", f);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(f, "\\x%02x", *p);
        else
            fputc(*p, f);
    }
}

static int ct_fp_var_cmp(const void *a, const void *b)
{
    return strcmp(((const ct_fp_var_t *)a)->name, ((const ct_fp_var_t *)b)->name);
}

static int ct_fp_lib_cmp(const void *a, const void *b)
{
    const ct_fp_lib_t *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : strcmp(x->path, y->path);
}

static void ct_fp_put_vars(FILE *f, const char *kind, const ct_fp_var_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s\t", kind);
        ct_fp_put(f, v[i].name);
        fputc('\t', f);
        ct_fp_put(f, v[i].value);
        fputc('\n', f);
    }
}

ct_status_t ct_fingerprint_text(ct_fingerprint_t *fp, char **text_p)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f == NULL)
        return CT_ERR_NOMEM;
    ct_vec_sort(fp->env, fp->nenv, sizeof *fp->env, ct_fp_var_cmp);
    ct_vec_sort(fp->libs, fp->nlibs, sizeof *fp->libs, ct_fp_lib_cmp);
    ct_vec_sort(fp->mpi_t, fp->nmpi_t, sizeof *fp->mpi_t, ct_fp_var_cmp);

    fputs(CT_FP_HEADER "\nkernel\t", f);
    ct_fp_put(f, fp->kernel);
    fputs("\nmachine\t", f);
    ct_fp_put(f, fp->machine);
    fputs("\ncpu_model\t", f);
    ct_fp_put(f, fp->cpu_model);
    fprintf(f, "\ncpus_online\t%ld\ngovernor\t", fp->cpus_online);
    ct_fp_put(f, fp->governor);
    fputc('\n', f);
    ct_fp_put_vars(f, "env", fp->env, fp->nenv);
    for (size_t i = 0; i < fp->nlibs; i++) {
        const ct_fp_lib_t *l = &fp->libs[i];
        fputs("lib\t", f);
        ct_fp_put(f, l->name);
        fputc('\t', f);
        ct_fp_put(f, l->path);
        fputc('\t', f);
        ct_fp_put(f, l->build_id);
        fputc('\t', f);
        ct_fp_put(f, l->version);
        fputc('\n', f);
    }
    ct_fp_put_vars(f, "mpi_t", fp->mpi_t, fp->nmpi_t);
    if (ferror(f)) {
        fclose(f);
        free(text);
        return CT_ERR_NOMEM;
    }
    if (fclose(f) != 0) {
        free(text);
        return CT_ERR_NOMEM;
    }
    *text_p = text;
    return CT_OK;
}

void ct_fingerprint_digest(const char *text, char digest[CT_FINGERPRINT_DIGEST_LEN])
{
    uint64_t h = ct_hash_bytes(CT_HASH_INIT, text, strlen(text));
    snprintf(digest, CT_FINGERPRINT_DIGEST_LEN, "%016" PRIx64, h);
}

/* ---- reading it back ---- */

#define CT_FP_MAX_FIELDS 5

static int ct_fp_hex(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* One escaped field [s, end) into a malloc'd string, NULL for \N.
 * CT_ERR_PARSE on a bad escape (or one that would make a NUL byte). */
static ct_status_t ct_fp_get(const char *s, const char *end, char **out_p)
{
    *out_p = NULL;
    if (end - s == 2 && s[0] == '\\' && s[1] == 'N')
        return CT_OK;
    char *out = malloc((size_t)(end - s) + 1), *o = out;
    if (out == NULL)
        return CT_ERR_NOMEM;
    for (const char *p = s; p < end; p++) {
        int hi, lo;
        if (*p != '\\')
            *o++ = *p;
        else if (end - p >= 2 && (p[1] == '\\' || p[1] == 't' || p[1] == 'n')) {
            *o++ = p[1] == 't' ? '\t' : p[1] == 'n' ? '\n' : '\\';
            p++;
        } else if (end - p >= 4 && p[1] == 'x' && (hi = ct_fp_hex(p[2])) >= 0 &&
                   (lo = ct_fp_hex(p[3])) >= 0 && hi * 16 + lo != 0) {
            *o++ = (char)(hi * 16 + lo);
            p += 3;
        } else {
            free(out);
            return CT_ERR_PARSE;
        }
    }
    *o = '\0';
    *out_p = out;
    return CT_OK;
}

/* A line's fields, split at tabs and unescaped; *n_p of them. */
static ct_status_t ct_fp_fields(const char *line, const char *end, char *field[CT_FP_MAX_FIELDS],
                                int null[CT_FP_MAX_FIELDS], size_t *n_p)
{
    size_t n = 0;
    ct_status_t st = CT_OK;
    for (const char *p = line; st == CT_OK;) {
        const char *tab = memchr(p, '\t', (size_t)(end - p));
        const char *stop = tab ? tab : end;
        if (n == CT_FP_MAX_FIELDS)
            st = CT_ERR_PARSE;
        else {
            st = ct_fp_get(p, stop, &field[n]);
            null[n] = st == CT_OK && field[n] == NULL;
            n += st == CT_OK;
        }
        if (tab == NULL)
            break;
        p = tab + 1;
    }
    *n_p = n;
    return st;
}

/* The line of kind key with one text field (NULL allowed when nullable). */
static ct_status_t ct_fp_take_scalar(char **slot, char *field[], const int null[], size_t n,
                                     int nullable)
{
    if (n != 2 || *slot != NULL || (null[1] && !nullable))
        return CT_ERR_PARSE;
    *slot = field[1];
    field[1] = NULL;
    return CT_OK;
}

static ct_status_t ct_fp_parse_line(ct_fingerprint_t *fp, char *field[], const int null[], size_t n,
                                    int *seen_cpus)
{
    const char *kind = field[0];
    if (kind == NULL)
        return CT_ERR_PARSE;
    if (strcmp(kind, "kernel") == 0)
        return ct_fp_take_scalar(&fp->kernel, field, null, n, 0);
    if (strcmp(kind, "machine") == 0)
        return ct_fp_take_scalar(&fp->machine, field, null, n, 0);
    if (strcmp(kind, "cpu_model") == 0)
        return ct_fp_take_scalar(&fp->cpu_model, field, null, n, 1);
    if (strcmp(kind, "governor") == 0)
        return ct_fp_take_scalar(&fp->governor, field, null, n, 1);
    if (strcmp(kind, "cpus_online") == 0) {
        char *end = NULL;
        if (n != 2 || null[1] || *seen_cpus)
            return CT_ERR_PARSE;
        fp->cpus_online = strtol(field[1], &end, 10);
        *seen_cpus = 1;
        return *field[1] && *end == '\0' ? CT_OK : CT_ERR_PARSE;
    }
    if (strcmp(kind, "env") == 0 || strcmp(kind, "mpi_t") == 0) {
        if (n != 3 || null[1] || null[2])
            return CT_ERR_PARSE;
        return kind[0] == 'e'
                   ? ct_fingerprint_var_push(&fp->env, &fp->nenv, &fp->env_cap, field[1], field[2])
                   : ct_fingerprint_add_mpi_t(fp, field[1], field[2]);
    }
    if (strcmp(kind, "lib") == 0) {
        if (n != 5 || null[1] || null[2])
            return CT_ERR_PARSE;
        ct_fp_lib_t lib = {field[1], field[2], field[3], field[4]};
        if (CT_VEC_PUSH(fp->libs, fp->nlibs, fp->libs_cap, &lib) != CT_OK)
            return CT_ERR_NOMEM;
        for (int i = 1; i < 5; i++)
            field[i] = NULL; /* the list owns them now */
        return CT_OK;
    }
    return CT_ERR_PARSE;
}

ct_status_t ct_fingerprint_parse(const char *text, ct_fingerprint_t *fp)
{
    size_t hlen = strlen(CT_FP_HEADER);
    int seen_cpus = 0;
    if (strncmp(text, CT_FP_HEADER "\n", hlen + 1) != 0)
        return CT_ERR_PARSE;
    ct_status_t st = CT_OK;
    for (const char *p = text + hlen + 1; *p && st == CT_OK;) {
        const char *nl = strchr(p, '\n');
        if (nl == NULL)
            return CT_ERR_PARSE; /* every line ends in a newline */
        char *field[CT_FP_MAX_FIELDS] = {NULL};
        int null[CT_FP_MAX_FIELDS] = {0};
        size_t n = 0;
        st = ct_fp_fields(p, nl, field, null, &n);
        if (st == CT_OK)
            st = ct_fp_parse_line(fp, field, null, n, &seen_cpus);
        for (size_t i = 0; i < n; i++)
            free(field[i]);
        p = nl + 1;
    }
    if (st == CT_OK && (fp->kernel == NULL || fp->machine == NULL || !seen_cpus))
        st = CT_ERR_PARSE;
    return st;
}
