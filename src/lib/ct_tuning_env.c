/* SPDX-License-Identifier: BSD-3-Clause */
#include "ct_tuning_env.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_hash.h"
#include "ct_library.h"
#include "ct_vec.h"

static int ct_starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* A variable of any library's environment families (ct_library.h). */
int ct_tuning_env_is_tuning(const char *entry) { return ct_library_of(entry, 0) != NULL; }

int ct_tuning_env_is_launcher(const char *entry)
{
    static const char *const launcher[] = {
        "OMPI_MCA_orte_",
        "OMPI_MCA_ess",
        "OMPI_MCA_pmix",
        "OMPI_MCA_initial_wdir=",
        "OMPI_MCA_shmem_RUNTIME_QUERY_hint=",
        "OMPI_MCA_mpi_oversubscribe=",
        "OMPI_MCA_plm_",
        "OMPI_MCA_rmaps_",
    };
    for (size_t i = 0; i < sizeof launcher / sizeof launcher[0]; i++)
        if (ct_starts_with(entry, launcher[i]))
            return 1;
    return 0;
}

/* By name: "NCCL_A=1" sorts before "NCCL_A0=1". */
static int ct_tuning_env_cmp(const void *a, const void *b)
{
    const char *x = *(char *const *)a, *y = *(char *const *)b;
    size_t nx = strcspn(x, "="), ny = strcspn(y, "=");
    int c = strncmp(x, y, nx < ny ? nx : ny);
    return c ? c : (nx > ny) - (nx < ny);
}

ct_status_t ct_tuning_env_collect(char *const *envp, ct_tuning_env_t *env_p)
{
    size_t n = 0;
    for (size_t i = 0; envp[i]; i++)
        n += ct_tuning_env_is_tuning(envp[i]);
    char **vars = calloc(n ? n : 1, sizeof *vars);
    if (vars == NULL)
        return CT_ERR_NOMEM;
    size_t k = 0;
    for (size_t i = 0; envp[i] && k < n; i++) {
        if (!ct_tuning_env_is_tuning(envp[i]))
            continue;
        vars[k] = strdup(envp[i]);
        if (vars[k] == NULL) {
            ct_tuning_env_t partial = {vars, k};
            ct_tuning_env_free(&partial);
            return CT_ERR_NOMEM;
        }
        k++;
    }
    ct_vec_sort(vars, k, sizeof *vars, ct_tuning_env_cmp);
    env_p->vars = vars;
    env_p->n = k;
    return CT_OK;
}

void ct_tuning_env_free(ct_tuning_env_t *env)
{
    for (size_t i = 0; i < env->n; i++)
        free(env->vars[i]);
    free(env->vars);
    env->vars = NULL;
    env->n = 0;
}

void ct_tuning_env_id(const ct_tuning_env_t *env, char *buf, size_t buflen)
{
    uint64_t h = CT_HASH_INIT;
    for (size_t i = 0; i < env->n; i++)
        if (!ct_tuning_env_is_launcher(env->vars[i]))
            h = ct_hash_string(h, env->vars[i]);
    snprintf(buf, buflen, "%016" PRIx64, h);
}
