/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * import_common.c - the helpers colltune import's readers share (import.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ct_busbw.h"
#include "ct_names.h"
#include "import.h"

static void ct_import_vmsg(ct_import_t *im, long line, const char *kind, const char *fmt,
                           va_list ap)
{
    if (line > 0)
        fprintf(stderr, "colltune import: %s:%ld: %s", im->path, line, kind);
    else
        fprintf(stderr, "colltune import: %s: %s", im->path, kind);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

ct_status_t ct_import_bad(ct_import_t *im, long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ct_import_vmsg(im, line, "", fmt, ap);
    va_end(ap);
    im->skipped++;
    return im->strict ? CT_ERR_PARSE : CT_OK;
}

void ct_import_warn(ct_import_t *im, long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ct_import_vmsg(im, line, "warning: ", fmt, ap);
    va_end(ap);
    im->warnings++;
}

void ct_import_row_init(ct_import_t *im, ct_result_t *row)
{
    memset(row, 0, sizeof *row);
    snprintf(row->run_id, sizeof row->run_id, "%s", im->run_id);
    snprintf(row->time, sizeof row->time, "%s", im->date);
    snprintf(row->op, sizeof row->op, "none");
    snprintf(row->sync, sizeof row->sync, "batch"); /* both tools time a loop and divide */
    row->root = -1;
    row->nnodes = -1;
    row->iterations = -1;
    row->wrong = -1;
    row->samples = 1; /* the log's one average: no spread is known */
    row->converged = 0;
    row->late = 0;
}

void ct_import_row_time(ct_result_t *row, double us)
{
    row->median_us = row->p10_us = row->p90_us = row->min_us = row->max_us = us;
    row->ci_low_us = row->ci_high_us = row->slowest_rank_median_us = us;
}

/* Half a unit in the last printed digit of a number's text ("12.34" ->
 * 0.005, "1.2e+04" -> 500): how far the text may be from the value. */
static double ct_import_half_ulp(const char *text)
{
    const char *dot = strchr(text, '.');
    int decimals = 0;
    if (dot != NULL)
        for (const char *p = dot + 1; *p >= '0' && *p <= '9'; p++)
            decimals++;
    const char *e = strpbrk(text, "eE");
    long exp = e != NULL ? strtol(e + 1, NULL, 10) : 0;
    return 0.5 * pow(10.0, (double)(exp - decimals));
}

ct_status_t ct_import_emit(ct_import_t *im, long line, ct_result_t *row, const char *time_text,
                           const char *log_busbw)
{
    const ct_coll_name_t *c = ct_coll_name_find(row->collective);
    double factor = c != NULL && c->id != CT_COLL_NONE
                        ? ct_coll_busbw_factor((ct_coll_id_t)c->id, (int)row->nranks)
                        : 0.0;
    if (factor <= 0.0 || !(row->median_us > 0.0) || row->bytes < 0)
        return ct_import_bad(im, line, "cannot compute busbw (%s, %lld ranks, time %g us)",
                             row->collective, row->nranks, row->median_us);
    /* GB/s = bytes / (us * 1e-6) / 1e9 */
    row->algbw_gbps = (double)row->bytes / row->median_us / 1e3;
    row->busbw_gbps = row->algbw_gbps * factor;
    if (log_busbw != NULL) {
        char *end;
        double logged = strtod(log_busbw, &end);
        if (end == log_busbw || *end != '\0')
            return ct_import_bad(im, line, "busbw '%s' is not a number", log_busbw);
        /* The time's rounding moves busbw by the same relative amount. */
        double tol = ct_import_half_ulp(log_busbw) +
                     row->busbw_gbps * ct_import_half_ulp(time_text) / row->median_us +
                     1e-9 * row->busbw_gbps;
        if (fabs(logged - row->busbw_gbps) > tol)
            ct_import_warn(im, line,
                           "%s %s %lld bytes: the log's busbw %s GB/s, recomputed %.6g GB/s "
                           "(factor %.6g at %lld ranks); keeping the recomputed one",
                           row->collective, row->placement, row->bytes, log_busbw, row->busbw_gbps,
                           factor, row->nranks);
    }
    ct_result_csv_write(im->out, row);
    im->rows++;
    return CT_OK;
}

char *ct_import_next_line(char *text, size_t len, size_t *pos)
{
    if (*pos >= len)
        return NULL;
    char *line = text + *pos;
    char *nl = memchr(line, '\n', len - *pos);
    if (nl != NULL) {
        *nl = '\0';
        *pos = (size_t)(nl - text) + 1;
    } else {
        *pos = len;
    }
    size_t n = strlen(line);
    if (n > 0 && line[n - 1] == '\r')
        line[n - 1] = '\0';
    return line;
}

int ct_import_words(char *line, char **words, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *w = strtok_r(line, " \t", &save); w != NULL; w = strtok_r(NULL, " \t", &save)) {
        if (n == max)
            return max + 1; /* too many: the caller reports */
        words[n++] = w;
    }
    return n;
}

const char *ct_import_coll(const char *name)
{
    const ct_coll_name_t *c = ct_coll_name_find(name);
    return c != NULL && c->id != CT_COLL_NONE ? c->name : NULL;
}
