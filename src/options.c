/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE
#include "options.h"
#include "ct_result.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "configs_kind.h"
#include "ct_vec.h"
#include "ct_num.h"
#include "ct_size.h"
#include "cvars.h"

/* Option ids beyond the short letters. */
enum {
    CT_OPT_BACKEND = 256,
    CT_OPT_CSV,
    CT_OPT_JSON,
    CT_OPT_RUN_ID,
    CT_OPT_CVARS,
    CT_OPT_CONFIG,
    CT_OPT_CONFIG_FOR,
    CT_OPT_TARGET_CI,
    CT_OPT_SIZE_BUDGET,
    CT_OPT_MIN_TIME,
    CT_OPT_CI_PATIENCE,
    CT_OPT_MIN_SAMPLES,
    CT_OPT_MAX_SAMPLES,
    CT_OPT_BATCH_US,
    CT_OPT_QUIET,
    CT_OPT_NCCL_LIB,
    CT_OPT_CUDART_LIB,
    CT_OPT_VERSION,
    CT_OPT_SYNC,
    CT_OPT_NO_TABLE,
    CT_OPT_PAIRS,
    CT_OPT_PAIRS_ROUNDS,
    CT_OPT_SIZES,
    CT_OPT_SHAPES,
    CT_OPT_TURNS,
};

typedef struct {
    const char *long_name;
    int id; /* short letter or CT_OPT_* */
    const char *arg;
    const char *help; /* -C's follows the collectives' names (see ct_options_usage) */
} ct_option_info_t;

/* The one table behind getopt_long and --help. */
static const ct_option_info_t ct_option_table[] = {
    {"collectives", 'C', "LIST", " or all [all]"},
    {"minbytes", 'b', "SIZE", "smallest size, K/M/G suffixes [32M]"},
    {"maxbytes", 'e', "SIZE", "largest size [32M]"},
    {"stepbytes", 'i', "SIZE", "add this between sizes [1M]"},
    {"stepfactor", 'f', "N", "multiply by N between sizes (overrides -i)"},
    {"sizes", CT_OPT_SIZES, "LIST",
     "exactly these sizes, comma-separated (K/M/G suffixes), instead of the -b/-e/-i/-f sweep, "
     "which is then ignored"},
    {"iters", 'n', "N", "fixed iteration count (default: adaptive, see --target-ci)"},
    {"warmup_iters", 'w', "N", "warm-up iterations per size and placement [5]"},
    {"check", 'c', "N", "validation rounds per size, 0 disables #wrong [1]"},
    {"op", 'o', "LIST", "sum,prod,min,max,avg or all [sum]"},
    {"datatype", 'd', "LIST",
     "int8,uint8,int32,uint32,int64,uint64,half,float,double,bfloat16 or all [float]"},
    {"root", 'r', "N", "root rank of broadcast [0]"},
    {"average", 'a', "N",
     "time across ranks: 0 rank 0, 1 average (nccl-tests' default), 2 min, 3 max (the slowest "
     "rank) [3]"},
    {"timeout", 'T', "SEC", "abort when one size takes longer than SEC [0: never]"},
    {"backend", CT_OPT_BACKEND, "NAME", "communication backend [mpi]"},
    {"csv", CT_OPT_CSV, "FILE",
     "append one CSV row per collective, size and placement; - streams it to stdout (the table "
     "then goes to stderr)"},
    {"json", CT_OPT_JSON, "FILE", "write results and run metadata as JSON"},
    {"run-id", CT_OPT_RUN_ID, "ID", "run id recorded in CSV/JSON [time-host-pid]"},
    {"cvars", CT_OPT_CVARS, "LIST",
     "MPI_T control variables whose values in force the JSON records (names, comma-separated)"},
    {"config", CT_OPT_CONFIG, "NAME=VALUE,...",
     "also measure with these settings: MPI_T control variables (mpi) or NCCL_* environment "
     "variables set at ncclCommInitRank (nccl) (repeatable, at most 64; configuration 0 is the "
     "start-up values)"},
    {"config-for", CT_OPT_CONFIG_FOR, "COLL:NAME=VALUE,...",
     "as --config, measured on collective COLL alone (the others skip it); one of -C's"},
    {"target-ci", CT_OPT_TARGET_CI, "PCT",
     "adaptive: stop when the median's 95% CI is within PCT [2%]"},
    {"size-budget", CT_OPT_SIZE_BUDGET, "SEC",
     "adaptive: time budget per size and placement [0.2]"},
    {"min-time", CT_OPT_MIN_TIME, "SEC",
     "adaptive: least measuring time per size and placement [0.002]"},
    {"ci-patience", CT_OPT_CI_PATIENCE, "X",
     "adaptive: past the least (--min-time, --min-samples), chase --target-ci X times as long at "
     "most [0: stop at the least]"},
    {"min-samples", CT_OPT_MIN_SAMPLES, "N", "adaptive: fewest timed samples [10]"},
    {"max-samples", CT_OPT_MAX_SAMPLES, "N", "adaptive: most timed samples [10000]"},
    {"sync", CT_OPT_SYNC, "MODE", "timing: window, barrier or batch [window; batch for nccl]"},
    {"batch-us", CT_OPT_BATCH_US, "US",
     "batch of back-to-back calls this long, exactly [auto: >= 50, 20 calls, 100x overhead]"},
    {"quiet", CT_OPT_QUIET, NULL, "no progress lines on stderr"},
    {"no-table", CT_OPT_NO_TABLE, NULL, "do not print the nccl-tests table"},
    {"pairs", CT_OPT_PAIRS, NULL,
     "health mode: run on host pairs, round-robin, all pairs of a round at once (2+ hosts)"},
    {"pairs-rounds", CT_OPT_PAIRS_ROUNDS, "N", "--pairs: at most N rounds [all: H-1, or H if odd]"},
    {"shapes", CT_OPT_SHAPES, "KxR,...",
     "measure each job shape in this launch on a sub-communicator: the first K hosts, the first R "
     "ranks of each; ascending (e.g. 1x8,2x8,4x8)"},
    {"turns", CT_OPT_TURNS, NULL,
     "run each app context of the launch (mpirun A : B) as a job of its own, one after another "
     "(every context must say it)"},
    {"nccl-lib", CT_OPT_NCCL_LIB, "PATH", "libnccl to load (nccl backend)"},
    {"cudart-lib", CT_OPT_CUDART_LIB, "PATH", "CUDA runtime to load (nccl backend)"},
    {"version", CT_OPT_VERSION, NULL, "print the version and exit"},
    {"help", 'h', NULL, "print this help and exit"},
};

#define CT_NOPTIONS (sizeof ct_option_table / sizeof ct_option_table[0])

int ct_options_given(int argc, char **argv, const char *flag)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], flag) == 0)
            return 1;
    return 0;
}

void ct_options_usage(FILE *fp, const char *prog)
{
    fprintf(fp,
            "Usage: mpirun [...] %s [options]\n\n"
            "Measures collective operations and prints an nccl-tests table.\n\n",
            prog);
    for (size_t i = 0; i < CT_NOPTIONS; i++) {
        const ct_option_info_t *o = &ct_option_table[i];
        char left[64];
        if (o->id < 256)
            snprintf(left, sizeof left, "-%c, --%s%s%s", o->id, o->long_name, o->arg ? " " : "",
                     o->arg ? o->arg : "");
        else
            snprintf(left, sizeof left, "    --%s%s%s", o->long_name, o->arg ? " " : "",
                     o->arg ? o->arg : "");
        char colls[128] = "";
        /* -C lists src/lib's collectives, so a new one needs no edit here. */
        if (o->id == 'C')
            ct_coll_name_list(",", colls, sizeof colls);
        /* A left column too wide for its own goes on a line of its own
         * (help2man then still tells the option from its text). */
        if (strlen(left) > 28)
            fprintf(fp, "  %s\n  %-28s %s%s\n", left, "", colls, o->help);
        else
            fprintf(fp, "  %-28s %s%s\n", left, colls, o->help);
    }
    char backends[128];
    ct_backend_names(backends, sizeof backends);
    fprintf(fp,
            "\nBackends: %s.  Exit: 0 ok, 1 wrong results, 2 usage, 3 failure,\n"
            "4 a collective refused by the library (the others measured),\n"
            "77 backend unavailable, 124 timeout.\n",
            backends);
}

const char *ct_options_rank_agg_name(ct_rank_agg_t agg)
{
    switch (agg) {
    case CT_AGG_RANK0: return "rank0";
    case CT_AGG_AVG: return "avg";
    case CT_AGG_MIN: return "min";
    default: return "max";
    }
}

const char *ct_options_sync_name(ct_sync_mode_t sync)
{
    switch (sync) {
    case CT_SYNC_WINDOW: return "window";
    case CT_SYNC_BARRIER: return "barrier";
    case CT_SYNC_BATCH: return "batch";
    default: return "default";
    }
}

static ct_status_t ct_options_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return CT_ERR_USAGE;
}

/* arg as quoted in a message: its first 60 characters and "...", so that
 * a long argument cannot push the reason out of the message (C8). */
static const char *ct_options_quote(const char *arg, char *buf, size_t len)
{
    if (strlen(arg) <= 63)
        return arg;
    snprintf(buf, len, "%.60s...", arg);
    return buf;
}

/* --cvars: names of [A-Za-z0-9_] (Open MPI's are lower case, MPICH's
 * upper: MPIR_CVAR_...), comma-separated, at most CT_CVARS_MAX; whether
 * the library has them is known only after MPI_Init (cvars.h). */
static ct_status_t ct_options_cvars(const char *arg, const char **out, char *err, size_t errlen)
{
    size_t names = 0;
    char quoted[64];
    for (const char *p = arg;; p++) {
        size_t len = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
        if (len == 0 || len >= 96 || (p[len] != ',' && p[len] != '\0'))
            return ct_options_fail(err, errlen,
                                   "--cvars '%s': names of [A-Za-z0-9_] (up to 95 characters), "
                                   "comma-separated",
                                   ct_options_quote(arg, quoted, sizeof quoted));
        names++;
        p += len;
        if (*p == '\0')
            break;
    }
    if (names > CT_CVARS_MAX)
        return ct_options_fail(err, errlen, "--cvars: %zu names, at most %d", names, CT_CVARS_MAX);
    *out = arg;
    return CT_OK;
}

/* One NAME=VALUE of --config ARG into *set; a duplicate name of cfg is
 * refused. */
static ct_status_t ct_options_setting(const char *arg, const char *p, size_t len,
                                      const ct_config_t *cfg, ct_setting_t *set, char *err,
                                      size_t errlen)
{
    /* The backend's kind checks the name further (ct_options_check). */
    size_t nlen = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
    if (nlen == 0 || nlen >= sizeof set->name || nlen >= len || p[nlen] != '=')
        return ct_options_fail(err, errlen,
                               "%s: NAME=VALUE pairs, comma-separated, names of "
                               "[A-Za-z0-9_] (up to 95 characters)",
                               arg);
    size_t vlen = len - nlen - 1;
    if (vlen == 0 || vlen >= sizeof set->value)
        return ct_options_fail(err, errlen, "%s: %.*s: the value must be 1 to %zu characters", arg,
                               (int)nlen, p, sizeof set->value - 1);
    snprintf(set->name, sizeof set->name, "%.*s", (int)nlen, p);
    snprintf(set->value, sizeof set->value, "%.*s", (int)vlen, p + nlen + 1);
    for (int i = 0; i < cfg->n; i++)
        if (strcmp(cfg->s[i].name, set->name) == 0)
            return ct_options_fail(err, errlen, "%s: %s is set twice", arg, set->name);
    return CT_OK;
}

/* Whether a and b set the same names to the same values, in any order,
 * on a collective both measure. */
static int ct_options_same_config(const ct_config_t *a, const ct_config_t *b)
{
    if (a->n != b->n || (a->coll && b->coll && a->coll != b->coll))
        return 0;
    for (int i = 0; i < a->n; i++) {
        int found = 0;
        for (int j = 0; j < b->n && !found; j++)
            found = strcmp(a->s[i].name, b->s[j].name) == 0 &&
                    strcmp(a->s[i].value, b->s[j].value) == 0;
        if (!found)
            return 0;
    }
    return 1;
}

/* --config NAME=VALUE[,NAME=VALUE...]: one more configuration, full;
 * coll: its collective (--config-for, given "COLL:" and full), or NULL. */
static ct_status_t ct_options_config(const char *given, const char *full,
                                     const ct_coll_desc_t *coll, ct_options_t *o, char *err,
                                     size_t errlen)
{
    char quoted[64], arg[96];
    snprintf(arg, sizeof arg, "%s '%s'", coll ? "--config-for" : "--config",
             ct_options_quote(given, quoted, sizeof quoted));
    if (o->nconfigs == CT_CONFIGS_MAX)
        return ct_options_fail(err, errlen,
                               "%s: at most %d configurations (--config and "
                               "--config-for together)",
                               arg, CT_CONFIGS_MAX);
    ct_config_t *cfg = &o->configs[o->nconfigs];
    memset(cfg, 0, sizeof *cfg);
    cfg->coll = coll;
    for (const char *p = full;;) {
        size_t len = strcspn(p, ",");
        if (cfg->n == CT_CONFIG_SETTINGS_MAX)
            return ct_options_fail(err, errlen, "%s: at most %d settings", arg,
                                   CT_CONFIG_SETTINGS_MAX);
        if (ct_options_setting(arg, p, len, cfg, &cfg->s[cfg->n], err, errlen) != CT_OK)
            return CT_ERR_USAGE;
        cfg->n++;
        p += len;
        if (*p == '\0')
            break;
        p++;
    }
    /* The same settings on one collective: two rows alike. */
    for (int k = 0; k < o->nconfigs; k++) {
        const ct_coll_desc_t *on = coll ? coll : o->configs[k].coll;
        if (ct_options_same_config(&o->configs[k], cfg))
            return ct_options_fail(err, errlen, "%s: the same settings as configuration %d%s%s",
                                   arg, k + 1, on ? " on " : "", on ? on->name : "");
    }
    o->nconfigs++;
    return CT_OK;
}

/* --config-for COLL:NAME=VALUE[,...]: a configuration of one collective.
 * The collective ends at the first ':' (names are [A-Za-z0-9_]; a value
 * may hold ':' and ';', NCCL's do), whether -C measures it is
 * ct_options_check's. */
static ct_status_t ct_options_config_for(const char *full, ct_options_t *o, char *err,
                                         size_t errlen)
{
    char quoted[64], name[32], names[128];
    const char *arg = ct_options_quote(full, quoted, sizeof quoted);
    size_t len = strcspn(full, ":=,");
    if (full[len] != ':' || len == 0 || len >= sizeof name) {
        ct_coll_name_list(",", names, sizeof names);
        return ct_options_fail(
            err, errlen, "--config-for '%s': COLL:NAME=VALUE,... with COLL one of %s", arg, names);
    }
    snprintf(name, sizeof name, "%.*s", (int)len, full);
    const ct_coll_desc_t *coll = ct_coll_find(name);
    if (coll == NULL) {
        ct_coll_name_list(",", names, sizeof names);
        return ct_options_fail(err, errlen, "--config-for '%s': no collective '%s' (%s)", arg, name,
                               names);
    }
    return ct_options_config(full, full + len + 1, coll, o, err, errlen);
}

static ct_status_t ct_options_int(const char *flag, const char *text, long lo, long hi, int *out,
                                  char *err, size_t errlen)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    /* strtol also skips white space and takes '+' (issue 15, E24) */
    int digits =
        isdigit((unsigned char)text[0]) || (text[0] == '-' && isdigit((unsigned char)text[1]));
    if (!digits || errno || *end != '\0' || v < lo || v > hi)
        return ct_options_fail(err, errlen, "%s: '%s' is not an integer in [%ld, %ld]", flag, text,
                               lo, hi);
    *out = (int)v;
    return CT_OK;
}

static ct_status_t ct_options_double(const char *flag, const char *text, double lo, double hi,
                                     double *out, char *err, size_t errlen)
{
    double v = 0;
    /* decimal only: strtod took "0x10" and " 1" (issue 15, E24) */
    if (ct_num_parse(text, &v) != CT_OK || v < lo || v > hi)
        return ct_options_fail(err, errlen, "%s: '%s' is not a number in [%g, %g]", flag, text, lo,
                               hi);
    *out = v;
    return CT_OK;
}

static ct_status_t ct_options_size(const char *flag, const char *text, size_t *out, char *err,
                                   size_t errlen)
{
    if (ct_size_parse(text, out) != CT_OK)
        return ct_options_fail(
            err, errlen, "%s: '%s' is not a size (digits with optional K, M, G or T)", flag, text);
    return CT_OK;
}

static int ct_options_size_cmp(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* --sizes 8,1K,64K: each item a size as -b takes it, at least 1 byte;
 * sorted and de-duplicated into o->sizes.  An error names the item by its
 * position and text. */
static ct_status_t ct_options_sizes(const char *arg, ct_options_t *o, char *err, size_t errlen)
{
    int n = 0, item = 1;
    for (const char *p = arg;; item++) {
        size_t len = strcspn(p, ",");
        char text[64];
        size_t v = 0;
        if (len == 0)
            return ct_options_fail(err, errlen, "--sizes '%s': item %d is empty", arg, item);
        if (n == CT_SIZES_MAX)
            return ct_options_fail(err, errlen, "--sizes: more than %d sizes", CT_SIZES_MAX);
        snprintf(text, sizeof text, "%.*s", (int)len, p);
        if (len >= sizeof text || ct_size_parse(text, &v) != CT_OK)
            return ct_options_fail(err, errlen,
                                   "--sizes: item %d '%.*s' is not a size (digits with optional "
                                   "K, M, G or T)",
                                   item, (int)len, p);
        if (v == 0)
            return ct_options_fail(
                err, errlen, "--sizes: item %d '%s': a size must be at least 1 byte", item, text);
        o->sizes[n++] = v;
        p += len;
        if (*p == '\0')
            break;
        p++;
    }
    ct_vec_sort(o->sizes, (size_t)n, sizeof o->sizes[0], ct_options_size_cmp);
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (kept == 0 || o->sizes[kept - 1] != o->sizes[i])
            o->sizes[kept++] = o->sizes[i];
    o->nsizes = kept;
    return CT_OK;
}

/* "2%" or "0.02" both mean two percent. */
static ct_status_t ct_options_fraction(const char *flag, const char *text, double *out, char *err,
                                       size_t errlen)
{
    char buf[64];
    size_t len = strlen(text);
    int percent = len > 0 && text[len - 1] == '%';
    double v = 0;

    if (len >= sizeof buf)
        return ct_options_fail(err, errlen, "%s: '%s' is too long", flag, text);
    memcpy(buf, text, len + 1);
    if (percent)
        buf[len - 1] = '\0';
    if (ct_options_double(flag, buf, 0.0, percent ? 100.0 : 1.0, &v, err, errlen) != CT_OK)
        return CT_ERR_USAGE;
    if (v <= 0.0)
        return ct_options_fail(err, errlen, "%s: '%s' must be above zero", flag, text);
    *out = percent ? v / 100.0 : v;
    return CT_OK;
}

/* Splits a comma list and hands each item to parse_one. */
typedef ct_status_t (*ct_item_parser_t)(const char *item, void *out, int *n, char *err,
                                        size_t errlen);

static ct_status_t ct_options_list(const char *flag, const char *text, ct_item_parser_t parse_one,
                                   void *out, int *n, char *err, size_t errlen)
{
    char buf[256];
    if (strlen(text) >= sizeof buf)
        return ct_options_fail(err, errlen, "%s: list '%s' is too long", flag, text);
    strcpy(buf, text);
    *n = 0;
    /* strtok_r skips an empty item: "allreduce,,broadcast" lost one
     * without a word (issue 15, E24) */
    size_t len = strlen(buf);
    if (len > 0 && (buf[0] == ',' || buf[len - 1] == ',' || strstr(buf, ",,") != NULL))
        return ct_options_fail(err, errlen, "%s: '%s': an empty item", flag, text);
    char *save = NULL;
    for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save))
        if (parse_one(item, out, n, err, errlen) != CT_OK)
            return CT_ERR_USAGE;
    if (*n == 0)
        return ct_options_fail(err, errlen, "%s: '%s' is an empty list", flag, text);
    return CT_OK;
}

/* Adds c to colls[0..*n) unless it is there. */
static void ct_add_coll(const ct_coll_desc_t **colls, int *n, const ct_coll_desc_t *c)
{
    for (int i = 0; i < *n; i++)
        if (colls[i] == c)
            return;
    colls[(*n)++] = c;
}

static ct_status_t ct_parse_coll(const char *item, void *out, int *n, char *err, size_t errlen)
{
    const ct_coll_desc_t **colls = out;
    /* "all" inside a list ("-C all,all", "-C allreduce,all") adds every
     * collective, in table order after those already named. */
    if (strcmp(item, "all") == 0) {
        for (int i = 0; i < CT_COLL_COUNT; i++)
            ct_add_coll(colls, n, ct_coll_by_index(i));
        return CT_OK;
    }
    const ct_coll_desc_t *c = ct_coll_find(item);
    if (c == NULL) {
        char names[128];
        ct_coll_name_list(", ", names, sizeof names);
        return ct_options_fail(err, errlen, "-C: unknown collective '%s' (%s, all)", item, names);
    }
    ct_add_coll(colls, n, c);
    return CT_OK;
}

static ct_status_t ct_parse_op(const char *item, void *out, int *n, char *err, size_t errlen)
{
    ct_op_t *ops = out, op;
    /* "-o all" alone skips ops a backend lacks; in a list it would not. */
    if (strcmp(item, "all") == 0)
        return ct_options_fail(err, errlen, "-o: 'all' cannot be combined with other ops");
    if (ct_op_parse(item, &op) != CT_OK)
        return ct_options_fail(err, errlen, "-o: unknown op '%s' (sum, prod, min, max, avg, all)",
                               item);
    for (int i = 0; i < *n; i++)
        if (ops[i] == op)
            return CT_OK;
    ops[(*n)++] = op;
    return CT_OK;
}

static ct_status_t ct_parse_dtype(const char *item, void *out, int *n, char *err, size_t errlen)
{
    ct_dtype_t *dtypes = out, d;
    /* "-d all" alone skips types a backend lacks; in a list it would not. */
    if (strcmp(item, "all") == 0)
        return ct_options_fail(err, errlen, "-d: 'all' cannot be combined with other types");
    if (ct_dtype_parse(item, &d) != CT_OK)
        return ct_options_fail(err, errlen,
                               "-d: unknown datatype '%s' (int8, uint8, int32, uint32, int64, "
                               "uint64, half, float, double, bfloat16, all)",
                               item);
    for (int i = 0; i < *n; i++)
        if (dtypes[i] == d)
            return CT_OK;
    dtypes[(*n)++] = d;
    return CT_OK;
}

static void ct_options_defaults(ct_options_t *o)
{
    memset(o, 0, sizeof *o);
    o->min_bytes = o->max_bytes = 32u << 20; /* nccl-tests' defaults */
    o->step_bytes = 1u << 20;
    o->warmup = 5;
    o->check = 1;
    o->ops[0] = CT_OP_SUM;
    o->nops = 1;
    o->dtypes[0] = CT_DTYPE_FLOAT;
    o->ndtypes = 1;
    /* The slowest rank: the collective's completion, the only reduction
     * that keeps every time above the link's floor (doc/timing.md, "Rank
     * reduction"); -a 1 is nccl-tests' average. */
    o->rank_agg = CT_AGG_MAX;
    for (int i = 0; i < CT_COLL_COUNT; i++)
        o->colls[i] = ct_coll_by_index(i);
    o->ncolls = CT_COLL_COUNT;
    o->backend = "mpi";
    o->target_ci = 0.02;
    o->size_budget_s = 0.2;
    o->min_time_s = 0.002; /* OSU's 1000 small calls last about 1 ms (doc/timing.md) */
    /* A size stops at the least: a fixed effort, in time.  Chasing the CI
     * made a sweep's wall spread 1.3-1.8x against OSU's 1.15, for no
     * steadier results (doc/timing.md, "Against OSU"). */
    o->ci_patience = 0.0;
    o->min_samples = 10;
    o->max_samples = 10000;
    o->batch_us = 50.0;
    o->sync = CT_SYNC_DEFAULT;
}

/* --backend NAME: one of the backend table's. */
static ct_status_t ct_options_backend(const char *arg, ct_options_t *o, char *err, size_t errlen)
{
    char names[128];
    if (ct_backend_find(arg) == NULL) {
        ct_backend_names(names, sizeof names);
        return ct_options_fail(err, errlen, "--backend: unknown backend '%s' (%s)", arg, names);
    }
    o->backend = arg;
    return CT_OK;
}

static ct_status_t ct_options_apply(ct_options_t *o, int id, const char *arg, char *err,
                                    size_t errlen)
{
    int v = 0;
    switch (id) {
    case 'C':
        if (strcmp(arg, "all") == 0) {
            for (int i = 0; i < CT_COLL_COUNT; i++)
                o->colls[i] = ct_coll_by_index(i);
            o->ncolls = CT_COLL_COUNT;
            return CT_OK;
        }
        return ct_options_list("-C", arg, ct_parse_coll, o->colls, &o->ncolls, err, errlen);
    case 'b': return ct_options_size("-b", arg, &o->min_bytes, err, errlen);
    case 'e': return ct_options_size("-e", arg, &o->max_bytes, err, errlen);
    case 'i': return ct_options_size("-i", arg, &o->step_bytes, err, errlen);
    case 'f':
        if (ct_options_int("-f", arg, 1, 1 << 20, &v, err, errlen) != CT_OK)
            return CT_ERR_USAGE;
        o->step_factor = (size_t)v;
        return CT_OK;
    case 'n': return ct_options_int("-n", arg, 1, 100000000, &o->iters, err, errlen);
    case 'w': return ct_options_int("-w", arg, 0, 100000000, &o->warmup, err, errlen);
    case 'c': return ct_options_int("-c", arg, 0, 1000, &o->check, err, errlen);
    case 'o':
        o->ops_all = strcmp(arg, "all") == 0;
        if (o->ops_all) {
            for (int i = 0; i < CT_OP_COUNT; i++)
                o->ops[i] = (ct_op_t)i;
            o->nops = CT_OP_COUNT;
            return CT_OK;
        }
        return ct_options_list("-o", arg, ct_parse_op, o->ops, &o->nops, err, errlen);
    case 'd':
        o->dtypes_all = strcmp(arg, "all") == 0;
        if (o->dtypes_all) {
            for (int i = 0; i < CT_DTYPE_COUNT; i++)
                o->dtypes[i] = (ct_dtype_t)i;
            o->ndtypes = CT_DTYPE_COUNT;
            return CT_OK;
        }
        return ct_options_list("-d", arg, ct_parse_dtype, o->dtypes, &o->ndtypes, err, errlen);
    case 'r': return ct_options_int("-r", arg, 0, 1 << 30, &o->root, err, errlen);
    case 'a':
        if (ct_options_int("-a", arg, 0, 3, &v, err, errlen) != CT_OK)
            return CT_ERR_USAGE;
        o->rank_agg = (ct_rank_agg_t)v;
        return CT_OK;
    case 'T': return ct_options_int("-T", arg, 0, 1 << 24, &o->timeout_s, err, errlen);
    case CT_OPT_BACKEND: return ct_options_backend(arg, o, err, errlen);
    case CT_OPT_CSV: o->csv_path = arg; return CT_OK;
    case CT_OPT_JSON: o->json_path = arg; return CT_OK;
    case CT_OPT_RUN_ID:
        if (!ct_result_run_id_ok(arg))
            return ct_options_fail(err, errlen,
                                   "--run-id '%s': 1 to %d of [A-Za-z0-9._:-] (it becomes a CSV "
                                   "field and a series label)",
                                   arg, CT_RUN_ID_MAX);
        o->run_id = arg;
        return CT_OK;
    case CT_OPT_CVARS: return ct_options_cvars(arg, &o->cvars, err, errlen);
    case CT_OPT_SIZES: return ct_options_sizes(arg, o, err, errlen);
    case CT_OPT_SHAPES: return ct_shapes_parse(arg, o->shapes, &o->nshapes, err, errlen);
    case CT_OPT_TURNS: o->turns = 1; return CT_OK;
    case CT_OPT_CONFIG: return ct_options_config(arg, arg, NULL, o, err, errlen);
    case CT_OPT_CONFIG_FOR: return ct_options_config_for(arg, o, err, errlen);
    case CT_OPT_TARGET_CI:
        return ct_options_fraction("--target-ci", arg, &o->target_ci, err, errlen);
    case CT_OPT_SIZE_BUDGET:
        return ct_options_double("--size-budget", arg, 0.001, 86400.0, &o->size_budget_s, err,
                                 errlen);
    case CT_OPT_MIN_TIME:
        return ct_options_double("--min-time", arg, 0.0, 86400.0, &o->min_time_s, err, errlen);
    case CT_OPT_CI_PATIENCE:
        return ct_options_double("--ci-patience", arg, 0.0, 1e6, &o->ci_patience, err, errlen);
    case CT_OPT_MIN_SAMPLES:
        return ct_options_int("--min-samples", arg, 1, 1000000, &o->min_samples, err, errlen);
    case CT_OPT_MAX_SAMPLES:
        return ct_options_int("--max-samples", arg, 1, 10000000, &o->max_samples, err, errlen);
    case CT_OPT_BATCH_US:
        o->batch_us_given = 1;
        return ct_options_double("--batch-us", arg, 0.0, 1e7, &o->batch_us, err, errlen);
    case CT_OPT_SYNC:
        for (int m = CT_SYNC_WINDOW; m <= CT_SYNC_BATCH; m++)
            if (strcmp(arg, ct_options_sync_name((ct_sync_mode_t)m)) == 0) {
                o->sync = (ct_sync_mode_t)m;
                return CT_OK;
            }
        return ct_options_fail(err, errlen, "--sync: unknown mode '%s' (window, barrier, batch)",
                               arg);
    case CT_OPT_QUIET: o->quiet = 1; return CT_OK;
    case CT_OPT_NO_TABLE: o->no_table = 1; return CT_OK;
    case CT_OPT_PAIRS: o->pairs = 1; return CT_OK;
    case CT_OPT_PAIRS_ROUNDS:
        o->pairs = 1;
        return ct_options_int("--pairs-rounds", arg, 1, 1 << 20, &o->pairs_rounds, err, errlen);
    case CT_OPT_NCCL_LIB: o->nccl_library = arg; return CT_OK;
    case CT_OPT_CUDART_LIB: o->cudart_library = arg; return CT_OK;
    case CT_OPT_VERSION: o->version = 1; return CT_OK;
    case 'h': o->help = 1; return CT_OK;
    default: return ct_options_fail(err, errlen, "internal: unhandled option %d", id);
    }
}

/* getopt_long answers '?' alike for an unknown long option, an ambiguous
 * prefix and a value given to a flag that takes none; text (argv's word)
 * tells them apart for a precise message. */
static ct_status_t ct_options_bad_long(const char *text, char *err, size_t errlen)
{
    const char *name = text + 2;
    size_t len = strcspn(name, "=");
    const ct_option_info_t *hit = NULL;
    char candidates[256] = "";
    size_t used = 0;
    int matches = 0;

    for (size_t i = 0; i < CT_NOPTIONS; i++) {
        const ct_option_info_t *o = &ct_option_table[i];
        if (strncmp(o->long_name, name, len) != 0)
            continue;
        if (o->long_name[len] == '\0') { /* exact: never ambiguous */
            hit = o;
            matches = 1;
            break;
        }
        hit = o;
        matches++;
        int k = snprintf(candidates + used, sizeof candidates - used, "%s--%s", used ? ", " : "",
                         o->long_name);
        if (k > 0 && (size_t)k < sizeof candidates - used)
            used += (size_t)k;
    }
    if (len > 0 && matches > 1)
        return ct_options_fail(err, errlen, "option '--%.*s' is ambiguous: %s", (int)len, name,
                               candidates);
    if (len > 0 && matches == 1 && name[len] == '=' && hit->arg == NULL)
        return ct_options_fail(err, errlen, "option '--%s' takes no value (got '%s')",
                               hit->long_name, text);
    return ct_options_fail(err, errlen, "unknown option '%s' (see --help)", text);
}

/* Checks that need nothing but the options themselves. */
static ct_status_t ct_options_check(ct_options_t *o, char *err, size_t errlen)
{
    if (o->nsizes > 0) {
        /* --sizes wins: -b/-e/-i/-f are not checked, and the ends of the
         * list take -b/-e's place in the table's preamble and the JSON. */
        o->min_bytes = o->sizes[0];
        o->max_bytes = o->sizes[o->nsizes - 1];
    } else if (o->min_bytes == 0) {
        return ct_options_fail(err, errlen, "-b 0: the smallest size must be at least 1 byte");
    } else if (o->min_bytes > o->max_bytes) {
        return ct_options_fail(err, errlen, "-b %zu is greater than -e %zu", o->min_bytes,
                               o->max_bytes);
    } else if (o->step_factor <= 1 && o->step_bytes == 0 && o->min_bytes != o->max_bytes) {
        return ct_options_fail(err, errlen, "-i 0: the step must be at least 1 byte");
    } else if (o->step_factor == 1 && o->min_bytes < o->max_bytes &&
               o->step_bytes > o->max_bytes - o->min_bytes) {
        /* -f 1 means "add -i" as in nccl-tests, whose -i is 1M by default:
         * a range narrower than the step measured -b alone, silently (N4). */
        return ct_options_fail(err, errlen,
                               "-f 1 never reaches -e %zu: it steps by -i (%zu bytes) from -b %zu; "
                               "give -f 2 or more, or -i STEP",
                               o->max_bytes, o->step_bytes, o->min_bytes);
    }
    if (o->min_time_s > o->size_budget_s)
        return ct_options_fail(err, errlen, "--min-time %g is greater than --size-budget %g",
                               o->min_time_s, o->size_budget_s);
    if (o->min_samples > o->max_samples)
        return ct_options_fail(err, errlen, "--min-samples %d is greater than --max-samples %d",
                               o->min_samples, o->max_samples);
    const ct_configs_kind_t *kind = o->nconfigs ? ct_backend_find(o->backend)->configs : NULL;
    if (o->nconfigs && kind == NULL)
        return ct_options_fail(err, errlen, "--config: the %s backend has no configurations",
                               o->backend);
    /* What a name can be depends on the backend, known only now. */
    for (int k = 0; k < o->nconfigs; k++)
        for (int i = 0; i < o->configs[k].n; i++)
            if (kind->check(o->configs[k].s[i].name, o->configs[k].s[i].value, err, errlen) !=
                CT_OK)
                return CT_ERR_USAGE;
    if (o->nconfigs && o->pairs)
        return ct_options_fail(err, errlen, "--config: not with --pairs");
    if (o->nshapes && o->pairs)
        return ct_options_fail(err, errlen, "--shapes: not with --pairs");
    /* A --config-for of a collective -C does not measure would measure
     * nothing. */
    for (int k = 0; k < o->nconfigs; k++) {
        const ct_coll_desc_t *coll = o->configs[k].coll;
        int measured = coll == NULL;
        for (int c = 0; c < o->ncolls && !measured; c++)
            measured = o->colls[c] == coll;
        if (!measured)
            return ct_options_fail(err, errlen,
                                   "--config-for %s:... (configuration %d): -C does not measure %s",
                                   coll->name, k + 1, coll->name);
    }
    return CT_OK;
}

ct_status_t ct_options_parse(int argc, char **argv, ct_options_t *opts, char *err, size_t errlen)
{
    struct option longopts[CT_NOPTIONS + 1];
    char shortopts[3 * CT_NOPTIONS + 2];
    size_t s = 0;

    ct_options_defaults(opts);
    shortopts[s++] = ':'; /* report a missing argument as ':' */
    for (size_t i = 0; i < CT_NOPTIONS; i++) {
        const ct_option_info_t *info = &ct_option_table[i];
        longopts[i] = (struct option){info->long_name, info->arg ? required_argument : no_argument,
                                      NULL, info->id};
        if (info->id < 256) {
            shortopts[s++] = (char)info->id;
            if (info->arg)
                shortopts[s++] = ':';
        }
    }
    shortopts[s] = '\0';
    longopts[CT_NOPTIONS] = (struct option){NULL, 0, NULL, 0};

    opterr = 0;
    optind = 0; /* glibc: full re-initialisation, so tests can parse twice */
    for (;;) {
        int id = getopt_long(argc, argv, shortopts, longopts, NULL);
        if (id == -1)
            break;
        if (id == '?' && strncmp(argv[optind - 1], "--", 2) == 0)
            return ct_options_bad_long(argv[optind - 1], err, errlen);
        if (id == '?')
            return ct_options_fail(err, errlen, "unknown option '%s' (see --help)",
                                   argv[optind - 1]);
        if (id == ':')
            return ct_options_fail(err, errlen, "option '%s' needs a value", argv[optind - 1]);
        if (ct_options_apply(opts, id, optarg, err, errlen) != CT_OK)
            return CT_ERR_USAGE;
    }
    if (optind < argc)
        return ct_options_fail(err, errlen, "unexpected argument '%s'", argv[optind]);
    return ct_options_check(opts, err, errlen);
}
