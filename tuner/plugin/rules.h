/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rules.h - the rules file: parsing it and finding the rule for a call.
 *
 * One rule per line, NVIDIA's example-plugin CSV:
 *   collective,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks[,numPipeOps[,regBuff]]
 * '#' starts a comment anywhere on a line; blank lines are skipped; spaces
 * and tabs around fields are ignored; CRLF line ends are accepted.  A file
 * is accepted whole or not at all: the first bad line rejects it, and the
 * message names the file and the line.  README.md documents the format.
 */
#ifndef CT_PLUGIN_RULES_H
#define CT_PLUGIN_RULES_H

#include <stddef.h>
#include <stdio.h>

/* Longest line accepted, in bytes, not counting the line terminator. */
#define CT_PLUGIN_RULES_MAX_LINE 1024
/* Most rules one file may hold; a guard against feeding it the wrong file. */
#define CT_PLUGIN_RULES_MAX 65536
/* Room for any error message these functions write. */
#define CT_PLUGIN_RULES_ERR_MAX 1536

typedef struct {
    int coll;         /* ncclFunc_t */
    size_t min_bytes; /* inclusive; the file's -1 is stored as 0 */
    size_t max_bytes; /* inclusive; the file's -1 is stored as SIZE_MAX */
    int algo;         /* NCCL_ALGO_*, or -1: NCCL's cheapest for proto */
    int proto;        /* NCCL_PROTO_*, or -1: NCCL's cheapest for algo (not both -1) */
    int channels;     /* -1 keeps NCCL's channel count */
    int nnodes;       /* -1 matches any; likewise the three below */
    int nranks;
    int pipe_ops; /* -1 also when the field is absent */
    int reg_buff; /* -1, 0 or 1; -1 also when the field is absent */
    int line;     /* 1-based line of the rule in its file */
} ct_plugin_rule_t;

typedef struct {
    ct_plugin_rule_t *rules; /* owned; file order */
    size_t count;
} ct_plugin_rules_t;

/* What a rule is matched against: one getCollInfo() call. */
typedef struct {
    int coll;
    size_t nbytes;
    size_t nnodes;
    size_t nranks;
    int pipe_ops;
    int reg_buff; /* -1 when NCCL did not say (v3 API) */
} ct_plugin_query_t;

typedef enum {
    CT_PLUGIN_RULES_OK = 0,
    CT_PLUGIN_RULES_EOPEN = -1,  /* the file could not be opened or read */
    CT_PLUGIN_RULES_EPARSE = -2, /* a line is malformed */
    CT_PLUGIN_RULES_ENOMEM = -3,
} ct_plugin_rules_status_t;

/*
 * Parses one line's text (no terminator; NUL-terminated).  Returns 1 and
 * fills *rule_p (line left 0) for a rule, 0 for a blank or comment line,
 * or -1 with a message in err (no file or line prefix).
 */
int ct_plugin_rules_parse_line(const char *text, ct_plugin_rule_t *rule_p, char *err,
                               size_t errlen);

/*
 * Reads every rule from fp; name is used only in messages.  On success
 * *rules_p owns the rules (maybe none).  On failure *rules_p is untouched
 * and err holds "name:line: what is wrong".
 */
ct_plugin_rules_status_t ct_plugin_rules_read(FILE *fp, const char *name, char *err, size_t errlen,
                                              ct_plugin_rules_t *rules_p);

/* Opens path and reads it as above; failing to open is CT_PLUGIN_RULES_EOPEN
 * with the reason in err. */
ct_plugin_rules_status_t ct_plugin_rules_load(const char *path, char *err, size_t errlen,
                                              ct_plugin_rules_t *rules_p);

/* Frees the rules and leaves an empty set; safe on an empty set. */
void ct_plugin_rules_free(ct_plugin_rules_t *rules);

/* The first rule in file order that matches q, or -1 when none does.
 * A rule's size range is inclusive at both ends. */
long ct_plugin_rules_match(const ct_plugin_rules_t *rules, const ct_plugin_query_t *q);

#endif
