/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * abi.h - the slice of NCCL's tuner-plugin ABI that this plugin speaks.
 *
 * NCCL does not install its plugin headers, and nccl.h drags in the CUDA
 * runtime headers, so the types are declared here from NCCL 2.28's
 * src/include/nccl_common.h, src/include/plugin/nccl_tuner.h and
 * src/include/plugin/tuner/tuner_v{3,4,5}.h.  Only values and layouts
 * matter for the ABI; the static assertions below pin the layouts so that a
 * careless edit cannot change them.
 */
#ifndef CT_PLUGIN_ABI_H
#define CT_PLUGIN_ABI_H

#include <stddef.h>
#include <stdint.h>

/* nccl.h: the result codes NCCL checks on every plugin call. */
typedef enum {
    ncclSuccess = 0,
    ncclUnhandledCudaError = 1,
    ncclSystemError = 2,
    ncclInternalError = 3,
    ncclInvalidArgument = 4,
    ncclInvalidUsage = 5,
    ncclRemoteError = 6,
    ncclInProgress = 7,
    ncclNumResults = 8
} ncclResult_t;

/* nccl_common.h: logging.  TRACE lines show only in NCCL's debug builds. */
typedef enum {
    NCCL_LOG_NONE = 0,
    NCCL_LOG_VERSION = 1,
    NCCL_LOG_WARN = 2,
    NCCL_LOG_INFO = 3,
    NCCL_LOG_ABORT = 4,
    NCCL_LOG_TRACE = 5
} ncclDebugLogLevel;

/* Subsystem flags (a bit mask, filtered by NCCL_DEBUG_SUBSYS); the plugin
 * only ever logs as NCCL_TUNING. */
#define NCCL_INIT 0x1UL
#define NCCL_TUNING 0x40UL

typedef void (*ncclDebugLogger_t)(ncclDebugLogLevel level, unsigned long flags, const char *file,
                                  int line, const char *fmt, ...);

/* nccl_common.h: the collective being tuned.  Values after ncclFuncRecv
 * vary between NCCL releases and are never tunable, so they are omitted. */
typedef enum {
    ncclFuncBroadcast = 0,
    ncclFuncReduce = 1,
    ncclFuncAllGather = 2,
    ncclFuncReduceScatter = 3,
    ncclFuncAllReduce = 4,
    ncclFuncSendRecv = 5,
    ncclFuncSend = 6,
    ncclFuncRecv = 7
} ncclFunc_t;

/* nccl_tuner.h: rows and columns of the cost table. */
#define NCCL_ALGO_UNDEF -1
#define NCCL_ALGO_TREE 0
#define NCCL_ALGO_RING 1
#define NCCL_ALGO_COLLNET_DIRECT 2
#define NCCL_ALGO_COLLNET_CHAIN 3
#define NCCL_ALGO_NVLS 4
#define NCCL_ALGO_NVLS_TREE 5
#define NCCL_ALGO_PAT 6
#define NCCL_NUM_ALGORITHMS 7

#define NCCL_PROTO_UNDEF -1
#define NCCL_PROTO_LL 0
#define NCCL_PROTO_LL128 1
#define NCCL_PROTO_SIMPLE 2
#define NCCL_NUM_PROTOCOLS 3

/* A cost-table entry NCCL has ruled out for this call. */
#define NCCL_ALGO_PROTO_IGNORE -1.0

/* tuner_v5.h: inputs NCCL passes to init() and nothing else reads here. */
#define NCCL_NUM_HW_LINKS_V5 3
#define NCCL_NUM_COMPCAPS_V5 4
#define NCCL_NUM_TUNING_SCALES_V5 3

typedef struct {
    int nNvlDomains;
    int minRanksPerNvlDomain;
    int maxRanksPerNvlDomain;
} ncclNvlDomainInfo_v5_t;

typedef struct {
    double baseLatencies[NCCL_NUM_ALGORITHMS][NCCL_NUM_PROTOCOLS];
    double hwLatencies[NCCL_NUM_HW_LINKS_V5][NCCL_NUM_ALGORITHMS][NCCL_NUM_PROTOCOLS];
    double llMaxBws[NCCL_NUM_COMPCAPS_V5][NCCL_NUM_TUNING_SCALES_V5];
    double perChMaxRingLL128Bws[NCCL_NUM_COMPCAPS_V5][NCCL_NUM_TUNING_SCALES_V5];
    double perChMaxTreeLL128Bws[NCCL_NUM_COMPCAPS_V5][NCCL_NUM_TUNING_SCALES_V5];
    double perChMaxTreeBws[NCCL_NUM_COMPCAPS_V5][NCCL_NUM_TUNING_SCALES_V5];
    double perChMaxNVLSTreeBws[NCCL_NUM_COMPCAPS_V5][NCCL_NUM_TUNING_SCALES_V5];
} ncclTunerConstants_v5_t;

/*
 * The three plugin tables NCCL 2.28 looks up, newest first.  collCostTable
 * is really a contiguous float[numAlgo][numProto] that NCCL casts to
 * float **; it is never an array of row pointers.
 */
typedef struct {
    const char *name;
    ncclResult_t (*init)(void **ctx, uint64_t commId, size_t nRanks, size_t nNodes,
                         ncclDebugLogger_t logFunction, ncclNvlDomainInfo_v5_t *nvlDomainInfo,
                         ncclTunerConstants_v5_t *constants);
    ncclResult_t (*getCollInfo)(void *ctx, ncclFunc_t collType, size_t nBytes, int numPipeOps,
                                float **collCostTable, int numAlgo, int numProto, int regBuff,
                                int *nChannels);
    ncclResult_t (*finalize)(void *ctx);
} ncclTuner_v5_t;

typedef struct {
    const char *name;
    ncclResult_t (*init)(size_t nRanks, size_t nNodes, ncclDebugLogger_t logFunction, void **ctx);
    ncclResult_t (*getCollInfo)(void *ctx, ncclFunc_t collType, size_t nBytes, int numPipeOps,
                                float **collCostTable, int numAlgo, int numProto, int regBuff,
                                int *nChannels);
    ncclResult_t (*destroy)(void *ctx);
} ncclTuner_v4_t;

typedef struct {
    const char *name;
    ncclResult_t (*init)(size_t nRanks, size_t nNodes, ncclDebugLogger_t logFunction, void **ctx);
    ncclResult_t (*getCollInfo)(void *ctx, ncclFunc_t collType, size_t nBytes, int numPipeOps,
                                float **collCostTable, int numAlgo, int numProto, int *nChannels);
    ncclResult_t (*destroy)(void *ctx);
} ncclTuner_v3_t;

_Static_assert(sizeof(ncclFunc_t) == sizeof(int), "ncclFunc_t is an int");
_Static_assert(sizeof(ncclResult_t) == sizeof(int), "ncclResult_t is an int");
_Static_assert(sizeof(ncclNvlDomainInfo_v5_t) == 3 * sizeof(int),
               "ncclNvlDomainInfo_v5_t is three ints");
_Static_assert(sizeof(ncclTunerConstants_v5_t) == sizeof(double) * (7 * 3 + 3 * 7 * 3 + 5 * 4 * 3),
               "ncclTunerConstants_v5_t is 144 doubles");
_Static_assert(sizeof(ncclTuner_v5_t) == 4 * sizeof(void *),
               "plugin tables are a name and three function pointers");

/* Marks the few symbols NCCL dlsym()s; everything else stays hidden. */
#if defined(__GNUC__)
#define CT_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define CT_PLUGIN_EXPORT
#endif

#endif
