/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * launcher.h - the complete argv (and environment) of one collbench launch.
 *
 * A trial's settings travel through the launcher's own flags, never
 * through a shell, so a value with spaces, quotes, ';', '$(...)' or a
 * newline reaches collbench as the user wrote it.
 *
 * A launcher is an ops table (ct_launcher_ops_t), one const struct per
 * launcher in its own file (launcher_mpirun.c, launcher_srun.c,
 * launcher_hydra.c, launcher_prefix.c), listed once in launcher_table.c,
 * in the spirit of ucx_perftest's RTE list.  The form is the basename of
 * the launcher's first word; a word no entry claims is a prefix.  Adding
 * a launcher is one file plus one table entry (and its line in local.mk).
 */
#ifndef CT_LAUNCHER_H
#define CT_LAUNCHER_H

#include <stddef.h>
#include <stdio.h>
#include "argv.h"
#include "ct_status.h"

typedef struct ct_launcher ct_launcher_t;
typedef struct ct_launcher_ops ct_launcher_ops_t;

/* One setting, "NAME=VALUE" split at the first '='; value points into the
 * string it was parsed from. */
typedef struct {
    char name[256];
    const char *value;
} ct_launch_var_t;

/* One launch's settings: the user's --env and --mca (and a tune
 * configuration's), in the order they are given. */
typedef struct {
    const ct_launch_var_t *env;
    size_t nenv;
    const ct_launch_var_t *mca;
    size_t nmca;
} ct_launch_vars_t;

struct ct_launcher {
    const ct_launcher_ops_t *kind; /* which launcher: its ops */
    ct_argv_t words;               /* the launcher's words, program first */
    ct_argv_t extra;               /* --launcher-arg, passed through unsplit */
    long np;                       /* 0: not given */
    const char *hostfile;
    int as_root; /* mpirun: add --allow-run-as-root */
};

/* What one launcher knows.  A slot left NULL means "nothing to do" (or,
 * for ranks, "unknown"); every message a slot writes into err names the
 * flag or variable it is about. */
struct ct_launcher_ops {
    const char *name;         /* launch.json's "launcher"; messages */
    const char *const *words; /* the first word's basenames that select it;
                                 NULL: the fallback (a prefix) */
    const char *help;         /* its lines in sweep --help */
    /* A request it cannot express (--hostfile under srun, --mca under
     * Hydra, ...): CT_ERR_USAGE with err. */
    ct_status_t (*refuse)(const ct_launcher_t *l, const ct_launch_vars_t *vars, char *err,
                          size_t errlen);
    /* Its own flags after its words: the scale (np, hostfile) and the
     * settings. */
    ct_status_t (*flags)(const ct_launcher_t *l, const ct_launch_vars_t *vars, ct_argv_t *argv);
    /* Whether the settings also go into the child's environment (MCA
     * parameters as OMPI_MCA_name), beside or instead of flags. */
    int env_too;
    /* The ranks its own flags (or Slurm's slurm_ntasks) start; 0 when
     * unknown.  Only asked when --np was not given. */
    long (*ranks)(const ct_launcher_t *l, const char *slurm_ntasks);
    /* --scales.  no_scale: why it cannot be told a scale (NULL: it can,
     * by ranks through np).  By nodes it takes either its own flags
     * (scale_flags) or a hostfile of the first N hosts of --hostfile
     * (host_end: the characters that end a host name on a line of its
     * hostfile format; host_line writes one host with its slots). */
    const char *no_scale;
    ct_status_t (*scale_flags)(long nodes, long per_node, ct_argv_t *extra);
    const char *host_end;
    void (*host_line)(FILE *f, const char *host, long slots);
    /* Several app contexts in one launch ("mpirun A : B"): the flags of
     * one context (its scale and the settings that are its own), the
     * contexts separated by ":".  shared: for the first context only (NULL
     * for the others), the MCA settings every context gives alike, which
     * go once as the launch's (mpirun's --mca: the launcher itself reads
     * them too, e.g. plm_rsh_agent), with the launcher's other global
     * flags.  NULL: it cannot (srun, a prefix). */
    ct_status_t (*app_flags)(const ct_launcher_t *l, const ct_launch_vars_t *vars,
                             const ct_launch_vars_t *shared, ct_argv_t *argv);
};

/* The launchers, in the order they are tried and listed; the fallback
 * (prefix) last.  NULL-terminated. */
extern const ct_launcher_ops_t *const ct_launchers[];

/* The result: argv for execvp() and the child's complete environment. */
typedef struct {
    ct_argv_t argv;
    ct_argv_t envp; /* envp.v is NULL when it holds no entry */
} ct_launch_t;

/* Sets up l from a --launcher line (split by ct_argv_split), or from
 * default_word alone (e.g. configure's mpirun) when line is NULL.  np,
 * hostfile, as_root and extra are the caller's to fill in afterwards.
 * CT_ERR_USAGE with a message in err on a bad line. */
ct_status_t ct_launcher_init(ct_launcher_t *l, const char *line, const char *default_word,
                             char *err, size_t errlen);
void ct_launcher_free(ct_launcher_t *l);

/* The launcher whose words hold word's basename, else the fallback. */
const ct_launcher_ops_t *ct_launcher_detect(const char *word);
/* The launcher named name (ops->name); NULL when none is. */
const ct_launcher_ops_t *ct_launcher_find(const char *name);
/* "mpirun, srun or mpiexec.hydra": the launchers that can be told a
 * scale, for messages. */
void ct_launcher_scalers(char *buf, size_t len);

/* Parses "NAME=VALUE" into var (value points into arg).  A name must be a
 * C identifier (an environment variable) or letters, digits and '_' (an
 * MCA parameter, is_mca).  CT_ERR_USAGE with a message in err otherwise. */
ct_status_t ct_launch_var_parse(const char *arg, int is_mca, ct_launch_var_t *var, char *err,
                                size_t errlen);

/* How many ranks l starts, for what depends on the scale (a tune's valid
 * configurations): --np when given, else the launcher's own count
 * (ops->ranks; see each launcher's file), with slurm_ntasks the
 * SLURM_NTASKS variable (NULL when unset).  0 when unknown (a prefix, a
 * node range). */
long ct_launcher_ranks(const ct_launcher_t *l, const char *slurm_ntasks);

/* Builds the launch of program with its args under l.  base_env is the
 * environment to start from (NULL-terminated; usually environ).  Fails
 * with CT_ERR_USAGE and a message naming the flag or variable when the
 * request cannot be expressed (ops->refuse). */
ct_status_t ct_launcher_build(const ct_launcher_t *l, char *const *base_env,
                              const ct_launch_var_t *env, size_t nenv, const ct_launch_var_t *mca,
                              size_t nmca, const char *program, char *const *args, size_t nargs,
                              ct_launch_t *out, char *err, size_t errlen);
void ct_launch_free(ct_launch_t *launch);

/* One app context of a launch of several: its settings (the whole set:
 * nothing is shared with the others), program and arguments. */
typedef struct {
    const ct_launch_var_t *env;
    size_t nenv;
    const ct_launch_var_t *mca;
    size_t nmca;
    const char *program;
    char *const *args;
    size_t nargs;
} ct_launch_app_t;

/* Whether l can start several app contexts in one launch, each with its
 * own settings and the scale --np (and --hostfile) gives: a launcher with
 * app_flags, --np given, and none of its own words or --launcher-arg
 * naming a scale or setting, which would reach the first context only.
 * 0 with why filled otherwise. */
int ct_launcher_apps_ok(const ct_launcher_t *l, char *why, size_t len);

/* Builds one launch of napps app contexts under l (ct_launcher_apps_ok
 * first); the child's environment is base_env. */
ct_status_t ct_launcher_build_apps(const ct_launcher_t *l, char *const *base_env,
                                   const ct_launch_app_t *apps, size_t napps, ct_launch_t *out,
                                   char *err, size_t errlen);

/* --scales by nodes (launcher_scale.c). */

/* The host names of a hostfile in l's format: the first word of each
 * line that is not blank or a comment, up to ops->host_end.  Returns the
 * count (at most max), or -1 with err. */
long ct_launcher_hosts_read(const ct_launcher_t *l, const char *path, char (*hosts)[256], long max,
                            char *err, size_t errlen);

/* Places l at nodes nodes of per_node ranks each: np, and its own flags
 * pushed onto l->extra, or, for a launcher that takes a hostfile, the
 * first nodes of hosts written to hostfile_path (beside and renamed;
 * messages name cmd) and l->hostfile pointing at it. */
ct_status_t ct_launcher_scale_nodes(ct_launcher_t *l, long nodes, long per_node,
                                    const char (*hosts)[256], const char *hostfile_path,
                                    const char *cmd);

#endif
