/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * stub_cudart.c - a CUDA runtime stand-in on host memory, for the nccl
 * backend's tests on machines without a GPU.
 *
 * $STUB_CUDA_DEVICES devices (default 1), device d on PCI bus
 * "0000:<d+1>:00.0"; "memory" is malloc'd, copies are memcpy, streams are
 * dummies and everything completes at once.  Types are plain C.
 *
 * STUB_CUDA_LOG=PATH: cudaStreamDestroy appends "memcpy=M sync=S" (the
 * cudaMemcpyAsync and cudaStreamSynchronize calls so far) to PATH.RANK,
 * RANK from $OMPI_COMM_WORLD_RANK (else the pid): which host-side CUDA
 * work the nccl backend does, counted.
 * STUB_CUDA_SYNC_US (default 0): every cudaStreamSynchronize sleeps that
 * many µs, a per-batch overhead of known size for batch mode's tests.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int stub_devices(void)
{
    const char *s = getenv("STUB_CUDA_DEVICES");
    return s ? atoi(s) : 1;
}

int cudaGetDeviceCount(int *count)
{
    *count = stub_devices();
    return 0;
}

int cudaSetDevice(int device)
{
    return device >= 0 && device < stub_devices() ? 0 : 101; /* cudaErrorInvalidDevice */
}

int cudaMalloc(void **ptr, size_t size)
{
    *ptr = malloc(size);
    return *ptr ? 0 : 2; /* cudaErrorMemoryAllocation */
}

int cudaFree(void *ptr)
{
    free(ptr);
    return 0;
}

/* A test double may keep state: the call counts STUB_CUDA_LOG writes. */
static long long stub_memcpys, stub_syncs;

int cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind, void *stream)
{
    stub_memcpys++;
    (void)kind;
    (void)stream;
    memmove(dst, src, count);
    return 0;
}

static char stub_stream;

int cudaStreamCreateWithFlags(void **stream, unsigned int flags)
{
    (void)flags;
    *stream = &stub_stream;
    return 0;
}

int cudaStreamSynchronize(void *stream)
{
    stub_syncs++;
    (void)stream;
    const char *s = getenv("STUB_CUDA_SYNC_US");
    long us = s ? atol(s) : 0;
    if (us > 0) {
        struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
        nanosleep(&ts, NULL);
    }
    return 0;
}

int cudaStreamDestroy(void *stream)
{
    const char *base = getenv("STUB_CUDA_LOG"), *rank = getenv("OMPI_COMM_WORLD_RANK");
    char path[4096];
    FILE *fp;
    (void)stream;
    if (base &&
        (rank ? snprintf(path, sizeof path, "%s.%s", base, rank)
              : snprintf(path, sizeof path, "%s.%ld", base, (long)getpid())) < (int)sizeof path &&
        (fp = fopen(path, "a")) != NULL) {
        fprintf(fp, "memcpy=%lld sync=%lld\n", stub_memcpys, stub_syncs);
        fclose(fp);
    }
    return 0;
}

const char *cudaGetErrorString(int error) { return error == 0 ? "no error" : "stub error"; }

int cudaDeviceGetPCIBusId(char *buf, int len, int device)
{
    snprintf(buf, (size_t)len, "0000:%02x:00.0", device + 1);
    return 0;
}

int cudaRuntimeGetVersion(int *version)
{
    *version = 13000;
    return 0;
}
