/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rules.c - rules-file parser and matcher (see rules.h).
 *
 * The parser is strict on purpose.  NVIDIA's example maps an unknown name
 * to a default and reads "12x" as 12, so a typo silently tunes the wrong
 * thing for a week-long job.  Here every field is checked, and a file with
 * any bad line is rejected whole: half a tuning is worse than none.
 */
#define _POSIX_C_SOURCE 200809L

#include "rules.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "names.h"

#define FIELDS_MIN 8
#define FIELDS_MAX 10

enum {
    F_COLL,
    F_MIN_BYTES,
    F_MAX_BYTES,
    F_ALGO,
    F_PROTO,
    F_CHANNELS,
    F_NNODES,
    F_NRANKS,
    F_PIPE_OPS,
    F_REG_BUFF
};

/* Field names as the README and NVIDIA's example spell them. */
static const char *const field_names[FIELDS_MAX] = {
    "collective", "min_bytes", "max_bytes", "algorithm",  "protocol",
    "channels",   "nNodes",    "nRanks",    "numPipeOps", "regBuff",
};

static int is_blank(char c) { return c == ' ' || c == '\t'; }

/* Strips spaces and tabs from both ends of s, in place. */
static char *trim(char *s)
{
    while (is_blank(*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && is_blank(s[n - 1]))
        s[--n] = '\0';
    return s;
}

static int is_digits(const char *s)
{
    if (*s == '\0')
        return 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return 0;
    }
    return 1;
}

/*
 * Parses a field that is either exactly "-1" (stored as -1, "any" or
 * "default") or a plain decimal in [lo, hi].  Signs, blanks inside,
 * suffixes and hex are all errors.
 */
static int parse_number(const char *text, int field, unsigned long long lo, unsigned long long hi,
                        unsigned long long *value_p, int *any_p, char *err, size_t errlen)
{
    unsigned long long v;

    if (strcmp(text, "-1") == 0) {
        *any_p = 1;
        *value_p = 0;
        return 0;
    }
    if (!is_digits(text)) {
        snprintf(err, errlen,
                 "%s '%s' is not a number (expected -1 or an integer from "
                 "%llu to %llu)",
                 field_names[field], text, lo, hi);
        return -1;
    }
    errno = 0;
    v = strtoull(text, NULL, 10);
    if (errno == ERANGE || v < lo || v > hi) {
        snprintf(err, errlen,
                 "%s %s is out of range (expected -1 or an integer from %llu "
                 "to %llu)",
                 field_names[field], text, lo, hi);
        return -1;
    }
    *any_p = 0;
    *value_p = v;
    return 0;
}

/* An int field: -1, or an integer in [lo, hi]. */
static int parse_int_field(const char *text, int field, int lo, int hi, int *value_p, char *err,
                           size_t errlen)
{
    unsigned long long v;
    int any;

    if (parse_number(text, field, (unsigned long long)lo, (unsigned long long)hi, &v, &any, err,
                     errlen) != 0)
        return -1;
    *value_p = any ? -1 : (int)v;
    return 0;
}

/* A name from table; any: "-1" is also taken, stored as -1. */
static int parse_name_field(const char *text, const ct_plugin_name_table_t *table, int any,
                            int *value_p, char *err, size_t errlen)
{
    char expected[256];

    if (any && strcmp(text, "-1") == 0) {
        *value_p = -1;
        return 0;
    }
    if (ct_plugin_name_lookup(table, text, value_p) == 0)
        return 0;
    ct_plugin_name_list(table, expected, sizeof(expected));
    snprintf(err, errlen, "unknown %s '%s' (expected one of: %s%s)", table->kind, text, expected,
             any ? ", or -1" : "");
    return -1;
}

int ct_plugin_rules_parse_line(const char *text, ct_plugin_rule_t *rule_p, char *err, size_t errlen)
{
    char buf[CT_PLUGIN_RULES_MAX_LINE + 1];
    char *fields[FIELDS_MAX];
    int nfields = 0;
    ct_plugin_rule_t r;
    unsigned long long v;
    int any;

    if (strlen(text) > CT_PLUGIN_RULES_MAX_LINE) {
        snprintf(err, errlen, "line is longer than %d bytes", CT_PLUGIN_RULES_MAX_LINE);
        return -1;
    }
    strcpy(buf, text);
    buf[strcspn(buf, "#")] = '\0';
    char *line = trim(buf);
    if (*line == '\0')
        return 0;

    /* Split on every comma; strtok would merge ",," and hide a missing
     * field. */
    for (char *p = line;; nfields++) {
        char *comma = strchr(p, ',');
        if (nfields == FIELDS_MAX) {
            nfields++; /* one too many is enough to say so */
            break;
        }
        fields[nfields] = p;
        if (comma == NULL) {
            nfields++;
            break;
        }
        *comma = '\0';
        p = comma + 1;
    }
    if (nfields < FIELDS_MIN || nfields > FIELDS_MAX) {
        char found[32];
        if (nfields > FIELDS_MAX)
            snprintf(found, sizeof(found), "more than %d", FIELDS_MAX);
        else
            snprintf(found, sizeof(found), "only %d", nfields);
        snprintf(err, errlen,
                 "%s field%s; expected %d (collective,min_bytes,max_bytes,"
                 "algorithm,protocol,channels,nNodes,nRanks), or %d-%d with "
                 "numPipeOps and regBuff",
                 found, nfields == 1 ? "" : "s", FIELDS_MIN, FIELDS_MIN + 1, FIELDS_MAX);
        return -1;
    }
    for (int i = 0; i < nfields; i++) {
        fields[i] = trim(fields[i]);
        if (*fields[i] == '\0') {
            snprintf(err, errlen, "field %d (%s) is empty", i + 1, field_names[i]);
            return -1;
        }
    }

    if (parse_name_field(fields[F_COLL], &ct_plugin_colls, 0, &r.coll, err, errlen) != 0)
        return -1;

    if (parse_number(fields[F_MIN_BYTES], F_MIN_BYTES, 0, SIZE_MAX, &v, &any, err, errlen) != 0)
        return -1;
    r.min_bytes = any ? 0 : (size_t)v;
    if (parse_number(fields[F_MAX_BYTES], F_MAX_BYTES, 0, SIZE_MAX, &v, &any, err, errlen) != 0)
        return -1;
    r.max_bytes = any ? SIZE_MAX : (size_t)v;
    if (r.min_bytes > r.max_bytes) {
        snprintf(err, errlen, "min_bytes %zu is larger than max_bytes %zu", r.min_bytes,
                 r.max_bytes);
        return -1;
    }

    /* -1 for one of them: that one stays NCCL's cheapest among what NCCL
     * left available (context.c); for both it would decide nothing. */
    if (parse_name_field(fields[F_ALGO], &ct_plugin_algos, 1, &r.algo, err, errlen) != 0 ||
        parse_name_field(fields[F_PROTO], &ct_plugin_protos, 1, &r.proto, err, errlen) != 0)
        return -1;
    if (r.algo == -1 && r.proto == -1) {
        snprintf(err, errlen,
                 "algorithm and protocol are both -1; a rule names an algorithm, a protocol "
                 "or both");
        return -1;
    }

    /* 0 channels would mean "NCCL's default" to NCCL; -1 says that. */
    if (parse_int_field(fields[F_CHANNELS], F_CHANNELS, 1, INT_MAX, &r.channels, err, errlen) !=
            0 ||
        parse_int_field(fields[F_NNODES], F_NNODES, 1, INT_MAX, &r.nnodes, err, errlen) != 0 ||
        parse_int_field(fields[F_NRANKS], F_NRANKS, 1, INT_MAX, &r.nranks, err, errlen) != 0)
        return -1;

    r.pipe_ops = -1;
    r.reg_buff = -1;
    if (nfields > F_PIPE_OPS &&
        parse_int_field(fields[F_PIPE_OPS], F_PIPE_OPS, 1, INT_MAX, &r.pipe_ops, err, errlen) != 0)
        return -1;
    if (nfields > F_REG_BUFF &&
        parse_int_field(fields[F_REG_BUFF], F_REG_BUFF, 0, 1, &r.reg_buff, err, errlen) != 0)
        return -1;

    r.line = 0;
    *rule_p = r;
    return 1;
}

enum { LINE_OK = 1, LINE_EOF = 0, LINE_LONG = -1, LINE_NUL = -2, LINE_EIO = -3 };

/*
 * Reads one line, without its "\n" or "\r\n", into buf (room for
 * CT_PLUGIN_RULES_MAX_LINE + 2 bytes).  Reading byte by byte keeps memory
 * bounded however long the line is, and lets a NUL byte be caught.
 */
static int read_line(FILE *fp, char *buf)
{
    size_t len = 0;
    int nul = 0;
    int c;

    while ((c = getc(fp)) != EOF && c != '\n') {
        if (len > CT_PLUGIN_RULES_MAX_LINE) /* one spare byte for a '\r' */
            return LINE_LONG;
        if (c == '\0')
            nul = 1;
        buf[len++] = (char)c;
    }
    if (ferror(fp))
        return LINE_EIO;
    if (c == EOF && len == 0)
        return LINE_EOF;
    if (len > 0 && buf[len - 1] == '\r')
        len--;
    buf[len] = '\0';
    if (len > CT_PLUGIN_RULES_MAX_LINE)
        return LINE_LONG;
    return nul ? LINE_NUL : LINE_OK;
}

static int rules_append(ct_plugin_rules_t *set, size_t *cap, const ct_plugin_rule_t *rule)
{
    if (set->count == *cap) {
        size_t ncap = *cap ? *cap * 2 : 16;
        ct_plugin_rule_t *n = realloc(set->rules, ncap * sizeof(*n));
        if (n == NULL)
            return -1;
        set->rules = n;
        *cap = ncap;
    }
    set->rules[set->count++] = *rule;
    return 0;
}

ct_plugin_rules_status_t ct_plugin_rules_read(FILE *fp, const char *name, char *err, size_t errlen,
                                              ct_plugin_rules_t *rules_p)
{
    char buf[CT_PLUGIN_RULES_MAX_LINE + 2];
    char why[CT_PLUGIN_RULES_ERR_MAX];
    ct_plugin_rules_t set = {NULL, 0};
    size_t cap = 0;
    ct_plugin_rules_status_t status = CT_PLUGIN_RULES_OK;
    int lineno = 0;

    for (;;) {
        int got = read_line(fp, buf);
        ct_plugin_rule_t rule;

        if (got == LINE_EOF)
            break;
        if (lineno == INT_MAX) {
            snprintf(err, errlen, "%s: too many lines", name);
            status = CT_PLUGIN_RULES_EPARSE;
            goto fail;
        }
        lineno++;
        if (got == LINE_EIO) {
            snprintf(err, errlen, "%s:%d: read error: %s", name, lineno, strerror(errno));
            status = CT_PLUGIN_RULES_EOPEN;
            goto fail;
        }
        if (got == LINE_LONG) {
            snprintf(err, errlen, "%s:%d: line is longer than %d bytes", name, lineno,
                     CT_PLUGIN_RULES_MAX_LINE);
            status = CT_PLUGIN_RULES_EPARSE;
            goto fail;
        }
        if (got == LINE_NUL) {
            snprintf(err, errlen, "%s:%d: line contains a NUL byte", name, lineno);
            status = CT_PLUGIN_RULES_EPARSE;
            goto fail;
        }
        int kind = ct_plugin_rules_parse_line(buf, &rule, why, sizeof(why));
        if (kind < 0) {
            snprintf(err, errlen, "%s:%d: %s", name, lineno, why);
            status = CT_PLUGIN_RULES_EPARSE;
            goto fail;
        }
        if (kind == 0)
            continue;
        if (set.count == CT_PLUGIN_RULES_MAX) {
            snprintf(err, errlen, "%s:%d: more than %d rules", name, lineno, CT_PLUGIN_RULES_MAX);
            status = CT_PLUGIN_RULES_EPARSE;
            goto fail;
        }
        rule.line = lineno;
        if (rules_append(&set, &cap, &rule) != 0) {
            snprintf(err, errlen, "%s:%d: out of memory", name, lineno);
            status = CT_PLUGIN_RULES_ENOMEM;
            goto fail;
        }
    }
    *rules_p = set;
    return CT_PLUGIN_RULES_OK;

fail:
    ct_plugin_rules_free(&set);
    return status;
}

ct_plugin_rules_status_t ct_plugin_rules_load(const char *path, char *err, size_t errlen,
                                              ct_plugin_rules_t *rules_p)
{
    FILE *fp = fopen(path, "r");
    ct_plugin_rules_status_t status;

    if (fp == NULL) {
        snprintf(err, errlen, "cannot open rules file %s: %s", path, strerror(errno));
        return CT_PLUGIN_RULES_EOPEN;
    }
    status = ct_plugin_rules_read(fp, path, err, errlen, rules_p);
    fclose(fp);
    return status;
}

void ct_plugin_rules_free(ct_plugin_rules_t *rules)
{
    free(rules->rules);
    rules->rules = NULL;
    rules->count = 0;
}

static int rule_matches(const ct_plugin_rule_t *r, const ct_plugin_query_t *q)
{
    return r->coll == q->coll && r->min_bytes <= q->nbytes && q->nbytes <= r->max_bytes &&
           (r->nnodes == -1 || (size_t)r->nnodes == q->nnodes) &&
           (r->nranks == -1 || (size_t)r->nranks == q->nranks) &&
           (r->pipe_ops == -1 || r->pipe_ops == q->pipe_ops) &&
           (r->reg_buff == -1 || r->reg_buff == q->reg_buff);
}

long ct_plugin_rules_match(const ct_plugin_rules_t *rules, const ct_plugin_query_t *q)
{
    for (size_t i = 0; i < rules->count; i++) {
        if (rule_matches(&rules->rules[i], q))
            return (long)i;
    }
    return -1;
}
