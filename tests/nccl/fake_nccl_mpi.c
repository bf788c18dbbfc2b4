/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fake_nccl_mpi.c - a libnccl test double: NCCL's C API over MPI, on host
 * memory, for the nccl backend's tests (tests/mpi/nccl_*.sh,
 * colltune_tune_nccl.sh).
 *
 * With stub_cudart.c (malloc for cudaMalloc) it lets the nccl backend run
 * a whole sweep on a machine without a GPU, so the agreement, the calls'
 * counts and pointers (in place and out of place), grouped send/recv,
 * describe() and close() are exercised end to end.  No kernels, no streams
 * (every call completes before it returns); NCCL's semantics as documented,
 * including its in-place layouts.  Every type of NCCL 2.28 but the two fp8
 * ones (10, 11) is implemented, every built-in op on each: half (6) and
 * bfloat16 (9) are reduced in float and rounded back to nearest-even at
 * each combining step, avg on integers sums in the type and divides
 * truncating toward zero (NCCL's SumPostDiv), avg on floats sums and then
 * divides (NCCL pre-multiplies by 1/n: equal within a rounding).
 *
 * What it does take from NCCL is which calls NCCL refuses, and which
 * algorithm and protocol it picks, so that NCCL_ALGO/NCCL_PROTO values and
 * colltune's tuner plugin can be tested against NCCL's own rules.  The
 * rules are read from NCCL v2.28.9-1 (paths under src/, line numbers of
 * that tag); NCCL's code is not copied, only its behaviour:
 *
 *  - Names and indices: functions Broadcast 0, Reduce 1, AllGather 2,
 *    ReduceScatter 3, AllReduce 4 (include/nccl_common.h:59-64; the
 *    spellings of ncclFuncStr, init.cc:49, are ncclFuncToString's,
 *    collectives.cc:13); algorithms Tree 0, Ring 1, CollNetDirect 2,
 *    CollNetChain 3, NVLS 4, NVLSTree 5, PAT 6 and protocols LL 0, LL128 1,
 *    Simple 2 (ncclAlgoStr/ncclProtoStr, init.cc:50-51); datatypes as
 *    nccl.h.in:300-312, printed as ncclDatatypeToString does
 *    (collectives.cc:41), which has no case for ncclUint8: "Unknown".
 *  - NCCL_ALGO and NCCL_PROTO are parsed at communicator init, NCCL_PROTO
 *    first, as parseList does (graph/tuning.cc:54-126, called at :419-428):
 *    ';' between entries, an optional "func:" prefix compared without case
 *    with ncclFuncStr, ',' between elements compared without case with the
 *    algorithm or protocol names, a leading '^' enables all but the listed
 *    ones.  Errors fail the init with ncclInvalidUsage and NCCL's WARN:
 *    an entry after the first without a prefix (:71, "All entries except
 *    the first must have a prefix"), an unknown element (:104, so
 *    "allreduce:tree,broadcast:ring" fails on the element
 *    "broadcast:ring"), an unknown prefix (:114).  With one rank NCCL
 *    returns before parsing (:247): nothing is refused.
 *  - Which algorithm and protocol each function can use
 *    (ncclTopoTuneModel, graph/tuning.cc:273-312, and the kernels that
 *    exist, device/generate.py:79-86):
 *      Broadcast, Reduce:         Ring; LL, LL128, Simple.
 *      AllGather, ReduceScatter:  Ring (LL, LL128, Simple); PAT (Simple
 *                                 only, and only where ncclPatEnable,
 *                                 :202-209, says so: NCCL_PAT_ENABLE=0/1
 *                                 forces it, else one rank per node);
 *                                 NVLS and CollNetDirect (Simple).
 *      AllReduce:                 Tree, Ring (LL, LL128, Simple); CollNet-
 *                                 Direct, CollNetChain, NVLS, NVLSTree
 *                                 (Simple); never PAT.
 *    The double's "hardware" is Hopper GPUs on NVLink, one per rank, with
 *    neither NVLS (NVLink SHARP: ncclTopoTuneModel skips NVLS and NVLSTree
 *    with fewer than 2 NVLS channels, :288) nor CollNet (collnetEnable 0
 *    disables both CollNets, :467-471).  LL128 is enabled by default on
 *    Hopper up to PXN and over NVLink (:479-494): here always (NCCL built
 *    with CUDA 12 or later; an 11.8 build drops it for a 2-rank Ring
 *    AllReduce); a listed LL128 in NCCL_PROTO is enabled whatever the
 *    topology.
 *  - Per call (enqueue.cc): empty calls are discarded before any choice
 *    (:2555); with one rank NCCL copies (:2569) and asks nobody: counted
 *    here as Ring/Simple, as updateCollCostTable's one-rank table (:1791)
 *    has it.  Otherwise the cost table float[7][3] starts all
 *    NCCL_ALGO_PROTO_IGNORE (-1), every usable and enabled entry gets a
 *    cost, except PAT for a ReduceScatter with avg (:1805, its only
 *    datatype/op refusal besides NVLS's, which this hardware lacks); a
 *    tuner plugin may then change it (:1942), and topoGetAlgoInfo
 *    (:1822-1861) takes the cheapest entry >= 0.  None: the call fails
 *    with ncclInvalidUsage if NCCL_ALGO or NCCL_PROTO is set in the
 *    environment at that moment (ncclGetEnv, read at the call, not at
 *    init), else ncclInternalError, with the WARN "Error : no
 *    algorithm/protocol available for function F with datatype T." and
 *    " NCCL_ALGO was set to V." / " NCCL_PROTO was set to V." (:1859).
 *    AllGather and Broadcast count in bytes, as ncclInt8 (:2476-2479).
 *    The communicator stays usable.
 *  - The cost model is the double's own: time = lat + bytes/(1000*bw) us
 *    with lat 5/6/4 us and bw 10/18/20 GB/s for LL/LL128/Simple, Tree +1 us
 *    and bw x0.9, PAT +2 us and bw x0.75.  Ring/Simple is cheapest for
 *    every size, so it is the default; without Simple, LL wins small
 *    sizes and LL128 large ones.
 *  - Tuner plugin (plugin/tuner.cc, plugin/plugin_open.cc): loaded once per
 *    process by the first init and shared until the last communicator
 *    using it is destroyed; a failed load is never retried.
 *    NCCL_TUNER_PLUGIN=none loads nothing; unset tries libnccl-tuner.so;
 *    else the value is dlopen'ed as given, then as libnccl-tuner-VALUE.so
 *    unless it holds a '/' or is already lib*.so.  Only
 *    ncclTunerPlugin_v5 is looked up (NCCL would fall back to v4..v2, and
 *    to the net plugin's library).  init(ctx, commHash, nRanks, nNodes,
 *    logger, nvlDomainInfo, constants) runs at every init (init.cc:1354;
 *    a failure fails the init; constants are all zero here: the double has
 *    no NCCL model), getCollInfo at every call with numPipeOps 1 and
 *    regBuff 0, finalize at destroy (init.cc:2256).  The logger is this
 *    double's NCCL debug log.
 *  - Debug log (debug.cc): NCCL_DEBUG (unset: nothing printed) and
 *    NCCL_DEBUG_SUBSYS read once; lines go to stdout, or NCCL_DEBUG_FILE
 *    (%h, %p expanded); a WARN is "\n[%F %T] host:pid:tid [dev] file:line
 *    NCCL WARN msg" (timestamps only on WARN, NCCL's default), an INFO
 *    "host:pid:tid [dev] NCCL INFO msg".  Every WARN, printed or not, is
 *    what ncclGetLastError returns (debug.cc:283-288).
 *  - Arguments (misc/argcheck.cc:45-69): a bad root, datatype or op is
 *    ncclInvalidArgument with NCCL's WARN.
 *  - NCCL_CONF_FILE (else ~/.nccl.conf), then /etc/nccl.conf, are read
 *    into the environment once, without overriding it (misc/param.cc:54).
 *
 * Knobs of the double (read at each init, so per communicator):
 *   - FAKE_NCCL_INIT_LOG=PATH: every init appends "comm=N NCCL_ALGO=...
 *     NCCL_PROTO=... NCCL_TUNER_CONFIG_FILE=..." ("(unset)" where unset) to
 *     PATH.RANK, N counting this process's communicators from 0; a failed
 *     init then "comm=N init failed: RC TEXT"; every destroy first "comm=N
 *     ran FUNC/ALGO/PROTO=COUNT ... refused=R" (each selection that ran,
 *     ordered by function, algorithm, protocol; R calls refused) and then
 *     "comm=N destroyed calls=C" (collective calls that ran) with the same
 *     three variables as they are then; before those, "comm=N calls
 *     ncclAllReduce=C ... ncclCommGetAsyncError=C ncclGroupStart=G": the
 *     calls of each entry point on that communicator (ncclGroupStart's,
 *     which has none, in the whole process; ncclAlltoAll.in_place counts
 *     the ncclAlltoAll calls with send == recv);
 *   - FAKE_NCCL_SLOW_ALGO=NAME[,NAME...], FAKE_NCCL_SLOW_PROTO=NAME[,...]
 *     (names without case) with FAKE_NCCL_SLOW_US=US: every call whose
 *     selected algorithm is listed (any, if only PROTO is set) and whose
 *     protocol is listed (any, if only ALGO is set) sleeps US microseconds;
 *     FAKE_NCCL_SLOW_BYTES=MIN:MAX limits that to calls whose size (NCCL's
 *     nBytes: count times type size, times ranks for AllGather and
 *     ReduceScatter) is in [MIN, MAX];
 *   - FAKE_NCCL_FAIL_FUNC=NAME: every call of that function (ncclFuncStr
 *     name, without case) fails with ncclInvalidArgument, a failure NCCL
 *     has no way to produce from collbench's arguments.
 * Built with -DFAKE_NCCL_NO_ALLTOALL it is an NCCL 2.27.7 without
 * ncclAlltoAll (ct_build_fake_nccl's libnccl-fake-noa2a.so).
 * None of this says how fast anything is on a GPU.
 *
 * Built by the tests with mpicc -shared -fPIC; it joins the MPI library
 * that collbench already initialised.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum {
    OK = 0,
    SYSTEM_ERROR = 2,
    INTERNAL_ERROR = 3,
    INVALID_ARGUMENT = 4,
    INVALID_USAGE = 5,
};

/* NCCL's tables (see the top); indices are NCCL's. */
enum { F_BROADCAST, F_REDUCE, F_ALLGATHER, F_REDUCESCATTER, F_ALLREDUCE, NFUNCS };
enum { A_TREE, A_RING, A_COLLNET_DIRECT, A_COLLNET_CHAIN, A_NVLS, A_NVLS_TREE, A_PAT, NALGOS };
enum { P_LL, P_LL128, P_SIMPLE, NPROTOS };
/* Entry points the call log counts (FAKE_NCCL_INIT_LOG's "calls" line). */
enum {
    API_ALLREDUCE,
    API_ALLGATHER,
    API_REDUCESCATTER,
    API_BROADCAST,
    API_ALLTOALL,
    API_SEND,
    API_RECV,
    API_ASYNC_ERROR,
    API_ALLTOALL_IN_PLACE,
    NAPIS
};
static const char *const fake_api_str[NAPIS] = {
    "ncclAllReduce", "ncclAllGather",         "ncclReduceScatter",
    "ncclBroadcast", "ncclAlltoAll",          "ncclSend",
    "ncclRecv",      "ncclCommGetAsyncError", "ncclAlltoAll.in_place"};
static const char *const fake_func_str[NFUNCS] = {"Broadcast", "Reduce", "AllGather",
                                                  "ReduceScatter", "AllReduce"};
static const char *const fake_algo_str[NALGOS] = {
    "Tree", "Ring", "CollNetDirect", "CollNetChain", "NVLS", "NVLSTree", "PAT"};
static const char *const fake_proto_str[NPROTOS] = {"LL", "LL128", "Simple"};

enum { T_FLOAT16 = 6, T_FLOAT32 = 7, T_FLOAT64 = 8, T_BFLOAT16 = 9, T_NUM = 12 };
enum { OP_SUM, OP_PROD, OP_MAX, OP_MIN, OP_AVG, OP_NUM };

#define FAKE_IGNORE (-1.0f) /* NCCL_ALGO_PROTO_IGNORE */

/* nccl_common.h's debug levels and the subsystems the double logs as. */
enum { LOG_NONE, LOG_VERSION, LOG_WARN, LOG_INFO, LOG_ABORT, LOG_TRACE };
#define SUB_INIT 0x1UL
#define SUB_TUNING 0x40UL
#define SUB_ENV 0x80UL
#define SUB_BOOTSTRAP 0x1000UL

typedef struct {
    char internal[128];
} fake_unique_id_t;

/* tuner_v5.h, as tuner/plugin/abi.h declares it. */
typedef void (*fake_logger_t)(int level, unsigned long flags, const char *file, int line,
                              const char *fmt, ...);
typedef struct {
    int nNvlDomains;
    int minRanksPerNvlDomain;
    int maxRanksPerNvlDomain;
} fake_nvl_info_t;
typedef struct {
    double values[7 * 3 + 3 * 7 * 3 + 5 * 4 * 3]; /* ncclTunerConstants_v5_t: 144 doubles */
} fake_tuner_constants_t;
typedef struct {
    const char *name;
    int (*init)(void **ctx, uint64_t commId, size_t nRanks, size_t nNodes, fake_logger_t logger,
                fake_nvl_info_t *nvl, fake_tuner_constants_t *constants);
    int (*getCollInfo)(void *ctx, int collType, size_t nBytes, int numPipeOps,
                       float **collCostTable, int numAlgo, int numProto, int regBuff,
                       int *nChannels);
    int (*finalize)(void *ctx);
} fake_tuner_v5_t;

typedef struct {
    MPI_Comm comm;
    int rank;
    int nranks;
    int nnodes;
    int index; /* this process's communicators, from 0 */
    uint64_t hash;
    /* usable[f][a][p]: on this hardware and enabled by NCCL_ALGO/NCCL_PROTO */
    unsigned char usable[NFUNCS][NALGOS][NPROTOS];
    void *tuner_ctx;
    int has_tuner;
    fake_nvl_info_t nvl;
    fake_tuner_constants_t constants;
    /* FAKE_NCCL_SLOW_*: which selections sleep, and for how long */
    unsigned char slow_algo[NALGOS];
    unsigned char slow_proto[NPROTOS];
    long slow_us;
    unsigned long long slow_min, slow_max;
    int fail_func;     /* FAKE_NCCL_FAIL_FUNC, or -1 */
    long long calls;   /* collective calls that ran */
    long long refused; /* ... that no algorithm/protocol was left for */
    long long ran[NFUNCS][NALGOS][NPROTOS];
    long long api[NAPIS]; /* calls of each entry point, for the call log */
} fake_comm_t;

/* The double may keep state, as NCCL does: */
static int fake_ncomms;
static char fake_last_error[1024];
static int fake_dev; /* the "device" of debug lines: the local rank */

typedef struct {
    int is_send;
    void *buf;
    size_t bytes;
    int peer;
    fake_comm_t *comm;
} fake_p2p_t;

/* The open group (ncclGroupStart .. ncclGroupEnd) of send/recv calls. */
static int fake_group_depth;
static fake_p2p_t *fake_group;
static size_t fake_group_n, fake_group_cap;
static long long fake_group_starts; /* ncclGroupStart calls, for the call log */

/* ---- NCCL's debug log (debug.cc) ---- */

static struct {
    int level; /* -1 until read */
    unsigned long mask;
    FILE *file;
    char host[256];
} fake_debug = {-1, 0, NULL, ""};

static unsigned long fake_subsys(const char *name)
{
    static const struct {
        const char *name;
        unsigned long mask;
    } tab[] = {{"INIT", 0x1},         {"COLL", 0x2},   {"P2P", 0x4},        {"SHM", 0x8},
               {"NET", 0x10},         {"GRAPH", 0x20}, {"TUNING", 0x40},    {"ENV", 0x80},
               {"ALLOC", 0x100},      {"CALL", 0x200}, {"PROXY", 0x400},    {"NVLS", 0x800},
               {"BOOTSTRAP", 0x1000}, {"REG", 0x2000}, {"PROFILE", 0x4000}, {"RAS", 0x8000},
               {"ALL", ~0UL}};
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (strcasecmp(name, tab[i].name) == 0)
            return tab[i].mask;
    return 0;
}

static void fake_debug_init(void)
{
    static const char *const levels[] = {"VERSION", "WARN", "INFO", "ABORT", "TRACE"};
    const char *level = getenv("NCCL_DEBUG");
    const char *subsys = getenv("NCCL_DEBUG_SUBSYS");
    const char *path = getenv("NCCL_DEBUG_FILE");

    fake_debug.level = LOG_NONE;
    for (int i = 0; level && i < 5; i++)
        if (strcasecmp(level, levels[i]) == 0)
            fake_debug.level = i + 1;
    fake_debug.mask = SUB_INIT | SUB_BOOTSTRAP | SUB_ENV;
    if (subsys) {
        int invert = subsys[0] == '^';
        char *copy = strdup(subsys + invert), *save = NULL;
        fake_debug.mask = invert ? ~0UL : 0UL;
        for (char *s = copy ? strtok_r(copy, ",", &save) : NULL; s; s = strtok_r(NULL, ",", &save))
            fake_debug.mask =
                invert ? fake_debug.mask & ~fake_subsys(s) : fake_debug.mask | fake_subsys(s);
        free(copy);
    }
    if (gethostname(fake_debug.host, sizeof fake_debug.host) != 0)
        snprintf(fake_debug.host, sizeof fake_debug.host, "unknown");
    fake_debug.host[sizeof fake_debug.host - 1] = '\0';
    fake_debug.host[strcspn(fake_debug.host, ".")] = '\0';
    fake_debug.file = stdout;
    if (fake_debug.level > LOG_VERSION && path && *path) {
        char name[4096];
        size_t n = 0;
        for (const char *c = path; *c && n < sizeof name - 32; c++) {
            if (c[0] == '%' && c[1] == 'h')
                n += (size_t)snprintf(name + n, sizeof name - n, "%.64s", fake_debug.host), c++;
            else if (c[0] == '%' && c[1] == 'p')
                n += (size_t)snprintf(name + n, sizeof name - n, "%d", (int)getpid()), c++;
            else if (c[0] == '%' && c[1] == '%')
                name[n++] = '%', c++;
            else
                name[n++] = *c;
        }
        name[n] = '\0';
        FILE *fp = fopen(name, "w");
        if (fp) {
            setvbuf(fp, NULL, _IOLBF, 0);
            fake_debug.file = fp;
        }
    }
}

/* ncclDebugLog: also the logger the tuner plugin gets. */
static void fake_debug_log(int level, unsigned long flags, const char *file, int line,
                           const char *fmt, ...)
{
    va_list ap;
    char buf[1024];
    size_t n = 0;

    if (level == LOG_WARN) {
        va_start(ap, fmt);
        vsnprintf(fake_last_error, sizeof fake_last_error, fmt, ap);
        va_end(ap);
    }
    if (fake_debug.level < 0)
        fake_debug_init();
    if (fake_debug.level < level || (flags & fake_debug.mask) == 0)
        return;
    if (level == LOG_WARN) {
        time_t now = time(NULL);
        struct tm tm;
        buf[n++] = '\n';
        localtime_r(&now, &tm);
        n += strftime(buf + n, sizeof buf - n, "[%F %T] ", &tm);
    }
    n += (size_t)snprintf(buf + n, sizeof buf - n, "%s:%d:%ld ", fake_debug.host, (int)getpid(),
                          (long)syscall(SYS_gettid));
    if (n < sizeof buf && level == LOG_WARN)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "[%d] %s:%d NCCL WARN ", fake_dev, file,
                              line);
    else if (n < sizeof buf)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "[%d] NCCL INFO ", fake_dev);
    if (n < sizeof buf) {
        va_start(ap, fmt);
        n += (size_t)vsnprintf(buf + n, sizeof buf - n, fmt, ap);
        va_end(ap);
    }
    if (n > sizeof buf - 1)
        n = sizeof buf - 1;
    buf[n++] = '\n';
    fwrite(buf, 1, n, fake_debug.file);
    fflush(fake_debug.file);
}

#define FAKE_WARN(file, line, ...) fake_debug_log(LOG_WARN, ~0UL, file, line, __VA_ARGS__)
#define FAKE_INFO(flags, ...) fake_debug_log(LOG_INFO, flags, __func__, __LINE__, __VA_ARGS__)

/* ---- NCCL's environment (misc/param.cc) ---- */

static void fake_env_file(const char *path)
{
    FILE *fp = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    if (fp == NULL)
        return;
    while ((len = getline(&line, &cap, fp)) != -1) {
        if (line[0] == '#')
            continue;
        if (len > 0 && line[len - 1] == '\n')
            line[len - 1] = '\0';
        char *eq = strchr(line, '=');
        if (eq == NULL)
            continue;
        *eq = '\0';
        setenv(line, eq + 1, 0); /* the environment wins */
    }
    free(line);
    fclose(fp);
}

static void fake_env_init(void)
{
    static int done;
    const char *user = getenv("NCCL_CONF_FILE");
    if (done)
        return;
    done = 1;
    if (user && *user) {
        fake_env_file(user);
    } else {
        struct passwd *pw = getpwuid(getuid());
        char path[4096];
        if (pw && snprintf(path, sizeof path, "%s/.nccl.conf", pw->pw_dir) < (int)sizeof path)
            fake_env_file(path);
    }
    fake_env_file("/etc/nccl.conf");
}

/* NCCL_PARAM(PatEnable, "PAT_ENABLE", 2): read once per process. */
static long fake_param_pat_enable(void)
{
    static long value = -100;
    if (value == -100) {
        const char *s = getenv("NCCL_PAT_ENABLE");
        char *end;
        value = 2;
        if (s && *s) {
            long v = strtol(s, &end, 0);
            value = end != s ? v : 2;
        }
    }
    return value;
}

/* ---- types and ops ---- */

static size_t fake_type_size(int dt)
{
    static const size_t sizes[T_NUM] = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2, 1, 1};
    return dt >= 0 && dt < T_NUM ? sizes[dt] : 0;
}

static const char *fake_type_str(int dt)
{
    static const char *const names[T_NUM] = {"ncclInt8",     "Unknown",        "ncclInt32",
                                             "ncclUint32",   "ncclInt64",      "ncclUint64",
                                             "ncclFloat16",  "ncclFloat32",    "ncclFloat64",
                                             "ncclBfloat16", "ncclFloat8e4m3", "ncclFloat8e5m2"};
    return dt >= 0 && dt < T_NUM ? names[dt] : "Unknown";
}

/* The MPI type moving NCCL type dt; MPI_DATATYPE_NULL for fp8, which the
 * double does not implement. */
static MPI_Datatype fake_type(int dt)
{
    switch (dt) {
    case 0: return MPI_INT8_T;
    case 1: return MPI_UINT8_T;
    case 2: return MPI_INT32_T;
    case 3: return MPI_UINT32_T;
    case 4: return MPI_INT64_T;
    case 5: return MPI_UINT64_T;
    case T_FLOAT16: return MPI_UINT16_T;
    case T_FLOAT32: return MPI_FLOAT;
    case T_FLOAT64: return MPI_DOUBLE;
    case T_BFLOAT16: return MPI_UINT16_T;
    default: return MPI_DATATYPE_NULL;
    }
}

static float fake_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu, x;
    float f;
    if (exp == 0) { /* zero or subnormal: mant * 2^-24, exact in float */
        f = (float)mant * 5.9604644775390625e-08f;
        return sign ? -f : f;
    }
    x = exp == 31 ? sign | 0x7f800000u | (mant << 13) : sign | ((exp + 112) << 23) | (mant << 13);
    memcpy(&f, &x, sizeof f);
    return f;
}

/* Round to nearest, ties to even, as __float2half_rn. */
static uint16_t fake_float_to_half(float f)
{
    uint32_t x, sign, mant, h, rem, half_way;
    int exp;
    memcpy(&x, &f, sizeof x);
    sign = (x >> 16) & 0x8000u;
    mant = x & 0x7fffffu;
    if (((x >> 23) & 0xffu) == 0xffu)
        return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0u));
    exp = (int)((x >> 23) & 0xffu) - 112;
    if (exp >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (exp <= 0) { /* a half subnormal, or zero */
        if (exp < -10)
            return (uint16_t)sign;
        unsigned shift = (unsigned)(14 - exp);
        mant |= 0x800000u;
        h = mant >> shift;
        rem = mant & ((1u << shift) - 1u);
        half_way = 1u << (shift - 1u);
    } else {
        h = ((uint32_t)exp << 10) | (mant >> 13);
        rem = mant & 0x1fffu;
        half_way = 0x1000u;
    }
    if (rem > half_way || (rem == half_way && (h & 1u)))
        h++; /* a carry into the exponent is still right */
    return (uint16_t)(sign | h);
}

static float fake_bf16_to_float(uint16_t b)
{
    uint32_t x = (uint32_t)b << 16;
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

static uint16_t fake_float_to_bf16(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40u); /* a quiet NaN */
    x += 0x7fffu + ((x >> 16) & 1u);
    return (uint16_t)(x >> 16);
}

/* One combining step on 16-bit floats: in float, rounded back, as NCCL's
 * kernels do per step. */
static void fake_reduce16(const void *in, void *inout, int len, int bf16, int op)
{
    const uint16_t *a = in;
    uint16_t *b = inout;
    for (int i = 0; i < len; i++) {
        float x = bf16 ? fake_bf16_to_float(a[i]) : fake_half_to_float(a[i]);
        float y = bf16 ? fake_bf16_to_float(b[i]) : fake_half_to_float(b[i]);
        float r = op == OP_PROD  ? x * y
                  : op == OP_MAX ? (x > y ? x : y)
                  : op == OP_MIN ? (x < y ? x : y)
                                 : x + y;
        b[i] = bf16 ? fake_float_to_bf16(r) : fake_float_to_half(r);
    }
}

#define FAKE_OP16(name, bf16, op)                                                                  \
    static void name(void *in, void *inout, int *len, MPI_Datatype *dt)                            \
    {                                                                                              \
        (void)dt;                                                                                  \
        fake_reduce16(in, inout, *len, bf16, op);                                                  \
    }
FAKE_OP16(fake_h_sum, 0, OP_SUM)
FAKE_OP16(fake_h_prod, 0, OP_PROD)
FAKE_OP16(fake_h_max, 0, OP_MAX)
FAKE_OP16(fake_h_min, 0, OP_MIN)
FAKE_OP16(fake_b_sum, 1, OP_SUM)
FAKE_OP16(fake_b_prod, 1, OP_PROD)
FAKE_OP16(fake_b_max, 1, OP_MAX)
FAKE_OP16(fake_b_min, 1, OP_MIN)

/* The MPI op for NCCL op `op` on type dt (avg: the sum, divided after). */
static MPI_Op fake_op(int op, int dt)
{
    static MPI_Op ops16[2][4];
    static int made;
    if (op == OP_AVG)
        op = OP_SUM;
    if (dt == T_FLOAT16 || dt == T_BFLOAT16) {
        if (!made) {
            MPI_User_function *fns[2][4] = {{fake_h_sum, fake_h_prod, fake_h_max, fake_h_min},
                                            {fake_b_sum, fake_b_prod, fake_b_max, fake_b_min}};
            for (int t = 0; t < 2; t++)
                for (int o = 0; o < 4; o++)
                    if (MPI_Op_create(fns[t][o], 1, &ops16[t][o]) != MPI_SUCCESS)
                        return MPI_OP_NULL;
            made = 1;
        }
        return ops16[dt == T_BFLOAT16][op];
    }
    switch (op) {
    case OP_SUM: return MPI_SUM;
    case OP_PROD: return MPI_PROD;
    case OP_MAX: return MPI_MAX;
    case OP_MIN: return MPI_MIN;
    default: return MPI_OP_NULL;
    }
}

/* avg after the sum: floats divide, integers divide truncating toward
 * zero (NCCL's SumPostDiv). */
static void fake_divide(void *buf, size_t count, int dt, int n)
{
    for (size_t i = 0; i < count; i++) {
        switch (dt) {
        case 0: ((int8_t *)buf)[i] = (int8_t)(((int8_t *)buf)[i] / n); break;
        case 1: ((uint8_t *)buf)[i] = (uint8_t)(((uint8_t *)buf)[i] / (unsigned)n); break;
        case 2: ((int32_t *)buf)[i] /= n; break;
        case 3: ((uint32_t *)buf)[i] /= (uint32_t)n; break;
        case 4: ((int64_t *)buf)[i] /= n; break;
        case 5: ((uint64_t *)buf)[i] /= (uint64_t)n; break;
        case T_FLOAT16:
            ((uint16_t *)buf)[i] =
                fake_float_to_half(fake_half_to_float(((uint16_t *)buf)[i]) / (float)n);
            break;
        case T_FLOAT32: ((float *)buf)[i] /= (float)n; break;
        case T_FLOAT64: ((double *)buf)[i] /= (double)n; break;
        case T_BFLOAT16:
            ((uint16_t *)buf)[i] =
                fake_float_to_bf16(fake_bf16_to_float(((uint16_t *)buf)[i]) / (float)n);
            break;
        default: break;
        }
    }
}

static int fake_mpi(int rc) { return rc == MPI_SUCCESS ? OK : SYSTEM_ERROR; }

/* ---- the double's own log (FAKE_NCCL_INIT_LOG) ---- */

/* Appends one line to FAKE_NCCL_INIT_LOG.rank, if set. */
static void fake_log(int rank, const char *line)
{
    const char *base = getenv("FAKE_NCCL_INIT_LOG");
    char path[4096];
    if (base == NULL || snprintf(path, sizeof path, "%s.%d", base, rank) >= (int)sizeof path)
        return;
    FILE *fp = fopen(path, "a");
    if (fp) {
        fprintf(fp, "%s\n", line);
        fclose(fp);
    }
}

static const char *fake_env(const char *name)
{
    const char *v = getenv(name);
    return v ? v : "(unset)";
}

/* ---- NCCL_ALGO / NCCL_PROTO (graph/tuning.cc parseList) ---- */

/* list[p*nelems+e] for each prefix p and element e; the same tokens as
 * NCCL's strtok_r, so the same strings are accepted and refused. */
static int fake_parse_list(const char *str, const char *const *prefixes, int nprefixes,
                           const char *const *elems, int nelems, int *list)
{
    int ret = OK;
    char *full = strdup(str), *save_full = NULL, *sub = NULL, *tok = NULL;
    if (full == NULL)
        return SYSTEM_ERROR;
    for (char *entry = strtok_r(full, ";", &save_full); entry;
         entry = strtok_r(NULL, ";", &save_full)) {
        char *save_sub = NULL, *save_tok = NULL;
        sub = strdup(entry);
        if (sub == NULL) {
            ret = SYSTEM_ERROR;
            break;
        }
        char *prefix = strtok_r(sub, ":", &save_sub);
        char *elem_list = strtok_r(NULL, ":", &save_sub);
        if (elem_list == NULL) {
            if (entry != full) {
                FAKE_WARN("graph/tuning.cc", 71,
                          "All entries except the first must have a prefix: \"%s\"", str);
                ret = INVALID_USAGE;
                break;
            }
            elem_list = prefix;
            prefix = NULL;
        }
        int set = 1;
        if (elem_list[0] == '^') {
            set = 0;
            elem_list++;
        }
        int found = 0;
        for (int p = 0; p < nprefixes && ret == OK; p++) {
            if (prefix && strcasecmp(prefix, prefixes[p]) != 0)
                continue;
            found = 1;
            for (int e = 0; e < nelems; e++)
                list[p * nelems + e] = !set;
            tok = strdup(elem_list);
            if (tok == NULL) {
                ret = SYSTEM_ERROR;
                break;
            }
            for (char *el = strtok_r(tok, ",", &save_tok); el;
                 el = strtok_r(NULL, ",", &save_tok)) {
                int e = 0;
                while (e < nelems && strcasecmp(el, elems[e]) != 0)
                    e++;
                if (e == nelems) {
                    FAKE_WARN("graph/tuning.cc", 104,
                              "Unrecognized element token \"%s\" when parsing \"%s\"", el, str);
                    ret = INVALID_USAGE;
                    break;
                }
                list[p * nelems + e] = set;
            }
            free(tok);
            tok = NULL;
        }
        if (ret != OK)
            break;
        if (!found) {
            FAKE_WARN("graph/tuning.cc", 114,
                      "Unrecognized prefix token \"%s\" when parsing \"%s\"", prefix, str);
            ret = INVALID_USAGE;
            break;
        }
        free(sub);
        sub = NULL;
    }
    free(tok);
    free(sub);
    free(full);
    return ret;
}

/* ncclPatEnable (graph/tuning.cc:202): SM60+ is given (Hopper), the net
 * is the host's. */
static int fake_pat_enable(const fake_comm_t *c)
{
    long v = fake_param_pat_enable();
    if (v != 2)
        return v != 0;
    return c->nnodes == c->nranks;
}

/* Which (function, algorithm, protocol) this hardware runs at all:
 * ncclTopoTuneModel's loops and its disable pass (see the top). */
static int fake_hw_usable(const fake_comm_t *c, int f, int a, int p)
{
    if ((f == F_BROADCAST || f == F_REDUCE) && a != A_RING)
        return 0;
    if ((f == F_ALLGATHER || f == F_REDUCESCATTER) && a != A_PAT && a != A_RING && a != A_NVLS &&
        a != A_COLLNET_DIRECT)
        return 0;
    if (f == F_ALLREDUCE && a == A_PAT)
        return 0;
    if ((a == A_NVLS || a == A_NVLS_TREE) && p != P_SIMPLE)
        return 0;
    if ((f == F_ALLGATHER || f == F_REDUCESCATTER) && a == A_PAT &&
        (p != P_SIMPLE || !fake_pat_enable(c)))
        return 0;
    if ((a == A_COLLNET_DIRECT || a == A_COLLNET_CHAIN) && p != P_SIMPLE)
        return 0;
    /* No NVLS channels, collnetEnable 0: */
    if (a == A_NVLS || a == A_NVLS_TREE || a == A_COLLNET_DIRECT || a == A_COLLNET_CHAIN)
        return 0;
    return 1; /* LL128: Hopper over NVLink, enabled */
}

/* The usable table of a communicator of more than one rank; NCCL's
 * ncclInvalidUsage (with its WARN) on a bad NCCL_ALGO or NCCL_PROTO. */
static int fake_tune_model(fake_comm_t *c)
{
    int proto_on[NFUNCS * NPROTOS], algo_on[NFUNCS * NALGOS], rc;
    const char *proto = getenv("NCCL_PROTO");
    const char *algo = getenv("NCCL_ALGO");

    for (int i = 0; i < NFUNCS * NPROTOS; i++)
        proto_on[i] = 1; /* LL128's "2" (by topology) is 1 on this hardware */
    for (int i = 0; i < NFUNCS * NALGOS; i++)
        algo_on[i] = 1;
    if (proto) {
        FAKE_INFO(SUB_ENV, "NCCL_PROTO set by environment to %s", proto);
        rc = fake_parse_list(proto, fake_func_str, NFUNCS, fake_proto_str, NPROTOS, proto_on);
        if (rc != OK)
            return rc;
    }
    if (algo) {
        FAKE_INFO(SUB_ENV, "NCCL_ALGO set by environment to %s", algo);
        rc = fake_parse_list(algo, fake_func_str, NFUNCS, fake_algo_str, NALGOS, algo_on);
        if (rc != OK)
            return rc;
    }
    for (int f = 0; f < NFUNCS; f++)
        for (int a = 0; a < NALGOS; a++)
            for (int p = 0; p < NPROTOS; p++)
                c->usable[f][a][p] = fake_hw_usable(c, f, a, p) && algo_on[f * NALGOS + a] &&
                                     proto_on[f * NPROTOS + p];
    return OK;
}

/* ---- the tuner plugin (plugin/tuner.cc, plugin/plugin_open.cc) ---- */

static struct {
    int status; /* 0 ready, 1 loaded, -1 failed: never tried again */
    int refs;
    void *lib;
    fake_tuner_v5_t *sym;
} fake_tuner;

static void *fake_tuner_try(const char *lib, char *missing, size_t len)
{
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        const char *err = dlerror();
        if (err && strstr(err, lib) && strstr(err, "No such file or directory"))
            snprintf(missing + strlen(missing), len - strlen(missing), " %s", lib);
        else
            FAKE_INFO(SUB_INIT | SUB_TUNING, "TUNER/Plugin: %s: %s", lib, err ? err : "");
    }
    return h;
}

static void *fake_tuner_open(const char *name)
{
    char lib[512], missing[1100] = "";
    void *h;
    if (name == NULL || *name == '\0')
        name = "libnccl-tuner.so";
    snprintf(lib, sizeof lib, "%s", name);
    h = fake_tuner_try(lib, missing, sizeof missing);
    size_t len = strlen(name);
    int is_lib = strncmp(name, "lib", 3) == 0 && len >= 3 && strcmp(name + len - 3, ".so") == 0;
    if (h == NULL && strchr(name, '/') == NULL && !is_lib) {
        snprintf(lib, sizeof lib, "libnccl-tuner-%s.so", name);
        h = fake_tuner_try(lib, missing, sizeof missing);
    }
    if (h == NULL && missing[0])
        FAKE_INFO(SUB_INIT | SUB_TUNING, "TUNER/Plugin: Could not find:%s", missing);
    return h;
}

/* Shares the process's plugin with c, loading it on first use. */
static void fake_tuner_load(fake_comm_t *c)
{
    const char *name = getenv("NCCL_TUNER_PLUGIN");
    c->has_tuner = 0;
    if (fake_tuner.status == -1)
        return;
    if (fake_tuner.status == 1) {
        fake_tuner.refs++;
        c->has_tuner = 1;
        return;
    }
    if (name) {
        FAKE_INFO(SUB_ENV | SUB_TUNING, "NCCL_TUNER_PLUGIN set by environment to %s", name);
        if (strcasecmp(name, "none") == 0) {
            fake_tuner.status = -1;
            return;
        }
    }
    fake_tuner.lib = fake_tuner_open(name);
    if (fake_tuner.lib)
        fake_tuner.sym = dlsym(fake_tuner.lib, "ncclTunerPlugin_v5");
    if (fake_tuner.sym == NULL) {
        if (fake_tuner.lib) {
            FAKE_INFO(SUB_INIT | SUB_TUNING, "External tuner plugin %s is unsupported",
                      name ? name : "libnccl-tuner.so");
            dlclose(fake_tuner.lib);
        }
        fake_tuner.lib = NULL;
        fake_tuner.status = -1;
        return;
    }
    FAKE_INFO(SUB_INIT | SUB_TUNING, "TUNER/Plugin: Using %s (v5)", fake_tuner.sym->name);
    fake_tuner.status = 1;
    fake_tuner.refs = 1;
    c->has_tuner = 1;
}

static void fake_tuner_unload(fake_comm_t *c)
{
    if (!c->has_tuner)
        return;
    c->has_tuner = 0;
    if (--fake_tuner.refs == 0) {
        FAKE_INFO(SUB_INIT | SUB_TUNING, "TUNER/Plugin: Closing tuner: '%s'", fake_tuner.sym->name);
        dlclose(fake_tuner.lib);
        fake_tuner.lib = NULL;
        fake_tuner.sym = NULL;
        fake_tuner.status = 0;
    }
}

/* ---- per call: NCCL's choice (enqueue.cc) ---- */

/* The double's cost model (see the top), in microseconds. */
static float fake_cost(int a, int p, size_t bytes)
{
    static const float lat[NPROTOS] = {5.0f, 6.0f, 4.0f}, bw[NPROTOS] = {10.0f, 18.0f, 20.0f};
    float l = lat[p], b = bw[p];
    if (a == A_TREE)
        l += 1.0f, b *= 0.9f;
    if (a == A_PAT)
        l += 2.0f, b *= 0.75f;
    return l + (float)bytes / (1000.0f * b);
}

static int fake_name_index(const char *name, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcasecmp(name, names[i]) == 0)
            return i;
    return -1;
}

/* ArgsCheck, the choice of algorithm and protocol, the count and the
 * slowdown of one collective call.  OK: go ahead; *skip_p set: NCCL does
 * nothing (an empty call). */
static int fake_begin(fake_comm_t *c, int f, const char *op_name, size_t count, int dt, int op,
                      int root, int *skip_p)
{
    int algo = A_RING, proto = P_SIMPLE;
    *skip_p = 0;
    if (root < 0 || root >= c->nranks) {
        FAKE_WARN("misc/argcheck.cc", 48,
                  "%s : invalid root %d (root should be in the 0..%d range)", op_name, root,
                  c->nranks);
        return INVALID_ARGUMENT;
    }
    if (dt < 0 || dt >= T_NUM) {
        FAKE_WARN("misc/argcheck.cc", 52, "%s : invalid type %d", op_name, dt);
        return INVALID_ARGUMENT;
    }
    if (op < 0 || op >= OP_NUM) { /* no user-created ops here */
        FAKE_WARN("misc/argcheck.cc", 67,
                  "%s : reduction operation %d unknown to this communicator", op_name, op);
        return INVALID_ARGUMENT;
    }
    if (fake_type(dt) == MPI_DATATYPE_NULL) {
        FAKE_WARN("fake_nccl_mpi.c", __LINE__, "fake: %s is not implemented by the test double",
                  fake_type_str(dt));
        return INVALID_ARGUMENT;
    }
    if (c->fail_func == f) {
        FAKE_WARN("fake_nccl_mpi.c", __LINE__, "fake: FAKE_NCCL_FAIL_FUNC=%s", fake_func_str[f]);
        return INVALID_ARGUMENT;
    }
    if (count == 0) {
        *skip_p = 1;
        return OK;
    }
    size_t bytes = count * fake_type_size(dt) *
                   (f == F_ALLGATHER || f == F_REDUCESCATTER ? (size_t)c->nranks : 1);
    if (c->nranks > 1) {
        float table[NALGOS][NPROTOS];
        for (int a = 0; a < NALGOS; a++)
            for (int p = 0; p < NPROTOS; p++)
                table[a][p] =
                    c->usable[f][a][p] && !(a == A_PAT && f == F_REDUCESCATTER && op == OP_AVG)
                        ? fake_cost(a, p, bytes)
                        : FAKE_IGNORE;
        if (c->has_tuner) {
            int nchannels = 0;
            int rc = fake_tuner.sym->getCollInfo(c->tuner_ctx, f, bytes, 1, (float **)(void *)table,
                                                 NALGOS, NPROTOS, 0, &nchannels);
            if (rc != OK)
                return rc;
        }
        float best = 3600000000.0f;
        algo = proto = -1;
        for (int a = 0; a < NALGOS; a++)
            for (int p = 0; p < NPROTOS; p++)
                if (table[a][p] != FAKE_IGNORE && table[a][p] >= 0.0f && table[a][p] < best) {
                    best = table[a][p];
                    algo = a;
                    proto = p;
                }
        if (algo < 0) {
            char algo_msg[1100] = "", proto_msg[1100] = "";
            const char *algo_env = getenv("NCCL_ALGO"), *proto_env = getenv("NCCL_PROTO");
            if (algo_env)
                snprintf(algo_msg, 1023, " NCCL_ALGO was set to %s.", algo_env);
            if (proto_env)
                snprintf(proto_msg, 1023, " NCCL_PROTO was set to %s.", proto_env);
            FAKE_WARN("enqueue.cc", 1859,
                      "Error : no algorithm/protocol available for function %s with datatype "
                      "%s.%s%s",
                      fake_func_str[f],
                      fake_type_str(f == F_ALLGATHER || f == F_BROADCAST ? 0 : dt), algo_msg,
                      proto_msg);
            c->refused++;
            return algo_env || proto_env ? INVALID_USAGE : INTERNAL_ERROR;
        }
    }
    c->calls++;
    c->ran[f][algo][proto]++;
    if (c->slow_us > 0 && c->slow_algo[algo] && c->slow_proto[proto] && bytes >= c->slow_min &&
        bytes <= c->slow_max) {
        struct timespec ts = {c->slow_us / 1000000, (c->slow_us % 1000000) * 1000};
        while (nanosleep(&ts, &ts) != 0)
            ;
    }
    return OK;
}

/* ---- communicators ---- */

static uint64_t fake_hash(const void *data, size_t n, uint64_t h)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

/* NCCL's host hash (misc/utils.cc getHostHash): the hostname and the boot
 * id, or NCCL_HOSTID. */
static uint64_t fake_host_hash(void)
{
    char id[1024] = "";
    const char *env = getenv("NCCL_HOSTID");
    if (env) {
        snprintf(id, sizeof id, "%s", env);
    } else {
        FILE *fp = fopen("/proc/sys/kernel/random/boot_id", "r");
        if (gethostname(id, 512) != 0)
            snprintf(id, sizeof id, "unknown");
        id[511] = '\0';
        if (fp) {
            size_t n = strlen(id);
            if (fgets(id + n, (int)(sizeof id - n), fp) == NULL)
                id[n] = '\0';
            id[n + strcspn(id + n, " \t\n")] = '\0';
            fclose(fp);
        }
    }
    return fake_hash(id, strlen(id), 14695981039346656037ULL);
}

/* Nodes and ranks per node, from every rank's host hash. */
static int fake_topology(fake_comm_t *c)
{
    uint64_t me = fake_host_hash();
    uint64_t *all = malloc((size_t)c->nranks * sizeof *all);
    if (all == NULL)
        return SYSTEM_ERROR;
    if (MPI_Allgather(&me, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, c->comm) != MPI_SUCCESS) {
        free(all);
        return SYSTEM_ERROR;
    }
    c->nnodes = 0;
    c->nvl.minRanksPerNvlDomain = c->nranks;
    c->nvl.maxRanksPerNvlDomain = 0;
    fake_dev = 0;
    for (int r = 0; r < c->nranks; r++) {
        int first = 1, local = 0;
        for (int q = 0; q < c->nranks; q++) {
            if (all[q] == all[r]) {
                first &= q >= r;
                local++;
            }
        }
        if (all[r] == me && r < c->rank)
            fake_dev++;
        if (!first)
            continue;
        c->nnodes++;
        if (local < c->nvl.minRanksPerNvlDomain)
            c->nvl.minRanksPerNvlDomain = local;
        if (local > c->nvl.maxRanksPerNvlDomain)
            c->nvl.maxRanksPerNvlDomain = local;
    }
    c->nvl.nNvlDomains = c->nnodes;
    free(all);
    return OK;
}

/* NAME[,NAME...] as flags over names[]; an empty or unset list is all. */
static void fake_name_set(const char *list, const char *const *names, int n, unsigned char *on)
{
    memset(on, list && *list ? 0 : 1, (size_t)n);
    if (list && *list) {
        char *copy = strdup(list), *save = NULL;
        for (char *s = copy ? strtok_r(copy, ",", &save) : NULL; s;
             s = strtok_r(NULL, ",", &save)) {
            int i = fake_name_index(s, names, n);
            if (i >= 0)
                on[i] = 1;
        }
        free(copy);
    }
}

/* The double's knobs (see the top), read at every init. */
static void fake_init_knobs(fake_comm_t *c)
{
    const char *algo = getenv("FAKE_NCCL_SLOW_ALGO"), *proto = getenv("FAKE_NCCL_SLOW_PROTO");
    const char *us = getenv("FAKE_NCCL_SLOW_US"), *bytes = getenv("FAKE_NCCL_SLOW_BYTES");
    const char *fail = getenv("FAKE_NCCL_FAIL_FUNC");
    fake_name_set(algo, fake_algo_str, NALGOS, c->slow_algo);
    fake_name_set(proto, fake_proto_str, NPROTOS, c->slow_proto);
    c->slow_us = ((algo && *algo) || (proto && *proto)) && us ? strtol(us, NULL, 10) : 0;
    c->slow_min = 0;
    c->slow_max = (unsigned long long)-1;
    if (bytes && strchr(bytes, ':')) {
        c->slow_min = strtoull(bytes, NULL, 10);
        c->slow_max = strtoull(strchr(bytes, ':') + 1, NULL, 10);
    }
    c->fail_func = fail ? fake_name_index(fail, fake_func_str, NFUNCS) : -1;
}

int ncclGetVersion(int *version)
{
#ifdef FAKE_NCCL_NO_ALLTOALL
    *version = 22707; /* the last release without ncclAlltoAll */
#else
    *version = 22809;
#endif
    return OK;
}

/* The id names its maker (world rank) and which of its ids it is, so the
 * ranks of a communicator smaller than the world can find each other. */
typedef struct {
    int world_rank;
    int serial;
} fake_id_origin_t;

int ncclGetUniqueId(fake_unique_id_t *id)
{
    static int serial; /* ids made by this process; the double is single-threaded */
    fake_id_origin_t origin = {0, serial++};
    fake_env_init();
    memset(id, 0, sizeof *id);
    memcpy(id->internal, "fake-nccl-mpi", 13);
    MPI_Comm_rank(MPI_COMM_WORLD, &origin.world_rank);
    memcpy(id->internal + 16, &origin, sizeof origin);
    return OK;
}

/* A communicator of nranks < the world's, as NCCL makes one of any ranks
 * given one id: each rank tells the id's maker (its rank 0) its world
 * rank, the maker sends back the list in NCCL rank order, and the group
 * makes it (MPI_Comm_create_group: collective over the group alone). */
static int fake_comm_group(fake_unique_id_t id, int nranks, int rank, MPI_Comm *comm)
{
    fake_id_origin_t origin;
    int me = 0, tag, rc = MPI_SUCCESS;
    int *members = calloc((size_t)nranks, sizeof *members);
    MPI_Group world_group, group;

    if (members == NULL)
        return SYSTEM_ERROR;
    memcpy(&origin, id.internal + 16, sizeof origin);
    tag = 0x4e00 + (origin.serial & 0xff);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (rank == 0) {
        members[0] = me;
        for (int i = 1; i < nranks && rc == MPI_SUCCESS; i++) {
            int pair[2] = {-1, -1};
            rc = MPI_Recv(pair, 2, MPI_INT, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (pair[0] < 1 || pair[0] >= nranks) {
                free(members);
                return INVALID_ARGUMENT;
            }
            members[pair[0]] = pair[1];
        }
        for (int i = 1; i < nranks && rc == MPI_SUCCESS; i++)
            rc = MPI_Send(members, nranks, MPI_INT, members[i], tag, MPI_COMM_WORLD);
    } else {
        int pair[2] = {rank, me};
        rc = MPI_Send(pair, 2, MPI_INT, origin.world_rank, tag, MPI_COMM_WORLD);
        if (rc == MPI_SUCCESS)
            rc = MPI_Recv(members, nranks, MPI_INT, origin.world_rank, tag, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE);
    }
    if (rc == MPI_SUCCESS) {
        MPI_Comm_group(MPI_COMM_WORLD, &world_group);
        MPI_Group_incl(world_group, nranks, members, &group);
        rc = MPI_Comm_create_group(MPI_COMM_WORLD, group, tag, comm);
        MPI_Group_free(&group);
        MPI_Group_free(&world_group);
    }
    free(members);
    return rc == MPI_SUCCESS ? OK : SYSTEM_ERROR;
}

static void fake_comm_free(fake_comm_t *c, int collective)
{
    if (collective)
        MPI_Comm_free(&c->comm);
    free(c);
}

int ncclCommInitRank(fake_comm_t **comm_p, int nranks, fake_unique_id_t id, int rank)
{
    int size = 0, rc;
    char line[4096];
    fake_env_init();
    if (memcmp(id.internal, "fake-nccl-mpi", 13) != 0)
        return INVALID_ARGUMENT; /* the id did not travel from rank 0 */
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* NCCL: "Invalid rank requested" / nranks out of range. */
    if (nranks < 1 || nranks > size || rank < 0 || rank >= nranks)
        return INVALID_ARGUMENT;
    fake_comm_t *c = calloc(1, sizeof *c);
    if (c == NULL)
        return SYSTEM_ERROR;
    /* The whole world: every rank calls, as collbench's run does. */
    rc =
        nranks == size
            ? (MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &c->comm) == MPI_SUCCESS ? OK : SYSTEM_ERROR)
            : fake_comm_group(id, nranks, rank, &c->comm);
    if (rc != OK) {
        free(c);
        return rc;
    }
    c->rank = rank;
    c->nranks = nranks;
    c->index = fake_ncomms++;
    c->hash = fake_hash(id.internal, sizeof id.internal, 14695981039346656037ULL);
    snprintf(line, sizeof line, "comm=%d NCCL_ALGO=%s NCCL_PROTO=%s NCCL_TUNER_CONFIG_FILE=%s",
             c->index, fake_env("NCCL_ALGO"), fake_env("NCCL_PROTO"),
             fake_env("NCCL_TUNER_CONFIG_FILE"));
    fake_log(c->rank, line);
    fake_init_knobs(c);

    /* init.cc:1351-1356: the plugin, its init, then the tuning model. */
    rc = fake_topology(c);
    if (rc == OK) {
        fake_tuner_load(c);
        if (c->has_tuner) {
            rc = fake_tuner.sym->init(&c->tuner_ctx, c->hash, (size_t)c->nranks, (size_t)c->nnodes,
                                      fake_debug_log, &c->nvl, &c->constants);
            if (rc != OK)
                fake_tuner_unload(c);
        }
    }
    if (rc == OK && nranks > 1) {
        rc = fake_tune_model(c);
        if (rc != OK && c->has_tuner) {
            fake_tuner.sym->finalize(c->tuner_ctx);
            fake_tuner_unload(c);
        }
    }
    if (rc != OK) {
        snprintf(line, sizeof line, "comm=%d init failed: %d %s", c->index, rc, fake_last_error);
        fake_log(c->rank, line);
        fake_comm_free(c, 1);
        return rc;
    }
    *comm_p = c;
    return OK;
}

/* "comm=N ran F/A/P=C ... refused=R" */
static void fake_log_ran(const fake_comm_t *c)
{
    char line[8192];
    size_t n = (size_t)snprintf(line, sizeof line, "comm=%d ran", c->index);
    for (int f = 0; f < NFUNCS; f++)
        for (int a = 0; a < NALGOS; a++)
            for (int p = 0; p < NPROTOS; p++)
                if (c->ran[f][a][p] && n < sizeof line)
                    n += (size_t)snprintf(line + n, sizeof line - n, " %s/%s/%s=%lld",
                                          fake_func_str[f], fake_algo_str[a], fake_proto_str[p],
                                          c->ran[f][a][p]);
    if (n < sizeof line)
        snprintf(line + n, sizeof line - n, " refused=%lld", c->refused);
    fake_log(c->rank, line);
}

/* "comm=N calls ncclAllReduce=C ... ncclGroupStart=G": every entry point's
 * calls on this communicator (ncclGroupStart's in this process). */
static void fake_log_calls(const fake_comm_t *c)
{
    char line[1024];
    size_t n = (size_t)snprintf(line, sizeof line, "comm=%d calls", c->index);
    for (int i = 0; i < NAPIS && n < sizeof line; i++)
        n += (size_t)snprintf(line + n, sizeof line - n, " %s=%lld", fake_api_str[i], c->api[i]);
    if (n < sizeof line)
        snprintf(line + n, sizeof line - n, " ncclGroupStart=%lld", fake_group_starts);
    fake_log(c->rank, line);
}

int ncclCommDestroy(fake_comm_t *c)
{
    char line[4096];
    fake_log_calls(c);
    fake_log_ran(c);
    snprintf(line, sizeof line,
             "comm=%d destroyed calls=%lld NCCL_ALGO=%s NCCL_PROTO=%s NCCL_TUNER_CONFIG_FILE=%s",
             c->index, c->calls, fake_env("NCCL_ALGO"), fake_env("NCCL_PROTO"),
             fake_env("NCCL_TUNER_CONFIG_FILE"));
    fake_log(c->rank, line);
    if (c->has_tuner) {
        int rc = fake_tuner.sym->finalize(c->tuner_ctx);
        fake_tuner_unload(c);
        if (rc != OK) {
            fake_comm_free(c, 1);
            return rc;
        }
    }
    fake_comm_free(c, 1);
    return OK;
}

int ncclCommAbort(fake_comm_t *c)
{
    if (c->has_tuner) {
        fake_tuner.sym->finalize(c->tuner_ctx);
        fake_tuner_unload(c);
    }
    fake_comm_free(c, 0); /* the peers may be gone: no collective MPI_Comm_free */
    return OK;
}

/* ---- collectives ---- */

int ncclAllReduce(const void *send, void *recv, size_t count, int dt, int op, fake_comm_t *c,
                  void *stream)
{
    int skip, rc = fake_begin(c, F_ALLREDUCE, "AllReduce", count, dt, op, 0, &skip);
    c->api[API_ALLREDUCE]++;
    (void)stream;
    if (rc != OK || skip)
        return rc;
    MPI_Op o = fake_op(op, dt);
    if (o == MPI_OP_NULL)
        return SYSTEM_ERROR;
    rc = fake_mpi(MPI_Allreduce(send == recv ? MPI_IN_PLACE : send, recv, (int)count, fake_type(dt),
                                o, c->comm));
    if (rc == OK && op == OP_AVG)
        fake_divide(recv, count, dt, c->nranks);
    return rc;
}

/* In place when send is this rank's block of recv, as NCCL defines it. */
int ncclAllGather(const void *send, void *recv, size_t count, int dt, fake_comm_t *c, void *stream)
{
    int skip, rc = fake_begin(c, F_ALLGATHER, "AllGather", count, dt, OP_SUM, 0, &skip);
    c->api[API_ALLGATHER]++;
    (void)stream;
    if (rc != OK || skip)
        return rc;
    MPI_Datatype t = fake_type(dt);
    int in_place = send == (char *)recv + (size_t)c->rank * count * fake_type_size(dt);
    return fake_mpi(
        MPI_Allgather(in_place ? MPI_IN_PLACE : send, (int)count, t, recv, (int)count, t, c->comm));
}

/* NCCL's in-place output is recv = send + rank*count; MPI's is at the
 * start, so reduce from a copy of the input. */
int ncclReduceScatter(const void *send, void *recv, size_t count, int dt, int op, fake_comm_t *c,
                      void *stream)
{
    int skip, rc = fake_begin(c, F_REDUCESCATTER, "ReduceScatter", count, dt, op, 0, &skip);
    c->api[API_REDUCESCATTER]++;
    (void)stream;
    if (rc != OK || skip)
        return rc;
    MPI_Op o = fake_op(op, dt);
    if (o == MPI_OP_NULL)
        return SYSTEM_ERROR;
    size_t bytes = count * fake_type_size(dt) * (size_t)c->nranks;
    void *tmp = malloc(bytes ? bytes : 1);
    if (tmp == NULL)
        return SYSTEM_ERROR;
    memcpy(tmp, send, bytes);
    rc = fake_mpi(MPI_Reduce_scatter_block(tmp, recv, (int)count, fake_type(dt), o, c->comm));
    free(tmp);
    if (rc == OK && op == OP_AVG)
        fake_divide(recv, count, dt, c->nranks);
    return rc;
}

int ncclBroadcast(const void *send, void *recv, size_t count, int dt, int root, fake_comm_t *c,
                  void *stream)
{
    int skip, rc = fake_begin(c, F_BROADCAST, "Broadcast", count, dt, OP_SUM, root, &skip);
    c->api[API_BROADCAST]++;
    (void)stream;
    if (rc != OK || skip)
        return rc;
    if (c->rank == root && send != recv)
        memmove(recv, send, count * fake_type_size(dt));
    return fake_mpi(MPI_Bcast(recv, (int)count, fake_type(dt), root, c->comm));
}

int ncclGroupStart(void)
{
    fake_group_starts++;
    fake_group_depth++;
    return OK;
}

/* Runs the group's sends and receives together.  Sends are copied first,
 * so that a buffer used for both directions (in place) sends its old
 * contents, which is what the caller of an in-place alltoall expects. */
int ncclGroupEnd(void)
{
    int rc = OK;
    if (fake_group_depth == 0)
        return INVALID_USAGE;
    if (--fake_group_depth > 0)
        return OK;
    size_t n = fake_group_n;
    MPI_Request *req = malloc((n ? n : 1) * sizeof *req);
    void **copies = calloc(n ? n : 1, sizeof *copies);
    if (req == NULL || copies == NULL)
        rc = SYSTEM_ERROR;
    for (size_t i = 0; rc == OK && i < n; i++) {
        fake_p2p_t *p = &fake_group[i];
        if (!p->is_send)
            continue;
        copies[i] = malloc(p->bytes ? p->bytes : 1);
        if (copies[i] == NULL)
            rc = SYSTEM_ERROR;
        else
            memcpy(copies[i], p->buf, p->bytes);
    }
    for (size_t i = 0; rc == OK && i < n; i++) {
        fake_p2p_t *p = &fake_group[i];
        if (p->is_send)
            rc = fake_mpi(
                MPI_Isend(copies[i], (int)p->bytes, MPI_BYTE, p->peer, 0, p->comm->comm, &req[i]));
        else
            rc = fake_mpi(
                MPI_Irecv(p->buf, (int)p->bytes, MPI_BYTE, p->peer, 0, p->comm->comm, &req[i]));
    }
    if (rc == OK)
        rc = fake_mpi(MPI_Waitall((int)n, req, MPI_STATUSES_IGNORE));
    for (size_t i = 0; copies && i < n; i++)
        free(copies[i]);
    free(copies);
    free(req);
    fake_group_n = 0;
    return rc;
}

static int fake_p2p(int is_send, const void *buf, size_t count, int dt, int peer, fake_comm_t *c)
{
    const char *name = is_send ? "Send" : "Recv";
    if (peer < 0 || peer >= c->nranks) {
        FAKE_WARN("misc/argcheck.cc", 48,
                  "%s : invalid root %d (root should be in the 0..%d range)", name, peer,
                  c->nranks);
        return INVALID_ARGUMENT;
    }
    if (fake_type_size(dt) == 0) {
        FAKE_WARN("misc/argcheck.cc", 52, "%s : invalid type %d", name, dt);
        return INVALID_ARGUMENT;
    }
    if (fake_group_n == fake_group_cap) {
        size_t cap = fake_group_cap ? 2 * fake_group_cap : 16;
        fake_p2p_t *g = realloc(fake_group, cap * sizeof *g);
        if (g == NULL)
            return SYSTEM_ERROR;
        fake_group = g;
        fake_group_cap = cap;
    }
    fake_group[fake_group_n++] =
        (fake_p2p_t){is_send, (void *)buf, count * fake_type_size(dt), peer, c};
    /* Outside a group a call is a group of its own. */
    return fake_group_depth ? OK : (fake_group_depth++, ncclGroupEnd());
}

int ncclSend(const void *send, size_t count, int dt, int peer, fake_comm_t *c, void *stream)
{
    (void)stream;
    c->api[API_SEND]++;
    return fake_p2p(1, send, count, dt, peer, c);
}

int ncclRecv(void *recv, size_t count, int dt, int peer, fake_comm_t *c, void *stream)
{
    (void)stream;
    c->api[API_RECV]++;
    return fake_p2p(0, recv, count, dt, peer, c);
}

#ifndef FAKE_NCCL_NO_ALLTOALL
/* ncclAlltoAll as NCCL 2.28 defines it (collectives.cc:94-104): through
 * ncclEnqueueCheck with root 0 and ncclSum, so of ArgsCheck
 * (misc/argcheck.cc:45-69) only the datatype can fail; an empty call is
 * discarded (enqueue.cc:2555); one rank is a copy, none when send == recv
 * (enqueue.cc:2569-2571, device/onerank.cu:51); otherwise a send and a
 * receive of count elements with every rank, itself included, block r of
 * each buffer (enqueue.cc:2585-2589), run as one group (inside an open
 * group they join it).  In place on several ranks NCCL's result is
 * undefined (sends and receives race on one buffer); this double's group
 * sends the old contents.  Built without it (-DFAKE_NCCL_NO_ALLTOALL) the
 * double is an NCCL before 2.28, which lacks the symbol. */
int ncclAlltoAll(const void *send, void *recv, size_t count, int dt, fake_comm_t *c, void *stream)
{
    int rc = OK;
    (void)stream;
    c->api[API_ALLTOALL]++;
    c->api[API_ALLTOALL_IN_PLACE] += send == recv;
    if (dt < 0 || dt >= T_NUM) {
        FAKE_WARN("misc/argcheck.cc", 52, "%s : invalid type %d", "AlltoAll", dt);
        return INVALID_ARGUMENT;
    }
    if (fake_type(dt) == MPI_DATATYPE_NULL) {
        FAKE_WARN("fake_nccl_mpi.c", __LINE__, "fake: %s is not implemented by the test double",
                  fake_type_str(dt));
        return INVALID_ARGUMENT;
    }
    if (count == 0)
        return OK;
    size_t block = count * fake_type_size(dt);
    if (c->nranks == 1) {
        if (send != recv)
            memmove(recv, send, block);
        return OK;
    }
    fake_group_depth++;
    for (int r = 0; r < c->nranks && rc == OK; r++) {
        rc = fake_p2p(1, (const char *)send + (size_t)r * block, count, dt, r, c);
        if (rc == OK)
            rc = fake_p2p(0, (char *)recv + (size_t)r * block, count, dt, r, c);
    }
    if (rc == OK)
        return ncclGroupEnd();
    if (--fake_group_depth == 0)
        fake_group_n = 0; /* nothing of a failed call runs */
    return rc;
}
#endif

/* init.cc:2683, word for word. */
const char *ncclGetErrorString(int result)
{
    switch (result) {
    case OK: return "no error";
    case 1: return "unhandled cuda error (run with NCCL_DEBUG=INFO for details)";
    case SYSTEM_ERROR: return "unhandled system error (run with NCCL_DEBUG=INFO for details)";
    case INTERNAL_ERROR: return "internal error - please report this issue to the NCCL developers";
    case INVALID_ARGUMENT: return "invalid argument (run with NCCL_DEBUG=WARN for details)";
    case INVALID_USAGE: return "invalid usage (run with NCCL_DEBUG=WARN for details)";
    case 6: return "remote process exited or there was a network error";
    case 7: return "NCCL operation in progress";
    default: return "unknown result code";
    }
}

/* The last WARN, whatever the communicator (init.cc:2702). */
const char *ncclGetLastError(fake_comm_t *c)
{
    (void)c;
    return fake_last_error;
}

int ncclCommGetAsyncError(fake_comm_t *c, int *error)
{
    c->api[API_ASYNC_ERROR]++;
    *error = OK;
    return OK;
}
