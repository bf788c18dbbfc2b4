/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nccl_loader.h - finds, dlopens and checks libnccl and the CUDA runtime.
 *
 * collbench never links NCCL or CUDA: a binary linked against them does
 * not start on a host without CUDA.  This module loads both at run time,
 * resolves every function the nccl backend calls, and checks the NCCL
 * version.  It is local to one process (no MPI); the backend makes the
 * ranks agree on the outcome.
 *
 * Where a library comes from, first match wins:
 *   1. the explicit path (--nccl-lib / --cudart-lib),
 *   2. $COLLTUNE_NCCL_LIB / $COLLTUNE_CUDART_LIB,
 *   3. the dynamic loader's search for libnccl.so.2, libnccl.so (and
 *      libcudart.so.13, .so.12, libcudart.so), then the same names under
 *      /usr/local/cuda/lib64.
 * An explicit path or variable is the only candidate: a typo must fail,
 * not silently fall back to another library.
 */
#ifndef CT_NCCL_LOADER_H
#define CT_NCCL_LOADER_H

#include <stddef.h>
#include "ct_status.h"
#include "nccl_abi.h"

#define CT_NCCL_FN_MEMBER(name, ret, params) ret(*name) params;

typedef struct {
    CT_NCCL_FUNCTIONS(CT_NCCL_FN_MEMBER, ct_nccl_result_t, ct_nccl_comm_t, ct_nccl_unique_id_t,
                      ct_nccl_dtype_t, ct_nccl_redop_t, ct_cuda_stream_t)
    CT_NCCL_OPTIONAL_FUNCTIONS(CT_NCCL_FN_MEMBER, ct_nccl_result_t, ct_nccl_comm_t,
                               ct_nccl_unique_id_t, ct_nccl_dtype_t, ct_nccl_redop_t,
                               ct_cuda_stream_t)
    CT_NCCL_OPTIONAL_FUNCTIONS_2_28(CT_NCCL_FN_MEMBER, ct_nccl_result_t, ct_nccl_comm_t,
                                    ct_nccl_unique_id_t, ct_nccl_dtype_t, ct_nccl_redop_t,
                                    ct_cuda_stream_t)
} ct_nccl_api_t;

typedef struct {
    CT_CUDA_FUNCTIONS(CT_NCCL_FN_MEMBER, ct_cuda_error_t, ct_cuda_stream_t, ct_cuda_memcpy_kind_t)
    CT_CUDA_OPTIONAL_FUNCTIONS(CT_NCCL_FN_MEMBER, ct_cuda_error_t, ct_cuda_stream_t,
                               ct_cuda_memcpy_kind_t)
} ct_cuda_api_t;

#define CT_NCCL_PATH_MAX 512

typedef struct {
    void *nccl_handle;
    void *cudart_handle;
    char nccl_path[CT_NCCL_PATH_MAX]; /* the file actually mapped */
    char cudart_path[CT_NCCL_PATH_MAX];
    int nccl_version_code; /* NCCL_VERSION_CODE, e.g. 22809 */
    char nccl_version[32]; /* "2.28.9" */
    ct_nccl_api_t nccl;
    ct_cuda_api_t cuda;
} ct_nccl_lib_t;

/* Loads both libraries and checks them, in this order: load libnccl,
 * resolve its symbols, check its version, load libcudart, resolve its
 * symbols.  NULL paths mean "no explicit path".  On failure returns
 * CT_ERR_UNAVAILABLE with why set to one of (exact texts, tests match):
 *   "cannot load <name>: <dlerror>"          (default search adds
 *                                             " (also tried a, b, ...)")
 *   "<path> lacks symbol <symbol>"
 *   "ncclGetVersion failed: <text> (<code>)"
 *   "NCCL <x.y.z> is older than the minimum 2.12.0"
 * and leaves *lib zeroed with nothing loaded. */
ct_status_t ct_nccl_lib_open(const char *nccl_path, const char *cudart_path, ct_nccl_lib_t *lib,
                             char *why, size_t whylen);

/* Drops the references taken by ct_nccl_lib_open.  The libraries were
 * opened RTLD_NODELETE, so they stay mapped: NCCL's and the CUDA driver's
 * threads may outlive the communicator and must not run in unmapped code. */
void ct_nccl_lib_close(ct_nccl_lib_t *lib);

/* "2.28.9" from 22809 (and "2.8.4" from the pre-2.9 code 2804). */
void ct_nccl_version_text(int code, char *buf, size_t buflen);

#endif
