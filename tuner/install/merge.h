/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * merge.h - colltune merge's parts (internal to tuner/install/merge*.c):
 * each tune's report.json read into one result (merge_read.c), the
 * choices joined and checked against what the emitters can carry
 * (merge_join.c), the merged report.json (merge_report.c); merge.c is the
 * command, which hands the result to the emitters.
 */
#ifndef CT_MERGE_H
#define CT_MERGE_H

#include <jansson.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include "site.h"
#include "tune_result.h"

/* At most this many TUNE_DIRs: each choice keeps its tunes as bits. */
#define CT_MERGE_MAX_TUNES 64

typedef struct {
    char dir[PATH_MAX]; /* real path */
    char run_id[128];   /* printable */
    long nranks, nnodes;
    json_t *report;
} ct_merge_tune_t;

/* Where a merged choice came from, beside it in the result. */
typedef struct {
    uint64_t from;      /* bit t: tune t wrote it */
    const json_t *json; /* its record in the first such tune's report */
} ct_merge_src_t;

typedef struct {
    ct_merge_tune_t tunes[CT_MERGE_MAX_TUNES];
    int ntunes;
    /* The result the emitters write: choices malloc'ed, each name and
     * value strdup'ed; site and mpich_tree point below. */
    ct_tune_result_t r;
    ct_merge_src_t *src;
    size_t cap;
    ct_site_t site;                    /* the tunes' one site (report.json "site") */
    int has_site;                      /* a tune's report recorded it */
    char *tree;                        /* MPICH's selection tree, or NULL */
    int tree_failed;                   /* a tune's library could not be read: no tree */
    char tree_why[2 * PATH_MAX + 512]; /* why there is none, for messages */
    char run_id[64], date[32], space[256], space_path[PATH_MAX];
} ct_merge_t;

/* merge_read.c: TUNE_DIR arg as the next tune: verified (install's
 * checks), its shape, no file in it that no row knows, its written
 * choices appended to m->r (each with its shape), its site and MPICH
 * tree the same as the tunes' before.  CT_EXIT_OK, or the exit code after
 * "colltune merge: ..." on stderr. */
int ct_merge_read_tune(ct_merge_t *m, const char *arg);

/* merge_site.c: tune t's recorded site (report.json "site", the same in
 * every tune) into m->site, and the MPICH selection tree of the library
 * it ran ("mpich_lib") into m->tree (the same in every tune that names
 * one; m->tree_why says why there is none).  path: its report.json. */
int ct_merge_read_site(ct_merge_t *m, int t, const char *path);
int ct_merge_read_tree(ct_merge_t *m, int t, const char *path);
/* Whether c's library has a file that is its own tree (a row of syntax
 * CT_FILE_SYNTAX_JSON_TREE): then the tree decides where c goes. */
int ct_merge_tree_lib(const ct_tune_choice_t *c);

/* merge_join.c: the same choice from two tunes kept once; two tunes'
 * choices of one variable at one shape over overlapping sizes refused;
 * a choice no file can carry, a choice for every shape that not every
 * tune made, and a file a tune holds that the merge would not write
 * refused, each naming the tunes and the file.  Fills m->r's metadata. */
int ct_merge_join(ct_merge_t *m);

/* merge_report.c: OUT's report.json (verified, the tunes, the choices
 * with "from" and "written"), for install and a later merge; NULL
 * without memory. */
json_t *ct_merge_report(const ct_merge_t *m);

/* merge_out.c: OUT (out_arg; real, its real path) may take the files
 * named (names, the emitters' for m->r, and report.json): no tune's
 * directory nor inside one, a path they can name, no file of a row that
 * the merge does not write (refused even with --force: install would
 * take it with them), none it writes unless force.  Then the writing:
 * report.json and the emitters' files into real, all or none. */
int ct_merge_check_out(const ct_merge_t *m, const char *out_arg, const char *real, int force,
                       const char *const *names, size_t n);
int ct_merge_write(const ct_merge_t *m, const char *real);

/* "NAME=VALUE (SCOPE, sizes LO..HI, at N ranks on M nodes)" into buf. */
void ct_merge_choice_str(const ct_tune_choice_t *c, char *buf, size_t len);

void ct_merge_free(ct_merge_t *m);

#endif
