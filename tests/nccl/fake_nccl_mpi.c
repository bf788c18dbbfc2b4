/*
 * fake_nccl_mpi.c - a libnccl test double: NCCL's C API over MPI, on host
 * memory, for tests/mpi/nccl_fake.sh.
 *
 * With stub_cudart.c (malloc for cudaMalloc) it lets the nccl backend run
 * a whole sweep on a machine without a GPU, so the agreement, the calls'
 * counts and pointers (in place and out of place), grouped send/recv,
 * describe() and close() are exercised end to end.  It proves nothing
 * about NCCL itself: no kernels, no streams (every call completes before it
 * returns), and it implements NCCL's semantics as documented, including
 * its in-place layouts.  half and bfloat16 are not implemented (they fail
 * with ncclInvalidArgument), nor is avg on integers.
 *
 * Built by the test with mpicc -shared -fPIC; it joins the MPI library that
 * collbench already initialised.
 *
 * collbench --config for NCCL (tests/mpi/nccl_configs.sh): real NCCL reads
 * NCCL_ALGO and NCCL_PROTO from the environment in ncclCommInitRank, and
 * there is no GPU here to show that it did.  So this double, standing in
 * for NCCL, reads them (and the tuner plugin's NCCL_TUNER_CONFIG_FILE) the
 * same way, at init, once per communicator, and makes what each
 * communicator saw observable:
 *   - FAKE_NCCL_INIT_LOG=PATH: every init appends "comm=N NCCL_ALGO=...
 *     NCCL_PROTO=... NCCL_TUNER_CONFIG_FILE=..." ("(unset)" where unset) to
 *     PATH.RANK, N counting this process's communicators from 0, and every
 *     destroy "comm=N destroyed calls=C" (its collective calls) and the
 *     same three variables as they are then (at the end of the run: the
 *     start-up environment, if collbench restored it);
 *   - FAKE_NCCL_SLOW_ALGO=NAME with FAKE_NCCL_SLOW_US=US: a communicator
 *     whose NCCL_ALGO was NAME at its init sleeps US microseconds in every
 *     collective call, a timing factor of its own that the table shows.
 * Neither says anything about what real NCCL does with these values.
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { OK = 0, SYSTEM_ERROR = 2, INVALID_ARGUMENT = 4, INVALID_USAGE = 5 };

typedef struct {
    char internal[128];
} fake_unique_id_t;

typedef struct {
    MPI_Comm comm;
    int rank;
    int nranks;
    int index;       /* this process's communicators, from 0 */
    long slow_us;    /* sleep per collective call (FAKE_NCCL_SLOW_ALGO) */
    long long calls; /* collective calls made on it */
} fake_comm_t;

static int fake_ncomms;

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

static MPI_Datatype fake_type(int dt, size_t *size_p)
{
    switch (dt) {
    case 0: *size_p = 1; return MPI_INT8_T;
    case 1: *size_p = 1; return MPI_UINT8_T;
    case 2: *size_p = 4; return MPI_INT32_T;
    case 3: *size_p = 4; return MPI_UINT32_T;
    case 4: *size_p = 8; return MPI_INT64_T;
    case 5: *size_p = 8; return MPI_UINT64_T;
    case 7: *size_p = 4; return MPI_FLOAT;
    case 8: *size_p = 8; return MPI_DOUBLE;
    default: *size_p = 0; return MPI_DATATYPE_NULL;
    }
}

static MPI_Op fake_op(int op, int dt)
{
    switch (op) {
    case 0: return MPI_SUM;
    case 1: return MPI_PROD;
    case 2: return MPI_MAX;
    case 3: return MPI_MIN;
    case 4: return dt == 7 || dt == 8 ? MPI_SUM : MPI_OP_NULL; /* avg: sum, then divide */
    default: return MPI_OP_NULL;
    }
}

static void fake_divide(void *buf, size_t count, int dt, int n)
{
    for (size_t i = 0; i < count; i++) {
        if (dt == 7)
            ((float *)buf)[i] /= (float)n;
        else
            ((double *)buf)[i] /= (double)n;
    }
}

static int fake_mpi(int rc) { return rc == MPI_SUCCESS ? OK : SYSTEM_ERROR; }

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

/* What NCCL would read from the environment at init (see the top). */
static void fake_init_env(fake_comm_t *c)
{
    char line[4096];
    const char *algo = getenv("NCCL_ALGO");
    const char *slow = getenv("FAKE_NCCL_SLOW_ALGO");
    const char *us = getenv("FAKE_NCCL_SLOW_US");
    c->index = fake_ncomms++;
    c->slow_us = algo && slow && us && strcmp(algo, slow) == 0 ? strtol(us, NULL, 10) : 0;
    snprintf(line, sizeof line, "comm=%d NCCL_ALGO=%s NCCL_PROTO=%s NCCL_TUNER_CONFIG_FILE=%s",
             c->index, fake_env("NCCL_ALGO"), fake_env("NCCL_PROTO"),
             fake_env("NCCL_TUNER_CONFIG_FILE"));
    fake_log(c->rank, line);
}

/* Every collective call: counted, and slowed on a slow communicator. */
static void fake_call(fake_comm_t *c)
{
    c->calls++;
    if (c->slow_us > 0) {
        struct timespec ts = {c->slow_us / 1000000, (c->slow_us % 1000000) * 1000};
        while (nanosleep(&ts, &ts) != 0)
            ;
    }
}

int ncclGetVersion(int *version)
{
    *version = 22809;
    return OK;
}

int ncclGetUniqueId(fake_unique_id_t *id)
{
    memset(id, 0, sizeof *id);
    memcpy(id->internal, "fake-nccl-mpi", 13);
    return OK;
}

int ncclCommInitRank(fake_comm_t **comm_p, int nranks, fake_unique_id_t id, int rank)
{
    int size = 0;
    if (memcmp(id.internal, "fake-nccl-mpi", 13) != 0)
        return INVALID_ARGUMENT; /* the id did not travel from rank 0 */
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != nranks)
        return INVALID_USAGE;
    fake_comm_t *c = calloc(1, sizeof *c);
    if (c == NULL)
        return SYSTEM_ERROR;
    if (MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &c->comm) != MPI_SUCCESS) {
        free(c);
        return SYSTEM_ERROR;
    }
    c->rank = rank;
    c->nranks = nranks;
    fake_init_env(c);
    *comm_p = c;
    return OK;
}

int ncclCommDestroy(fake_comm_t *c)
{
    char line[4096];
    snprintf(line, sizeof line,
             "comm=%d destroyed calls=%lld NCCL_ALGO=%s NCCL_PROTO=%s NCCL_TUNER_CONFIG_FILE=%s",
             c->index, c->calls, fake_env("NCCL_ALGO"), fake_env("NCCL_PROTO"),
             fake_env("NCCL_TUNER_CONFIG_FILE"));
    fake_log(c->rank, line);
    MPI_Comm_free(&c->comm);
    free(c);
    return OK;
}

int ncclCommAbort(fake_comm_t *c)
{
    free(c); /* the peers may be gone: no collective MPI_Comm_free */
    return OK;
}

int ncclAllReduce(const void *send, void *recv, size_t count, int dt, int op, fake_comm_t *c,
                  void *stream)
{
    size_t ts;
    MPI_Datatype t = fake_type(dt, &ts);
    MPI_Op o = fake_op(op, dt);
    (void)stream;
    fake_call(c);
    if (t == MPI_DATATYPE_NULL || o == MPI_OP_NULL)
        return INVALID_ARGUMENT;
    int rc = fake_mpi(
        MPI_Allreduce(send == recv ? MPI_IN_PLACE : send, recv, (int)count, t, o, c->comm));
    if (rc == OK && op == 4)
        fake_divide(recv, count, dt, c->nranks);
    return rc;
}

/* In place when send is this rank's block of recv, as NCCL defines it. */
int ncclAllGather(const void *send, void *recv, size_t count, int dt, fake_comm_t *c, void *stream)
{
    size_t ts;
    MPI_Datatype t = fake_type(dt, &ts);
    (void)stream;
    fake_call(c);
    if (t == MPI_DATATYPE_NULL)
        return INVALID_ARGUMENT;
    int in_place = send == (char *)recv + (size_t)c->rank * count * ts;
    return fake_mpi(
        MPI_Allgather(in_place ? MPI_IN_PLACE : send, (int)count, t, recv, (int)count, t, c->comm));
}

/* NCCL's in-place output is recv = send + rank*count; MPI's is at the
 * start, so reduce from a copy of the input. */
int ncclReduceScatter(const void *send, void *recv, size_t count, int dt, int op, fake_comm_t *c,
                      void *stream)
{
    size_t ts;
    MPI_Datatype t = fake_type(dt, &ts);
    MPI_Op o = fake_op(op, dt);
    (void)stream;
    fake_call(c);
    if (t == MPI_DATATYPE_NULL || o == MPI_OP_NULL)
        return INVALID_ARGUMENT;
    size_t bytes = count * ts * (size_t)c->nranks;
    void *tmp = malloc(bytes ? bytes : 1);
    if (tmp == NULL)
        return SYSTEM_ERROR;
    memcpy(tmp, send, bytes);
    int rc = fake_mpi(MPI_Reduce_scatter_block(tmp, recv, (int)count, t, o, c->comm));
    free(tmp);
    if (rc == OK && op == 4)
        fake_divide(recv, count, dt, c->nranks);
    return rc;
}

int ncclBroadcast(const void *send, void *recv, size_t count, int dt, int root, fake_comm_t *c,
                  void *stream)
{
    size_t ts;
    MPI_Datatype t = fake_type(dt, &ts);
    (void)stream;
    fake_call(c);
    if (t == MPI_DATATYPE_NULL || root < 0 || root >= c->nranks)
        return INVALID_ARGUMENT;
    if (c->rank == root && send != recv)
        memmove(recv, send, count * ts);
    return fake_mpi(MPI_Bcast(recv, (int)count, t, root, c->comm));
}

int ncclGroupStart(void)
{
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
    size_t ts;
    if (fake_type(dt, &ts) == MPI_DATATYPE_NULL || peer < 0 || peer >= c->nranks)
        return INVALID_ARGUMENT;
    if (fake_group_n == fake_group_cap) {
        size_t cap = fake_group_cap ? 2 * fake_group_cap : 16;
        fake_p2p_t *g = realloc(fake_group, cap * sizeof *g);
        if (g == NULL)
            return SYSTEM_ERROR;
        fake_group = g;
        fake_group_cap = cap;
    }
    fake_group[fake_group_n++] = (fake_p2p_t){is_send, (void *)buf, count * ts, peer, c};
    /* Outside a group a call is a group of its own. */
    return fake_group_depth ? OK : (fake_group_depth++, ncclGroupEnd());
}

int ncclSend(const void *send, size_t count, int dt, int peer, fake_comm_t *c, void *stream)
{
    (void)stream;
    return fake_p2p(1, send, count, dt, peer, c);
}

int ncclRecv(void *recv, size_t count, int dt, int peer, fake_comm_t *c, void *stream)
{
    (void)stream;
    return fake_p2p(0, recv, count, dt, peer, c);
}

const char *ncclGetErrorString(int result)
{
    switch (result) {
    case OK: return "no error";
    case SYSTEM_ERROR: return "unhandled system error (fake: an MPI call failed)";
    case INVALID_ARGUMENT: return "invalid argument (fake: unsupported type or op)";
    case INVALID_USAGE: return "invalid usage";
    default: return "unknown result code";
    }
}

int ncclCommGetAsyncError(fake_comm_t *c, int *error)
{
    (void)c;
    *error = OK;
    return OK;
}
