/* SPDX-License-Identifier: BSD-3-Clause */
#include "ct_tuning_env.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_hash.h"
#include "ct_launcher_env.h"
#include "ct_library.h"
#include "ct_vec.h"

/* A variable of any library's environment families (ct_library.h). */
int ct_tuning_env_is_tuning(const char *entry) { return ct_library_of(entry, 0) != NULL; }

/* The launchers' bookkeeping (ct_launcher_env.c's wiring names). */
int ct_tuning_env_is_launcher(const char *entry)
{
    return ct_launcher_env_sets(entry, CT_LAUNCHER_WIRING);
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
