/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * merge.c - colltune merge --out OUT TUNE_DIR...: tunes made at different
 * shapes (comm sizes, nodes x ranks) joined into one set of files, each
 * choice applied at the shape it was measured at only.
 *
 * A subcommand of its own, beside install, rather than a tune option: it
 * launches nothing, reads finished tune directories the way install does
 * (only verified ones, ct_install_check_report), and writes all or nothing.
 *
 * - coll-tuned-rules.conf: one comm size section per tune and collective,
 *   sorted, with a "0 0 0 0" hand-back to Open MPI's own decision at N+1
 *   where no tune covers N+1, and at 1 below the smallest (4.1 takes the
 *   last entry not above the communicator's size, the first when all are
 *   above: emit_tuned_rules.c).  Two tunes at one comm size with different
 *   rules for one collective are refused.
 * - coll-tuned-rules.json (when a tune wrote one): the same sections, each
 *   with comm_size_min = comm_size_max = N.
 * - nccl_tuner.conf: every tune's rules, which carry their nNodes and
 *   nRanks; a rule keyed "any" (-1) is refused.
 * - nccl.env, nccl.conf, ucx.conf, mpich.env, intel-mpi.env and
 *   mca-params.conf's global settings cannot be keyed by shape: kept once
 *   where every tune has the same (a tune without the file counts as
 *   setting nothing), refused where they differ.  mca-params.conf names
 *   OUT's rules file.
 * - report.json: "verified", the source tunes and their choices, so that
 *   colltune install takes OUT as it takes a tune.
 * A tune holding a file of install's table that merge cannot join
 * (mpich-coll-selection.json) is refused: its choices, marked written in
 * report.json, would be lost.  Every file is read through the bounded
 * reader (ct_input.h), whole.
 */
#define _XOPEN_SOURCE 700

#include "install.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "command.h"
#include "config.h"
#include "ct_input.h"
#include "ct_names.h"
#include "ct_outfile.h"
#include "ct_outfile_set.h"
#include "ct_printable.h"
#include "ct_status.h"
#include "ct_vec.h"
#include "launch_opts.h"
#include "outdir.h"

#define CT_MERGE_MAX_TUNES 64
#define CT_MERGE_RULES "coll-tuned-rules.conf"
#define CT_MERGE_RULES_JSON "coll-tuned-rules.json"
#define CT_MERGE_TUNER "nccl_tuner.conf"
#define CT_MERGE_MCA "mca-params.conf"
/* Room for coll/tuned's collective ids (4.1 has 22). */
#define CT_MERGE_COLLS 64

typedef struct {
    long msgsize, alg, fan, seg;
} ct_merge_rule_t;

/* One comm size's rules for one collective, from one tune. */
typedef struct {
    long comm;
    size_t n;
    ct_merge_rule_t *rules;
    int tune;
} ct_merge_sec_t;

typedef struct {
    char dir[PATH_MAX];
    char run_id[128];
    long nranks, nnodes;
    int has_rules_json;
    json_t *report;
} ct_merge_tune_t;

typedef struct {
    ct_merge_tune_t tunes[CT_MERGE_MAX_TUNES];
    int ntunes;
    ct_merge_sec_t *secs[CT_MERGE_COLLS];
    size_t nsecs[CT_MERGE_COLLS];
    char out[PATH_MAX];
} ct_merge_t;

/* The files merge writes into OUT, in this order: the rules files before
 * the mca-params.conf that names them; report.json last. */
enum {
    CT_MF_RULES,
    CT_MF_RULES_JSON,
    CT_MF_MCA,
    CT_MF_UCX,
    CT_MF_NCCL_CONF,
    CT_MF_NCCL_ENV,
    CT_MF_TUNER,
    CT_MF_MPICH_ENV,
    CT_MF_INTEL_ENV,
    CT_MF_REPORT,
    CT_MF_N
};
static const char *const ct_merge_names[CT_MF_N] = {
    CT_MERGE_RULES, CT_MERGE_RULES_JSON, CT_MERGE_MCA, "ucx.conf",      "nccl.conf",
    "nccl.env",     CT_MERGE_TUNER,      "mpich.env",  "intel-mpi.env", "report.json",
};

/* path's text into *text_p (NULL when there is no such file) through the
 * bounded reader: a FIFO is refused rather than blocking merge, a huge
 * file rather than read whole.  CT_EXIT_OK, or the exit code after the
 * reason on stderr. */
static int ct_merge_slurp(const char *path, char **text_p)
{
    struct stat sb;
    char err[PATH_MAX + 256];
    size_t len;
    *text_p = NULL;
    if (lstat(path, &sb) != 0 && errno == ENOENT)
        return CT_EXIT_OK;
    ct_status_t st = ct_input_slurp(path, CT_INPUT_MAX_CONFIG, 1, text_p, &len, err, sizeof err);
    if (st == CT_OK)
        return CT_EXIT_OK;
    fprintf(stderr, "colltune merge: %s\n", err);
    return st == CT_ERR_NOMEM ? CT_EXIT_FAILURE : CT_EXIT_USAGE;
}

/* The next number of a classic rules file at *p, comments ('#' to the end
 * of the line) skipped as 4.1 does; 0, or -1 at the end, on a non-number
 * or on one too large for a long. */
static int ct_merge_next(const char **p, long *v)
{
    const char *s = *p;
    for (;; s++) {
        if (*s == '#')
            s += strcspn(s, "\n");
        if (*s == '\0') {
            *p = s;
            return -1;
        }
        if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
            break;
    }
    size_t n = strspn(s, "0123456789");
    *p = s + n;
    if (n == 0 || n > 19)
        return -1;
    errno = 0;
    *v = strtol(s, NULL, 10);
    return errno == ERANGE ? -1 : 0;
}

static int ct_merge_is_handback(const ct_merge_sec_t *s)
{
    return s->n == 1 && s->rules[0].msgsize == 0 && s->rules[0].alg == 0;
}

static int ct_merge_same(const ct_merge_sec_t *a, const ct_merge_sec_t *b)
{
    return a->n == b->n && memcmp(a->rules, b->rules, a->n * sizeof(*a->rules)) == 0;
}

static int ct_merge_add(ct_merge_t *m, long id, ct_merge_sec_t *sec)
{
    ct_merge_sec_t *list = m->secs[id];
    for (size_t i = 0; i < m->nsecs[id]; i++) {
        if (list[i].comm != sec->comm)
            continue;
        if (ct_merge_same(&list[i], sec)) {
            free(sec->rules);
            return CT_EXIT_OK;
        }
        const ct_coll_name_t *cn = ct_coll_name_of_ompi((int)id);
        fprintf(stderr,
                "colltune merge: %s and %s both tuned %s at comm size %ld, with different "
                "rules: merge one of them\n",
                m->tunes[list[i].tune].dir, m->tunes[sec->tune].dir, cn ? cn->name : "?",
                sec->comm);
        free(sec->rules);
        return CT_EXIT_USAGE;
    }
    list = realloc(list, (m->nsecs[id] + 1) * sizeof(*list));
    if (list == NULL) {
        free(sec->rules);
        fprintf(stderr, "colltune merge: out of memory\n");
        return CT_EXIT_FAILURE;
    }
    list[m->nsecs[id]++] = *sec;
    m->secs[id] = list;
    return CT_EXIT_OK;
}

/* The sections of tune t's rules file at its own rank count; every other
 * section must be a hand-back (what emit_tuned_rules.c writes). */
static int ct_merge_read_rules(ct_merge_t *m, int t, const char *path)
{
    char *text;
    int rc = ct_merge_slurp(path, &text);
    if (rc != CT_EXIT_OK || text == NULL)
        return rc;
    const char *f = text;
    const ct_merge_tune_t *tu = &m->tunes[t];
    long ncoll, id, ncs;
    int bad = ct_merge_next(&f, &ncoll) != 0;
    for (long c = 0; c < ncoll && !bad && rc == CT_EXIT_OK; c++) {
        bad = ct_merge_next(&f, &id) != 0 || id < 0 || id >= CT_MERGE_COLLS ||
              ct_merge_next(&f, &ncs) != 0;
        for (long k = 0; k < ncs && !bad && rc == CT_EXIT_OK; k++) {
            ct_merge_sec_t sec = {0, 0, NULL, t};
            long n = 0;
            bad = ct_merge_next(&f, &sec.comm) != 0 || ct_merge_next(&f, &n) != 0 || n < 1 ||
                  n > 100000 || (sec.rules = calloc((size_t)n, sizeof(*sec.rules))) == NULL;
            for (long q = 0; q < n && !bad; q++, sec.n++) {
                ct_merge_rule_t *r = &sec.rules[q];
                bad = ct_merge_next(&f, &r->msgsize) || ct_merge_next(&f, &r->alg) ||
                      ct_merge_next(&f, &r->fan) || ct_merge_next(&f, &r->seg);
            }
            if (bad || ct_merge_is_handback(&sec)) {
                free(sec.rules);
            } else if (sec.comm != tu->nranks) {
                fprintf(stderr,
                        "colltune merge: %s has rules at comm size %ld, but its report.json "
                        "says the tune ran at %ld ranks\n",
                        path, sec.comm, tu->nranks);
                free(sec.rules);
                rc = CT_EXIT_USAGE;
            } else {
                rc = ct_merge_add(m, id, &sec);
            }
        }
    }
    free(text);
    if (bad && rc == CT_EXIT_OK) {
        fprintf(stderr, "colltune merge: %s is not a coll/tuned rules file colltune reads\n", path);
        rc = CT_EXIT_USAGE;
    }
    return rc;
}

static int ct_merge_by_comm(const void *a, const void *b)
{
    long x = ((const ct_merge_sec_t *)a)->comm, y = ((const ct_merge_sec_t *)b)->comm;
    return x < y ? -1 : x > y;
}

static int ct_merge_has_comm(const ct_merge_t *m, long id, long comm)
{
    for (size_t i = 0; i < m->nsecs[id]; i++)
        if (m->secs[id][i].comm == comm)
            return 1;
    return 0;
}

/* Every file's header: what merged it, and from which tunes. */
static void ct_merge_header(const ct_merge_t *m, FILE *f, const char *file, const char *keyed)
{
    fprintf(f,
            "# %s: written by colltune merge (colltune " PACKAGE_VERSION " (git " CT_GIT_REV
            ")); re-run colltune merge rather than editing it.\n# From %d tunes:\n",
            file, m->ntunes);
    for (int t = 0; t < m->ntunes; t++) {
        const ct_merge_tune_t *tu = &m->tunes[t];
        fputs("#   ", f);
        ct_printable_put(f, tu->dir, (size_t)-1);
        fprintf(f, " (run %s, %ld ranks on %ld node%s)\n", tu->run_id, tu->nranks, tu->nnodes,
                tu->nnodes == 1 ? "" : "s");
    }
    fprintf(f,
            "# %s\n# Install with: colltune install DIR --to SITE_DIR (DIR: this file's "
            "directory).\n\n",
            keyed);
}

static void ct_merge_put_sec(FILE *f, long comm, size_t n, const ct_merge_rule_t *rules,
                             const char *what)
{
    fprintf(f, "%ld %zu # comm size, rules%s\n", comm, n, what);
    for (size_t k = 0; k < n; k++)
        fprintf(f, "%ld %ld %ld %ld\n", rules[k].msgsize, rules[k].alg, rules[k].fan, rules[k].seg);
}

static void ct_merge_write_rules(const ct_merge_t *m, FILE *f)
{
    static const ct_merge_rule_t handback = {0, 0, 0, 0};
    size_t ncoll = 0;
    for (long id = 0; id < CT_MERGE_COLLS; id++)
        ncoll += m->nsecs[id] > 0;
    ct_merge_header(m, f, CT_MERGE_RULES,
                    "Keyed by shape: each tune's rules hold at its comm size only; the\n"
                    "# sizes around them get Open MPI's own decision (algorithm 0).");
    fprintf(f, "%zu # collectives\n", ncoll);
    for (long id = 0; id < CT_MERGE_COLLS; id++) {
        const ct_merge_sec_t *s = m->secs[id];
        size_t n = m->nsecs[id], count = 0;
        if (n == 0)
            continue;
        int below = s[0].comm > 1;
        for (size_t i = 0; i < n; i++)
            count += 1 + !ct_merge_has_comm(m, id, s[i].comm + 1);
        const ct_coll_name_t *cn = ct_coll_name_of_ompi((int)id);
        fprintf(f, "\n%ld # %s\n%zu # comm sizes\n", id, cn ? cn->name : "?", count + below);
        if (below)
            ct_merge_put_sec(f, 1, 1, &handback, ": Open MPI's own decision");
        for (size_t i = 0; i < n; i++) {
            char what[PATH_MAX + 16];
            snprintf(what, sizeof what, " (%s)", m->tunes[s[i].tune].dir);
            for (char *p = what; *p; p++)
                *p = (char)ct_printable_byte((unsigned char)*p);
            ct_merge_put_sec(f, s[i].comm, s[i].n, s[i].rules, what);
            if (!ct_merge_has_comm(m, id, s[i].comm + 1))
                ct_merge_put_sec(f, s[i].comm + 1, 1, &handback, ": Open MPI's own decision");
        }
    }
}

/* Open MPI 6's JSON (emit_tuned_rules_json.c): the tuned ranges only. */
static int ct_merge_write_rules_json(const ct_merge_t *m, FILE *f)
{
    json_t *doc = json_pack("{s:i, s:s}", "rule_file_version", 3, "module", "tuned");
    json_t *colls = json_object();
    int bad = doc == NULL || colls == NULL;
    for (long id = 0; id < CT_MERGE_COLLS && !bad; id++) {
        const ct_coll_name_t *cn = ct_coll_name_of_ompi((int)id);
        if (m->nsecs[id] == 0 || cn == NULL || cn->tuned.json_name == NULL)
            continue;
        json_t *list = json_array();
        bad |= list == NULL || json_object_set_new(colls, cn->tuned.json_name, list) != 0;
        for (size_t i = 0; i < m->nsecs[id] && !bad; i++) {
            const ct_merge_sec_t *s = &m->secs[id][i];
            json_t *rules = json_array();
            bad |= rules == NULL ||
                   json_array_append_new(list, json_pack("{s:I, s:I, s:o}", "comm_size_min",
                                                         (json_int_t)s->comm, "comm_size_max",
                                                         (json_int_t)s->comm, "rules", rules)) != 0;
            for (size_t k = 0; k < s->n && !bad; k++) {
                const ct_merge_rule_t *r = &s->rules[k];
                if (r->alg == 0)
                    continue;
                json_t *max =
                    k + 1 < s->n ? json_integer(s->rules[k + 1].msgsize - 1) : json_string("inf");
                bad |= json_array_append_new(rules,
                                             json_pack("{s:I, s:o, s:i, s:i, s:i}", "msg_size_min",
                                                       (json_int_t)r->msgsize, "msg_size_max", max,
                                                       "alg", (int)r->alg, "faninout", (int)r->fan,
                                                       "seg_size", (int)r->seg)) != 0;
            }
        }
    }
    bad |= bad || json_object_set_new(doc, "collectives", colls) != 0;
    colls = NULL;
    bad |= bad || json_dumpf(doc, f, JSON_INDENT(4) | JSON_PRESERVE_ORDER) != 0;
    fputc('\n', f);
    json_decref(colls);
    json_decref(doc);
    return bad ? -1 : 0;
}

/* The lines of a file that set something (not blank, not a comment) into
 * *body_p, "" and *present 0 when there is no such file.  The file is read
 * whole, so a long comment line cannot be cut into a setting. */
static int ct_merge_body(const char *path, char **body_p, int *present)
{
    char *text;
    *body_p = NULL;
    int rc = ct_merge_slurp(path, &text);
    *present = text != NULL;
    if (rc != CT_EXIT_OK)
        return rc;
    const char *line = text ? text : "";
    char *body = malloc(strlen(line) + 2), *w = body; /* a '\n' added at most */
    if (body == NULL) {
        free(text);
        fprintf(stderr, "colltune merge: out of memory\n");
        return CT_EXIT_FAILURE;
    }
    while (*line) {
        size_t n = strcspn(line, "\n");
        const char *s = line + strspn(line, " \t");
        if (*s != '#' && *s != '\n' && *s != '\r' && *s != '\0') {
            memcpy(w, line, n);
            w += n;
            *w++ = '\n';
        }
        line += n + (line[n] == '\n');
    }
    *w = '\0';
    free(text);
    *body_p = body;
    return CT_EXIT_OK;
}

/* A file no shape keys: the same in every tune, or refused. */
static int ct_merge_unkeyed(const ct_merge_t *m, const char *name, char **body_p)
{
    char *first = NULL;
    int first_t = -1, any = 0, rc = CT_EXIT_OK;
    for (int t = 0; t < m->ntunes && rc == CT_EXIT_OK; t++) {
        char path[PATH_MAX + 64];
        int present;
        char *body;
        snprintf(path, sizeof path, "%s/%s", m->tunes[t].dir, name);
        rc = ct_merge_body(path, &body, &present);
        if (rc != CT_EXIT_OK)
            break;
        any |= present;
        if (first == NULL) {
            first = body;
            first_t = t;
        } else {
            if (strcmp(first, body) != 0) {
                const char *none = first[0] == '\0'  ? m->tunes[first_t].dir
                                   : body[0] == '\0' ? m->tunes[t].dir
                                                     : NULL;
                fprintf(stderr,
                        "colltune merge: %s differs between %s and %s%s%s%s, and cannot be "
                        "keyed by shape (%ld and %ld ranks): merge tunes that agree on it\n",
                        name, m->tunes[first_t].dir, m->tunes[t].dir, none ? " (" : "",
                        none ? none : "", none ? " sets nothing in it)" : "",
                        m->tunes[first_t].nranks, m->tunes[t].nranks);
                rc = CT_EXIT_USAGE;
            }
            free(body);
        }
    }
    if (rc != CT_EXIT_OK || !any || first == NULL || first[0] == '\0') {
        free(first);
        first = NULL;
    }
    *body_p = first;
    return rc;
}

/* mca-params.conf without the two lines that point at a rules file: what
 * no shape keys. */
static char *ct_merge_mca_globals(const char *body, int *dynamic)
{
    char *out = strdup(body), *w = out;
    const char *p = body;
    if (out == NULL)
        return NULL;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
        const char *s = p + strspn(p, " \t");
        if (strncmp(s, "coll_tuned_use_dynamic_rules", 28) == 0)
            *dynamic = 1;
        else if (strncmp(s, CT_INSTALL_RULES_PARAM, strlen(CT_INSTALL_RULES_PARAM)) != 0) {
            memmove(w, p, n);
            w += n;
        }
        p += n;
    }
    *w = '\0';
    return out;
}

/* nccl_tuner.conf's rules for one collective at one shape, from one tune. */
typedef struct {
    char coll[64];
    long nnodes, nranks;
    int tune;
    char *lines;
} ct_merge_group_t;

/* nccl_tuner.conf: every tune's rules (they name their shape); one
 * collective's rules at one shape are the same in every tune that has
 * them, or refused. */
static int ct_merge_tuner(const ct_merge_t *m, char **body_p)
{
    ct_merge_group_t *g = NULL;
    size_t ng = 0;
    int rc = CT_EXIT_OK;
    for (int t = 0; t < m->ntunes && rc == CT_EXIT_OK; t++) {
        char path[PATH_MAX + 64];
        int present;
        snprintf(path, sizeof path, "%s/%s", m->tunes[t].dir, CT_MERGE_TUNER);
        char *body;
        rc = ct_merge_body(path, &body, &present);
        if (rc != CT_EXIT_OK)
            break;
        /* Each line: coll,min,max,algo,proto,channels,nNodes,nRanks[,...] */
        for (char *line = body, *nl; rc == CT_EXIT_OK && *line; line = nl + 1) {
            nl = strchr(line, '\n');
            *nl = '\0';
            char coll[64] = "";
            long nnodes = 0, nranks = 0;
            const char *f = line;
            for (int k = 0; k < 6 && f; k++)
                f = (f = strchr(f, ',')) ? f + 1 : NULL;
            if (f == NULL || sscanf(f, "%ld ,%ld", &nnodes, &nranks) != 2 ||
                sscanf(line, " %63[^, ]", coll) != 1) {
                fprintf(stderr, "colltune merge: %s: not a rule: %s\n", path, line);
                rc = CT_EXIT_USAGE;
                break;
            }
            if (nnodes < 1 || nranks < 1) {
                fprintf(stderr,
                        "colltune merge: %s: a rule for any shape (nNodes,nRanks %ld,%ld) "
                        "would hold at every shape merged: %s\n",
                        path, nnodes, nranks, line);
                rc = CT_EXIT_USAGE;
                break;
            }
            if (nnodes > CT_MAX_RANKS || nranks > CT_MAX_RANKS) {
                fprintf(stderr, "colltune merge: %s: nNodes,nRanks %ld,%ld: at most %ld each: %s\n",
                        path, nnodes, nranks, CT_MAX_RANKS, line);
                rc = CT_EXIT_USAGE;
                break;
            }
            size_t k = 0;
            while (k < ng && !(g[k].tune == t && g[k].nnodes == nnodes && g[k].nranks == nranks &&
                               strcmp(g[k].coll, coll) == 0))
                k++;
            if (k == ng) {
                ct_merge_group_t *ng_p = realloc(g, (ng + 1) * sizeof(*g));
                if (ng_p == NULL) {
                    rc = CT_EXIT_FAILURE;
                    break;
                }
                g = ng_p;
                g[ng] = (ct_merge_group_t){"", nnodes, nranks, t, calloc(1, 1)};
                snprintf(g[ng].coll, sizeof g[ng].coll, "%s", coll);
                ng++;
            }
            size_t old = g[k].lines ? strlen(g[k].lines) : 0, n = strlen(line);
            char *nlines = g[k].lines ? realloc(g[k].lines, old + n + 2) : NULL;
            if (nlines == NULL) {
                rc = CT_EXIT_FAILURE;
                break;
            }
            memcpy(nlines + old, line, n);
            memcpy(nlines + old + n, "\n", 2);
            g[k].lines = nlines;
        }
        free(body);
    }
    /* Compared across tunes; each shape's rules written once, in order. */
    size_t len = 0;
    char *all = calloc(1, 1);
    if (all == NULL && rc == CT_EXIT_OK)
        rc = CT_EXIT_FAILURE;
    for (size_t k = 0; k < ng && rc == CT_EXIT_OK; k++) {
        int seen = 0;
        for (size_t e = 0; e < k && rc == CT_EXIT_OK; e++) {
            if (g[e].nnodes != g[k].nnodes || g[e].nranks != g[k].nranks ||
                strcmp(g[e].coll, g[k].coll) != 0 || g[e].tune == g[k].tune)
                continue;
            seen = 1;
            if (strcmp(g[e].lines, g[k].lines) != 0) {
                fprintf(stderr,
                        "colltune merge: %s and %s both have %s rules at %ld nodes x %ld "
                        "ranks, and they differ: merge one of them\n",
                        m->tunes[g[e].tune].dir, m->tunes[g[k].tune].dir, g[k].coll, g[k].nnodes,
                        g[k].nranks);
                rc = CT_EXIT_USAGE;
            }
        }
        if (seen || rc != CT_EXIT_OK)
            continue;
        size_t n = strlen(g[k].lines);
        char *na = realloc(all, len + n + 1);
        if (na == NULL) {
            rc = CT_EXIT_FAILURE;
            break;
        }
        all = na;
        memcpy(all + len, g[k].lines, n + 1);
        len += n;
    }
    for (size_t k = 0; k < ng; k++)
        free(g[k].lines);
    free(g);
    if (rc != CT_EXIT_OK || len == 0) {
        free(all);
        all = NULL;
    }
    if (rc == CT_EXIT_FAILURE)
        fprintf(stderr, "colltune merge: out of memory\n");
    *body_p = all;
    return rc;
}

/* Why merge cannot join a file of install's table, or NULL when it can:
 * a tune holding such a file is refused, so that no merge installs
 * without a file whose choices its report.json says were written. */
static const char *ct_merge_cannot_join(const char *name)
{
    for (int k = 0; k < CT_MF_N; k++)
        if (strcmp(name, ct_merge_names[k]) == 0)
            return NULL;
    if (strcmp(name, "mpich-coll-selection.json") == 0)
        return "MPICH's selection tree: merge does not join two trees";
    return "merge does not know how to join it";
}

/* A tune's shape member of report.json: an integer from 1 to CT_MAX_RANKS
 * (as --np), so the comm sizes merge writes (N + 1) cannot overflow.  def
 * when it is absent or below 1 (def 0: required). */
static int ct_merge_shape(const char *path, const json_t *report, const char *key, long def,
                          long *v)
{
    const json_t *j = json_object_get(report, key);
    json_int_t x = json_is_integer(j) ? json_integer_value(j) : 0;
    if (x > CT_MAX_RANKS) {
        fprintf(stderr, "colltune merge: %s: \"%s\" %lld: at most %ld\n", path, key, (long long)x,
                CT_MAX_RANKS);
        return CT_EXIT_USAGE;
    }
    if (x < 1 && def == 0) {
        fprintf(stderr,
                "colltune merge: %s has no \"%s\" from 1 to %ld: the tune's shape is unknown\n",
                path, key, CT_MAX_RANKS);
        return CT_EXIT_USAGE;
    }
    *v = x < 1 ? def : (long)x;
    return CT_EXIT_OK;
}

/* One tune: verified (install's checks), its shape from report.json,
 * every file it holds one merge joins. */
static int ct_merge_load_tune(ct_merge_t *m, const char *arg)
{
    ct_merge_tune_t *tu = &m->tunes[m->ntunes];
    if (realpath(arg, tu->dir) == NULL) {
        fprintf(stderr, "colltune merge: TUNE_DIR %s: %s\n", arg, strerror(errno));
        return CT_EXIT_USAGE;
    }
    for (int t = 0; t < m->ntunes; t++)
        if (strcmp(m->tunes[t].dir, tu->dir) == 0) {
            fprintf(stderr, "colltune merge: %s given twice\n", tu->dir);
            return CT_EXIT_USAGE;
        }
    /* The report as install's check read it (bounded: a FIFO or a huge
     * file refused, not waited on). */
    json_t *report = NULL;
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/report.json", tu->dir);
    int rc = ct_install_check_report("merge", tu->dir, &report);
    if (rc == CT_EXIT_OK)
        rc = ct_merge_shape(path, report, "nranks", 0, &tu->nranks);
    if (rc == CT_EXIT_OK)
        rc = ct_merge_shape(path, report, "nnodes", 1, &tu->nnodes);
    for (const ct_install_file_t *f = ct_install_files(); f->name && rc == CT_EXIT_OK; f++) {
        struct stat sb;
        const char *why = ct_merge_cannot_join(f->name);
        snprintf(path, sizeof path, "%s/%s", tu->dir, f->name);
        if (why != NULL && lstat(path, &sb) == 0) {
            fprintf(stderr,
                    "colltune merge: %s: %s; its choices would be lost: merge tunes without "
                    "it, or install this tune on its own\n",
                    path, why);
            rc = CT_EXIT_USAGE;
        }
    }
    if (rc != CT_EXIT_OK) {
        json_decref(report);
        return rc;
    }
    tu->report = report;
    const char *id = json_string_value(json_object_get(report, "run_id"));
    snprintf(tu->run_id, sizeof tu->run_id, "%s", id ? id : "(unknown)");
    for (char *p = tu->run_id; *p; p++)
        *p = (char)ct_printable_byte((unsigned char)*p);
    snprintf(path, sizeof path, "%s/%s", tu->dir, CT_MERGE_RULES_JSON);
    tu->has_rules_json = access(path, F_OK) == 0;
    m->ntunes++;
    return CT_EXIT_OK;
}

/* report.json for OUT: verified, the sources and their choices. */
static json_t *ct_merge_report(const ct_merge_t *m)
{
    json_t *doc = json_object(), *from = json_array(), *choices = json_array();
    int bad = doc == NULL || from == NULL || choices == NULL;
    for (int t = 0; t < m->ntunes && !bad; t++) {
        const ct_merge_tune_t *tu = &m->tunes[t];
        bad |=
            json_array_append_new(from, json_pack("{s:s, s:s, s:I, s:I}", "dir", tu->dir, "run_id",
                                                  tu->run_id, "nranks", (json_int_t)tu->nranks,
                                                  "nnodes", (json_int_t)tu->nnodes)) != 0;
        size_t i;
        json_t *c;
        json_array_foreach(json_object_get(tu->report, "choices"), i, c)
        {
            json_t *copy = json_deep_copy(c);
            bad |= copy == NULL ||
                   json_object_set_new(copy, "nranks", json_integer(tu->nranks)) != 0 ||
                   json_object_set_new(copy, "nodes", json_integer(tu->nnodes)) != 0 ||
                   json_object_set_new(copy, "from", json_string(tu->dir)) != 0 ||
                   json_array_append_new(choices, copy) != 0;
        }
    }
    bad |= json_object_set_new(doc, "generator", json_string("colltune merge")) != 0;
    bad |= json_object_set_new(doc, "verified", json_true()) != 0;
    bad |= json_object_set_new(doc, "merged_from", from) != 0;
    bad |= json_object_set_new(doc, "choices", choices) != 0;
    if (bad) {
        json_decref(doc);
        return NULL;
    }
    return doc;
}

enum { CT_MERGE_OUT = 1, CT_MERGE_FORCE };

static const ct_cli_opt_t ct_merge_opts[] = {
    {CT_MERGE_OUT, "out", "DIR",
     "where the merged files go (created if missing; outside any tune)"},
    {CT_MERGE_FORCE, "force", NULL, "replace files of the same names already in DIR"},
};
#define CT_MERGE_NOPTS (sizeof ct_merge_opts / sizeof ct_merge_opts[0])

static void ct_merge_usage(FILE *f)
{
    fprintf(f, "usage: colltune merge --out DIR [--force] TUNE_DIR TUNE_DIR...\n\n"
               "Joins tunes made at different shapes (comm sizes, nodes x ranks) into one\n"
               "set of files in DIR, each choice held at the shape it was measured at:\n"
               "coll-tuned-rules.conf (and .json) with one comm size section per tune,\n"
               "Open MPI's own decision at the sizes between; nccl_tuner.conf with every\n"
               "tune's rules at its nNodes,nRanks; mca-params.conf naming DIR's rules.\n"
               "Files no shape keys (nccl.env, nccl.conf, ucx.conf, mpich.env,\n"
               "intel-mpi.env, mca-params.conf's other settings) are kept once where\n"
               "every tune agrees and refused where they differ, as are two tunes with\n"
               "different rules for one collective at one shape, and a tune holding\n"
               "mpich-coll-selection.json (not joined).  Only verified tunes are taken\n"
               "(as colltune install demands).  DIR may not lie in a tune's directory,\n"
               "nor hold a file a tune writes that this merge does not (--force or not).\n"
               "Written all or none; install DIR with `colltune install DIR --to ...`.\n\n"
               "options:\n");
    ct_cli_print_options(f, ct_merge_opts, CT_MERGE_NOPTS);
    fprintf(f, "\nexit codes: 0 merged, 2 bad input or a conflict (nothing written), 3 a\n"
               "write failed.\n");
}

static int ct_merge_parse(int argc, char **argv, ct_merge_t *m, const char **out, int *force,
                          const char **dirs, int *ndirs)
{
    ct_cli_iter_t it = CT_CLI_ITER("merge", argc, argv);
    const char *value;
    int id;
    for (;;) {
        while (it.next < argc && argv[it.next][0] != '-') {
            if (*ndirs >= CT_MERGE_MAX_TUNES) {
                fprintf(stderr, "colltune merge: at most %d tunes\n", CT_MERGE_MAX_TUNES);
                return CT_EXIT_USAGE;
            }
            dirs[(*ndirs)++] = argv[it.next++];
        }
        if ((id = ct_cli_next(&it, ct_merge_opts, CT_MERGE_NOPTS, &value)) <= 0)
            break;
        if (id == CT_MERGE_OUT)
            *out = value;
        else
            *force = 1;
    }
    (void)m;
    int rc = ct_cli_finish(id, ct_merge_usage);
    if (rc != CT_EXIT_OK)
        return rc;
    if (it.next < argc) {
        fprintf(stderr, "colltune merge: unexpected argument %s\n", argv[it.next]);
        return CT_EXIT_USAGE;
    }
    if (*out == NULL || *ndirs < 2) {
        fprintf(stderr, "colltune merge: %s (colltune merge --out DIR TUNE_DIR TUNE_DIR...)\n",
                *out == NULL ? "--out DIR missing" : "two TUNE_DIRs at least");
        return CT_EXIT_USAGE;
    }
    return CT_EXIT_OK;
}

/* Whether dir is a tune's own directory: it holds a journal, or a
 * report.json with choices that colltune merge did not write.  One that
 * cannot be read is not taken for one (merge writes no report.json there
 * unless --out names that very directory, checked by the same reader). */
static int ct_merge_is_tune_dir(const char *dir)
{
    char path[PATH_MAX + 32], err[PATH_MAX + 256];
    struct stat sb;
    json_t *doc = NULL;
    snprintf(path, sizeof path, "%s/journal.jsonl", dir);
    if (lstat(path, &sb) == 0)
        return 1;
    snprintf(path, sizeof path, "%s/report.json", dir);
    if (lstat(path, &sb) != 0 ||
        ct_input_json(path, CT_INPUT_MAX_CONFIG, &doc, err, sizeof err) != CT_OK)
        return 0;
    const char *gen = json_string_value(json_object_get(doc, "generator"));
    int tune = json_object_get(doc, "choices") != NULL &&
               (gen == NULL || strcmp(gen, "colltune merge") != 0);
    json_decref(doc);
    return tune;
}

/* OUT (m->out, made): not a TUNE_DIR nor inside any tune's directory (its
 * verify/ holds the A/B's candidates; a tune's files are never written
 * over), no comma or newline, and no file of install's table that this
 * merge does not write: install would take it with the merged ones (a
 * previous merge's mpich.env, say).  Refused even with --force, rather
 * than removed: the file may be a person's, and nothing is destroyed. */
static int ct_merge_check_out(const ct_merge_t *m, const char *out_arg, const int *want)
{
    char dir[PATH_MAX];
    for (int t = 0; t < m->ntunes; t++)
        if (strcmp(m->out, m->tunes[t].dir) == 0) {
            fprintf(stderr, "colltune merge: --out %s is TUNE_DIR %s itself\n", out_arg,
                    m->tunes[t].dir);
            return CT_EXIT_USAGE;
        }
    snprintf(dir, sizeof dir, "%s", m->out);
    for (char *slash;; *slash = '\0') {
        if (ct_merge_is_tune_dir(dir)) {
            fprintf(stderr,
                    "colltune merge: --out %s is %s tune's directory %s: a tune's files (and "
                    "the A/B's candidates in its verify/) are never written over\n",
                    out_arg, strcmp(dir, m->out) == 0 ? "a" : "inside a", dir);
            return CT_EXIT_USAGE;
        }
        if ((slash = strrchr(dir, '/')) == NULL || slash == dir)
            break;
    }
    /* mca_base_param_files is a comma-separated list (as install). */
    if (strpbrk(m->out, ",\n\r") != NULL) {
        fprintf(stderr,
                "colltune merge: --out %s: a comma or newline in %s cannot be named in "
                "Open MPI's comma-separated mca_base_param_files\n",
                out_arg, m->out);
        return CT_EXIT_USAGE;
    }
    for (const ct_install_file_t *f = ct_install_files(); f->name; f++) {
        struct stat sb;
        char path[PATH_MAX + 64];
        int k = 0;
        while (k < CT_MF_N && strcmp(ct_merge_names[k], f->name) != 0)
            k++;
        snprintf(path, sizeof path, "%s/%s", m->out, f->name);
        if ((k == CT_MF_N || !want[k]) && lstat(path, &sb) == 0) {
            fprintf(stderr,
                    "colltune merge: %s is not one of the files this merge writes, and "
                    "colltune install would take it with them: remove it (--force does not), "
                    "or give another --out\n",
                    path);
            return CT_EXIT_USAGE;
        }
    }
    return CT_EXIT_OK;
}

/* mca-params.conf's settings but the rules pointer: the same in every
 * tune, or refused.  *globals_p NULL when no tune has the file. */
static int ct_merge_mca(const ct_merge_t *m, char **globals_p, int *dynamic)
{
    int rc = CT_EXIT_OK, any = 0;
    char *first = NULL;
    for (int t = 0; t < m->ntunes && rc == CT_EXIT_OK; t++) {
        char path[PATH_MAX + 32], *body;
        int present;
        snprintf(path, sizeof path, "%s/%s", m->tunes[t].dir, CT_MERGE_MCA);
        rc = ct_merge_body(path, &body, &present);
        if (rc != CT_EXIT_OK)
            break;
        char *g = ct_merge_mca_globals(body, dynamic);
        free(body);
        any |= present;
        if (g == NULL) {
            fprintf(stderr, "colltune merge: out of memory\n");
            rc = CT_EXIT_FAILURE;
        } else if (first == NULL) {
            first = g;
        } else {
            if (strcmp(first, g) != 0) {
                fprintf(stderr,
                        "colltune merge: %s's settings (other than the rules file) differ "
                        "between %s and %s, and cannot be keyed by shape: merge tunes that "
                        "agree on them\n",
                        CT_MERGE_MCA, m->tunes[0].dir, m->tunes[t].dir);
                rc = CT_EXIT_USAGE;
            }
            free(g);
        }
    }
    if (rc != CT_EXIT_OK || !any) {
        free(first);
        first = NULL;
    }
    *globals_p = first;
    return rc;
}

static void ct_merge_write_mca(const ct_merge_t *m, FILE *f, const char *globals, int have_rules,
                               int dynamic)
{
    ct_merge_header(m, f, CT_MERGE_MCA,
                    "Its settings (the rules file aside) are the same in every tune: "
                    "not keyed by\n# shape, install it only for jobs of those shapes; "
                    "the rules file it names is keyed.");
    fputs(globals ? globals : "", f);
    if (have_rules || dynamic)
        fputs("coll_tuned_use_dynamic_rules = 1\n", f);
    if (have_rules)
        fprintf(f, "%s = %s/%s\n", CT_INSTALL_RULES_PARAM, m->out, CT_MERGE_RULES);
}

/* File k of ct_merge_names into f; 0, or -1 when it could not be made. */
static int ct_merge_write_one(const ct_merge_t *m, int k, FILE *f, char *const *bodies,
                              const char *globals, int have_rules, int dynamic)
{
    int bad = 0;
    if (k == CT_MF_RULES) {
        ct_merge_write_rules(m, f);
    } else if (k == CT_MF_RULES_JSON) {
        bad = ct_merge_write_rules_json(m, f);
    } else if (k == CT_MF_MCA) {
        ct_merge_write_mca(m, f, globals, have_rules, dynamic);
    } else if (k == CT_MF_REPORT) {
        json_t *doc = ct_merge_report(m);
        bad = doc == NULL || json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0;
        fputc('\n', f);
        json_decref(doc);
    } else {
        ct_merge_header(m, f, ct_merge_names[k],
                        k == CT_MF_TUNER
                            ? "Keyed by shape: each rule holds at its own nNodes,nRanks."
                            : "Measured at the shapes above, the same in each: not keyed by "
                              "shape, install it\n# only for jobs of those shapes.");
        fputs(bodies[k], f);
    }
    return bad ? -1 : 0;
}

/* Every file, each to a temporary beside it, then all renamed. */
static int ct_merge_write(const ct_merge_t *m, int force, const int *want, char *const *bodies,
                          const char *globals, int have_rules, int dynamic)
{
    int rc = CT_EXIT_OK;
    char err[PATH_MAX + 600];
    ct_outfile_t outf[CT_MF_N];
    char dst[CT_MF_N][PATH_MAX + 64];
    const char *tmps[CT_MF_N], *dsts[CT_MF_N];
    size_t made = 0;
    for (int k = 0; k < CT_MF_N && rc == CT_EXIT_OK; k++) {
        struct stat sb;
        if (!want[k])
            continue;
        snprintf(dst[made], sizeof dst[made], "%s/%s", m->out, ct_merge_names[k]);
        if (lstat(dst[made], &sb) == 0 && !force) {
            fprintf(stderr, "colltune merge: %s exists (give --force to replace it)\n", dst[made]);
            rc = CT_EXIT_USAGE;
            break;
        }
        if (ct_outfile_open(&outf[made], dst[made], 0644, err, sizeof err) != CT_OK) {
            fprintf(stderr, "colltune merge: %s\n", err);
            rc = CT_EXIT_FAILURE;
            break;
        }
        int bad = ct_merge_write_one(m, k, outf[made].fp, bodies, globals, have_rules, dynamic);
        if (bad || ct_outfile_finish(&outf[made], err, sizeof err) != CT_OK) {
            fprintf(stderr, "colltune merge: cannot write %s\n", dst[made]);
            if (bad)
                (void)ct_outfile_finish(&outf[made], err, sizeof err);
            (void)unlink(outf[made].tmp);
            rc = CT_EXIT_FAILURE;
            break;
        }
        tmps[made] = outf[made].tmp;
        dsts[made] = dst[made];
        made++;
    }
    if (rc == CT_EXIT_OK && ct_outfile_rename_all(made, tmps, dsts, err, sizeof err) != CT_OK) {
        fprintf(stderr, "colltune merge: %s\n", err);
        rc = CT_EXIT_FAILURE;
    }
    if (rc != CT_EXIT_OK)
        for (size_t k = 0; k < made; k++)
            (void)unlink(outf[k].tmp);
    if (rc == CT_EXIT_OK) {
        printf("colltune merge: %d tunes into %s:", m->ntunes, m->out);
        for (size_t k = 0; k < made; k++)
            printf(" %s", strrchr(dsts[k], '/') + 1);
        putchar('\n');
    }
    return rc;
}

static int ct_merge_run(ct_merge_t *m, const char *out_arg, int force, const char **dirs, int ndirs)
{
    int rc = CT_EXIT_OK;
    for (int i = 0; i < ndirs && rc == CT_EXIT_OK; i++)
        rc = ct_merge_load_tune(m, dirs[i]);
    for (int t = 0; t < m->ntunes && rc == CT_EXIT_OK; t++) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/%s", m->tunes[t].dir, CT_MERGE_RULES);
        rc = ct_merge_read_rules(m, t, path);
    }
    /* The files no shape keys, each kept once; nccl_tuner.conf's rules. */
    char *bodies[CT_MF_N] = {NULL}, *globals = NULL;
    static const int unkeyed[] = {CT_MF_UCX, CT_MF_NCCL_CONF, CT_MF_NCCL_ENV, CT_MF_MPICH_ENV,
                                  CT_MF_INTEL_ENV};
    for (size_t i = 0; i < sizeof unkeyed / sizeof unkeyed[0] && rc == CT_EXIT_OK; i++)
        rc = ct_merge_unkeyed(m, ct_merge_names[unkeyed[i]], &bodies[unkeyed[i]]);
    if (rc == CT_EXIT_OK)
        rc = ct_merge_tuner(m, &bodies[CT_MF_TUNER]);
    int dynamic = 0;
    if (rc == CT_EXIT_OK)
        rc = ct_merge_mca(m, &globals, &dynamic);
    for (long id = 0; id < CT_MERGE_COLLS; id++)
        if (m->nsecs[id] > 1)
            ct_vec_sort(m->secs[id], m->nsecs[id], sizeof(ct_merge_sec_t), ct_merge_by_comm);
    int have_rules = 0, rules_json = 0;
    for (long id = 0; id < CT_MERGE_COLLS; id++)
        have_rules |= m->nsecs[id] > 0;
    for (int t = 0; t < m->ntunes; t++)
        rules_json |= m->tunes[t].has_rules_json;
    int want[CT_MF_N];
    for (int k = 0; k < CT_MF_N; k++)
        want[k] = bodies[k] != NULL;
    want[CT_MF_RULES] = have_rules;
    want[CT_MF_RULES_JSON] = have_rules && rules_json;
    want[CT_MF_MCA] = have_rules || (globals && (*globals || dynamic));
    want[CT_MF_REPORT] = 1;

    /* OUT is made only now that the tunes are known to merge, and removed
     * again (when merge made it) if it is refused. */
    char err[PATH_MAX + 600];
    struct stat sb;
    int made_out = rc == CT_EXIT_OK && lstat(out_arg, &sb) != 0;
    if (rc == CT_EXIT_OK && ct_outdir_prepare(out_arg, err, sizeof err) != CT_OK) {
        fprintf(stderr, "colltune merge: --out %s: %s\n", out_arg, err);
        rc = CT_EXIT_USAGE;
        made_out = 0;
    }
    if (rc == CT_EXIT_OK && realpath(out_arg, m->out) == NULL) {
        fprintf(stderr, "colltune merge: --out %s: %s\n", out_arg, strerror(errno));
        rc = CT_EXIT_USAGE;
    }
    if (rc == CT_EXIT_OK)
        rc = ct_merge_check_out(m, out_arg, want);
    if (rc == CT_EXIT_OK)
        rc = ct_merge_write(m, force, want, bodies, globals, have_rules, dynamic);
    if (rc != CT_EXIT_OK && made_out)
        (void)rmdir(out_arg);
    for (int k = 0; k < CT_MF_N; k++)
        free(bodies[k]);
    free(globals);
    return rc;
}

static int ct_merge_main(int argc, char **argv)
{
    const char *out = NULL, *dirs[CT_MERGE_MAX_TUNES];
    int force = 0, ndirs = 0;
    ct_merge_t *m = calloc(1, sizeof(*m));
    if (m == NULL)
        return CT_EXIT_FAILURE;
    int rc = ct_merge_parse(argc, argv, m, &out, &force, dirs, &ndirs);
    if (rc == CT_EXIT_OK)
        rc = ct_merge_run(m, out, force, dirs, ndirs);
    else if (rc < 0)
        rc = CT_EXIT_OK;
    for (long id = 0; id < CT_MERGE_COLLS; id++) {
        for (size_t i = 0; i < m->nsecs[id]; i++)
            free(m->secs[id][i].rules);
        free(m->secs[id]);
    }
    for (int t = 0; t < m->ntunes; t++)
        json_decref(m->tunes[t].report);
    free(m);
    return rc;
}

const ct_command_t ct_command_merge = {
    .name = "merge",
    .summary = "join tunes made at different shapes into one set of files",
    .run = ct_merge_main,
    .usage = ct_merge_usage,
};
