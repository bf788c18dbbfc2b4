/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * coll_sim.c - a collective simulated in-process, for the unit tests
 * (see coll_sim.h).
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "coll_sim.h"
#include "pattern.h"

void ct_sim_setup(ct_sim_t *s, const ct_coll_desc_t *desc, ct_dtype_t dtype, ct_op_t op, int nranks,
                  int root, size_t bytes)
{
    assert(nranks >= 1 && nranks <= CT_SIM_MAX_RANKS);
    memset(s, 0, sizeof *s);
    s->desc = desc;
    s->data.dtype = dtype;
    s->data.op = op;
    s->data.root = root;
    s->data.nranks = nranks;
    s->ts = ct_dtype_size(dtype);
    desc->counts(bytes, s->ts, nranks, &s->c);

    size_t sbytes = s->c.send_count * s->ts, rbytes = s->c.recv_count * s->ts;
    for (int r = 0; r < nranks; r++) {
        ct_coll_data_t data = s->data;
        data.rank = r;
        s->in[r] = malloc(sbytes);
        s->out[r] = malloc(rbytes);
        memset(s->in[r], 0x5a, sbytes);
        desc->fill_send(s->in[r], &s->c, &data);
    }
    s->work = malloc(rbytes);
    for (int r = 0; r < nranks; r++)
        ct_sim_simulate(s, r, -1, s->out[r]);
}

void ct_sim_free(ct_sim_t *s)
{
    for (int r = 0; r < s->data.nranks; r++) {
        free(s->in[r]);
        free(s->out[r]);
    }
    free(s->work);
}

/* Reduction over ranks of element idx of the inputs, leaving out rank skip
 * (-1: none), in double (the inputs are small integers, so this is exact).
 * avg divides by nranks, truncating for integers like NCCL's integer avg
 * (sum, then integer division). */
static double reduce_at(const ct_sim_t *s, size_t idx, int skip)
{
    ct_dtype_t d = s->data.dtype;
    double acc = 0.0;
    int first = 1;
    for (int r = 0; r < s->data.nranks; r++) {
        if (r == skip)
            continue;
        double v = ct_dtype_load(s->in[r], idx, d);
        if (first) {
            acc = v;
            first = 0;
            continue;
        }
        switch (s->data.op) {
        case CT_OP_PROD: acc *= v; break;
        case CT_OP_MAX: acc = fmax(acc, v); break;
        case CT_OP_MIN: acc = fmin(acc, v); break;
        default: acc += v; break;
        }
    }
    if (s->data.op == CT_OP_AVG) {
        acc /= (double)s->data.nranks;
        if (!ct_dtype_is_float(d))
            acc = trunc(acc);
    }
    return acc;
}

void ct_sim_simulate(const ct_sim_t *s, int rank, int skip, void *out)
{
    ct_dtype_t d = s->data.dtype;
    const ct_coll_counts_t *c = &s->c;
    switch (s->desc->id) {
    case CT_COLL_ALLREDUCE:
        for (size_t j = 0; j < c->recv_count; j++)
            ct_dtype_store(out, j, d, reduce_at(s, j, skip));
        break;
    case CT_COLL_REDUCE_SCATTER:
        for (size_t j = 0; j < c->recv_count; j++)
            ct_dtype_store(out, j, d, reduce_at(s, (size_t)rank * c->recv_count + j, skip));
        break;
    case CT_COLL_ALLGATHER:
        for (int src = 0; src < s->data.nranks; src++)
            memcpy((char *)out + (size_t)src * c->send_count * s->ts, s->in[src],
                   c->send_count * s->ts);
        break;
    case CT_COLL_ALLTOALL: {
        size_t b = c->param_count * s->ts;
        for (int src = 0; src < s->data.nranks; src++)
            memcpy((char *)out + (size_t)src * b, s->in[src] + (size_t)rank * b, b);
        break;
    }
    case CT_COLL_BROADCAST: memcpy(out, s->in[s->data.root], c->recv_count * s->ts); break;
    default: break;
    }
}

size_t ct_sim_count_mismatch(const ct_sim_t *s, const void *a, const void *b)
{
    size_t n = 0;
    for (size_t j = 0; j < s->c.recv_count; j++)
        if (!ct_pattern_matches(&s->data, ct_dtype_load(a, j, s->data.dtype),
                                ct_dtype_load(b, j, s->data.dtype)))
            n++;
    return n;
}
