/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * site.h - what the site already sets before colltune adds anything, and
 * which of it outranks a setting written in one of colltune's files.
 *
 * A site rarely starts clean: its environment (modules, profile scripts),
 * Open MPI's MCA files, /etc/nccl.conf and UCX's config file already set
 * things.  A tune reads them before its search (they are its baseline:
 * every launch inherits them), records them in report.json, and asks,
 * for each choice, whether a site setting would outrank the file the
 * choice is written in (ct_site_outranks, by each library's precedence,
 * cited in site_rank.c).  The emitters then write the form that wins, or
 * the choice is dropped with the outranking setting named.
 *
 * One entry per setting in force: the first source in each library's own
 * order wins (--env / --mca on colltune's command line, then the
 * environment, then the files in the library's order), so each name has
 * the value and source the library would use.
 */
#ifndef CT_SITE_H
#define CT_SITE_H

#include <stddef.h>

#include "ct_status.h"
#include "launch_opts.h"

/* Where a site setting comes from, strongest first. */
typedef enum {
    CT_SITE_OVERRIDE, /* Open MPI's openmpi-mca-params-override.conf: over everything */
    CT_SITE_CMDLINE,  /* colltune's --env or --mca (every launch has it) */
    CT_SITE_ENV,      /* the process environment colltune runs in */
    CT_SITE_FILE,     /* a file the library reads by itself */
} ct_site_source_t;

typedef struct {
    char *name;   /* as the library names it: NCCL_ALGO, UCX_TLS, MPIR_CVAR_BCAST_INTRA_ALGORITHM,
                     coll_tuned_bcast_algorithm (an MCA parameter, without OMPI_MCA_) */
    char *value;  /* as set */
    char *origin; /* "environment", "--env", "--mca", or the file's absolute path */
    ct_site_source_t source;
    int mca;  /* an Open MPI MCA parameter */
    int late; /* from a file the library reads after colltune's own file of the
                     same kind (UCX's ./ucx.conf after $UCX_CONFIG_DIR's) */
} ct_site_setting_t;

typedef struct {
    ct_site_setting_t *v;
    size_t n, cap;
} ct_site_t;

#define CT_SITE_UCX_CONFS 5

/* The files the libraries read by themselves; tests point them at
 * planted files.  NULL or "": none. */
typedef struct {
    const char *nccl_user; /* $NCCL_CONF_FILE, else ~/.nccl.conf (the passwd home) */
    const char *nccl_sys;  /* /etc/nccl.conf */
    const char *ucx_conf;  /* one more UCX file, read before ucx_confs (a test's); NULL: none */
    /* UCX 1.13's files, strongest first (parser.c's
     * ucs_config_parse_config_files reads them the other way round, each
     * over the ones before): ./ucx.conf, $UCX_CONFIG_DIR/ucx.conf,
     * $HOME/ucx.conf, <libucs dir>/../etc/ucx.conf, /etc/ucx/ucx.conf.
     * The first one is read after colltune's (UCX_CONFIG_DIR) file. */
    const char *ucx_confs[CT_SITE_UCX_CONFS];
    const char *mca_files; /* Open MPI's mca_base_param_files, comma-separated, leftmost wins */
    /* Open MPI's override file, over the environment and the command line
     * (mca_base_var.c's var_set_initial).  NULL: openmpi-mca-params-override.conf
     * beside mca_files' openmpi-mca-params.conf (both are in sysconfdir);
     * "": none. */
    const char *mca_override;
} ct_site_files_t;

/* The prefixes of the variables a site setting can be (NULL-ended): the
 * libraries colltune tunes, and OMPI_MCA_ for MCA parameters. */
extern const char *const ct_site_env_prefixes[];

/*
 * Reads the site's settings: lo's --env and --mca, then env (a
 * NULL-ended "NAME=VALUE" array, as environ), then the files.  A file that
 * does not exist is no setting; one that cannot be read is CT_ERR_IO with
 * its path in err.  s must be zeroed; ct_site_free releases it.
 */
ct_status_t ct_site_read(ct_site_t *s, const ct_launch_opts_t *lo, char *const *env,
                         const ct_site_files_t *files, char *err, size_t errlen);
/* files' defaults for this process (env as above): the user's and the
 * system's nccl.conf, UCX's config files (the working directory's taken
 * now); mca_files and mca_override are left NULL (the caller knows Open
 * MPI's list: ompi_info).  Buffers: nccl_user and ucx_confs point into
 * buf (room for len, shared out; a path that does not fit is left out). */
void ct_site_files_default(ct_site_files_t *files, char *const *env, char *buf, size_t len);

/* The setting in force for name (mca: an MCA parameter name), or NULL. */
const ct_site_setting_t *ct_site_find(const ct_site_t *s, const char *name, int mca);

void ct_site_free(ct_site_t *s);

/*
 * The site setting that outranks a choice of name = value for collective
 * coll (a ct_coll_id_t, or CT_SCOPE_GLOBAL) written into the emitted file
 * file (its name: "nccl.conf", "mpich-coll-selection.json", ...), or NULL
 * when the file's setting is the one the library uses.  *why_p (may be
 * NULL) gets a static sentence on the library's rule, with its source.
 */
const ct_site_setting_t *ct_site_outranks(const ct_site_t *s, const char *file, const char *name,
                                          const char *value, int coll, const char **why_p);

/* Whether site_rank.c has a precedence rule for the emitted file file
 * (every row of the library table must: test_site). */
int ct_site_rank_has(const char *file);

#endif
