/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * overhead_ref.c - the simplest honest MPI timing loop, as a yardstick for
 * collbench (see bench/overhead).  Compiled by bench/overhead into a temp dir.
 *
 *   overhead_ref [ITERS [REPS [WARMUP [FLOATS]]]]   defaults: 10000 21 1000 2
 *
 * One repetition: MPI_Barrier; t0 = MPI_Wtime(); ITERS x MPI_Allreduce of
 * FLOATS floats (sum, out-of-place; bench/transport-tune uses 65536, 256 KiB); t1 = MPI_Wtime(); per-call time (t1-t0)/ITERS;
 * the max of that across ranks (a collective is done when its slowest rank
 * is).  The program repeats this REPS times in one process and prints, on
 * rank 0, one line:
 *
 *   ref_us MEDIAN min MIN max MAX reps REPS iters ITERS
 *
 * in microseconds.  The result is checked once at the end (every element
 * the sum of ones, the rank count), so a broken run cannot pass for a fast
 * one.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    long iters = argc > 1 ? atol(argv[1]) : 10000;
    int reps = argc > 2 ? atoi(argv[2]) : 21;
    long warmup = argc > 3 ? atol(argv[3]) : 1000;
    long count = argc > 4 ? atol(argv[4]) : 2;
    if (iters < 1 || reps < 1 || warmup < 0 || count < 1 || count > (1L << 28)) {
        if (rank == 0)
            fprintf(stderr, "usage: overhead_ref [ITERS [REPS [WARMUP [FLOATS]]]]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    float *sendbuf = malloc((size_t)count * sizeof *sendbuf);
    float *recvbuf = calloc((size_t)count, sizeof *recvbuf);
    double *per_call = malloc((size_t)reps * sizeof *per_call);
    if (!per_call || !sendbuf || !recvbuf)
        MPI_Abort(MPI_COMM_WORLD, 3);
    for (long i = 0; i < count; i++)
        sendbuf[i] = 1.0f;

    for (long i = 0; i < warmup; i++)
        MPI_Allreduce(sendbuf, recvbuf, (int)count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);

    for (int r = 0; r < reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (long i = 0; i < iters; i++)
            MPI_Allreduce(sendbuf, recvbuf, (int)count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        double t1 = MPI_Wtime();
        double local_us = (t1 - t0) * 1e6 / (double)iters, max_us = 0.0;
        MPI_Allreduce(&local_us, &max_us, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        per_call[r] = max_us;
    }

    int bad = 0, anybad = 0;
    for (long i = 0; i < count; i++)
        bad |= recvbuf[i] != (float)size;
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);

    if (rank == 0) {
        qsort(per_call, (size_t)reps, sizeof *per_call, cmp_double);
        double med =
            reps % 2 ? per_call[reps / 2] : 0.5 * (per_call[reps / 2 - 1] + per_call[reps / 2]);
        if (anybad)
            fprintf(stderr, "overhead_ref: wrong allreduce result\n");
        else
            printf("ref_us %.4f min %.4f max %.4f reps %d iters %ld\n", med, per_call[0],
                   per_call[reps - 1], reps, iters);
    }
    free(per_call);
    free(sendbuf);
    free(recvbuf);
    MPI_Finalize();
    return anybad ? 1 : 0;
}
