/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * backend_nccl.c - collectives through NCCL, loaded at run time.
 *
 * libnccl and libcudart are dlopen'd (nccl_loader.c), never linked, so
 * collbench starts everywhere and this backend answers "unavailable" with a
 * precise reason where NCCL cannot run.
 *
 * open() is the delicate part.  A rank that enters ncclCommInitRank waits
 * in NCCL's bootstrap for every other rank, so if one rank cannot start
 * NCCL the others would hang.  Hence every rank first does everything that
 * can fail locally (load, resolve, version, device count, device, stream),
 * then all ranks agree over the world (a gather to rank 0, which decides
 * and broadcasts) before any rank makes a communicator call.  Rank 0 makes
 * the unique id only once everyone is ready, and ships it with the verdict.
 *
 * Devices: rank r uses device (local rank mod visible devices).
 * CUDA_VISIBLE_DEVICES is applied by CUDA itself; its value, each rank's
 * device index and PCI bus id are recorded for describe().
 *
 * Memory lives on the device (host_memory = 0): the engine stages through
 * upload()/download().  One stream per rank; run() only issues, wait()
 * synchronises the stream and then asks NCCL for asynchronous errors.
 *
 * Timing: the engine reads its host clock around a batch of run() calls
 * and the wait() that ends it, so NCCL is timed with the host clock after
 * cudaStreamSynchronize, not with CUDA events.  Like nccl-tests' default,
 * this includes launch overhead, which matters only for the smallest sizes.
 *
 * Errors: every NCCL and CUDA result is converted to ct_status_t where it
 * is returned (CT_CUDA_CALL/CT_NCCL_CALL), logged once to stderr with the
 * call and file:line.  In open() the reason goes to why instead, without
 * file:line, as collbench prints one stable line per rank from it.
 *
 * Which algorithm/protocol NCCL chose is not captured: that needs a GPU
 * (NCCL logs it with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING) and could not
 * be verified where this was written; describe() says so.
 */
#include "backend.h"

#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "configs_kind.h"
#include "ct_hash.h"
#include "ct_vec.h"
#include "nccl_loader.h"

#define CT_NCCL_REASON_MAX 256
#define CT_NCCL_HOST_MAX 64
#define CT_NCCL_PCI_MAX 32 /* "0000:3b:00.0" */
#define CT_NCCL_VISIBLE_MAX 128

/* One rank's state at an agreement; fixed size for ct_world_gather. */
typedef struct {
    int failed;
    int device;               /* -1 until chosen */
    int cuda_runtime_version; /* 0: unknown */
    int has_visible;          /* CUDA_VISIBLE_DEVICES is set (maybe empty) */
    char reason[CT_NCCL_REASON_MAX];
    char host[CT_NCCL_HOST_MAX];
    uint64_t host_hash;               /* NCCL's "same host" (ct_nccl_host_key) */
    int has_hostid;                   /* NCCL_HOSTID decided host_hash */
    char hostid[CT_NCCL_HOST_MAX];    /* its value, for messages (cut) */
    char pci_bus_id[CT_NCCL_PCI_MAX]; /* "": unknown */
    char visible[CT_NCCL_VISIBLE_MAX];
} ct_nccl_rank_t;

/* Rank 0's decision, broadcast to every rank. */
typedef struct {
    int ok;
    int shared;     /* why applies to every rank alike (not one rank's fault) */
    char ranks[96]; /* the failing ranks, "0,1" or "0-63" */
    char why[512];  /* rank 0's line */
    int nnodes;     /* distinct hosts as NCCL counts them (host_hash) */
    ct_nccl_unique_id_t id;
} ct_nccl_verdict_t;

typedef struct {
    ct_nccl_lib_t lib;
    int loaded;
    ct_nccl_comm_t comm;
    ct_cuda_stream_t stream;
    int rank;
    int nranks;
    int failed;            /* a call failed: close() aborts the communicator */
    int nnodes;            /* NCCL's node count (ct_nccl_verdict_t) */
    ct_nccl_rank_t *ranks; /* rank 0 only: every rank's record, for describe() */
    int device;            /* this rank's device, -1 until chosen */
    char pci_bus_id[CT_NCCL_PCI_MAX];
    char refused[CT_NCCL_REASON_MAX * 2]; /* the last refusal's reason */
} ct_nccl_ctx_t;

/* ---- Error conversion at the boundary ---- */

static ct_status_t ct_nccl_cuda_status(ct_nccl_ctx_t *ctx, ct_cuda_error_t rc, const char *call,
                                       const char *file, int line)
{
    if (rc == CT_CUDA_SUCCESS)
        return CT_OK;
    ctx->failed = 1;
    fprintf(stderr, "collbench: rank %d: %s failed: %s (%d) at %s:%d\n", ctx->rank, call,
            ctx->lib.cuda.cudaGetErrorString(rc), rc, file, line);
    return rc == CT_CUDA_ERROR_MEMORY_ALLOCATION ? CT_ERR_NOMEM : CT_ERR_BACKEND;
}

/* NCCL's last-error text, often more specific than the code; "" if none. */
static const char *ct_nccl_last_error(const ct_nccl_ctx_t *ctx)
{
    const char *s =
        ctx->lib.nccl.ncclGetLastError ? ctx->lib.nccl.ncclGetLastError(ctx->comm) : NULL;
    return s ? s : "";
}

static ct_status_t ct_nccl_nccl_status(ct_nccl_ctx_t *ctx, ct_nccl_result_t rc, const char *call,
                                       const char *file, int line)
{
    if (rc == CT_NCCL_SUCCESS)
        return CT_OK;
    ctx->failed = 1;
    const char *last = ct_nccl_last_error(ctx);
    fprintf(stderr, "collbench: rank %d: %s failed: %s (%d)%s%s at %s:%d\n", ctx->rank, call,
            ctx->lib.nccl.ncclGetErrorString(rc), rc, last[0] ? ": " : "", last, file, line);
    return CT_ERR_BACKEND;
}

/* A call that runs a collective: ncclInvalidUsage there is NCCL refusing
 * it under the settings in force (NCCL 2.28: "no algorithm/protocol
 * available for function Broadcast ... NCCL_ALGO was set to tree"), and a
 * blocking communicator stays usable after it (group.cc sets an
 * asynchronous error for non-blocking ones only).  So it is CT_ERR_REFUSED,
 * with NCCL's reason kept for refusal() and nothing printed: the engine
 * reports it once when every rank agrees. */
static ct_status_t ct_nccl_coll_status(ct_nccl_ctx_t *ctx, ct_nccl_result_t rc, const char *call,
                                       const char *file, int line)
{
    /* NCCL 2.28 returns ncclInternalError for the same refusal when
     * neither NCCL_ALGO nor NCCL_PROTO is set at the call (enqueue.cc
     * topoGetAlgoInfo reads them again for its message): so it is under
     * --config, which sets them only around each communicator's init. */
    const char *last = rc == CT_NCCL_INTERNAL_ERROR ? ct_nccl_last_error(ctx) : "";
    int refused = rc == CT_NCCL_INVALID_USAGE ||
                  strstr(last, "no algorithm/protocol available for function") != NULL;
    if (!refused)
        return ct_nccl_nccl_status(ctx, rc, call, file, line);
    last = ct_nccl_last_error(ctx);
    if (last[0])
        snprintf(ctx->refused, sizeof ctx->refused, "%s", last);
    else
        snprintf(ctx->refused, sizeof ctx->refused, "%s returned %s (%d)", call,
                 ctx->lib.nccl.ncclGetErrorString(rc), rc);
    return CT_ERR_REFUSED;
}

#define CT_CUDA_CALL(ctx, fn, args)                                                                \
    ct_nccl_cuda_status((ctx), (ctx)->lib.cuda.fn args, #fn, __FILE__, __LINE__)
#define CT_NCCL_CALL(ctx, fn, args)                                                                \
    ct_nccl_nccl_status((ctx), (ctx)->lib.nccl.fn args, #fn, __FILE__, __LINE__)
#define CT_NCCL_COLL_CALL(ctx, fn, args)                                                           \
    ct_nccl_coll_status((ctx), (ctx)->lib.nccl.fn args, #fn, __FILE__, __LINE__)

/* ---- open(): local checks, agreement, communicator ---- */

/* Everything this rank can check or set up alone.  Returns 0, or -1 with
 * me->reason set (exact texts, the tests match them): the loader's (see
 * nccl_loader.h), then
 *   "cudaGetDeviceCount failed: <cudaGetErrorString> (<code>)"
 *   "no CUDA device visible"   (+ " (CUDA_VISIBLE_DEVICES=<value>)" if set)
 *   "cudaSetDevice(<d>) failed: <text> (<code>)"
 *   "cudaStreamCreateWithFlags failed: <text> (<code>)"
 * Makes no communicator call. */
static int ct_nccl_start_local(ct_world_t *world, const ct_backend_config_t *config,
                               ct_nccl_ctx_t *ctx, ct_nccl_rank_t *me)
{
    char *why = me->reason;
    size_t whylen = sizeof me->reason;
    ct_cuda_api_t *cuda = &ctx->lib.cuda;
    ct_cuda_error_t rc;

    if (ct_nccl_lib_open(config->nccl_library, config->cudart_library, &ctx->lib, why, whylen) !=
        CT_OK)
        return -1;
    ctx->loaded = 1;
    if (cuda->cudaRuntimeGetVersion &&
        cuda->cudaRuntimeGetVersion(&me->cuda_runtime_version) != CT_CUDA_SUCCESS)
        me->cuda_runtime_version = 0;

    /* CUDA 13 without a driver returns 35 and leaves count unwritten. */
    int count = 0;
    rc = cuda->cudaGetDeviceCount(&count);
    if (rc != CT_CUDA_SUCCESS) {
        snprintf(why, whylen, "cudaGetDeviceCount failed: %s (%d)", cuda->cudaGetErrorString(rc),
                 rc);
        return -1;
    }
    if (count < 1) {
        if (me->has_visible)
            snprintf(why, whylen, "no CUDA device visible (CUDA_VISIBLE_DEVICES=%s)", me->visible);
        else
            snprintf(why, whylen, "no CUDA device visible");
        return -1;
    }

    me->device = ct_world_local_rank(world) % count;
    rc = cuda->cudaSetDevice(me->device);
    if (rc != CT_CUDA_SUCCESS) {
        snprintf(why, whylen, "cudaSetDevice(%d) failed: %s (%d)", me->device,
                 cuda->cudaGetErrorString(rc), rc);
        return -1;
    }
    /* Metadata only: a device without a bus id can still run. */
    if (cuda->cudaDeviceGetPCIBusId(me->pci_bus_id, (int)sizeof me->pci_bus_id, me->device) !=
        CT_CUDA_SUCCESS)
        me->pci_bus_id[0] = '\0';

    /* Non-blocking: the collectives must not serialise with the legacy
     * default stream; uploads/downloads are ordered on this stream. */
    rc = cuda->cudaStreamCreateWithFlags(&ctx->stream, CT_CUDA_STREAM_NON_BLOCKING);
    if (rc != CT_CUDA_SUCCESS) {
        ctx->stream = NULL;
        snprintf(why, whylen, "cudaStreamCreateWithFlags failed: %s (%d)",
                 cuda->cudaGetErrorString(rc), rc);
        return -1;
    }
    return 0;
}

/* "0,1", "0-63", "2,5-7": runs of three or more become ranges; a list too
 * long for buf ends in ",...". */
static void ct_nccl_format_ranks(const int *ranks, int n, char *buf, size_t buflen)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && ranks[j + 1] == ranks[j] + 1)
            j++;
        char item[32];
        if (j - i >= 2)
            snprintf(item, sizeof item, "%s%d-%d", i ? "," : "", ranks[i], ranks[j]);
        else {
            snprintf(item, sizeof item, "%s%d", i ? "," : "", ranks[i]);
            j = i;
        }
        if (used + strlen(item) + 5 > buflen) {
            snprintf(buf + used, buflen - used, ",...");
            return;
        }
        used += (size_t)snprintf(buf + used, buflen - used, "%s", item);
        i = j + 1;
    }
}

/* NCCL_HOSTID as NCCL's ncclGetEnv sees it: the environment, else the
 * first of NCCL's own files to set it ($NCCL_CONF_FILE, or ~/.nccl.conf
 * when that is unset or empty, then /etc/nccl.conf: NCCL copies them into
 * the environment without overwriting, src/misc/param.cc).  Returns 1 and
 * fills buf when set (an empty value is set). */
static int ct_nccl_hostid(char *buf, size_t buflen)
{
    const char *env = getenv("NCCL_HOSTID");
    const char *conf = getenv("NCCL_CONF_FILE");
    char files[2][1024];
    int found = 0;

    if (env) {
        snprintf(buf, buflen, "%s", env);
        return 1;
    }
    files[0][0] = '\0';
    if (conf && conf[0])
        snprintf(files[0], sizeof files[0], "%s", conf);
    else {
        const struct passwd *pw = getpwuid(getuid());
        if (pw && pw->pw_dir)
            snprintf(files[0], sizeof files[0], "%s/.nccl.conf", pw->pw_dir);
    }
    snprintf(files[1], sizeof files[1], "/etc/nccl.conf");
    for (int f = 0; f < 2 && !found; f++) {
        FILE *fp = files[f][0] ? fopen(files[f], "r") : NULL;
        char *line = NULL;
        size_t cap = 0;
        ssize_t len;
        /* NCCL's reading: '#' lines skipped, split at the first '=', no
         * trimming, the first line naming a variable wins. */
        while (fp && !found && (len = getline(&line, &cap, fp)) != -1) {
            if (len > 0 && line[len - 1] == '\n')
                line[len - 1] = '\0';
            if (line[0] != '#' && strncmp(line, "NCCL_HOSTID=", 12) == 0) {
                snprintf(buf, buflen, "%s", line + 12);
                found = 1;
            }
        }
        free(line);
        if (fp)
            fclose(fp);
    }
    return found;
}

/* This rank's host as NCCL tells hosts apart (getHostHash, src/misc/
 * utils.cc in 2.28): a hash of NCCL_HOSTID where set, else of the full
 * hostname followed by the kernel's boot id.  Ranks with one hash are one
 * host to NCCL, whose init then refuses two of them on one device. */
static void ct_nccl_host_key(const char *hostname, ct_nccl_rank_t *me)
{
    char key[1024], boot[64] = "";

    me->has_hostid = ct_nccl_hostid(key, sizeof key);
    if (me->has_hostid) {
        snprintf(me->hostid, sizeof me->hostid, "%.*s", (int)sizeof me->hostid - 1, key);
    } else {
        FILE *fp = fopen("/proc/sys/kernel/random/boot_id", "r");
        if (fp) {
            if (fscanf(fp, "%63s", boot) != 1)
                boot[0] = '\0';
            fclose(fp);
        }
        snprintf(key, sizeof key, "%s%s", hostname, boot);
    }
    me->host_hash = ct_hash_string(CT_HASH_INIT, key);
}

typedef struct {
    const ct_nccl_rank_t *rec;
    int rank;
} ct_nccl_slot_t;

static int ct_nccl_slot_cmp(const void *a, const void *b)
{
    const ct_nccl_slot_t *x = a, *y = b;
    int c = (x->rec->host_hash > y->rec->host_hash) - (x->rec->host_hash < y->rec->host_hash);
    if (c == 0)
        c = strcmp(x->rec->pci_bus_id, y->rec->pci_bus_id);
    return c ? c : (x->rank > y->rank) - (x->rank < y->rank);
}

/* NCCL refuses two ranks of one host on one GPU ("Duplicate GPU detected")
 * during init; catching it here gives a clear reason and keeps init
 * simple.  "One host" is NCCL's (ct_nccl_host_key), so ranks given their
 * own NCCL_HOSTID may share a device, as NCCL lets them.  Returns 1 and
 * fills v when some ranks share a device. */
static int ct_nccl_shared_devices(const ct_nccl_rank_t *all, int nranks, ct_nccl_verdict_t *v)
{
    ct_nccl_slot_t *slots = malloc((size_t)nranks * sizeof *slots);
    int *ranks = malloc((size_t)nranks * sizeof *ranks);
    int found = 0;

    if (slots == NULL || ranks == NULL) {
        free(slots);
        free(ranks);
        return 0; /* cannot check; NCCL will */
    }
    for (int r = 0; r < nranks; r++)
        slots[r] = (ct_nccl_slot_t){&all[r], r};
    ct_vec_sort(slots, (size_t)nranks, sizeof *slots, ct_nccl_slot_cmp);
    for (int i = 0, j; i < nranks && !found; i = j + 1) {
        const ct_nccl_rank_t *a = slots[i].rec;
        for (j = i; j + 1 < nranks && slots[j + 1].rec->host_hash == a->host_hash &&
                    strcmp(slots[j + 1].rec->pci_bus_id, a->pci_bus_id) == 0;
             j++)
            ;
        if (j == i || a->pci_bus_id[0] == '\0')
            continue;
        int n = 0;
        for (int k = i; k <= j; k++)
            ranks[n++] = slots[k].rank;
        found = 1;
        v->ok = 0;
        v->shared = 1;
        ct_nccl_format_ranks(ranks, n, v->ranks, sizeof v->ranks);
        if (a->has_hostid)
            snprintf(v->why, sizeof v->why,
                     "rank %s: all on CUDA device %s of NCCL_HOSTID=%s; NCCL needs one device "
                     "per rank of a host (give each rank its own NCCL_HOSTID)",
                     v->ranks, a->pci_bus_id, a->hostid);
        else
            snprintf(v->why, sizeof v->why,
                     "rank %s: all on CUDA device %s of host %s; NCCL needs one device per rank "
                     "(set CUDA_VISIBLE_DEVICES or start fewer ranks per host; to share a device "
                     "on purpose, give each rank its own NCCL_HOSTID)",
                     v->ranks, a->pci_bus_id, a->host);
    }
    free(slots);
    free(ranks);
    return found;
}

static int ct_nccl_hash_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Rank 0: the verdict from every rank's record. */
static void ct_nccl_decide(const ct_nccl_rank_t *all, int nranks, int check_devices,
                           ct_nccl_verdict_t *v)
{
    int *failed = malloc((size_t)nranks * sizeof *failed);
    int nfailed = 0, first = -1, differ = 0;

    memset(v, 0, sizeof *v);
    v->ok = 1;
    /* NCCL's nodes: one per distinct host_hash (NCCL_HOSTID when set). */
    uint64_t *hashes = malloc((size_t)nranks * sizeof *hashes);
    for (int r = 0; hashes != NULL && r < nranks; r++)
        hashes[r] = all[r].host_hash;
    if (hashes != NULL)
        ct_vec_sort(hashes, (size_t)nranks, sizeof *hashes, ct_nccl_hash_cmp);
    for (int r = 0; hashes != NULL && r < nranks; r++)
        v->nnodes += r == 0 || hashes[r] != hashes[r - 1];
    free(hashes);
    for (int r = 0; r < nranks; r++) {
        if (!all[r].failed)
            continue;
        if (first < 0)
            first = r;
        else if (strcmp(all[r].reason, all[first].reason) != 0)
            differ = 1;
        if (failed)
            failed[nfailed++] = r;
    }
    if (first < 0) {
        if (check_devices)
            ct_nccl_shared_devices(all, nranks, v);
        free(failed);
        return;
    }
    v->ok = 0;
    if (failed)
        ct_nccl_format_ranks(failed, nfailed, v->ranks, sizeof v->ranks);
    else
        snprintf(v->ranks, sizeof v->ranks, "%d,...", first);
    snprintf(v->why, sizeof v->why, "rank %s: %s%s", v->ranks, all[first].reason,
             differ ? " (other ranks failed differently; see their lines)" : "");
    free(failed);
}

/* This rank's unavailable line. */
static void ct_nccl_why(const ct_nccl_verdict_t *v, const ct_nccl_rank_t *me, int rank, char *why,
                        size_t whylen)
{
    if (rank == 0 || v->shared)
        snprintf(why, whylen, "%s", v->why);
    else if (me->failed)
        snprintf(why, whylen, "%s", me->reason);
    else
        snprintf(why, whylen, "rank %s could not start NCCL", v->ranks);
}

static void ct_nccl_release(ct_nccl_ctx_t *ctx)
{
    if (ctx == NULL)
        return;
    if (ctx->comm) {
        ct_status_t st = ctx->failed ? CT_NCCL_CALL(ctx, ncclCommAbort, (ctx->comm))
                                     : CT_NCCL_CALL(ctx, ncclCommDestroy, (ctx->comm));
        (void)st; /* logged; nothing more to do while closing */
    }
    if (ctx->stream)
        (void)CT_CUDA_CALL(ctx, cudaStreamDestroy, (ctx->stream));
    if (ctx->loaded)
        ct_nccl_lib_close(&ctx->lib);
    free(ctx->ranks);
    free(ctx);
}

static ct_status_t ct_nccl_open(ct_world_t *world, const ct_backend_config_t *config, void **ctx_p,
                                char *why, size_t whylen)
{
    int rank = ct_world_rank(world), nranks = ct_world_size(world);
    ct_nccl_ctx_t *ctx = calloc(1, sizeof *ctx);
    ct_nccl_rank_t *all = NULL;
    ct_nccl_rank_t me;
    ct_nccl_verdict_t v;
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");

    memset(&me, 0, sizeof me);
    me.device = -1;
    snprintf(me.host, sizeof me.host, "%s", ct_world_hostname(world));
    ct_nccl_host_key(ct_world_hostname(world), &me);
    if (visible) {
        me.has_visible = 1;
        snprintf(me.visible, sizeof me.visible, "%s", visible);
    }
    if (rank == 0 && (all = calloc((size_t)nranks, sizeof *all)) == NULL) {
        /* Rank 0 cannot even receive the others' answers. */
        fprintf(stderr, "collbench: rank 0: out of memory in the nccl backend's open\n");
        ct_world_abort(world, CT_EXIT_FAILURE);
    }

    /* 1. Local checks on every rank, then agreement; rank 0 makes the id
     *    only when everyone is ready. */
    if (ctx == NULL) {
        me.failed = 1;
        snprintf(me.reason, sizeof me.reason, "out of memory");
    } else {
        ctx->rank = rank;
        ctx->nranks = nranks;
        me.failed = ct_nccl_start_local(world, config, ctx, &me) != 0;
        ctx->device = me.device;
        snprintf(ctx->pci_bus_id, sizeof ctx->pci_bus_id, "%s", me.pci_bus_id);
    }
    ct_world_gather(world, &me, sizeof me, all, 0);
    if (rank == 0) {
        ct_nccl_decide(all, nranks, 1, &v);
        if (v.ok) {
            ct_nccl_result_t rc = ctx->lib.nccl.ncclGetUniqueId(&v.id);
            if (rc != CT_NCCL_SUCCESS) {
                v.ok = 0;
                snprintf(v.ranks, sizeof v.ranks, "0");
                snprintf(v.why, sizeof v.why, "rank 0: ncclGetUniqueId failed: %s (%d)%s%s",
                         ctx->lib.nccl.ncclGetErrorString(rc), rc,
                         ct_nccl_last_error(ctx)[0] ? ": " : "", ct_nccl_last_error(ctx));
            }
        }
    }
    ct_world_bcast(world, &v, sizeof v, 0);
    if (!v.ok)
        goto unavailable;

    /* 2. The communicator.  Every rank enters init, so none waits alone in
     *    the bootstrap for a rank that already gave up.  A rank failing
     *    inside init can still strand the others there; NCCL reports such
     *    failures only through its own bootstrap timeouts. */
    ct_nccl_result_t rc = ctx->lib.nccl.ncclCommInitRank(&ctx->comm, nranks, v.id, rank);
    if (rc != CT_NCCL_SUCCESS) {
        ctx->comm = NULL;
        me.failed = 1;
        snprintf(me.reason, sizeof me.reason, "ncclCommInitRank failed: %s (%d)%s%s",
                 ctx->lib.nccl.ncclGetErrorString(rc), rc, ct_nccl_last_error(ctx)[0] ? ": " : "",
                 ct_nccl_last_error(ctx));
    }
    ct_world_gather(world, &me, sizeof me, all, 0);
    if (rank == 0)
        ct_nccl_decide(all, nranks, 0, &v);
    ct_world_bcast(world, &v, sizeof v, 0);
    if (!v.ok) {
        ctx->failed = 1; /* peers are gone: abort, do not destroy */
        goto unavailable;
    }

    ctx->ranks = all;
    ctx->nnodes = v.nnodes;
    *ctx_p = ctx;
    return CT_OK;

unavailable:
    ct_nccl_why(&v, &me, rank, why, whylen);
    ct_nccl_release(ctx);
    free(all);
    return CT_ERR_UNAVAILABLE;
}

static void ct_nccl_device_label(void *vctx, int rank, char *buf, size_t buflen)
{
    const ct_nccl_ctx_t *ctx = vctx;
    const ct_nccl_rank_t *r = ctx->ranks ? &ctx->ranks[rank] : NULL;
    if (r == NULL)
        snprintf(buf, buflen, "device -1 [unknown]");
    else
        snprintf(buf, buflen, "device %2d [%s]", r->device,
                 r->pci_bus_id[0] ? r->pci_bus_id : "unknown");
}

static void ct_nccl_close(void *vctx) { ct_nccl_release(vctx); }

static int ct_nccl_nnodes(void *vctx) { return ((const ct_nccl_ctx_t *)vctx)->nnodes; }

/* Not run on the machine the tests use (no GPU there): the bus id is the
 * one cudaDeviceGetPCIBusId gave at open. */
static ct_status_t ct_nccl_device_pci(void *vctx, int *index_p, char *bus_id, size_t buflen)
{
    const ct_nccl_ctx_t *ctx = vctx;
    if (ctx->device < 0 || ctx->pci_bus_id[0] == '\0')
        return CT_ERR_UNAVAILABLE;
    *index_p = ctx->device;
    snprintf(bus_id, buflen, "%s", ctx->pci_bus_id);
    return CT_OK;
}

/* ---- Types and operations ---- */

static ct_nccl_dtype_t ct_nccl_dtype(ct_dtype_t dtype)
{
    switch (dtype) {
    case CT_DTYPE_INT8: return CT_NCCL_INT8;
    case CT_DTYPE_UINT8: return CT_NCCL_UINT8;
    case CT_DTYPE_INT32: return CT_NCCL_INT32;
    case CT_DTYPE_UINT32: return CT_NCCL_UINT32;
    case CT_DTYPE_INT64: return CT_NCCL_INT64;
    case CT_DTYPE_UINT64: return CT_NCCL_UINT64;
    case CT_DTYPE_HALF: return CT_NCCL_FLOAT16;
    case CT_DTYPE_FLOAT: return CT_NCCL_FLOAT32;
    case CT_DTYPE_DOUBLE: return CT_NCCL_FLOAT64;
    case CT_DTYPE_BFLOAT16: return CT_NCCL_BFLOAT16;
    default: return -1;
    }
}

static ct_nccl_redop_t ct_nccl_op(ct_op_t op)
{
    switch (op) {
    case CT_OP_SUM: return CT_NCCL_SUM;
    case CT_OP_PROD: return CT_NCCL_PROD;
    case CT_OP_MAX: return CT_NCCL_MAX;
    case CT_OP_MIN: return CT_NCCL_MIN;
    case CT_OP_AVG: return CT_NCCL_AVG;
    default: return -1;
    }
}

/* Every type and op colltune knows: bfloat16 and avg exist since NCCL
 * 2.10, below the minimum version open() accepts. */
static ct_status_t ct_nccl_supports(void *ctx, const ct_coll_desc_t *coll, ct_dtype_t dtype,
                                    ct_op_t op, char *why, size_t whylen)
{
    (void)ctx;
    if (ct_nccl_dtype(dtype) < 0) {
        snprintf(why, whylen, "NCCL has no datatype for %s", ct_dtype_name(dtype));
        return CT_ERR_USAGE;
    }
    if (coll->uses_op && ct_nccl_op(op) < 0) {
        snprintf(why, whylen, "NCCL cannot reduce with op %s", ct_op_name(op));
        return CT_ERR_USAGE;
    }
    return CT_OK;
}

/* ---- Memory ---- */

static ct_status_t ct_nccl_alloc(void *vctx, size_t bytes, void **buf_p)
{
    ct_nccl_ctx_t *ctx = vctx;
    void *buf = NULL;
    ct_status_t st = CT_CUDA_CALL(ctx, cudaMalloc, (&buf, bytes ? bytes : 1));
    if (st == CT_OK)
        *buf_p = buf;
    return st;
}

static void ct_nccl_free(void *vctx, void *buf)
{
    ct_nccl_ctx_t *ctx = vctx;
    (void)CT_CUDA_CALL(ctx, cudaFree, (buf));
}

/* Copies go through the collectives' own stream so that they are ordered
 * with them; a plain cudaMemcpy runs on the legacy default stream, which a
 * non-blocking stream does not wait for (and a pageable host-to-device
 * cudaMemcpy may return before the data has landed). */
static ct_status_t ct_nccl_copy(ct_nccl_ctx_t *ctx, void *dst, const void *src, size_t bytes,
                                ct_cuda_memcpy_kind_t kind)
{
    ct_status_t st = CT_CUDA_CALL(ctx, cudaMemcpyAsync, (dst, src, bytes, kind, ctx->stream));
    if (st == CT_OK)
        st = CT_CUDA_CALL(ctx, cudaStreamSynchronize, (ctx->stream));
    return st;
}

static ct_status_t ct_nccl_upload(void *ctx, void *dst, const void *host, size_t bytes)
{
    return ct_nccl_copy(ctx, dst, host, bytes, CT_CUDA_MEMCPY_HOST_TO_DEVICE);
}

static ct_status_t ct_nccl_download(void *ctx, void *host, const void *src, size_t bytes)
{
    return ct_nccl_copy(ctx, host, src, bytes, CT_CUDA_MEMCPY_DEVICE_TO_HOST);
}

/* ---- Collectives ---- */

/* What runs an alltoall: as nccl-tests 2.19 (alltoall.cu), ncclAlltoAll
 * where the library has it (NCCL 2.28 and later), else one grouped send
 * and receive of count elements with every peer, itself included.  They
 * differ in work, not only in speed: with one rank ncclAlltoAll is one
 * copy, none in place (enqueue.cc taskAppend -> ncclLaunchOneRank), where
 * grouped send/recv goes through NCCL's p2p path. */
#define CT_NCCL_ALLTOALL_API "ncclAlltoAll"
#define CT_NCCL_ALLTOALL_GROUPED "grouped ncclSend/ncclRecv"

static const char *ct_nccl_alltoall_how(const ct_nccl_ctx_t *ctx)
{
    return ctx->lib.nccl.ncclAlltoAll ? CT_NCCL_ALLTOALL_API : CT_NCCL_ALLTOALL_GROUPED;
}

/* In place (send == recv, as nccl-tests passes it) NCCL defines no
 * result: the engine times it unchecked (inplace_unchecked). */
static ct_status_t ct_nccl_alltoall(ct_nccl_ctx_t *ctx, const ct_backend_call_t *call,
                                    ct_nccl_dtype_t dt, size_t count)
{
    if (ctx->lib.nccl.ncclAlltoAll)
        return CT_NCCL_COLL_CALL(ctx, ncclAlltoAll,
                                 (call->send, call->recv, count, dt, ctx->comm, ctx->stream));
    size_t block = count * ct_dtype_size(call->dtype);
    ct_status_t st = CT_NCCL_CALL(ctx, ncclGroupStart, ());
    if (st != CT_OK)
        return st;
    for (int peer = 0; peer < ctx->nranks && st == CT_OK; peer++) {
        st = CT_NCCL_COLL_CALL(ctx, ncclSend,
                               ((const char *)call->send + (size_t)peer * block, count, dt, peer,
                                ctx->comm, ctx->stream));
        if (st == CT_OK)
            st = CT_NCCL_COLL_CALL(ctx, ncclRecv,
                                   ((char *)call->recv + (size_t)peer * block, count, dt, peer,
                                    ctx->comm, ctx->stream));
    }
    /* A started group must be ended even after a failed call. */
    ct_status_t end = CT_NCCL_COLL_CALL(ctx, ncclGroupEnd, ());
    return st != CT_OK ? st : end;
}

static ct_status_t ct_nccl_allreduce(ct_nccl_ctx_t *ctx, const ct_backend_call_t *call,
                                     ct_nccl_dtype_t dt, size_t count)
{
    return CT_NCCL_COLL_CALL(
        ctx, ncclAllReduce,
        (call->send, call->recv, count, dt, ct_nccl_op(call->op), ctx->comm, ctx->stream));
}

static ct_status_t ct_nccl_allgather(ct_nccl_ctx_t *ctx, const ct_backend_call_t *call,
                                     ct_nccl_dtype_t dt, size_t count)
{
    return CT_NCCL_COLL_CALL(ctx, ncclAllGather,
                             (call->send, call->recv, count, dt, ctx->comm, ctx->stream));
}

static ct_status_t ct_nccl_reduce_scatter(ct_nccl_ctx_t *ctx, const ct_backend_call_t *call,
                                          ct_nccl_dtype_t dt, size_t count)
{
    return CT_NCCL_COLL_CALL(
        ctx, ncclReduceScatter,
        (call->send, call->recv, count, dt, ct_nccl_op(call->op), ctx->comm, ctx->stream));
}

static ct_status_t ct_nccl_broadcast(ct_nccl_ctx_t *ctx, const ct_backend_call_t *call,
                                     ct_nccl_dtype_t dt, size_t count)
{
    return CT_NCCL_COLL_CALL(
        ctx, ncclBroadcast,
        (call->send, call->recv, count, dt, call->root, ctx->comm, ctx->stream));
}

typedef ct_status_t (*ct_nccl_coll_fn_t)(ct_nccl_ctx_t *ctx, const ct_backend_call_t *call,
                                         ct_nccl_dtype_t dt, size_t count);

/* Indexed by ct_coll_id_t; a collective added to ct_names.h without an
 * entry here stops the build instead of failing at run time. */
static const ct_nccl_coll_fn_t ct_nccl_colls[] = {
    [CT_COLL_ALLREDUCE] = ct_nccl_allreduce,
    [CT_COLL_ALLGATHER] = ct_nccl_allgather,
    [CT_COLL_ALLTOALL] = ct_nccl_alltoall,
    [CT_COLL_BROADCAST] = ct_nccl_broadcast,
    [CT_COLL_REDUCE_SCATTER] = ct_nccl_reduce_scatter,
};
_Static_assert(sizeof ct_nccl_colls / sizeof ct_nccl_colls[0] == CT_COLL_COUNT,
               "the NCCL backend runs every collective");

static ct_status_t ct_nccl_run(void *vctx, const ct_backend_call_t *call)
{
    ct_coll_id_t id = call->coll->id;
    if ((int)id < 0 || id >= CT_COLL_COUNT || ct_nccl_colls[id] == NULL)
        return CT_ERR_BACKEND; /* a bug: the table covers every id */
    return ct_nccl_colls[id](vctx, call, ct_nccl_dtype(call->dtype), call->counts->param_count);
}

/* The stream first, then NCCL's asynchronous error state: a failure in a
 * peer or the network surfaces there, not in the issuing call. */
static ct_status_t ct_nccl_wait(void *vctx)
{
    ct_nccl_ctx_t *ctx = vctx;
    ct_nccl_result_t async = CT_NCCL_SUCCESS;
    ct_status_t st = CT_CUDA_CALL(ctx, cudaStreamSynchronize, (ctx->stream));
    if (st != CT_OK)
        return st;
    st = CT_NCCL_CALL(ctx, ncclCommGetAsyncError, (ctx->comm, &async));
    if (st != CT_OK)
        return st;
    return ct_nccl_nccl_status(ctx, async, "asynchronous NCCL operation", __FILE__, __LINE__);
}

static void ct_nccl_refusal(void *vctx, char *buf, size_t buflen)
{
    const ct_nccl_ctx_t *ctx = vctx;
    snprintf(buf, buflen, "%s", ctx->refused);
}

/* ---- Metadata (rank 0) ---- */

static ct_status_t ct_nccl_describe(void *vctx, json_t *o)
{
    const ct_nccl_ctx_t *ctx = vctx;
    const ct_nccl_rank_t *r0 = ctx->ranks;
    json_t *devices = json_array();
    int bad = 0;

    bad |= ct_json_set(o, "nccl_version", ct_json_str(ctx->lib.nccl_version));
    bad |= ct_json_set(o, "nccl_version_code", json_integer(ctx->lib.nccl_version_code));
    bad |= ct_json_set(o, "nccl_min_version", ct_json_str(CT_NCCL_MIN_VERSION_TEXT));
    bad |= ct_json_set(o, "nccl_library", ct_json_str(ctx->lib.nccl_path));
    bad |= ct_json_set(o, "cudart_library", ct_json_str(ctx->lib.cudart_path));
    bad |= ct_json_set(o, "cuda_runtime_version",
                       r0 && r0->cuda_runtime_version > 0 ? json_integer(r0->cuda_runtime_version)
                                                          : json_null());
    bad |= ct_json_set(o, "cuda_visible_devices",
                       ct_json_str(r0 && r0->has_visible ? r0->visible : NULL));
    bad |= ct_json_set(o, "devices", devices);
    for (int r = 0; r0 && r < ctx->nranks && !bad; r++) {
        const ct_nccl_rank_t *rec = &ctx->ranks[r];
        json_t *d = json_object();
        bad |= ct_json_set(d, "rank", json_integer(r));
        bad |= ct_json_set(d, "host", ct_json_str(rec->host));
        bad |= ct_json_set(d, "nccl_hostid", ct_json_str(rec->has_hostid ? rec->hostid : NULL));
        bad |= ct_json_set(d, "device", json_integer(rec->device));
        bad |=
            ct_json_set(d, "pci_bus_id", ct_json_str(rec->pci_bus_id[0] ? rec->pci_bus_id : NULL));
        bad |= ct_json_set(d, "cuda_visible_devices",
                           ct_json_str(rec->has_visible ? rec->visible : NULL));
        bad |= ct_json_append(devices, d);
    }
    bad |= ct_json_set(o, "alltoall", ct_json_str(ct_nccl_alltoall_how(ctx)));
    bad |= ct_json_set(o, "timing",
                       ct_json_str("host clock after cudaStreamSynchronize (no CUDA events)"));
    bad |= ct_json_set(o, "algorithm_capture",
                       ct_json_str("unverified: needs a GPU; run with NCCL_DEBUG=INFO "
                                   "NCCL_DEBUG_SUBSYS=TUNING and read the log"));
    return bad ? CT_ERR_NOMEM : CT_OK;
}

const ct_backend_ops_t ct_backend_nccl = {
    .name = "nccl",
    .host_memory = 0,
    /* NCCL has no in-place alltoall: ncclAlltoAll or grouped send/recv on
     * one buffer races (but for one rank, where it is a no-op). */
    .inplace_unchecked = 1u << CT_COLL_ALLTOALL,
    /* --config sets NCCL_* environment variables around open(), whose
     * ncclCommInitRank reads NCCL_ALGO and NCCL_PROTO (configs_env.c). */
    .configs = &ct_configs_env,
    .open = ct_nccl_open,
    .close = ct_nccl_close,
    .supports = ct_nccl_supports,
    .alloc = ct_nccl_alloc,
    .free = ct_nccl_free,
    .upload = ct_nccl_upload,
    .download = ct_nccl_download,
    .run = ct_nccl_run,
    .wait = ct_nccl_wait,
    .refusal = ct_nccl_refusal,
    .nnodes = ct_nccl_nnodes,
    .device_label = ct_nccl_device_label,
    .describe = ct_nccl_describe,
    .device_pci = ct_nccl_device_pci,
};
