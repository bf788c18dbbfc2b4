/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * import_osu.c - OSU Micro-Benchmarks collective latency output into
 * result rows.
 *
 * A test is a banner ("# OSU MPI Allreduce Latency Test v7.3"), maybe
 * "# Datatype: MPI_CHAR.", a column header ("# Size  Avg Latency(us)", with
 * -f also "Min Latency(us)  Max Latency(us)  Iterations") and one row per
 * size.  OSU prints no rank count and no bandwidth: nranks is --np, and
 * algbw and busbw are computed.  OSU's size is a per-rank block for
 * allgather and alltoall; nccl-tests' size (the schema's bytes) is the
 * whole buffer, so those sizes are multiplied by nranks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ct_dtype.h"
#include "ct_num.h"
#include "import.h"

#define CT_OSU_MAX_COLS 16

typedef struct {
    char coll[24];
    int unsupported;
    int scale; /* bytes = size x scale */
    char dtype[16];
    int ncols; /* 0: no header yet */
    int size, avg, min, max, iters;
} ct_osu_test_t;

/* "MPI_CHAR" -> "int8": the schema's (nccl-tests') type names. */
static const char *ct_osu_dtype(const char *mpi)
{
    static const struct {
        const char *mpi, *name;
    } map[] = {
        {"MPI_CHAR", "int8"},   {"MPI_SIGNED_CHAR", "int8"}, {"MPI_UNSIGNED_CHAR", "uint8"},
        {"MPI_INT", "int32"},   {"MPI_UNSIGNED", "uint32"},  {"MPI_LONG", "int64"},
        {"MPI_FLOAT", "float"}, {"MPI_DOUBLE", "double"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(mpi, map[i].mpi) == 0)
            return map[i].name;
    return NULL;
}

static ct_status_t ct_osu_banner(ct_import_t *im, long ln, const char *line, ct_osu_test_t *t)
{
    char name[32] = "";
    memset(t, 0, sizeof *t);
    t->scale = 1;
    if (sscanf(line, "# OSU MPI %31s Latency Test", name) != 1 || strstr(line, "Latency") == NULL)
        return ct_import_bad(im, ln, "not an OSU collective latency test; skipped");
    for (char *p = name; *p; p++)
        *p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    const char *coll = ct_import_coll(name);
    if (coll == NULL) {
        t->unsupported = 1;
        return ct_import_bad(im, ln,
                             "OSU %s: not a collective the results schema holds; "
                             "skipped",
                             name);
    }
    snprintf(t->coll, sizeof t->coll, "%s", coll);
    /* Without a Datatype line: OSU before 7 reduced floats and moved chars. */
    snprintf(t->dtype, sizeof t->dtype, "%s",
             strcmp(coll, "allreduce") == 0 || strcmp(coll, "reduce_scatter") == 0 ? "float"
                                                                                   : "int8");
    if (im->np <= 0) {
        t->unsupported = 1;
        ct_import_bad(im, ln, "OSU logs do not say how many ranks ran: give --np");
        return CT_ERR_PARSE;
    }
    if (strcmp(coll, "allgather") == 0 || strcmp(coll, "alltoall") == 0) {
        t->scale = (int)im->np;
        fprintf(stderr,
                "colltune import: %s:%ld: note: OSU %s sizes are per-rank blocks; bytes = "
                "size x %ld (--np), nccl-tests' convention\n",
                im->path, ln, coll, im->np);
    }
    return CT_OK;
}

/* "# Size   Avg Latency(us)   Min Latency(us) ..." split at runs of two
 * or more blanks into column names. */
static ct_status_t ct_osu_header(ct_import_t *im, long ln, char *line, ct_osu_test_t *t)
{
    char *names[CT_OSU_MAX_COLS];
    int n = 0;
    char *p = line + 1;
    while (*p != '\0' && n < CT_OSU_MAX_COLS) {
        p += strspn(p, " \t");
        if (*p == '\0')
            break;
        names[n++] = p;
        char *end = p;
        while (*end != '\0' && !(end[0] == ' ' && (end[1] == ' ' || end[1] == '\0')) &&
               *end != '\t')
            end++;
        if (*end != '\0')
            *end++ = '\0';
        p = end;
    }
    t->size = t->avg = t->min = t->max = t->iters = -1;
    for (int i = 0; i < n; i++) {
        if (strcasecmp(names[i], "Size") == 0)
            t->size = i;
        else if (strncasecmp(names[i], "Avg Latency", 11) == 0)
            t->avg = i;
        else if (strncasecmp(names[i], "Min Latency", 11) == 0)
            t->min = i;
        else if (strncasecmp(names[i], "Max Latency", 11) == 0)
            t->max = i;
        else if (strcasecmp(names[i], "Iterations") == 0)
            t->iters = i;
    }
    if (t->size < 0 || t->avg < 0) {
        t->ncols = 0;
        t->unsupported = 1;
        ct_import_bad(im, ln, "column header lacks the %s column",
                      t->size < 0 ? "Size" : "Avg Latency(us)");
        return CT_ERR_PARSE; /* every row under it is unreadable */
    }
    t->ncols = n;
    return CT_OK;
}

static ct_status_t ct_osu_row(ct_import_t *im, long ln, char *line, ct_osu_test_t *t)
{
    char *w[CT_OSU_MAX_COLS];
    int n = ct_import_words(line, w, CT_OSU_MAX_COLS);
    if (n != t->ncols)
        return ct_import_bad(im, ln, "%d fields, expected %d (a cut line?)", n, t->ncols);
    ct_result_t row;
    char *end;
    ct_import_row_init(im, &row);
    snprintf(row.backend, sizeof row.backend, "mpi");
    snprintf(row.collective, sizeof row.collective, "%s", t->coll);
    snprintf(row.placement, sizeof row.placement, "out-of-place");
    snprintf(row.dtype, sizeof row.dtype, "%s", t->dtype);
    if (strcmp(t->coll, "allreduce") == 0 || strcmp(t->coll, "reduce_scatter") == 0)
        snprintf(row.op, sizeof row.op, "sum");
    if (strcmp(t->coll, "broadcast") == 0)
        row.root = 0;
    row.nranks = im->np;
    errno = 0;
    long long size = strtoll(w[t->size], &end, 10);
    if (end == w[t->size] || *end != '\0' || size < 0 || errno == ERANGE ||
        size > CT_IMPORT_MAX_COUNT / (t->scale > 0 ? t->scale : 1))
        return ct_import_bad(im, ln, "size '%s' is not a byte count", w[t->size]);
    row.bytes = size * t->scale;
    ct_dtype_t dt;
    if (ct_dtype_parse(t->dtype, &dt) == CT_OK)
        row.count = row.bytes / (long long)ct_dtype_size(dt);
    double us = 0; /* decimal: "0x10" is no latency (issue 15, E24) */
    if (ct_num_parse(w[t->avg], &us) != CT_OK || !(us > 0.0))
        return ct_import_bad(im, ln, "latency '%s' is not a positive number", w[t->avg]);
    ct_import_row_time(&row, us);
    if (t->min >= 0 && t->max >= 0) {
        int bad = ct_num_parse(w[t->min], &row.min_us) != CT_OK;
        bad |= ct_num_parse(w[t->max], &row.max_us) != CT_OK;
        if (bad || row.min_us > us || row.max_us < us)
            return ct_import_bad(im, ln, "min '%s' / max '%s' do not bracket the average",
                                 w[t->min], w[t->max]);
    }
    if (t->iters >= 0) {
        errno = 0;
        row.iterations = strtoll(w[t->iters], &end, 10);
        if (end == w[t->iters] || *end != '\0' || row.iterations < 1 || errno == ERANGE)
            return ct_import_bad(im, ln, "iterations '%s' is not a count", w[t->iters]);
    }
    return ct_import_emit(im, ln, &row, w[t->avg], NULL);
}

ct_status_t ct_import_osu(ct_import_t *im)
{
    ct_osu_test_t t;
    memset(&t, 0, sizeof t);
    int banners = 0;
    ct_status_t st = CT_OK;
    long ln = 0;
    size_t pos = 0;
    char *line;
    while (st == CT_OK && (line = ct_import_next_line(im->text, im->len, &pos)) != NULL) {
        ln++;
        const char *p = line + strspn(line, " \t");
        if (*p == '\0')
            continue;
        if (strncmp(line, "# OSU ", 6) == 0) {
            banners++;
            st = ct_osu_banner(im, ln, line, &t);
        } else if (line[0] == '#') {
            char type[64];
            if (sscanf(line, "# Datatype: %63[A-Za-z_]", type) == 1 && !t.unsupported) {
                const char *d = ct_osu_dtype(type);
                if (d == NULL) {
                    t.unsupported = 1;
                    st = ct_import_bad(im, ln, "datatype %s: not one colltune knows", type);
                } else
                    snprintf(t.dtype, sizeof t.dtype, "%s", d);
            } else if (strstr(line, "Size") != NULL && banners > 0 && !t.unsupported)
                st = ct_osu_header(im, ln, line, &t);
        } else if (banners == 0 || t.unsupported) {
            continue; /* before the first test (a launcher's output), or a skipped test */
        } else if (t.ncols == 0)
            st = ct_import_bad(im, ln, "a row before the '# Size ...' column header");
        else
            st = ct_osu_row(im, ln, line, &t);
    }
    if (st == CT_OK && banners == 0) {
        fprintf(stderr, "colltune import: %s:1: not an OSU log: no '# OSU MPI ... Test' banner\n",
                im->path);
        st = CT_ERR_PARSE;
    }
    return st;
}
