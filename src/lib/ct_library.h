/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_library.h - what colltune knows about each library it tunes, in one
 * table: its variable families (environment prefixes, and Open MPI's MCA
 * parameters), how a setting reaches it, how a value is read back as in
 * force, which emitters carry it and which launcher option reaches it.
 *
 * Every place that asks "whose setting is this?" asks here, so adding a
 * library is one entry (plus its emitters).  In src/lib (no MPI) because
 * collbench's tuning environment and fingerprint need the prefixes as
 * much as colltune's space, emitters and A/B do.
 */
#ifndef CT_LIBRARY_H
#define CT_LIBRARY_H

#include <stddef.h>

/* The environment form of Open MPI's MCA parameter x is OMPI_MCA_x.  A
 * literal, since launchers build words from it. */
#define CT_LIBRARY_MCA_ENV_PREFIX "OMPI_MCA_"

typedef enum {
    CT_LIB_OMPI,
    CT_LIB_UCX,
    CT_LIB_NCCL,
    CT_LIB_MPICH,
    CT_LIB_INTEL_MPI,
    CT_LIB_MVAPICH,
    CT_LIB_ONECCL,
    CT_LIB_COUNT,
} ct_library_id_t;

/* How a setting of a family reaches the library (bits). */
#define CT_APPLY_ENV 1u      /* the environment at launch (--env, OMPI_MCA_x) */
#define CT_APPLY_MCA_FILE 2u /* an MCA parameter file (mca_base_param_files) */
#define CT_APPLY_MPIT 4u     /* collbench --config writes it through MPI_T at run time */
#define CT_APPLY_COMM 8u     /* collbench --config sets it around one communicator's init */

/* How a value is read back as in force. */
typedef enum {
    CT_READBACK_NONE,      /* not read back (not run here) */
    CT_READBACK_MPIT,      /* the MPI_T control variable (ct_library_cvar_name) */
    CT_READBACK_TRANSPORT, /* the JSON's transport record (ucx_info's configuration) */
    CT_READBACK_NCCL,      /* the JSON's nccl record (and the tuner plugin's log) */
} ct_readback_t;

/* A family of variables: one name form of one library. */
typedef struct {
    const char *prefix;     /* "UCX_"; "" with mca: every MCA parameter */
    int mca;                /* 1: an Open MPI MCA parameter name, 0: an env name */
    unsigned apply;         /* CT_APPLY_* */
    ct_readback_t readback; /* how a value is read back */
    int emitted;            /* its choices go into its library's files (the rows below
                                    whose carries is its library) */
    const char *launch_opt; /* the colltune option that reaches it */
} ct_library_family_t;

typedef struct {
    ct_library_id_t id;
    const char *name; /* "Open MPI" */
    int run_here;     /* 0: recognised and recorded, never run by these tests */
    /* The prefix of its collective-algorithm controls (Open MPI's
     * "coll_tuned_"), NULL where colltune has none yet. */
    const char *coll_prefix;
    const ct_library_family_t *families;
    size_t nfamilies;
    /* Settings colltune sets only while it measures (MPI_T names, NULL
     * terminated; NULL for none): never a choice, never written. */
    const char *const *measure_only;
    /* How the first line of MPI_Get_library_version starts when this
     * library ran (collbench's "mpi_library_version"), NULL when not told
     * apart so: what names a family shared with another library
     * (MVAPICH 3 takes MPICH's MPIR_CVAR_ names) as this one's. */
    const char *ran_as;
} ct_library_t;

/* The entry of id; NULL out of range. */
const ct_library_t *ct_library_get(ct_library_id_t id);

/* The family a setting belongs to: an environment name (or "NAME=value"
 * entry) when mca is 0, an MCA parameter name when 1; NULL when no
 * library claims it.  The longest matching prefix wins. */
const ct_library_family_t *ct_library_family_of(const char *name, int mca,
                                                const ct_library_t **lib_p);

/* The library whose ran_as starts version (MPI_Get_library_version's
 * text), NULL when none does or version is NULL. */
const ct_library_t *ct_library_ran(const char *version);

/* The library of a setting, as above; NULL when none. */
const ct_library_t *ct_library_of(const char *name, int mca);

/* Whether name (or "NAME=value") is in library id's environment families. */
int ct_library_env_is(ct_library_id_t id, const char *name);

/* Whether the family's settings go into the emitted file named file (a
 * row below): the family is emitted and the row carries its library. */
int ct_library_family_carries(const ct_library_family_t *f, const char *file);

/* The MCA parameter an environment name stands for (OMPI_MCA_x -> x),
 * NULL when it is not that form. */
const char *ct_library_mca_param_of_env(const char *name);

/* The MPI_T control variable a setting is read back as (x for the MCA
 * parameter x and for OMPI_MCA_x; MPIR_CVAR_X for MPICH's three spellings
 * of X) into buf; 0 when it has none or buf is too short. */
int ct_library_cvar_name(const char *name, int mca, char *buf, size_t buflen);

/* Whether the setting name (any spelling the library accepts) is one
 * colltune sets only while it measures: MPICH's
 * MPIR_CVAR_COLLECTIVE_FALLBACK=error makes a forced algorithm that
 * cannot run fail instead of silently measuring MPICH's own choice, but
 * in a job's file it would turn that silent fallback into an error. */
int ct_library_measure_only(const char *name);
/* Whether name is one of library id's collective-algorithm controls. */
int ct_library_is_coll_var(ct_library_id_t id, const char *name);

/*
 * The files colltune writes, one row each (ct_library_files.c): every
 * fact about a file that is not how its bytes are written.  The emitters
 * (tuner/emit: the bytes) pair each row with a writer by name; install,
 * verify-install, merge, `tune --help`, the A/B's loading and the value
 * rules iterate the rows and name no file.  Adding a file is one row here
 * and one emitter.
 */

/* How the library is pointed at the file. */
typedef enum {
    CT_FILE_LOAD_VAR,      /* load.var names the file (or its directory: names_dir) */
    CT_FILE_LOAD_NAMED_BY, /* another row's file names it (named_by) */
    CT_FILE_LOAD_SOURCED,  /* a job script sources it (export lines) */
    CT_FILE_LOAD_NONE,     /* read by a library that does not run here */
} ct_file_load_kind_t;

/* What the file's entries are keyed by: which job shapes it tells apart. */
typedef enum {
    CT_FILE_KEY_NONE,        /* one value for every job */
    CT_FILE_KEY_COMM_SIZE,   /* communicator size (coll/tuned, MPICH's selection tree) */
    CT_FILE_KEY_NODES_RANKS, /* nodes and ranks (NCCL's tuner plugin) */
    CT_FILE_KEY_PROCS,       /* process-count ranges (Intel MPI's <l>-<m>@<p>-<q>) */
} ct_file_key_t;

/* How its settings are written: how a value is refused (tuner/space's
 * file_values.c) and read back (verify-install). */
typedef enum {
    CT_FILE_SYNTAX_SH,        /* export NAME=VALUE, sourced by sh; VALUE one unquoted word */
    CT_FILE_SYNTAX_SH_QUOTED, /* export NAME='VALUE' (any text), sourced by sh (nccl.env) */
    CT_FILE_SYNTAX_MCA,       /* NAME = VALUE lines, '#' comments (mca-params.conf) */
    CT_FILE_SYNTAX_NCCL_CONF, /* NAME=VALUE lines, '#' comments (nccl.conf) */
    CT_FILE_SYNTAX_UCX_INI,   /* [global] then NAME=VALUE (ucx.conf) */
    CT_FILE_SYNTAX_RULES,     /* coll/tuned's rules, text or JSON */
    CT_FILE_SYNTAX_PLUGIN,    /* nccl_tuner.conf's CSV rules */
    CT_FILE_SYNTAX_JSON_TREE, /* MPICH's selection tree */
} ct_file_syntax_t;

/* How the A/B and install make the library read the file. */
typedef struct {
    ct_file_load_kind_t kind;
    const char *var;    /* CT_FILE_LOAD_VAR: e.g. NCCL_CONF_FILE */
    int mca;            /* var is an Open MPI MCA parameter (its env form OMPI_MCA_var) */
    int names_dir;      /* var names the file's directory (UCX_CONFIG_DIR), not the file */
    int keeps_defaults; /* var replaces the library's default list of files (Open MPI's
                           mca_base_param_files): the A/B appends that list after ours */
    const char *also;   /* a variable set too unless the user's environment or --env has it */
    const char *also_value;
    const char *named_by; /* CT_FILE_LOAD_NAMED_BY: the row that names it */
    /* keeps_defaults: the library's default list, as a site writes it after
     * ours (NULL-terminated; "$HOME/" for the home directory), and how a
     * person sees that list or keeps it instead. */
    const char *const *defaults;
    const char *defaults_how;
    const char *also_install; /* also's value as a site sets it (a path, not a name) */
} ct_file_load_t;

typedef struct {
    const char *name;        /* in the tune's directory */
    ct_library_id_t reader;  /* the library that reads it */
    ct_library_id_t carries; /* whose choices it carries (Intel MPI's file: MPICH's) */
    ct_file_load_t load;
    ct_file_key_t keyed;
    ct_file_syntax_t syntax;
    const char *what; /* a few words for help and install ("NCCL's tuner-plugin rules") */
} ct_library_file_t;

/* Whether s is sh's (the file is sourced: export lines). */
int ct_library_syntax_sh(ct_file_syntax_t s);

/* The i-th row, in install order (a file another names before it), NULL
 * past the last. */
const ct_library_file_t *ct_library_file_at(size_t i);
/* The row named name, NULL when none. */
const ct_library_file_t *ct_library_file_named(const char *name);
/* The environment variable that points the row's reader at its file
 * (load.var, or OMPI_MCA_var for an MCA parameter) into buf; 0 when the
 * row has none (named by another, sourced, not loaded) or buf is short. */
int ct_library_file_env(const ct_library_file_t *row, char *buf, size_t buflen);

#endif
