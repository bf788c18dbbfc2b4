/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * site_rank.c - each library's precedence as data: for every file colltune
 * writes, which site settings outrank what it carries (site.h).
 *
 * Checked against the sources of the versions colltune runs here
 * (doc/limits.md, "Site settings", has the citations with line numbers):
 *   - NCCL 2.28 (src/misc/param.cc): NCCL_CONF_FILE (else ~/.nccl.conf),
 *     then /etc/nccl.conf, each read with setenv(..., 0): the environment
 *     outranks every file, the first file outranks the second.  The
 *     tuner plugin is asked only for the (algorithm, protocol) pairs
 *     NCCL_ALGO / NCCL_PROTO left enabled (src/graph/tuning.cc fills the
 *     table, src/enqueue.cc skips a disabled pair whatever its cost).
 *   - UCX 1.13 (src/ucs/config/parser.c): the environment outranks
 *     ucx.conf.
 *   - Open MPI 4.1 (opal/mca/base/mca_base_var.c): the command line, then
 *     OMPI_MCA_ variables, then mca_base_param_files, leftmost file first;
 *     coll/tuned 4.1 (coll_tuned_decision_dynamic.c) consults the dynamic
 *     rules file before a forced coll_tuned_<coll>_algorithm, so the rules
 *     file undoes a site's forced algorithm, as long as the site does not
 *     point coll_tuned_dynamic_rules_filename elsewhere or switch the
 *     rules off with a stronger source than colltune's mca-params.conf.
 *   - MPICH 4.0 (src/mpi/coll/<coll>/<coll>.c): the selection file
 *     (MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE) is consulted only when
 *     MPIR_CVAR_<COLL>_INTRA_ALGORITHM is auto.
 *   - Sourced files (nccl.env, mpich.env, intel-mpi.env): a job sources
 *     them after its environment is set up, so they outrank it.
 */
#include "site.h"

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

/* The same MCA parameter from OMPI_MCA_ or --mca: colltune's file is
 * the leftmost of mca_base_param_files, so no other file outranks it. */
static const ct_site_setting_t *ct_site_rule_mca(const ct_site_t *s, const char *name,
                                                 const char *value, int coll)
{
    (void)value;
    (void)coll;
    const ct_site_setting_t *e = ct_site_find(s, name, 1);
    return e != NULL && e->source != CT_SITE_FILE ? e : NULL;
}

/* The rules file is found through mca-params.conf's two parameters; a
 * stronger source that sets them otherwise keeps it from being read. */
static const ct_site_setting_t *ct_site_rule_rules(const ct_site_t *s, const char *name,
                                                   const char *value, int coll)
{
    (void)name;
    (void)value;
    (void)coll;
    const ct_site_setting_t *e = ct_site_find(s, "coll_tuned_dynamic_rules_filename", 1);
    if (e != NULL && e->source != CT_SITE_FILE)
        return e;
    e = ct_site_find(s, "coll_tuned_use_dynamic_rules", 1);
    if (e != NULL && e->source != CT_SITE_FILE)
        return e;
    return NULL;
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
     "NCCL asks the tuner plugin only about algorithms and protocols NCCL_ALGO / NCCL_PROTO "
     "left enabled (src/graph/tuning.cc, src/enqueue.cc)"},
    {"ucx.conf", ct_site_rule_env,
     "UCX takes a variable from the environment over ucx.conf (src/ucs/config/parser.c)"},
    {"mca-params.conf", ct_site_rule_mca,
     "Open MPI reads the command line and OMPI_MCA_ variables before any parameter file "
     "(opal/mca/base/mca_base_var.c)"},
    {"coll-tuned-rules.conf", ct_site_rule_rules,
     "coll/tuned reads the rules file named by coll_tuned_dynamic_rules_filename only with "
     "coll_tuned_use_dynamic_rules (coll_tuned_component.c); a stronger source sets them"},
    {"coll-tuned-rules.json", ct_site_rule_rules,
     "coll/tuned reads the rules file named by coll_tuned_dynamic_rules_filename only with "
     "coll_tuned_use_dynamic_rules (coll_tuned_component.c); a stronger source sets them"},
    {"mpich.env", NULL, "a job sources mpich.env after its environment is set"},
    {"intel-mpi.env", NULL, "a job sources intel-mpi.env after its environment is set"},
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
