/*
 * launcher.h - the complete argv (and environment) of one collbench launch.
 *
 * A trial's settings travel through the launcher's own flags, never
 * through a shell, so a value with spaces, quotes, ';', '$(...)' or a
 * newline reaches collbench as the user wrote it.  Three forms:
 *
 *   mpirun (Open MPI; also mpiexec, orterun): environment variables as
 *     "-x NAME=VALUE", MCA parameters as "--mca NAME VALUE", scale as
 *     "--np N" and "--hostfile F", "--allow-run-as-root" when root;
 *   srun (Slurm): "--export=ALL,NAME=VALUE,...,OMPI_MCA_name=value" and
 *     "--mpi=pmix" unless the user names an --mpi; the same variables are
 *     also set in srun's own environment, because a variable already set
 *     there wins over --export (DESIGN.md).  --export separates entries
 *     with commas, so a value containing one travels in that environment
 *     only (ALL exports it);
 *   a prefix (anything else): the words run as given, with the variables
 *     and OMPI_MCA_* set directly in the child's environment.
 *
 * The form is the basename of the launcher's first word.
 */
#ifndef CT_LAUNCHER_H
#define CT_LAUNCHER_H

#include <stddef.h>
#include "argv.h"
#include "ct_status.h"

typedef enum {
    CT_LAUNCHER_MPIRUN,
    CT_LAUNCHER_SRUN,
    CT_LAUNCHER_PREFIX,
} ct_launcher_kind_t;

/* One setting, "NAME=VALUE" split at the first '='; value points into the
 * string it was parsed from. */
typedef struct {
    char name[256];
    const char *value;
} ct_launch_var_t;

typedef struct {
    ct_launcher_kind_t kind;
    ct_argv_t words; /* the launcher's words, program first */
    ct_argv_t extra; /* --launcher-arg, passed through unsplit */
    long np;         /* 0: not given */
    const char *hostfile;
    int as_root; /* mpirun: add --allow-run-as-root */
} ct_launcher_t;

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

ct_launcher_kind_t ct_launcher_detect(const char *word);
const char *ct_launcher_kind_name(ct_launcher_kind_t kind);

/* Parses "NAME=VALUE" into var (value points into arg).  A name must be a
 * C identifier (an environment variable) or letters, digits and '_' (an
 * MCA parameter, is_mca).  CT_ERR_USAGE with a message in err otherwise. */
ct_status_t ct_launch_var_parse(const char *arg, int is_mca, ct_launch_var_t *var, char *err,
                                size_t errlen);

/* How many ranks l starts, for what depends on the scale (a tune's valid
 * configurations): --np when given, else the launcher's own count:
 * mpirun's -np/-n/--np/-c N; srun's -n/--ntasks N, else nodes (-N/--nodes,
 * a plain number) times --ntasks-per-node (1 when not given).  srun without
 * any count inside an allocation starts its tasks: slurm_ntasks (the
 * SLURM_NTASKS variable; NULL when unset).  0 when unknown (a prefix, a
 * node range). */
long ct_launcher_ranks(const ct_launcher_t *l, const char *slurm_ntasks);

/* Builds the launch of program with its args under l.  base_env is the
 * environment to start from (NULL-terminated; usually environ).  Fails
 * with CT_ERR_USAGE and a message naming the flag or variable when the
 * request cannot be expressed: --np or --hostfile with a prefix, --hostfile
 * with srun. */
ct_status_t ct_launcher_build(const ct_launcher_t *l, char *const *base_env,
                              const ct_launch_var_t *env, size_t nenv, const ct_launch_var_t *mca,
                              size_t nmca, const char *program, char *const *args, size_t nargs,
                              ct_launch_t *out, char *err, size_t errlen);
void ct_launch_free(ct_launch_t *launch);

#endif
