/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit_format.h - what the emitters share (internal to tuner/emit*.c).
 *
 * An emitter is one file format: a name (its row's in the library
 * table, ct_library_files.c, which says how its library reads it and
 * what it is keyed by), a test of whether the result has anything for
 * it, a writer, which choices its file carries, and the install text its
 * header prints.  emit.c holds the table and does the atomic writing;
 * emit_carry.c asks the table which file carries a choice; each
 * emit_<format>.c writes one format to a FILE.  The helpers below them
 * (emit_choice.c, emit_shape*.c, emit_nccl_list.c, emit_common.c) name
 * no format: the graph runs one way, table -> formats -> helpers.
 */
#ifndef CT_EMIT_FORMAT_H
#define CT_EMIT_FORMAT_H

#include <stdio.h>

#include "ct_library.h"
#include "ct_names.h"
#include "ct_status.h"
#include "ct_nccl_list.h"
#include "emit.h"
#include "file_values.h"
#include "tune_result.h"

typedef struct {
    const ct_tune_result_t *r;
    const char *writer; /* "colltune 0.1.0 (git abc1234)" */
    const char *dir;    /* the output directory, absolute */
} ct_emit_ctx_t;

/* What a format's carries hook answers for one choice. */
typedef enum {
    CT_EMIT_NOT_MINE = 0, /* not this file's: another format's, or no file's */
    CT_EMIT_CARRIES,      /* the file holds c over c's size range, at c's shape */
    CT_EMIT_REFUSES,      /* c is this file's kind, and no form of it holds c */
    /* The file holds c at every size, whatever its range: a switch that
     * alone changes no decision (coll_tuned_use_dynamic_rules, which the
     * rules beside it need), so shapes that chose it over other ranges
     * agree, and one that did not choose it loses nothing by it. */
    CT_EMIT_CARRIES_ANY_SIZE
} ct_emit_carry_t;

/* emit_carry.c: whether a format carries c at every size whatever its
 * range (CT_EMIT_CARRIES_ANY_SIZE). */
int ct_emit_carried_any_size(const ct_tune_result_t *r, const ct_tune_choice_t *c);

typedef struct {
    const char *name; /* the file's name in the output directory */
    int (*wanted)(const ct_tune_result_t *r);
    ct_status_t (*write)(const ct_emit_ctx_t *ctx, FILE *fp, char *err, size_t errlen);
    /* How a person installs it: its header's install lines
     * (ct_emit_header); NULL for a format that carries no comments. */
    const char *const *install;
    /* Whether this format is where c would go and the site's settings
     * outrank it there with no form of the library's that wins (site.h):
     * the reason, naming the setting and its source, into buf; NULL when
     * it is not c's file or when it writes a form that wins.  NULL hook:
     * nothing the site sets can outrank the file (it is sourced last). */
    const char *(*outranked)(const ct_tune_result_t *r, const ct_tune_choice_t *c, char *buf,
                             size_t len);
    /* How the A/B makes the library read it for this result, when that
     * depends on the result (nccl.env is sourced only when the site
     * outranks nccl.conf); NULL, or a NULL hook: its row's load. */
    const ct_emit_load_t *(*load_for)(const ct_tune_result_t *r);
    /* Whether this file carries c, a choice over its size range (any
     * shape: its row's keyed says which shapes the file tells apart); on
     * CT_EMIT_REFUSES *why_p is the static reason.  ct_emit_cannot_carry
     * asks every format (emit_carry.c).  NULL hook: the file carries
     * nothing of its own (intel-mpi.env translates what MPICH's carry). */
    ct_emit_carry_t (*carries)(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                               const char **why_p);
} ct_emit_format_t;

/* emit.c: the i-th format of the table (write order), NULL past the last. */
const ct_emit_format_t *ct_emit_format_at(size_t i);

/* The formats (emit_<format>.c). */
extern const ct_emit_format_t ct_emit_nccl_env;
extern const ct_emit_format_t ct_emit_nccl_conf;
extern const ct_emit_format_t ct_emit_nccl_tuner;
extern const ct_emit_format_t ct_emit_ucx_conf;
extern const ct_emit_format_t ct_emit_mca_params;
extern const ct_emit_format_t ct_emit_tuned_rules;
extern const ct_emit_format_t ct_emit_tuned_rules_json;
extern const ct_emit_format_t ct_emit_mpich_env;
extern const ct_emit_format_t ct_emit_intel_mpi_env;
extern const ct_emit_format_t ct_emit_mpich_csel;
extern const ct_emit_format_t ct_emit_mvapich_env;
extern const ct_emit_format_t ct_emit_oneccl_env;

/* File names the formats refer to one another by. */
#define CT_EMIT_TUNED_RULES_NAME "coll-tuned-rules.conf"
#define CT_EMIT_TUNED_RULES_JSON_NAME "coll-tuned-rules.json"
#define CT_EMIT_NCCL_TUNER_NAME "nccl_tuner.conf"
#define CT_EMIT_MPICH_CSEL_NAME "mpich-coll-selection.json"

/* emit_mpich_csel.c: whether that file carries c (an MPIR algorithm CVAR
 * over a size range, with MPICH's own tree known). */
int ct_emit_mpich_csel_carries(const ct_tune_result_t *r, const ct_tune_choice_t *c);
/* The site setting (its algorithm CVAR forced in the environment) that
 * the file overrides for c, a choice it carries: mpich.env then sets that
 * variable to auto, and the file keeps the site's algorithm outside c's
 * sizes; NULL when the site does not outrank it. */
const ct_site_setting_t *ct_emit_mpich_csel_overrides(const ct_tune_result_t *r,
                                                      const ct_tune_choice_t *c);
/* Whether c is a setting such a choice needs over its range (ch4's own
 * selection off: MPIR_CVAR_<COLL>_DEVICE_COLLECTIVE, or
 * MPIR_CVAR_DEVICE_COLLECTIVES), which mpich.env then carries for every
 * size: a CVAR cannot hold for some sizes only. */
int ct_emit_mpich_csel_needs(const ct_tune_result_t *r, const ct_tune_choice_t *c);

/* --- emit_tuned_rules.c: the coll/tuned rules both rules formats hold --- */

/* A collective's row in src/lib's table (ct_names.h); its .tuned says
 * how coll/tuned names it. */
typedef ct_coll_name_t ct_emit_tuned_coll_t;

/* One rule: from msgsize (total bytes) up to the next rule's. */
typedef struct {
    long long msgsize;
    long alg, fan, seg; /* alg 0: Open MPI's own decision */
} ct_emit_rule_t;

/* The index-th collective coll/tuned can steer, in Open MPI's
 * collective-id order (the rules files'); NULL past the last. */
const ct_emit_tuned_coll_t *ct_emit_tuned_coll_at(size_t index);
/* Whether r chose an algorithm of t's. */
int ct_emit_tuned_has_alg(const ct_tune_result_t *r, const ct_emit_tuned_coll_t *t);
/* t's rules in size order, tiling every size from 0 (malloc'ed). */
ct_status_t ct_emit_tuned_coll_rules(const ct_tune_result_t *r, const ct_emit_tuned_coll_t *t,
                                     ct_emit_rule_t **rules_p, size_t *n_p, char *err,
                                     size_t errlen);
/* r at each rank count its choices were measured at (ct_emit_ranks_view),
 * ascending, malloc'ed: both rules files write an entry per rank count.
 * CT_ERR_USAGE, with ct_emit_shape_conflict's reason, when two shapes of
 * one rank count chose otherwise for a choice the rules carry. */
ct_status_t ct_emit_tuned_views(const ct_tune_result_t *r, ct_tune_result_t **views_p, size_t *n_p,
                                char *err, size_t errlen);
void ct_emit_tuned_views_free(ct_tune_result_t *views, size_t n);

/* --- emit_shape.c: a file keyed by rank count (coll/tuned's rules, MPICH's
 * selection tree, Intel MPI's @p-q) writes one block per rank count --- */

/* r seen at one rank count: as ct_emit_shape_view, with the choices of
 * every shape of nranks ranks (nnodes: the first one's), a setting equal
 * to an earlier one's (name, value, scope, sizes) once, the usable one
 * kept.  Settings that differ there are ct_emit_shape_conflict's. */
ct_status_t ct_emit_ranks_view(const ct_tune_result_t *r, long nranks, ct_tune_result_t *view);
/* The distinct rank counts of ct_emit_shapes, ascending, malloc'ed. */
ct_status_t ct_emit_rank_counts(const ct_tune_result_t *r, long **counts_p, size_t *n_p);
/* "2x4" (nodes x ranks per node), or "6 ranks on 4 nodes". */
void ct_emit_shape_name(ct_emit_shape_t s, char *buf, size_t len);

/* Whether c repeats a usable choice before it in r (c points into
 * r->choices) measured at another shape: the same variable, scope, sizes
 * and value.  A file keyed by nothing writes it once. */
int ct_emit_shape_repeat(const ct_tune_result_t *r, const ct_tune_choice_t *c);
/* Whether r's usable choices come from more than one job shape (the
 * headers, and the blocks that then name their shape, say so). */
int ct_emit_multi_shape(const ct_tune_result_t *r);

/* --- emit_choice.c: a choice as every file sees it (ct_emit_usable: emit.h) --- */

/* Covers every size: neither bound set (-1), or from 0 with no top. */
int ct_emit_full_range(const ct_tune_choice_t *c);
/* A name NAME=value formats can carry: [A-Za-z_][A-Za-z0-9_]*. */
ct_status_t ct_emit_check_name(const ct_tune_choice_t *c, const char *file, char *err,
                               size_t errlen);

/* --- emit_shape_conflict.c: the one check of a value across job shapes --- */

/* ct_emit_shape_conflict (emit.h) where the file that carries c keys it
 * as key (ct_library.h's keyed; PROCS as COMM_SIZE): by nothing, another
 * shape's other value of c's variable and scope (and, for c over a range,
 * its other range: oneccl.env holds the ranges in the value); by rank
 * count, one of as many ranks over overlapping sizes; by nodes and ranks,
 * none.  emit_carry.c asks with the key of c's files. */
const char *ct_emit_shape_conflict_keyed(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                                         ct_file_key_t key, char *buf, size_t len);
/* As ct_emit_shape_conflict_keyed, keyed as the row of file says: what
 * file's writer refuses in a result not marked (ct_emit_cannot_carry). */
const char *ct_emit_shape_conflict_in(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                                      const char *file, char *buf, size_t len);

/* --- emit_common.c --- */

/*
 * The comment header every file opens with: what it is, what wrote it,
 * from which run, and how to install it (install: lines, NULL-ended, each
 * written as "#   line" with "@DIR@" replaced by the output directory).
 * Text from the result is written with control characters as '?', so no
 * run id or path can end the comment.
 */
void ct_emit_header(const ct_emit_ctx_t *ctx, FILE *fp, const char *file, const char *what,
                    const char *const *install);
/* fputs with "@DIR@" replaced by ctx->dir. */
void ct_emit_put_dir(const ct_emit_ctx_t *ctx, FILE *fp, const char *text);

/* A value file can carry, by its row's rule (ct_emit_file_value_ok,
 * file_values.h); the error names the file, the variable, the reason and
 * hint (what to do). */
ct_status_t ct_emit_check_value(const char *file, const char *name, const char *value,
                                const char *hint, char *err, size_t errlen);

/* --- emit_nccl_list.c: what NCCL's lists let a file carry (a leaf) --- */

/* Whether c is NCCL_ALGO / NCCL_PROTO (set from the environment); sets
 * *kind_p. */
int ct_emit_nccl_list_kind(const ct_tune_choice_t *c, ct_nccl_list_kind_t *kind_p);

/* Whether c is an NCCL_ALGO / NCCL_PROTO choice for one collective over a
 * size range: a tuner-plugin rule (nccl_tuner.conf), not nccl.env. */
int ct_emit_nccl_is_rule(const ct_tune_result_t *r, const ct_tune_choice_t *c);

/* A scope's collective name, "?" for none. */
const char *ct_emit_nccl_scope_name(int scope);

/* c's value on its collective (c->scope): *cn_p and the collective's part
 * of the list (elems point into c->value).  CT_ERR_USAGE with the reason
 * for alltoall (NCCL runs it as send/recv), a value NCCL would refuse, or
 * a value with no entry for the collective. */
ct_status_t ct_emit_nccl_project(const ct_tune_choice_t *c, ct_nccl_list_kind_t kind,
                                 const ct_coll_name_t **cn_p, ct_nccl_list_func_t *proj_p,
                                 char *err, size_t errlen);

/* Why no NCCL file can carry c, an NCCL_ALGO / NCCL_PROTO choice, over
 * its size range (NULL when one can, or for any other variable): the
 * reasons emit.h's ct_emit_cannot_carry lists for them.  The carries
 * hooks of nccl.env, nccl.conf and nccl_tuner.conf ask here. */
const char *ct_emit_nccl_cannot_carry(const ct_tune_result_t *r, const ct_tune_choice_t *c);

/* --- emit_nccl_vars.c: what nccl.env and nccl.conf both carry --- */

typedef struct {
    const char *name;
    char *value; /* owned */
} ct_emit_var_t;

typedef struct {
    ct_emit_var_t *vars;
    size_t count, cap;
} ct_emit_vars_t;

/* Whether r has any NCCL variable for nccl.env / nccl.conf. */
int ct_emit_nccl_vars_wanted(const ct_tune_result_t *r);
/* The carries hook of nccl.env and nccl.conf: an NCCL variable over every
 * size, NCCL_ALGO / NCCL_PROTO as ct_emit_nccl_cannot_carry allows (a
 * global one over a range refused), not one collective's over a range
 * (nccl_tuner.conf's). */
ct_emit_carry_t ct_emit_nccl_vars_carries(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                                          const char **why_p);
/*
 * The NCCL variables in file order: the global NCCL_* choices, then
 * NCCL_ALGO and NCCL_PROTO built from the per-collective whole-range
 * choices, each projected onto its collective in NCCL's spelling
 * ("AllReduce:tree;Broadcast:ring", NCCL 2.24's form); a global value of
 * the same variable comes first in it ("ring;AllReduce:tree").  Every
 * NCCL_ALGO / NCCL_PROTO value is checked as NCCL reads it.  CT_ERR_USAGE
 * for a value NCCL would refuse, for a per-collective choice of another
 * variable or with no entry for its collective, for alltoall, and for a
 * variable chosen twice.
 */
ct_status_t ct_emit_nccl_vars(const ct_tune_result_t *r, ct_emit_vars_t *vars_p, char *err,
                              size_t errlen);
void ct_emit_vars_free(ct_emit_vars_t *vars);

/* The header lines nccl.env, nccl.conf and nccl_tuner.conf share: which
 * collectives and sizes each written setting covers, and through which
 * file, then a blank line. */
ct_status_t ct_emit_nccl_coverage(const ct_emit_ctx_t *ctx, FILE *fp);

/* --- emit_nccl_site.c: the NCCL files against a site's NCCL_ALGO / NCCL_PROTO --- */

/* The site's setting of kind's variable (any source), or NULL. */
const ct_site_setting_t *ct_emit_nccl_site_var(const ct_tune_result_t *r, ct_nccl_list_kind_t kind);
/* For coll: the one element of kind the site's list leaves it when that
 * list disables what a usable plugin rule of coll names (nccl.env then
 * re-enables it, *mask_p: the site's set and the rules' elements, and
 * nccl_tuner.conf keeps this element at every other size); -1 when
 * nothing is re-enabled.  mask_p may be NULL. */
int ct_emit_nccl_site_keep(const ct_tune_result_t *r, int coll, ct_nccl_list_kind_t kind,
                           unsigned *mask_p);
/* Whether any collective is re-enabled so (nccl.env is then wanted). */
int ct_emit_nccl_site_reenables(const ct_tune_result_t *r);
/* nccl_tuner.conf's outranked hook: why the site's list disables c's
 * rule with no form that wins (the site's value is refused by NCCL, or
 * leaves the collective several elements), or NULL. */
const char *ct_emit_nccl_site_outranked(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                                        char *buf, size_t len);
/* Whether the site's environment outranks nccl.conf for one of vars
 * (nccl.conf is then not written: nccl.env carries them). */
int ct_emit_nccl_site_outranks_conf(const ct_tune_result_t *r, const ct_emit_vars_t *vars);
/* The header lines naming the site settings the NCCL files override
 * (nothing for a clean site), for vars, the variables nccl.env writes;
 * ct_emit_nccl_coverage writes them. */
void ct_emit_nccl_site_lines(const ct_tune_result_t *r, FILE *fp, const ct_emit_vars_t *vars);
/* nccl.conf: wanted when nccl.env is and the site outranks none of it. */
int ct_emit_nccl_conf_wanted(const ct_tune_result_t *r);

/* --- emit_tuned_rules.c: which MCA choices the rules file carries --- */

/* Whether any coll/tuned algorithm choice holds over a size range only:
 * then every algorithm choice goes to the rules file. */
int ct_emit_tuned_rules_wanted(const ct_tune_result_t *r);
/* Whether c goes to the rules file (an algorithm, its segment size or its
 * chain fan-out) rather than to mca-params.conf. */
int ct_emit_tuned_in_rules(const ct_tune_result_t *r, const ct_tune_choice_t *c);
/* The carries hook of both rules files: a choice that goes there, and a
 * coll/tuned algorithm, segment size or fan-out over a size range. */
ct_emit_carry_t ct_emit_tuned_rules_carries(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                                            const char **why_p);

#endif
