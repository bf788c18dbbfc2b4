/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_fingerprint.c - a fingerprint's lists and its collection; the parts
 * live in ct_fingerprint_{env,libs,host,mpit,text}.c.
 */
#include "ct_fingerprint.h"

#include <stdlib.h>
#include <string.h>

#include "ct_vec.h"

ct_status_t ct_fingerprint_var_push(ct_fp_var_t **v, size_t *n, size_t *cap, const char *name,
                                    const char *value)
{
    ct_fp_var_t item = {strdup(name), strdup(value)};
    if (item.name == NULL || item.value == NULL || CT_VEC_PUSH(*v, *n, *cap, &item) != CT_OK) {
        free(item.name);
        free(item.value);
        return CT_ERR_NOMEM;
    }
    return CT_OK;
}

const ct_fp_var_t *ct_fingerprint_var_find(const ct_fp_var_t *v, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i].name, name) == 0)
            return &v[i];
    return NULL;
}

ct_status_t ct_fingerprint_add_mpi_t(ct_fingerprint_t *fp, const char *name, const char *value)
{
    return ct_fingerprint_var_push(&fp->mpi_t, &fp->nmpi_t, &fp->mpi_t_cap, name, value);
}

ct_status_t ct_fingerprint_collect(char *const *envp, ct_fingerprint_t *fp)
{
    ct_status_t st = ct_fingerprint_env(envp, fp);
    if (st == CT_OK)
        st = ct_fingerprint_libs(fp);
    if (st == CT_OK)
        st = ct_fingerprint_host("/", fp);
    return st;
}

static void ct_fingerprint_vars_free(ct_fp_var_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].name);
        free(v[i].value);
    }
    free(v);
}

void ct_fingerprint_free(ct_fingerprint_t *fp)
{
    ct_fingerprint_vars_free(fp->env, fp->nenv);
    ct_fingerprint_vars_free(fp->mpi_t, fp->nmpi_t);
    for (size_t i = 0; i < fp->nlibs; i++) {
        free(fp->libs[i].name);
        free(fp->libs[i].path);
        free(fp->libs[i].build_id);
        free(fp->libs[i].version);
    }
    free(fp->libs);
    free(fp->kernel);
    free(fp->machine);
    free(fp->cpu_model);
    free(fp->governor);
    memset(fp, 0, sizeof *fp);
}
