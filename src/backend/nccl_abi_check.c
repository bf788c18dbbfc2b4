/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nccl_abi_check.c - proves at compile time that nccl_abi.h matches the
 * real nccl.h and cuda_runtime.h.  It generates no code.
 *
 * Built whenever configure found both headers (CT_HAVE_NCCL_H; the include
 * path comes from CT_CUDA_CPPFLAGS).  cuda_runtime.h compiles as plain C11
 * under mpicc -std=c11 -D_POSIX_C_SOURCE=200809L (checked with CUDA 13.0),
 * so no GNU mode is needed here.  Without the headers the checks are
 * skipped and the backend relies on its declarations alone.
 */
#include "config.h"

#include "nccl_abi.h"

#ifdef CT_HAVE_NCCL_H
/* nccl.h declares ncclGroupStart() and friends without a prototype; keep
 * that from warning should someone build with -Wstrict-prototypes. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include <cuda_runtime.h>
#include <nccl.h>
#pragma GCC diagnostic pop

/* Types: sizes, and pointer types that are the very same type. */
_Static_assert(NCCL_UNIQUE_ID_BYTES == CT_NCCL_UNIQUE_ID_BYTES, "NCCL_UNIQUE_ID_BYTES");
_Static_assert(sizeof(ncclUniqueId) == sizeof(ct_nccl_unique_id_t), "sizeof ncclUniqueId");
_Static_assert(_Alignof(ncclUniqueId) == _Alignof(ct_nccl_unique_id_t), "_Alignof ncclUniqueId");
_Static_assert(_Generic((ncclComm_t)0, ct_nccl_comm_t : 1, default : 0), "ncclComm_t");
_Static_assert(_Generic((cudaStream_t)0, ct_cuda_stream_t : 1, default : 0), "cudaStream_t");
_Static_assert(sizeof(ncclResult_t) == sizeof(ct_nccl_result_t), "sizeof ncclResult_t");
_Static_assert(sizeof(ncclDataType_t) == sizeof(ct_nccl_dtype_t), "sizeof ncclDataType_t");
_Static_assert(sizeof(ncclRedOp_t) == sizeof(ct_nccl_redop_t), "sizeof ncclRedOp_t");
_Static_assert(sizeof(cudaError_t) == sizeof(ct_cuda_error_t), "sizeof cudaError_t");
_Static_assert(sizeof(enum cudaMemcpyKind) == sizeof(ct_cuda_memcpy_kind_t),
               "sizeof cudaMemcpyKind");

/* Enum values. */
#define CT_CHECK_VALUE(ours, theirs)                                                               \
    _Static_assert((long long)(ours) == (long long)(theirs), #ours " == " #theirs);
CT_CHECK_VALUE(CT_NCCL_SUCCESS, ncclSuccess)
CT_CHECK_VALUE(CT_NCCL_UNHANDLED_CUDA_ERROR, ncclUnhandledCudaError)
CT_CHECK_VALUE(CT_NCCL_SYSTEM_ERROR, ncclSystemError)
CT_CHECK_VALUE(CT_NCCL_INTERNAL_ERROR, ncclInternalError)
CT_CHECK_VALUE(CT_NCCL_INVALID_ARGUMENT, ncclInvalidArgument)
CT_CHECK_VALUE(CT_NCCL_INVALID_USAGE, ncclInvalidUsage)
CT_CHECK_VALUE(CT_NCCL_REMOTE_ERROR, ncclRemoteError)
CT_CHECK_VALUE(CT_NCCL_IN_PROGRESS, ncclInProgress)
CT_CHECK_VALUE(CT_NCCL_INT8, ncclInt8)
CT_CHECK_VALUE(CT_NCCL_UINT8, ncclUint8)
CT_CHECK_VALUE(CT_NCCL_INT32, ncclInt32)
CT_CHECK_VALUE(CT_NCCL_UINT32, ncclUint32)
CT_CHECK_VALUE(CT_NCCL_INT64, ncclInt64)
CT_CHECK_VALUE(CT_NCCL_UINT64, ncclUint64)
CT_CHECK_VALUE(CT_NCCL_FLOAT16, ncclFloat16)
CT_CHECK_VALUE(CT_NCCL_FLOAT32, ncclFloat32)
CT_CHECK_VALUE(CT_NCCL_FLOAT64, ncclFloat64)
CT_CHECK_VALUE(CT_NCCL_BFLOAT16, ncclBfloat16)
CT_CHECK_VALUE(CT_NCCL_SUM, ncclSum)
CT_CHECK_VALUE(CT_NCCL_PROD, ncclProd)
CT_CHECK_VALUE(CT_NCCL_MAX, ncclMax)
CT_CHECK_VALUE(CT_NCCL_MIN, ncclMin)
CT_CHECK_VALUE(CT_NCCL_AVG, ncclAvg)
CT_CHECK_VALUE(CT_CUDA_SUCCESS, cudaSuccess)
CT_CHECK_VALUE(CT_CUDA_ERROR_MEMORY_ALLOCATION, cudaErrorMemoryAllocation)
CT_CHECK_VALUE(CT_CUDA_ERROR_INSUFFICIENT_DRIVER, cudaErrorInsufficientDriver)
CT_CHECK_VALUE(CT_CUDA_ERROR_NO_DEVICE, cudaErrorNoDevice)
CT_CHECK_VALUE(CT_CUDA_MEMCPY_HOST_TO_DEVICE, cudaMemcpyHostToDevice)
CT_CHECK_VALUE(CT_CUDA_MEMCPY_DEVICE_TO_HOST, cudaMemcpyDeviceToHost)
CT_CHECK_VALUE(CT_CUDA_STREAM_NON_BLOCKING, cudaStreamNonBlocking)
/* The header this was built against must itself be new enough. */
CT_CHECK_VALUE(NCCL_VERSION_CODE >= CT_NCCL_MIN_VERSION_CODE, 1)
CT_CHECK_VALUE(NCCL_VERSION(2, 12, 0), CT_NCCL_MIN_VERSION_CODE)

/* Signatures: the same lists the loader uses, instantiated with nccl.h's
 * types, must name functions of exactly that type.  Together with the
 * type checks above this proves the loader's function pointers. */
#define CT_CHECK_SIGNATURE(name, ret, params)                                                      \
    _Static_assert(_Generic(&name, ret(*) params : 1, default : 0), "signature of " #name);
CT_NCCL_FUNCTIONS(CT_CHECK_SIGNATURE, ncclResult_t, ncclComm_t, ncclUniqueId, ncclDataType_t,
                  ncclRedOp_t, cudaStream_t)
CT_NCCL_OPTIONAL_FUNCTIONS(CT_CHECK_SIGNATURE, ncclResult_t, ncclComm_t, ncclUniqueId,
                           ncclDataType_t, ncclRedOp_t, cudaStream_t)
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 28, 0)
CT_NCCL_OPTIONAL_FUNCTIONS_2_28(CT_CHECK_SIGNATURE, ncclResult_t, ncclComm_t, ncclUniqueId,
                                ncclDataType_t, ncclRedOp_t, cudaStream_t)
#endif
CT_CUDA_FUNCTIONS(CT_CHECK_SIGNATURE, cudaError_t, cudaStream_t, enum cudaMemcpyKind)
CT_CUDA_OPTIONAL_FUNCTIONS(CT_CHECK_SIGNATURE, cudaError_t, cudaStream_t, enum cudaMemcpyKind)

#endif /* CT_HAVE_NCCL_H */

/* ISO C wants at least one declaration in a translation unit. */
typedef int ct_nccl_abi_check_unit_t;
