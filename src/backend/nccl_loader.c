/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nccl_loader.c - dlopen/dlsym of libnccl and libcudart (see nccl_loader.h).
 */
#define _GNU_SOURCE /* dlinfo, RTLD_DI_LINKMAP */
#include "nccl_loader.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* dlsym returns an object pointer; POSIX guarantees it converts to a
 * function pointer, which memcpy does without a cast the C standard lacks. */
_Static_assert(sizeof(void *) == sizeof(void (*)(void)), "function and object pointers differ");

#define CT_CUDA_LIB64 "/usr/local/cuda/lib64/"

static const char *const ct_nccl_default_names[] = {
    "libnccl.so.2", "libnccl.so", CT_CUDA_LIB64 "libnccl.so.2", CT_CUDA_LIB64 "libnccl.so", NULL,
};

static const char *const ct_cudart_default_names[] = {
    "libcudart.so.13",
    "libcudart.so.12",
    "libcudart.so",
    CT_CUDA_LIB64 "libcudart.so.13",
    CT_CUDA_LIB64 "libcudart.so.12",
    CT_CUDA_LIB64 "libcudart.so",
    NULL,
};

typedef struct {
    const char *name;
    size_t offset; /* of the function pointer in its api struct */
    int required;
} ct_nccl_symbol_t;

#define CT_NCCL_SYM(name, ret, params) {#name, offsetof(ct_nccl_api_t, name), 1},
#define CT_NCCL_SYM_OPT(name, ret, params) {#name, offsetof(ct_nccl_api_t, name), 0},
#define CT_CUDA_SYM(name, ret, params) {#name, offsetof(ct_cuda_api_t, name), 1},
#define CT_CUDA_SYM_OPT(name, ret, params) {#name, offsetof(ct_cuda_api_t, name), 0},

/* The types are unused here; the lists only need names and offsets. */
static const ct_nccl_symbol_t ct_nccl_symbols[] = {
    CT_NCCL_FUNCTIONS(CT_NCCL_SYM, -, -, -, -, -, -)
        CT_NCCL_OPTIONAL_FUNCTIONS(CT_NCCL_SYM_OPT, -, -, -, -, -, -)
            CT_NCCL_OPTIONAL_FUNCTIONS_2_28(CT_NCCL_SYM_OPT, -, -, -, -, -, -)};

static const ct_nccl_symbol_t ct_cuda_symbols[] = {
    CT_CUDA_FUNCTIONS(CT_CUDA_SYM, -, -, -) CT_CUDA_OPTIONAL_FUNCTIONS(CT_CUDA_SYM_OPT, -, -, -)};

void ct_nccl_version_text(int code, char *buf, size_t buflen)
{
    /* NCCL_VERSION(X,Y,Z) is X*1000+Y*100+Z up to 2.8, X*10000+Y*100+Z after. */
    if (code >= 10000)
        snprintf(buf, buflen, "%d.%d.%d", code / 10000, code % 10000 / 100, code % 100);
    else
        snprintf(buf, buflen, "%d.%d.%d", code / 1000, code % 1000 / 100, code % 100);
}

/* Where the loader found handle's file, else the name it was opened by. */
static void ct_nccl_loaded_path(void *handle, const char *name, char *path, size_t pathlen)
{
    struct link_map *map = NULL;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && map->l_name[0])
        name = map->l_name;
    snprintf(path, pathlen, "%s", name);
}

/* Opens the explicit name if given, else the first default that loads.
 * The reason names the first candidate and its dlerror (the later ones
 * usually fail the same way), and lists the others that were tried. */
static ct_status_t ct_nccl_dlopen(const char *explicit_name, const char *const *defaults,
                                  void **handle_p, char *path, size_t pathlen, char *why,
                                  size_t whylen)
{
    const char *single[] = {explicit_name, NULL};
    const char *const *names = explicit_name ? single : defaults;
    char first_error[512] = "";

    for (size_t i = 0; names[i]; i++) {
        /* NOW: a missing dependency fails here, not at the first call.
         * NODELETE: see ct_nccl_lib_close(). */
        void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
        if (h) {
            ct_nccl_loaded_path(h, names[i], path, pathlen);
            *handle_p = h;
            return CT_OK;
        }
        if (i == 0) {
            const char *e = dlerror();
            snprintf(first_error, sizeof first_error, "%s", e ? e : "unknown dlopen error");
        }
    }

    snprintf(why, whylen, "cannot load %s: %s", names[0], first_error);
    for (size_t i = 1; names[i]; i++) {
        size_t used = strlen(why);
        snprintf(why + used, whylen - used, "%s%s%s", i == 1 ? " (also tried " : ", ", names[i],
                 names[i + 1] ? "" : ")");
    }
    return CT_ERR_UNAVAILABLE;
}

static ct_status_t ct_nccl_resolve(void *handle, const char *path, const ct_nccl_symbol_t *syms,
                                   size_t nsyms, void *api, char *why, size_t whylen)
{
    for (size_t i = 0; i < nsyms; i++) {
        dlerror();
        void *sym = dlsym(handle, syms[i].name);
        if (sym == NULL && syms[i].required) {
            snprintf(why, whylen, "%s lacks symbol %s", path, syms[i].name);
            return CT_ERR_UNAVAILABLE;
        }
        memcpy((char *)api + syms[i].offset, &sym, sizeof sym);
    }
    return CT_OK;
}

/* One library: opened (explicit name or defaults) and every symbol
 * resolved into api, or closed again with the reason in why. */
static ct_status_t ct_nccl_load(const char *explicit_name, const char *const *defaults,
                                const ct_nccl_symbol_t *syms, size_t nsyms, void *api,
                                void **handle_p, char *path, size_t pathlen, char *why,
                                size_t whylen)
{
    ct_status_t st = ct_nccl_dlopen(explicit_name, defaults, handle_p, path, pathlen, why, whylen);
    if (st == CT_OK) {
        st = ct_nccl_resolve(*handle_p, path, syms, nsyms, api, why, whylen);
        if (st != CT_OK) {
            dlclose(*handle_p);
            *handle_p = NULL;
        }
    }
    return st;
}

ct_status_t ct_nccl_lib_open(const char *nccl_path, const char *cudart_path, ct_nccl_lib_t *lib,
                             char *why, size_t whylen)
{
    const char *env;
    ct_status_t st;

    memset(lib, 0, sizeof *lib);
    if (nccl_path == NULL && (env = getenv("COLLTUNE_NCCL_LIB")) != NULL && env[0])
        nccl_path = env;
    if (cudart_path == NULL && (env = getenv("COLLTUNE_CUDART_LIB")) != NULL && env[0])
        cudart_path = env;

    st = ct_nccl_load(nccl_path, ct_nccl_default_names, ct_nccl_symbols,
                      sizeof ct_nccl_symbols / sizeof ct_nccl_symbols[0], &lib->nccl,
                      &lib->nccl_handle, lib->nccl_path, sizeof lib->nccl_path, why, whylen);
    if (st != CT_OK)
        goto fail;

    int code = 0;
    ct_nccl_result_t rc = lib->nccl.ncclGetVersion(&code);
    if (rc != CT_NCCL_SUCCESS) {
        snprintf(why, whylen, "ncclGetVersion failed: %s (%d)", lib->nccl.ncclGetErrorString(rc),
                 rc);
        st = CT_ERR_UNAVAILABLE;
        goto fail_nccl;
    }
    lib->nccl_version_code = code;
    ct_nccl_version_text(code, lib->nccl_version, sizeof lib->nccl_version);
    if (code < CT_NCCL_MIN_VERSION_CODE) {
        snprintf(why, whylen, "NCCL %s is older than the minimum %s", lib->nccl_version,
                 CT_NCCL_MIN_VERSION_TEXT);
        st = CT_ERR_UNAVAILABLE;
        goto fail_nccl;
    }

    st = ct_nccl_load(cudart_path, ct_cudart_default_names, ct_cuda_symbols,
                      sizeof ct_cuda_symbols / sizeof ct_cuda_symbols[0], &lib->cuda,
                      &lib->cudart_handle, lib->cudart_path, sizeof lib->cudart_path, why, whylen);
    if (st != CT_OK)
        goto fail_nccl;
    return CT_OK;

fail_nccl:
    dlclose(lib->nccl_handle);
fail:
    memset(lib, 0, sizeof *lib);
    return st;
}

void ct_nccl_lib_close(ct_nccl_lib_t *lib)
{
    if (lib->cudart_handle)
        dlclose(lib->cudart_handle);
    if (lib->nccl_handle)
        dlclose(lib->nccl_handle);
    memset(lib, 0, sizeof *lib);
}
