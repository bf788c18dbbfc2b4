/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mpich_csel_probe.c - for tests/mpi/mpich_csel.sh: which algorithm ran
 * one MPI_Allreduce, seen from outside MPICH.  MPICH 4 over UCX sends
 * every point-to-point message of an MPIR algorithm through
 * ucp_tag_send_nbx; this program defines it (exported, so libmpich's
 * calls land here first) and counts rank 0's calls during the allreduce.
 * On 2 ranks recursive_doubling sends 1 message, reduce_scatter_allgather
 * 2 (a reduce-scatter step, then an allgather step).
 *
 * usage: mpich_csel_probe COUNT [user]   (floats; user: a user-defined sum)
 * prints: bytes=B sends=N wrong=W
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void *ct_ucp_send_fn(void *, const void *, size_t, unsigned long, const void *);

static long ct_sends; /* the test program's own state */

void *ucp_tag_send_nbx(void *ep, const void *buf, size_t count, unsigned long tag,
                       const void *param);
void *ucp_tag_send_nbx(void *ep, const void *buf, size_t count, unsigned long tag,
                       const void *param)
{
    ct_ucp_send_fn *real;
    void *sym = dlsym(RTLD_NEXT, "ucp_tag_send_nbx");
    memcpy(&real, &sym, sizeof real);
    ct_sends++;
    return real(ep, buf, count, tag, param);
}

static void ct_user_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        ((float *)inout)[i] += ((const float *)in)[i];
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, count = argc > 1 ? atoi(argv[1]) : 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Op op = MPI_SUM;
    if (argc > 2 && strcmp(argv[2], "user") == 0)
        MPI_Op_create(ct_user_sum, 1, &op);
    float *in = malloc(sizeof(float) * (size_t)count), *out = malloc(sizeof(float) * (size_t)count);
    for (int i = 0; i < count; i++)
        in[i] = (float)(rank + i % 7);
    MPI_Barrier(MPI_COMM_WORLD);
    long before = ct_sends;
    MPI_Allreduce(in, out, count, MPI_FLOAT, op, MPI_COMM_WORLD);
    long sends = ct_sends - before;
    long wrong = 0;
    for (int i = 0; i < count; i++)
        wrong += out[i] != (float)(size * (i % 7) + size * (size - 1) / 2);
    if (rank == 0)
        printf("bytes=%d sends=%ld wrong=%ld\n", count * 4, sends, wrong);
    if (op != MPI_SUM)
        MPI_Op_free(&op);
    free(in);
    free(out);
    MPI_Finalize();
    return 0;
}
