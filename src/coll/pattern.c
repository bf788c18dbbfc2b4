#include "pattern.h"

#include <math.h>
#include <stdlib.h>

/* Sum inputs stay within {0,1} for 16-bit floats so that sums up to 256
 * ranks (bfloat16) stay exact; other types use {0..3}. */
static unsigned ct_pattern_sum_span(ct_dtype_t dtype)
{
    return (dtype == CT_DTYPE_HALF || dtype == CT_DTYPE_BFLOAT16) ? 2u : 4u;
}

double ct_pattern_source(int rank, size_t i)
{
    /* Distinct per source rank and position, below 100 so int8 holds it. */
    return (double)(((unsigned)rank * 37u + (unsigned)(i % 9973u) * 11u) % 97u + 1u);
}

double ct_pattern_reduce_input(const ct_coll_data_t *data, int rank, size_t i)
{
    switch (data->op) {
    case CT_OP_PROD:
        /* One rank contributes 2 per element, the rest 1: the product is
         * exactly 2 at any scale, and a dropped or doubled rank shows. */
        return ((size_t)rank == i % (size_t)data->nranks) ? 2.0 : 1.0;
    case CT_OP_MIN:
    case CT_OP_MAX:
        return (double)(((unsigned)rank * 3u + (unsigned)(i % 8u)) % 8u);
    case CT_OP_SUM:
    case CT_OP_AVG:
    default: {
        unsigned span = ct_pattern_sum_span(data->dtype);
        return (double)(((unsigned)rank + (unsigned)(i % span)) % span);
    }
    }
}

static size_t ct_pattern_period(const ct_coll_data_t *data)
{
    switch (data->op) {
    case CT_OP_PROD: return (size_t)data->nranks;
    case CT_OP_MIN:
    case CT_OP_MAX: return 8;
    default: return ct_pattern_sum_span(data->dtype);
    }
}

ct_status_t ct_pattern_expect_init(ct_pattern_expect_t *expect, const ct_coll_data_t *data)
{
    size_t period = ct_pattern_period(data);
    double *table = malloc(period * sizeof *table);

    if (table == NULL)
        return CT_ERR_NOMEM;
    for (size_t p = 0; p < period; p++) {
        double acc = ct_pattern_reduce_input(data, 0, p);
        for (int r = 1; r < data->nranks; r++) {
            double v = ct_pattern_reduce_input(data, r, p);
            switch (data->op) {
            case CT_OP_PROD: acc *= v; break;
            case CT_OP_MIN: acc = v < acc ? v : acc; break;
            case CT_OP_MAX: acc = v > acc ? v : acc; break;
            default: acc += v; break;
            }
        }
        if (data->op == CT_OP_AVG) {
            acc /= (double)data->nranks;
            if (!ct_dtype_is_float(data->dtype))
                acc = trunc(acc);
        }
        table[p] = ct_dtype_represent(data->dtype, acc);
    }
    expect->period = period;
    expect->expected = table;
    return CT_OK;
}

void ct_pattern_expect_fini(ct_pattern_expect_t *expect)
{
    free(expect->expected);
    expect->expected = NULL;
}

int ct_pattern_matches(const ct_coll_data_t *data, double got, double want)
{
    if (data->op == CT_OP_AVG && ct_dtype_is_float(data->dtype)) {
        double tol = ct_dtype_size(data->dtype) == 2 ? 1e-2 : 1e-6;
        return fabs(got - want) <= tol * fmax(1.0, fabs(want));
    }
    return got == want;
}

void ct_pattern_fill_reduce(void *buf, size_t count, size_t first, const ct_coll_data_t *data)
{
    for (size_t j = 0; j < count; j++)
        ct_dtype_store(buf, j, data->dtype, ct_pattern_reduce_input(data, data->rank, first + j));
}

size_t ct_pattern_check_reduce(const void *buf, size_t count, size_t first,
                               const ct_coll_data_t *data)
{
    ct_pattern_expect_t expect;
    size_t wrong = 0;

    if (ct_pattern_expect_init(&expect, data) != CT_OK)
        return count; /* cannot check: count nothing as verified */
    for (size_t j = 0; j < count; j++) {
        double want = expect.expected[(first + j) % expect.period];
        if (!ct_pattern_matches(data, ct_dtype_load(buf, j, data->dtype), want))
            wrong++;
    }
    ct_pattern_expect_fini(&expect);
    return wrong;
}
