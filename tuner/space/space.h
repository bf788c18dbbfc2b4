/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * space.h - a search space: the variables colltune may set, their allowed
 * values, how the launcher sets them, their scope, and the constraints
 * between them.  A space is data (the .ini files in tuner/spaces, INI read through
 * libinih; tuner/spaces/README.md documents the format).
 *
 * Loading validates everything before any trial runs: an unknown section,
 * key or collective, a variable without values, a value the library would
 * reject (NCCL_ALGO tokens, coll/tuned algorithm ids, ...), a bad range or
 * an unsatisfiable constraint is CT_ERR_USAGE with "file:line: field: why"
 * in err.
 *
 * Scope decides the cost of a search: a per-collective variable affects one
 * collective only, so each collective is enumerated on its own (N
 * collectives x K values is N*K configurations, not K^N); the global
 * variables are enumerated together.
 */
#ifndef CT_SPACE_H
#define CT_SPACE_H

#include <stddef.h>
#include <stdint.h>
#include "ct_names.h"
#include "ct_status.h"
#include "setting.h"

/* What a [KIND NAME] section declares. */
typedef enum {
    CT_SPACE_VAR,   /* searched: one of its values per configuration */
    CT_SPACE_FIXED, /* set to one value in every trial, the baseline included */
    CT_SPACE_PASS,  /* passed through from colltune's environment when set */
} ct_space_kind_t;

/* One NAME=VALUE a configuration sets. */
typedef struct {
    char *name;
    char *value;
    ct_via_t via;
} ct_space_setting_t;

/* value is valid only up to max_ranks ranks (two_proc algorithms). */
typedef struct {
    char *value;
    long max_ranks;
    char *why;
} ct_space_limit_t;

typedef struct {
    char *name;
    int line; /* of its [section] header */
    ct_space_kind_t kind;
    ct_via_t via;
    int scope; /* CT_SCOPE_GLOBAL or a ct_coll_id_t */
    char **values;
    size_t nvalues, values_cap;
    char *def;                    /* the library's default when unset; NULL when unknown */
    ct_space_setting_t *requires; /* set along with any value of this variable */
    size_t nrequires;
    ct_space_limit_t *limits;
    size_t nlimits;
    size_t when_var; /* varies only while vars[when_var] has one of when_values */
    char **when_values;
    size_t nwhen;
    char *describe;
    /* apply = runtime: set inside a launch (collbench --config, MPI_T),
     * so one launch measures many of its values; launch: a launch each.
     * Default: runtime for the names ct_space_known_runtime knows. */
    int runtime;
} ct_space_var_t;

typedef enum { CT_CONSTRAINT_PRODUCT, CT_CONSTRAINT_SUM } ct_constraint_op_t;

/* acc op x, saturated at LLONG_MIN/LLONG_MAX instead of overflowing:
 * a product or sum too large for 64 bits still breaks a max= (and a
 * negative one a min=), where wrapped arithmetic let it through. */
long long ct_space_constraint_step(ct_constraint_op_t op, long long acc, long long x);

/* op over the variables' values lies within [min, max]. */
typedef struct {
    char *name;
    int line;
    ct_constraint_op_t op;
    size_t *vars; /* indices into ct_space_t.vars */
    size_t nvars;
    long long min, max;
    int has_min, has_max;
} ct_space_constraint_t;

typedef struct {
    char *path;
    char *name;
    char *describe;
    ct_space_var_t *vars; /* in file order */
    size_t nvars, vars_cap;
    ct_space_constraint_t *constraints;
    size_t nconstraints, constraints_cap;
} ct_space_t;

/* Loads and validates the space file at path.  On error, *space_p is left
 * empty and err holds "path:line: field: reason". */
ct_status_t ct_space_load(const char *path, ct_space_t *space_p, char *err, size_t errlen);
void ct_space_free(ct_space_t *space);

/* Index of the variable named name, or -1. */
long ct_space_find(const ct_space_t *space, const char *name);

/* The scopes with at least one searched variable, as a bit set: bit
 * (scope + 1), so bit 0 is the global scope. */
unsigned ct_space_scopes(const ct_space_t *space);
/* "global" or the collective's name. */
const char *ct_space_scope_name(int scope);

/* One configuration of one scope. */
typedef struct {
    ct_space_setting_t *settings; /* sorted by name; owned */
    size_t n;
    int baseline; /* no searched variable set: the libraries' defaults */
    char key[17]; /* ct_space_config_key of the settings */
    char *skip;   /* why it cannot run (rank limit, constraint); NULL: runnable */
} ct_space_config_t;

#define CT_SPACE_MAX_CONFIGS 100000

typedef struct {
    ct_space_config_t *configs;
    size_t n;
} ct_space_configs_t;

/* The configurations of scope at nranks ranks: first the baseline (only
 * fixed variables set), then every combination of the scope's searched
 * variables (the all-defaults one left out: the baseline measures it).
 * Fixed variables and requires= settings are part of every configuration.
 * A value invalid at nranks (a limit) is not combined: it appears once, as
 * a configuration with skip set to the reason; a combination that breaks a
 * constraint is kept with skip set too, so the journal can record why.
 * pass variables are not included: the launcher adds them.  More than
 * CT_SPACE_MAX_CONFIGS configurations is CT_ERR_USAGE (err says so), found
 * by ct_space_combinations before any is listed. */
ct_status_t ct_space_enumerate(const ct_space_t *space, int scope, long nranks,
                               ct_space_configs_t *out_p, char *err, size_t errlen);
void ct_space_configs_free(ct_space_configs_t *configs);
void ct_space_config_free(ct_space_config_t *config);

/* How many combinations scope's searched variables have at nranks (the
 * product of their runnable value counts, overflow-checked), without
 * listing one: milliseconds for any space. */
ct_status_t ct_space_combinations(const ct_space_t *space, int scope, long nranks, uint64_t *n_p,
                                  char *err, size_t errlen);

/* The same configurations, in the same order, one at a time and never all
 * in memory (a global scope is a product and can be large): visit owns
 * each (ct_space_config_free) and stops the walk by returning non-CT_OK,
 * which ct_space_each returns. */
typedef ct_status_t (*ct_space_visit_fn)(void *user, ct_space_config_t *config);
ct_status_t ct_space_each(const ct_space_t *space, int scope, long nranks, ct_space_visit_fn visit,
                          void *user, char *err, size_t errlen);
/* How many configurations ct_space_each visits, runnable and skipped. */
ct_status_t ct_space_count(const ct_space_t *space, int scope, long nranks, size_t *runnable_p,
                           size_t *skipped_p, char *err, size_t errlen);
/* How many of configs are runnable (skip == NULL). */
size_t ct_space_configs_runnable(const ct_space_configs_t *configs);

/* A scope too large to list (nccl.ini's global product is ~1e8) is
 * indexed instead.  Index i is a mixed-radix number with one digit per
 * searched variable of the scope, in file order, the last the fastest;
 * each digit ranges over the variable's values valid at nranks (radix 1
 * for a variable with none).  Every combination ct_space_each visits after
 * the baseline and the limit skips is exactly one index, and it visits
 * them in increasing index order.  The other indices are not listed: a
 * nonzero digit for a variable that does not vary there (its when= is not
 * met, or none of its values is valid), the same combination as with that
 * digit 0; or the all-defaults combination, which the baseline measures. */
typedef struct ct_space_index ct_space_index_t;
ct_status_t ct_space_index_open(const ct_space_t *space, int scope, long nranks,
                                ct_space_index_t **ix_p, char *err, size_t errlen);
/* How many indices: the product of the radices (an overflow of 64 bits is
 * CT_ERR_USAGE at open). */
uint64_t ct_space_index_size(const ct_space_index_t *ix);
/* The configuration at index, built as ct_space_each builds it (skip set
 * for a broken constraint or a requires= conflict).  *listed_p: whether
 * ct_space_each visits it; when not, *config is left empty.  An index
 * past the size is CT_ERR_USAGE. */
ct_status_t ct_space_index_config(ct_space_index_t *ix, uint64_t index, ct_space_config_t *config,
                                  int *listed_p);
/* What ct_space_each visits before the combinations: the baseline, then
 * one skipped configuration per value invalid at nranks. */
ct_status_t ct_space_index_head(ct_space_index_t *ix, ct_space_configs_t *out_p);
void ct_space_index_close(ct_space_index_t *ix);

/* k distinct indices in [0, n), drawn uniformly without replacement
 * from seed (a seeded stream: a repeat is drawn again), in draw order.
 * The same seed gives the same indices, and a larger k the same first
 * ones.  k > n is CT_ERR_USAGE. */
ct_status_t ct_space_sample_indices(uint64_t seed, uint64_t n, size_t k, uint64_t *out);

/* ct_space_enumerate for a scope too large to list: the head (baseline,
 * limit skips), then k combinations drawn at random without replacement
 * among those ct_space_each visits after it, in index order: the first k
 * listed indices of ct_space_sample_indices' stream (all of them when
 * there are at most k; fewer when 16 draws per wanted one find only
 * unlisted indices).  The same seed gives the same configurations, and a
 * larger k a superset.  k is at most CT_SPACE_MAX_CONFIGS. */
ct_status_t ct_space_sample(const ct_space_t *space, int scope, long nranks, uint64_t seed,
                            size_t k, ct_space_configs_t *out_p, char *err, size_t errlen);

/* A stable id of a set of settings: FNV-1a over "NAME=VALUE" sorted by
 * name (the order given does not matter), 16 hex digits (buf: 17 bytes). */
void ct_space_config_key(const ct_space_setting_t *settings, size_t n, char *buf, size_t buflen);

/* "mca" or "env". */
const char *ct_space_via_name(ct_via_t via);

#endif
