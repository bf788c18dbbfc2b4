/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * site_rank.c - each library's precedence as data: for every file colltune
 * writes, which site settings outrank what it carries (site.h).
 *
 * Checked against the sources of the versions colltune runs here
 * (doc/limits.md, "Site settings: what outranks what", has the citations):
 *   - NCCL 2.28 (src/misc/param.cc initEnvFunc, setEnvFile): NCCL_CONF_FILE
 *     (else ~/.nccl.conf of the passwd home), then /etc/nccl.conf, each
 *     read with setenv(..., 0): the environment outranks every file, the
 *     first file the second.  NCCL_ALGO / NCCL_PROTO zero the bandwidth of
 *     what they disable (src/graph/tuning.cc ncclTopoTuneModel), so its
 *     cost reaches the tuner plugin as ignored (src/enqueue.cc getAlgoInfo)
 *     and the example plugin that reads nccl_tuner.conf skips it.
 *   - UCX 1.13 (src/ucs/config/parser.c): the environment outranks every
 *     ucx.conf (ucs_config_apply_config_vars); the files are read
 *     /etc/ucx, <libucs dir>/../etc, $HOME, $UCX_CONFIG_DIR, ./ , each over
 *     the ones before (ucs_config_parse_config_files), so a ./ucx.conf
 *     outranks the one colltune's UCX_CONFIG_DIR names.
 *   - Open MPI 4.1 (opal/mca/base/mca_base_var.c var_set_initial): the
 *     override file (sysconfdir/openmpi-mca-params-override.conf), then
 *     OMPI_MCA_ variables (mpirun --mca sets them), then
 *     mca_base_param_files, leftmost file first (read_files reads them
 *     right to left, each value over the last).  coll/tuned 4.1
 *     (coll_tuned_decision_dynamic.c) consults the dynamic rules file
 *     before a forced coll_tuned_<coll>_algorithm, so the rules file undoes
 *     a site's forced algorithm unless a stronger source than colltune's
 *     mca-params.conf names another rules file or turns the rules off;
 *     5.x and main consult the forced algorithm first.
 *   - MPICH 4.0 (MPIR_<Coll>_impl, written by maint/gen_coll.py
 *     dump_mpir_impl_blocking): the selection file
 *     (MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE) is consulted only in the
 *     auto case of MPIR_CVAR_<COLL>_INTRA_ALGORITHM.
 *   - Sourced files (nccl.env, mpich.env, intel-mpi.env): a job sources
 *     them after its environment is set up, so they outrank it.
 */
#include "site.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ct_names.h"
#include "ct_nccl_list.h"
#include "setting.h"

typedef const ct_site_setting_t *ct_site_rule_t(const ct_site_t *s, const char *name,
                                                const char *value, int coll);

/* The same variable from the environment or colltune's command line. */
static const ct_site_setting_t *ct_site_rule_env(const ct_site_t *s, const char *name,
                                                 const char *value, int coll)
{
    (void)value;
    (void)coll;
    const ct_site_setting_t *e = ct_site_find(s, name, 0);
    return e != NULL && e->source != CT_SITE_FILE ? e : NULL;
}

/* UCX: the environment, or the working directory's ucx.conf, read after
 * the one UCX_CONFIG_DIR names. */
static const ct_site_setting_t *ct_site_rule_ucx(const ct_site_t *s, const char *name,
                                                 const char *value, int coll)
{
    (void)value;
    (void)coll;
    const ct_site_setting_t *e = ct_site_find(s, name, 0);
    return e != NULL && (e->source != CT_SITE_FILE || e->late) ? e : NULL;
}

/* An MCA parameter from a source stronger than colltune's file, which is
 * the leftmost of mca_base_param_files: the override file, --mca, or
 * OMPI_MCA_. */
static const ct_site_setting_t *ct_site_mca_strong(const ct_site_t *s, const char *name)
{
    const ct_site_setting_t *e = ct_site_find(s, name, 1);
    return e != NULL && e->source != CT_SITE_FILE ? e : NULL;
}

/* An MCA boolean as mca_base_var_enum.c's bool enumerator reads it. */
static int ct_site_mca_true(const char *v)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (end != v && *end == '\0')
        return n != 0;
    return strcasecmp(v, "true") == 0 || strcasecmp(v, "yes") == 0 ||
           strcasecmp(v, "enabled") == 0 || strcasecmp(v, "t") == 0 || strcasecmp(v, "y") == 0;
}

/* coll_tuned_use_dynamic_rules switched off by a stronger source: then
 * coll/tuned reads neither a forced algorithm nor a rules file. */
static const ct_site_setting_t *ct_site_dynamic_off(const ct_site_t *s)
{
    const ct_site_setting_t *e = ct_site_mca_strong(s, "coll_tuned_use_dynamic_rules");
    return e != NULL && !ct_site_mca_true(e->value) ? e : NULL;
}

/* mca-params.conf: the same parameter from a stronger source; for a
 * coll/tuned parameter also the dynamic switch turned off. */
static const ct_site_setting_t *ct_site_rule_mca(const ct_site_t *s, const char *name,
                                                 const char *value, int coll)
{
    (void)value;
    (void)coll;
    const ct_site_setting_t *e = ct_site_mca_strong(s, name);
    if (e == NULL && strncmp(name, "coll_tuned_", 11) == 0)
        e = ct_site_dynamic_off(s);
    return e;
}

/* The rules file is found through mca-params.conf's two parameters; a
 * stronger source that names another file or turns the rules off keeps it
 * from being read.  4.1 then consults it before a forced algorithm. */
static const ct_site_setting_t *ct_site_rule_rules(const ct_site_t *s, const char *name,
                                                   const char *value, int coll)
{
    (void)name;
    (void)value;
    (void)coll;
    const ct_site_setting_t *e = ct_site_mca_strong(s, "coll_tuned_dynamic_rules_filename");
    return e != NULL ? e : ct_site_dynamic_off(s);
}

/* The JSON rules file is read by newer Open MPI (5.x / main), which
 * consults a forced coll_tuned_<coll>_algorithm before the rules: a forced
 * algorithm from any source outranks it (colltune's files do not unset
 * one). */
static const ct_site_setting_t *ct_site_rule_rules_json(const ct_site_t *s, const char *name,
                                                        const char *value, int coll)
{
    const ct_site_setting_t *e = ct_site_rule_rules(s, name, value, coll);
    const ct_coll_name_t *cn = coll >= 0 ? ct_coll_names_at((size_t)coll) : NULL;
    if (e != NULL || cn == NULL || cn->tuned.alg == NULL)
        return e;
    e = ct_site_find(s, cn->tuned.alg, 1);
    return e != NULL && strcmp(e->value, "0") != 0 ? e : NULL;
}

/* NCCL_ALGO / NCCL_PROTO from any source that leaves value's algorithm
 * (protocol) disabled for coll: the plugin cannot enable it. */
static const ct_site_setting_t *ct_site_rule_plugin(const ct_site_t *s, const char *name,
                                                    const char *value, int coll)
{
    ct_nccl_list_kind_t kind;
    const ct_coll_name_t *cn = coll >= 0 ? ct_coll_names_at((size_t)coll) : NULL;
    if (ct_nccl_list_kind_of(name, &kind) != 0 || cn == NULL || cn->nccl_func < 0)
        return NULL;
    const ct_site_setting_t *e = ct_site_find(s, name, 0);
    if (e == NULL)
        return NULL;
    char err[256];
    ct_nccl_list_func_t site, want;
    if (ct_nccl_list_project(kind, e->value, cn->nccl_func, &site, err, sizeof err) != CT_OK)
        return e; /* NCCL refuses the site's value: nothing of ours runs */
    if (!site.named)
        return NULL;
    if (ct_nccl_list_project(kind, value, cn->nccl_func, &want, err, sizeof err) != CT_OK ||
        !want.named)
        return NULL;
    return (want.mask & ~site.mask) != 0 ? e : NULL;
}

/* MPIR_CVAR_<COLL>_INTRA_ALGORITHM set to anything but auto. */
static const ct_site_setting_t *ct_site_rule_mpich_csel(const ct_site_t *s, const char *name,
                                                        const char *value, int coll)
{
    (void)value;
    (void)coll;
    const ct_site_setting_t *e = ct_site_find(s, name, 0);
    return e != NULL && strcasecmp(e->value, "auto") != 0 ? e : NULL;
}

static const struct {
    const char *file;
    ct_site_rule_t *rule; /* NULL: nothing the site sets outranks it */
    const char *why;
} ct_site_ranks[] = {
    {"nccl.env", NULL, "a job sources nccl.env after its environment is set"},
    {"nccl.conf", ct_site_rule_env,
     "NCCL reads nccl.conf only for variables its environment lacks (src/misc/param.cc)"},
    {"nccl_tuner.conf", ct_site_rule_plugin,
     "NCCL hands the tuner plugin a cost table in which what NCCL_ALGO / NCCL_PROTO "
     "disabled is ignored, and the plugin skips ignored entries (src/graph/tuning.cc "
     "ncclTopoTuneModel, src/enqueue.cc getAlgoInfo, ext-tuner/example/plugin.c)"},
    {"ucx.conf", ct_site_rule_ucx,
     "UCX 1.13 takes a variable from the environment over every ucx.conf, and reads "
     "./ucx.conf after $UCX_CONFIG_DIR/ucx.conf (src/ucs/config/parser.c, "
     "ucs_config_apply_config_vars, ucs_config_parse_config_files)"},
    {"mca-params.conf", ct_site_rule_mca,
     "Open MPI 4.1 takes the override file, then OMPI_MCA_ variables (mpirun --mca sets "
     "them), before any file of mca_base_param_files; coll/tuned reads its forced "
     "algorithms only with coll_tuned_use_dynamic_rules (opal/mca/base/mca_base_var.c "
     "var_set_initial; ompi/mca/coll/tuned/coll_tuned_module.c)"},
    {"coll-tuned-rules.conf", ct_site_rule_rules,
     "coll/tuned 4.1 reads the rules file named by coll_tuned_dynamic_rules_filename only "
     "with coll_tuned_use_dynamic_rules, and a stronger source than mca-params.conf sets "
     "one of them (ompi/mca/coll/tuned/coll_tuned_component.c tuned_open)"},
    {"coll-tuned-rules.json", ct_site_rule_rules_json,
     "Open MPI 5.x and main consult a forced coll_tuned_<coll>_algorithm before the rules "
     "file, and read the file only as coll_tuned_dynamic_rules_filename and "
     "coll_tuned_use_dynamic_rules say (ompi/mca/coll/tuned/coll_tuned_decision_dynamic.c)"},
    {"mpich.env", NULL, "a job sources mpich.env after its environment is set"},
    {"intel-mpi.env", NULL, "a job sources intel-mpi.env after its environment is set"},
    {"mvapich.env", NULL, "a job sources mvapich.env after its environment is set"},
    {"oneccl.env", NULL, "a job sources oneccl.env after its environment is set"},
    {"mpich-coll-selection.json", ct_site_rule_mpich_csel,
     "MPICH consults the selection file only when the algorithm variable is auto "
     "(src/mpi/coll/<coll>/<coll>.c)"},
};

const ct_site_setting_t *ct_site_outranks(const ct_site_t *s, const char *file, const char *name,
                                          const char *value, int coll, const char **why_p)
{
    if (why_p != NULL)
        *why_p = NULL;
    for (size_t i = 0; s != NULL && i < sizeof ct_site_ranks / sizeof ct_site_ranks[0]; i++) {
        if (strcmp(ct_site_ranks[i].file, file) != 0)
            continue;
        const ct_site_setting_t *e =
            ct_site_ranks[i].rule ? ct_site_ranks[i].rule(s, name, value, coll) : NULL;
        if (e != NULL && why_p != NULL)
            *why_p = ct_site_ranks[i].why;
        return e;
    }
    return NULL;
}

int ct_site_rank_has(const char *file)
{
    for (size_t i = 0; file != NULL && i < sizeof ct_site_ranks / sizeof ct_site_ranks[0]; i++)
        if (strcmp(ct_site_ranks[i].file, file) == 0)
            return 1;
    return 0;
}
