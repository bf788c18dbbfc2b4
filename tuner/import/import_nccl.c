/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * import_nccl.c - nccl-tests' stdout table into result rows.
 *
 * A log holds one or more tests, each a preamble ("# nccl-tests version",
 * "# Collective test starting: all_reduce_perf", "# nThread ... iters: N
 * agg iters: M", one "#  Rank" line per rank), a column header and rows
 * with an out-of-place and an in-place half.  The header names the columns,
 * so the per-iteration columns of -I (i_min i_max i_p99 i_cv%), the
 * timestamp of -R, a missing root column (older versions) and in-place-only
 * rows all follow from it.  NCCL's own lines (host:pid:tid [d] NCCL INFO)
 * may land anywhere and are passed over.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ct_dtype.h"
#include "ct_num.h"
#include "import.h"

#define CT_NCCL_MAX_WORDS 64
#define CT_NCCL_MAX_HOSTS 256

typedef struct {
    int time, busbw, wrong, imin, imax; /* word index, -1 when absent */
} ct_nccl_half_t;

/* Where each column is, from the header line. */
typedef struct {
    int ncols; /* words in a full row, the timestamp counted as two */
    int size, count, type, redop, root, timestamp;
    ct_nccl_half_t half[2];
    int half_width; /* words in one half */
} ct_nccl_layout_t;

/* One test of the log. */
typedef struct {
    char coll[24];    /* schema name; "" when the log has not said */
    int unsupported;  /* the banner named a collective the schema lacks */
    int reported;     /* the table's problem was reported once */
    long long nranks; /* "#  Rank" lines */
    long long iters;  /* timed calls per size, -1 unknown */
    int nhosts;
    char hosts[CT_NCCL_MAX_HOSTS][64];
    int in_table;  /* a header was read and no footer yet */
    int bad_table; /* its header was reported: its rows go unread */
    int ended;     /* the table ended: the next preamble starts a new test */
    ct_nccl_layout_t lay;
    /* The run's preamble, kept for the tests after its first: collbench
     * prints the ranks and iterations once, then one "Collective test
     * starting" section per collective; nccl-tests prints a whole preamble
     * per binary, which replaces these. */
    long long run_nranks, run_iters;
    char backend[16]; /* collbench's "backend X"; nccl-tests: nccl */
    int run_nhosts;
    char run_hosts[CT_NCCL_MAX_HOSTS][64];
} ct_nccl_test_t;

static void ct_nccl_test_reset(ct_nccl_test_t *t)
{
    memset(t, 0, sizeof *t);
    t->iters = t->run_iters = -1;
    snprintf(t->backend, sizeof t->backend, "nccl");
}

/* A new test of the same run: the run's preamble carries over. */
static void ct_nccl_test_next(ct_nccl_test_t *t)
{
    long long nranks = t->nranks, iters = t->iters;
    int nhosts = t->nhosts;
    char backend[sizeof t->backend];
    memcpy(backend, t->backend, sizeof backend);
    char hosts[CT_NCCL_MAX_HOSTS][64];
    memcpy(hosts, t->hosts, sizeof hosts);
    ct_nccl_test_reset(t);
    t->run_nranks = nranks;
    t->run_iters = iters;
    t->run_nhosts = nhosts;
    memcpy(t->run_hosts, hosts, sizeof hosts);
    memcpy(t->backend, backend, sizeof backend);
}

/* A table that will not be imported: named now, and the import fails at
 * the end of the log (every collective's table is imported, or none). */
static ct_status_t ct_nccl_table_missing(ct_import_t *im, long ln, ct_nccl_test_t *t,
                                         const char *why)
{
    t->reported = 1;
    im->tables_missing++;
    return ct_import_bad(im, ln, "the %s table is not imported: %s", t->coll[0] ? t->coll : "next",
                         why);
}

static int ct_nccl_is_int(const char *w, long long *v)
{
    char *end;
    errno = 0;
    *v = strtoll(w, &end, 10);
    return end != w && *end == '\0' && errno != ERANGE; /* no silent clamping (E24) */
}

/* "all_reduce_perf", "./build/all_reduce_perf_mpi" -> "allreduce". */
static const char *ct_nccl_coll_of_binary(const char *word)
{
    char stem[64];
    const char *slash = strrchr(word, '/');
    snprintf(stem, sizeof stem, "%s", slash != NULL ? slash + 1 : word);
    char *perf = strstr(stem, "_perf");
    if (perf != NULL)
        *perf = '\0';
    return ct_import_coll(stem);
}

static ct_status_t ct_nccl_header(ct_import_t *im, long ln, char **w, int n, ct_nccl_test_t *t)
{
    ct_nccl_layout_t *l = &t->lay;
    memset(l, 0xff, sizeof *l); /* every index -1 */
    l->ncols = n;
    int h = -1;
    const char *misplaced = NULL;
    for (int i = 0; i < n; i++) {
        const char *c = w[i];
        /* The row's own columns come before the first time: a row that
         * has only its in-place half still has them (make fuzz found a
         * second "redop" after the times indexing past a short row). */
        if (h >= 0 &&
            (strcmp(c, "size") == 0 || strcmp(c, "count") == 0 || strcmp(c, "type") == 0 ||
             strcmp(c, "redop") == 0 || strcmp(c, "root") == 0 || strcmp(c, "timestamp") == 0)) {
            misplaced = c;
            break;
        }
        if (strcmp(c, "size") == 0)
            l->size = i;
        else if (strcmp(c, "count") == 0)
            l->count = i;
        else if (strcmp(c, "type") == 0)
            l->type = i;
        else if (strcmp(c, "redop") == 0)
            l->redop = i;
        else if (strcmp(c, "root") == 0)
            l->root = i;
        else if (strcmp(c, "timestamp") == 0) {
            l->timestamp = i;
            l->ncols++; /* date and time of day are two words */
        } else if (strcmp(c, "time") == 0 || strcmp(c, "cputime") == 0) {
            if (++h == 2)
                return ct_import_bad(im, ln, "table header has more than two time columns");
            l->half[h].time = i;
        } else if (h >= 0 && strcmp(c, "busbw") == 0)
            l->half[h].busbw = i;
        else if (h >= 0 && (strcmp(c, "#wrong") == 0 || strcmp(c, "error") == 0))
            l->half[h].wrong = i;
        else if (h >= 0 && strcmp(c, "i_min") == 0)
            l->half[h].imin = i;
        else if (h >= 0 && strcmp(c, "i_max") == 0)
            l->half[h].imax = i;
    }
    const char *missing = l->size < 0    ? "size"
                          : l->count < 0 ? "count"
                          : l->type < 0  ? "type"
                          : h < 1        ? "time (out-of-place and in-place)"
                          : l->half[0].busbw < 0 || l->half[1].busbw < 0 ? "busbw"
                                                                         : NULL;
    if (missing != NULL || misplaced != NULL) {
        /* Every row under it is unreadable: never a partial import. */
        t->bad_table = 1;
        if (misplaced != NULL)
            ct_import_bad(im, ln, "table header has %s after the time columns", misplaced);
        else
            ct_import_bad(im, ln, "table header lacks the %s column", missing);
        return CT_ERR_PARSE;
    }
    l->half_width = l->half[1].time - l->half[0].time;
    t->in_table = 1;
    t->bad_table = 0;
    t->reported = 0;
    return CT_OK;
}

/* What every row of this table needs; reported once per table. */
static ct_status_t ct_nccl_ready(ct_import_t *im, long ln, ct_nccl_test_t *t, int *ok)
{
    *ok = 0;
    if (t->unsupported || t->reported)
        return CT_OK;
    if (t->coll[0] == '\0' && im->coll_flag != NULL)
        snprintf(t->coll, sizeof t->coll, "%s", ct_import_coll(im->coll_flag));
    if (t->coll[0] == '\0')
        return ct_nccl_table_missing(im, ln, t,
                                     "the log does not say which collective it measured (no "
                                     "'# Collective test starting' line): give --collective");
    if (t->nranks == 0 && t->run_nranks > 0) {
        t->nranks = t->run_nranks;
        t->nhosts = t->run_nhosts;
        memcpy(t->hosts, t->run_hosts, sizeof t->hosts);
    }
    if (t->iters < 0)
        t->iters = t->run_iters;
    if (t->nranks == 0 && im->np > 0)
        t->nranks = im->np;
    if (t->nranks == 0)
        return ct_nccl_table_missing(im, ln, t, "no '#  Rank' lines before it: give --np");
    *ok = 1;
    return CT_OK;
}

/* Whether every column the layout names lies among a row's n words, the
 * halves from first on shifted left by shift: a header odd enough to
 * match a row's word count by chance must not index past it. */
/* The timestamp's first column in a row: the blank out-of-place half
 * moves it left by shift when it comes after that half. */
static int ct_nccl_ts_col(const ct_nccl_layout_t *l, int shift)
{
    return l->timestamp > l->half[0].time ? l->timestamp - shift : l->timestamp;
}

static int ct_nccl_fits(const ct_nccl_layout_t *l, int n, int first, int shift)
{
    int lead[] = {l->size, l->count, l->type, l->redop, l->root};
    if (l->size < 0 || l->count < 0 || l->type < 0)
        return 0; /* no header this row can be read by */
    for (size_t i = 0; i < sizeof lead / sizeof lead[0]; i++)
        if (lead[i] >= n)
            return 0;
    /* A date and a time: two columns (a fuzzed header put it where the
     * blank half's shift read before the row). */
    if (l->timestamp >= 0 && (ct_nccl_ts_col(l, shift) < 0 || ct_nccl_ts_col(l, shift) + 1 >= n))
        return 0;
    for (int h = first; h < 2; h++) {
        const ct_nccl_half_t *c = &l->half[h];
        int off = h == 1 ? shift : 0;
        if (c->time < 0 || c->busbw < 0)
            return 0;
        int cols[] = {c->time, c->busbw, c->wrong, c->imin, c->imax};
        for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++)
            if (cols[i] >= 0 && (cols[i] - off < 0 || cols[i] - off >= n))
                return 0;
    }
    return 1;
}

static ct_status_t ct_nccl_row(ct_import_t *im, long ln, char **w, int n, ct_nccl_test_t *t)
{
    const ct_nccl_layout_t *l = &t->lay;
    int first = 0, shift = 0;
    if (n == l->ncols - l->half_width) {
        first = 1; /* out-of-place left blank: only in-place was run */
        shift = l->half_width;
    } else if (n != l->ncols)
        return ct_import_bad(im, ln, "%d fields, expected %d (a cut line?)", n, l->ncols);
    if (!ct_nccl_fits(l, n, first, shift))
        return ct_import_bad(im, ln, "%d fields do not fit the table's header", n);

    ct_result_t row;
    ct_dtype_t dt;
    ct_op_t op;
    ct_import_row_init(im, &row);
    snprintf(row.collective, sizeof row.collective, "%s", t->coll);
    snprintf(row.backend, sizeof row.backend, "%s", t->backend);
    row.nranks = t->nranks;
    row.nnodes = t->nhosts > 0 ? t->nhosts : -1;
    row.iterations = t->iters;
    if (!ct_nccl_is_int(w[l->size], &row.bytes) || row.bytes < 0)
        return ct_import_bad(im, ln, "size '%s' is not a byte count", w[l->size]);
    if (!ct_nccl_is_int(w[l->count], &row.count) || row.count < 0)
        return ct_import_bad(im, ln, "count '%s' is not an element count", w[l->count]);
    if (ct_dtype_parse(w[l->type], &dt) != CT_OK)
        return ct_import_bad(im, ln, "type '%s' is not one colltune knows", w[l->type]);
    snprintf(row.dtype, sizeof row.dtype, "%s", ct_dtype_name(dt));
    if (l->redop >= 0 && strcmp(w[l->redop], "none") != 0) {
        if (ct_op_parse(w[l->redop], &op) != CT_OK)
            return ct_import_bad(im, ln, "redop '%s' is not one colltune knows", w[l->redop]);
        snprintf(row.op, sizeof row.op, "%s", ct_op_name(op));
    }
    if (l->root >= 0 && (!ct_nccl_is_int(w[l->root], &row.root)))
        return ct_import_bad(im, ln, "root '%s' is not a rank", w[l->root]);
    if (l->timestamp >= 0)
        snprintf(row.time, sizeof row.time, "%sT%s", w[ct_nccl_ts_col(l, shift)],
                 w[ct_nccl_ts_col(l, shift) + 1]);

    /* Check both halves before writing either: a row is all or nothing. */
    ct_result_t out[2];
    const char *time_text[2] = {NULL, NULL}, *busbw_text[2] = {NULL, NULL};
    for (int h = first; h < 2; h++) {
        const ct_nccl_half_t *c = &l->half[h];
        int off = h == 1 ? shift : 0;
        out[h] = row;
        snprintf(out[h].placement, sizeof out[h].placement, "%s",
                 h == 0 ? "out-of-place" : "in-place");
        time_text[h] = w[c->time - off];
        busbw_text[h] = w[c->busbw - off];
        double us = 0, wrong = 0, lo = 0, hi = 0; /* decimal only: no 0x10 (E24) */
        if (ct_num_parse(time_text[h], &us) != CT_OK || !(us > 0.0))
            return ct_import_bad(im, ln, "time '%s' is not a positive number", time_text[h]);
        ct_import_row_time(&out[h], us);
        if (c->wrong >= 0 && strcmp(w[c->wrong - off], "N/A") != 0) {
            if (ct_num_parse(w[c->wrong - off], &wrong) != CT_OK ||
                !(wrong >= 0 && wrong <= CT_IMPORT_MAX_COUNT))
                return ct_import_bad(im, ln, "#wrong '%s' is not a count", w[c->wrong - off]);
            out[h].wrong = (long long)wrong;
        }
        if (c->imin >= 0 && c->imax >= 0) {
            int bad = ct_num_parse(w[c->imin - off], &lo) != CT_OK;
            bad |= ct_num_parse(w[c->imax - off], &hi) != CT_OK;
            if (bad || !(lo > 0.0) || hi < lo)
                return ct_import_bad(im, ln, "i_min '%s' / i_max '%s' are not times",
                                     w[c->imin - off], w[c->imax - off]);
            out[h].min_us = lo;
            out[h].max_us = hi;
        }
    }
    for (int h = first; h < 2; h++) {
        ct_status_t st = ct_import_emit(im, ln, &out[h], time_text[h], busbw_text[h]);
        if (st != CT_OK)
            return st;
    }
    return CT_OK;
}

/* The preamble lines; a preamble after a finished table starts a test. */
static ct_status_t ct_nccl_comment(ct_import_t *im, long ln, char *line, ct_nccl_test_t *t,
                                   int *headers)
{
    const char *body = line + 1;
    int preamble = strncmp(body, " nccl-tests version", 19) == 0 ||
                   strncmp(body, " Collective test starting:", 26) == 0 ||
                   strncmp(body, " nThread ", 9) == 0;
    if (preamble && (t->ended || t->in_table || t->bad_table))
        ct_nccl_test_next(t);
    /* A binary's own preamble: the run before it says nothing of this one. */
    if (strncmp(body, " nccl-tests version", 19) == 0 || strncmp(body, " nThread ", 9) == 0) {
        t->run_nranks = 0;
        t->run_iters = -1;
        t->run_nhosts = 0;
    }
    if (strncmp(body, " nccl-tests version", 19) == 0)
        snprintf(t->backend, sizeof t->backend, "nccl");
    /* collbench's first line: "# collbench (colltune V, REV) backend mpi, N ranks ...". */
    const char *b = strncmp(body, " collbench (", 12) == 0 ? strstr(body, ") backend ") : NULL;
    if (b != NULL) {
        char name[16] = "";
        if (sscanf(b + 10, "%15[a-z]", name) == 1 &&
            (strcmp(name, "mpi") == 0 || strcmp(name, "nccl") == 0))
            snprintf(t->backend, sizeof t->backend, "%s", name);
        return CT_OK;
    }
    if (strncmp(body, " Collective test starting:", 26) == 0) {
        char name[64] = "";
        sscanf(body + 26, "%63s", name);
        const char *coll = ct_nccl_coll_of_binary(name);
        if (coll == NULL) {
            t->unsupported = 1;
            return ct_import_bad(im, ln,
                                 "%s: not a collective the results schema holds; its "
                                 "table is skipped",
                                 name);
        }
        if (im->coll_flag != NULL && strcmp(ct_import_coll(im->coll_flag), coll) != 0)
            ct_import_warn(im, ln, "the log says %s, --collective %s: the log wins", coll,
                           im->coll_flag);
        snprintf(t->coll, sizeof t->coll, "%s", coll);
        return CT_OK;
    }
    if (strncmp(body, " nThread ", 9) == 0) {
        const char *p = strstr(body, "warmup iters:");
        int warm, iters, agg = 1;
        if (p != NULL &&
            sscanf(p, "warmup iters: %9d iters: %9d agg iters: %9d", &warm, &iters, &agg) >= 2)
            t->iters = (long long)iters * (agg > 0 ? agg : 1);
        return CT_OK;
    }
    char *w[CT_NCCL_MAX_WORDS];
    int n = ct_import_words(line + 1, w, CT_NCCL_MAX_WORDS);
    long long rank;
    if (n >= 2 && strcmp(w[0], "Rank") == 0 && ct_nccl_is_int(w[1], &rank)) {
        t->nranks++;
        for (int i = 1; i + 1 < n && i + 1 < CT_NCCL_MAX_WORDS; i++)
            if (strcmp(w[i], "on") == 0) {
                int k = 0;
                while (k < t->nhosts && strcmp(t->hosts[k], w[i + 1]) != 0)
                    k++;
                if (k == t->nhosts && t->nhosts < CT_NCCL_MAX_HOSTS)
                    snprintf(t->hosts[t->nhosts++], sizeof t->hosts[0], "%s", w[i + 1]);
                break;
            }
        return CT_OK;
    }
    if (n >= 3 && n <= CT_NCCL_MAX_WORDS && strcmp(w[0], "size") == 0 &&
        strcmp(w[1], "count") == 0) {
        (*headers)++;
        return ct_nccl_header(im, ln, w, n, t);
    }
    if (n >= 2 && ((strcmp(w[0], "Out") == 0 && strcmp(w[1], "of") == 0) ||
                   (strcmp(w[0], "Avg") == 0 && strcmp(w[1], "bus") == 0) ||
                   (strcmp(w[0], "Collective") == 0 && strcmp(w[1], "test") == 0))) {
        t->in_table = t->bad_table = 0;
        t->ended = 1;
    }
    return CT_OK;
}

/* NCCL's debug output: "host:pid:tid [dev] NCCL INFO ..." (or WARN). */
static int ct_nccl_is_nccl_line(const char *line)
{
    return strstr(line, " NCCL INFO") != NULL || strstr(line, " NCCL WARN") != NULL ||
           strstr(line, " NCCL CALL") != NULL;
}

ct_status_t ct_import_nccl_text(ct_import_t *im)
{
    ct_nccl_test_t *t = malloc(sizeof *t);
    if (t == NULL)
        return CT_ERR_NOMEM;
    ct_nccl_test_reset(t);
    ct_status_t st = CT_OK;
    int headers = 0;
    long ln = 0;
    size_t pos = 0;
    char *line;
    while (st == CT_OK && (line = ct_import_next_line(im->text, im->len, &pos)) != NULL) {
        ln++;
        const char *p = line + strspn(line, " \t");
        if (*p == '\0' || ct_nccl_is_nccl_line(line))
            continue;
        if (line[0] == '#') {
            st = ct_nccl_comment(im, ln, line, t, &headers);
            continue;
        }
        if (headers == 0 && t->nranks == 0 && !t->ended && t->iters < 0)
            continue; /* before the first test: a launcher's or a shell's output */
        if (*p < '0' || *p > '9') {
            st = ct_import_bad(im, ln, "not a results row, a '#' line or an NCCL line");
            continue;
        }
        if (t->bad_table)
            continue;
        if (!t->in_table) {
            st = ct_import_bad(im, ln,
                               "a results row outside a table (no column header "
                               "before it)");
            continue;
        }
        int ok;
        st = ct_nccl_ready(im, ln, t, &ok);
        if (st == CT_OK && ok) {
            char *w[CT_NCCL_MAX_WORDS];
            int n = ct_import_words(line, w, CT_NCCL_MAX_WORDS);
            st = n > CT_NCCL_MAX_WORDS ? ct_import_bad(im, ln, "too many fields")
                                       : ct_nccl_row(im, ln, w, n, t);
        }
    }
    free(t);
    if (st == CT_OK && im->tables_missing > 0) {
        fprintf(stderr,
                "colltune import: %s: %lld table%s not imported (above): every table of a "
                "collective colltune holds is imported, or nothing is written\n",
                im->path, im->tables_missing, im->tables_missing == 1 ? "" : "s");
        st = CT_ERR_PARSE;
    }
    if (st == CT_OK && headers == 0) {
        fprintf(stderr,
                "colltune import: %s:1: not an nccl-tests log: no '#  size  count  type ...' "
                "table header\n",
                im->path);
        st = CT_ERR_PARSE;
    }
    return st;
}
