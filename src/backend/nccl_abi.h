/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nccl_abi.h - the slice of NCCL's and the CUDA runtime's C ABI that the
 * nccl backend uses, declared here so that collbench builds and starts on
 * hosts without CUDA (see nccl_loader.c: both libraries are dlopen'd).
 *
 * Every name carries a ct_ prefix so that this header and nccl.h can share
 * a translation unit: nccl_abi_check.c includes both and proves with
 * _Static_assert that sizes, enum values and every function signature below
 * match the real headers, whenever configure found them (CT_HAVE_NCCL_H).
 *
 * The function lists are X-macros taking the types as parameters: the
 * loader instantiates them with the ct_ types to declare its function
 * pointers, and the check instantiates the same lists with nccl.h's types,
 * so one list is both the declaration and what gets checked.
 *
 * C enums are passed and returned as int-sized integers on every ABI CUDA
 * supports (x86-64 and aarch64), so enum types are declared as int here;
 * the check asserts their size.
 */
#ifndef CT_NCCL_ABI_H
#define CT_NCCL_ABI_H

#include <stddef.h>

/* ---- NCCL (nccl.h) ---- */

#define CT_NCCL_UNIQUE_ID_BYTES 128
typedef struct {
    char internal[CT_NCCL_UNIQUE_ID_BYTES];
} ct_nccl_unique_id_t;

/* Same tag as nccl.h, so the pointer types are identical, not just alike. */
typedef struct ncclComm *ct_nccl_comm_t;

typedef int ct_nccl_result_t; /* ncclResult_t */
enum {
    CT_NCCL_SUCCESS = 0,
    CT_NCCL_UNHANDLED_CUDA_ERROR = 1,
    CT_NCCL_SYSTEM_ERROR = 2,
    CT_NCCL_INTERNAL_ERROR = 3,
    CT_NCCL_INVALID_ARGUMENT = 4,
    CT_NCCL_INVALID_USAGE = 5,
    CT_NCCL_REMOTE_ERROR = 6,
    CT_NCCL_IN_PROGRESS = 7,
};

typedef int ct_nccl_dtype_t; /* ncclDataType_t */
enum {
    CT_NCCL_INT8 = 0,
    CT_NCCL_UINT8 = 1,
    CT_NCCL_INT32 = 2,
    CT_NCCL_UINT32 = 3,
    CT_NCCL_INT64 = 4,
    CT_NCCL_UINT64 = 5,
    CT_NCCL_FLOAT16 = 6,
    CT_NCCL_FLOAT32 = 7,
    CT_NCCL_FLOAT64 = 8,
    CT_NCCL_BFLOAT16 = 9, /* since NCCL 2.10 */
};

typedef int ct_nccl_redop_t; /* ncclRedOp_t */
enum {
    CT_NCCL_SUM = 0,
    CT_NCCL_PROD = 1,
    CT_NCCL_MAX = 2,
    CT_NCCL_MIN = 3,
    CT_NCCL_AVG = 4, /* since NCCL 2.10 */
};

/* NCCL_VERSION_CODE of the oldest libnccl the backend accepts, and why:
 * ncclAvg and bfloat16 need 2.10; 2.12 is the oldest release whose
 * ncclSend/ncclRecv grouping and ncclCommGetAsyncError behave as this
 * backend assumes, and nothing older is still shipped by NVIDIA. */
#define CT_NCCL_MIN_VERSION_CODE 21200
#define CT_NCCL_MIN_VERSION_TEXT "2.12.0"

/* ---- CUDA runtime (cuda_runtime_api.h, driver_types.h) ---- */

/* Same tag as driver_types.h's cudaStream_t. */
typedef struct CUstream_st *ct_cuda_stream_t;

typedef int ct_cuda_error_t; /* cudaError_t */
enum {
    CT_CUDA_SUCCESS = 0,
    CT_CUDA_ERROR_MEMORY_ALLOCATION = 2,
    CT_CUDA_ERROR_INSUFFICIENT_DRIVER = 35,
    CT_CUDA_ERROR_NO_DEVICE = 100,
};

typedef int ct_cuda_memcpy_kind_t; /* enum cudaMemcpyKind */
enum {
    CT_CUDA_MEMCPY_HOST_TO_DEVICE = 1,
    CT_CUDA_MEMCPY_DEVICE_TO_HOST = 2,
};

#define CT_CUDA_STREAM_NON_BLOCKING 0x01u /* cudaStreamNonBlocking */

/* ---- Functions: X(name, return type, (parameters)) ----
 * Required ones, in the order they are resolved (and so the order in which
 * a missing one is reported), then optional ones that may be NULL. */

#define CT_NCCL_FUNCTIONS(X, RES, COMM, UID, DT, OP, STREAM)                                       \
    X(ncclGetVersion, RES, (int *version))                                                         \
    X(ncclGetUniqueId, RES, (UID * unique_id))                                                     \
    X(ncclCommInitRank, RES, (COMM * comm, int nranks, UID comm_id, int rank))                     \
    X(ncclCommDestroy, RES, (COMM comm))                                                           \
    X(ncclCommAbort, RES, (COMM comm))                                                             \
    X(ncclAllReduce, RES,                                                                          \
      (const void *send, void *recv, size_t count, DT dtype, OP op, COMM comm, STREAM stream))     \
    X(ncclAllGather, RES,                                                                          \
      (const void *send, void *recv, size_t sendcount, DT dtype, COMM comm, STREAM stream))        \
    X(ncclReduceScatter, RES,                                                                      \
      (const void *send, void *recv, size_t recvcount, DT dtype, OP op, COMM comm, STREAM stream)) \
    X(ncclBroadcast, RES,                                                                          \
      (const void *send, void *recv, size_t count, DT dtype, int root, COMM comm, STREAM stream))  \
    X(ncclSend, RES,                                                                               \
      (const void *send, size_t count, DT dtype, int peer, COMM comm, STREAM stream))              \
    X(ncclRecv, RES, (void *recv, size_t count, DT dtype, int peer, COMM comm, STREAM stream))     \
    X(ncclGroupStart, RES, (void))                                                                 \
    X(ncclGroupEnd, RES, (void))                                                                   \
    X(ncclGetErrorString, const char *, (RES result))                                              \
    X(ncclCommGetAsyncError, RES, (COMM comm, RES * async_error))

#define CT_NCCL_OPTIONAL_FUNCTIONS(X, RES, COMM, UID, DT, OP, STREAM)                              \
    X(ncclGetLastError, const char *, (COMM comm)) /* since 2.13 */

/* Optional, since NCCL 2.28: a list of its own so that nccl_abi_check.c
 * checks it only against a header that declares it (nccl.h.in:460). */
#define CT_NCCL_OPTIONAL_FUNCTIONS_2_28(X, RES, COMM, UID, DT, OP, STREAM)                         \
    X(ncclAlltoAll, RES,                                                                           \
      (const void *send, void *recv, size_t count, DT dtype, COMM comm, STREAM stream))

#define CT_CUDA_FUNCTIONS(X, ERR, STREAM, KIND)                                                    \
    X(cudaGetDeviceCount, ERR, (int *count))                                                       \
    X(cudaSetDevice, ERR, (int device))                                                            \
    X(cudaMalloc, ERR, (void **ptr, size_t size))                                                  \
    X(cudaFree, ERR, (void *ptr))                                                                  \
    X(cudaMemcpyAsync, ERR, (void *dst, const void *src, size_t count, KIND kind, STREAM stream))  \
    X(cudaStreamCreateWithFlags, ERR, (STREAM * stream, unsigned int flags))                       \
    X(cudaStreamSynchronize, ERR, (STREAM stream))                                                 \
    X(cudaStreamDestroy, ERR, (STREAM stream))                                                     \
    X(cudaGetErrorString, const char *, (ERR error))                                               \
    X(cudaDeviceGetPCIBusId, ERR, (char *pci_bus_id, int len, int device))

#define CT_CUDA_OPTIONAL_FUNCTIONS(X, ERR, STREAM, KIND)                                           \
    X(cudaRuntimeGetVersion, ERR, (int *version))

#endif
