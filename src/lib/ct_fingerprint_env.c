/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_fingerprint_env.c - which environment variables a fingerprint keeps.
 *
 * The families that steer the loader, MPI, its runtimes, the network
 * stacks, NCCL/CUDA and OpenMP, less the volatile names among them, the
 * launchers' (ct_launcher_env.c: job ids, URIs, ports, session
 * directories, ranks, host names); doc/formats.md ("fingerprint") lists
 * both.
 */
#include "ct_fingerprint.h"
#include "ct_launcher_env.h"
#include "ct_library.h"

#include <stdlib.h>
#include <string.h>

/* A pattern matches a name exactly, or as a prefix when it ends in '*'. */
static int ct_fp_env_match(const char *pattern, const char *name)
{
    size_t len = strlen(pattern);
    if (len > 0 && pattern[len - 1] == '*')
        return strncmp(name, pattern, len - 1) == 0;
    return strcmp(name, pattern) == 0;
}

/* The families kept besides every library's own (ct_library.h), which
 * are always kept (not "MPI*": MPIRUN, MPICC and the like are a user's
 * shell, not the job's settings). */
static const char *const ct_fp_env_kept[] = {
    "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_BIND_NOW", "OMPI_*",    "OPAL_*",  "ORTE_*",  "PMIX_*",
    "MPI_*",      "MPICH_*",         "MPIR_*",      "MPIEXEC_*", "I_MPI_*", "HYDRA_*", "UCX_*",
    "UCC_*",      "HCOLL_*",         "FI_*",        "PSM2_*",    "NCCL_*",  "CUDA_*",  "NVIDIA_*",
    "HWLOC_*",    "OMP_*",           "GOMP_*",      "SLURM_*",
};

static int ct_fp_env_in(const char *const *table, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (ct_fp_env_match(table[i], name))
            return 1;
    return 0;
}

/* Volatile names (set anew by the launcher on every launch, or different
 * on every rank or host) are the launchers' table's (ct_launcher_env.c). */
int ct_fingerprint_env_keep(const char *name)
{
    return (ct_library_of(name, 0) != NULL ||
            ct_fp_env_in(ct_fp_env_kept, sizeof ct_fp_env_kept / sizeof ct_fp_env_kept[0], name)) &&
           !ct_launcher_env_sets(name, CT_LAUNCHER_VOLATILE);
}

/* A search path with repeated directories removed, in place: a repeat
 * never changes what the loader finds, and Open MPI's launchers prepend
 * their library directory again on some hosts and not others.  Entries
 * are split at ':' and ';' (as the loader does) and joined with ':'. */
static ct_status_t ct_fp_env_dedupe_path(char *value)
{
    size_t cap = strlen(value) + 1, used = 0, n = 0;
    char *out = malloc(cap);
    if (out == NULL)
        return CT_ERR_NOMEM;
    for (const char *p = value;;) {
        size_t len = strcspn(p, ":;");
        int repeat = 0;
        /* The entries kept so far, each followed by ':' or the end. */
        for (size_t k = 0, at = 0; k < n && !repeat; k++) {
            size_t klen = strcspn(out + at, ":");
            repeat = klen == len && memcmp(out + at, p, len) == 0;
            at += klen + 1;
        }
        if (!repeat) {
            if (n++ > 0)
                out[used++] = ':';
            memcpy(out + used, p, len);
            used += len;
            out[used] = '\0';
        }
        if (p[len] == '\0')
            break;
        p += len + 1;
    }
    memcpy(value, out, used + 1);
    free(out);
    return CT_OK;
}

ct_status_t ct_fingerprint_env(char *const *envp, ct_fingerprint_t *fp)
{
    for (size_t i = 0; envp && envp[i]; i++) {
        const char *eq = strchr(envp[i], '=');
        char name[256];
        size_t len = eq ? (size_t)(eq - envp[i]) : 0;
        /* No '=' or an absurd name: not a variable anyone sets. */
        if (len == 0 || len >= sizeof name)
            continue;
        memcpy(name, envp[i], len);
        name[len] = '\0';
        if (!ct_fingerprint_env_keep(name) || ct_fingerprint_var_find(fp->env, fp->nenv, name))
            continue; /* a repeated name: getenv sees the first */
        ct_status_t st = ct_fingerprint_var_push(&fp->env, &fp->nenv, &fp->env_cap, name, eq + 1);
        if (st != CT_OK)
            return st;
        if (strcmp(name, "LD_LIBRARY_PATH") == 0 &&
            ct_fp_env_dedupe_path(fp->env[fp->nenv - 1].value) != CT_OK)
            return CT_ERR_NOMEM;
    }
    return CT_OK;
}
