/*
 * refuse_nccl.c - the NCCL test double (tests/nccl/fake_nccl_mpi.c) plus
 * one rule of real NCCL's, for tests/mpi/nccl_refused.sh: a communicator
 * whose NCCL_ALGO was "tree" (any case) at its init refuses every
 * ncclBroadcast with ncclInvalidUsage (5), and ncclGetLastError then says
 * what NCCL 2.28 says (enqueue.cc: "Error : no algorithm/protocol available
 * for function Broadcast with datatype ncclInt8. NCCL_ALGO was set to
 * tree.").  Real NCCL does this since tree serves allreduce only, and it
 * leaves a blocking communicator usable afterwards.
 *
 * Built by the test with mpicc into one library: the double is included
 * here with its broadcast, init and (should it gain one) last-error
 * functions renamed, and this file wraps them.  The test double itself is
 * not changed.
 */
#define ncclBroadcast fake_inner_ncclBroadcast
#define ncclCommInitRank fake_inner_ncclCommInitRank
#define ncclGetLastError fake_inner_ncclGetLastError
#include "../nccl/fake_nccl_mpi.c"
#undef ncclBroadcast
#undef ncclCommInitRank
#undef ncclGetLastError

#include <strings.h>

/* The communicators whose NCCL_ALGO was tree at init. */
#define REFUSE_MAX_COMMS 256
static fake_comm_t *refuse_tree[REFUSE_MAX_COMMS];
static char refuse_algo[REFUSE_MAX_COMMS][64];
static int refuse_n;
static char refuse_last[1024];

int ncclCommInitRank(fake_comm_t **comm_p, int nranks, fake_unique_id_t id, int rank)
{
    const char *algo = getenv("NCCL_ALGO");
    int rc = fake_inner_ncclCommInitRank(comm_p, nranks, id, rank);
    if (rc == OK && algo && strcasecmp(algo, "tree") == 0 && refuse_n < REFUSE_MAX_COMMS) {
        snprintf(refuse_algo[refuse_n], sizeof refuse_algo[0], "%s", algo);
        refuse_tree[refuse_n++] = *comm_p;
    }
    return rc;
}

static const char *refuse_type_name(int dt)
{
    static const char *const names[] = {"ncclInt8",    "ncclUint8",   "ncclInt32",   "ncclUint32",
                                        "ncclInt64",   "ncclUint64",  "ncclFloat16", "ncclFloat32",
                                        "ncclFloat64", "ncclBfloat16"};
    return dt >= 0 && dt < (int)(sizeof names / sizeof names[0]) ? names[dt] : "unknown";
}

int ncclBroadcast(const void *send, void *recv, size_t count, int dt, int root, fake_comm_t *c,
                  void *stream)
{
    for (int i = 0; i < refuse_n; i++)
        if (refuse_tree[i] == c) {
            snprintf(refuse_last, sizeof refuse_last,
                     "Error : no algorithm/protocol available for function Broadcast with "
                     "datatype %s. NCCL_ALGO was set to %s.",
                     refuse_type_name(dt), refuse_algo[i]);
            return INVALID_USAGE;
        }
    return fake_inner_ncclBroadcast(send, recv, count, dt, root, c, stream);
}

/* NCCL keeps its last warning, whatever the communicator. */
const char *ncclGetLastError(fake_comm_t *c)
{
    (void)c;
    return refuse_last;
}
