/* SPDX-License-Identifier: BSD-3-Clause */
#include "pattern.h"

#include <math.h>
#include <stdint.h>

/* Hash seeds: one stream for data movement and one per op, so that the
 * inputs of different ops share no structure either. */
#define CT_PATTERN_SEED_SOURCE UINT64_C(0x5bd1e9955bd1e995)
#define CT_PATTERN_SEED_REDUCE UINT64_C(0x27d4eb2f165667c5)
#define CT_PATTERN_SEED_EXTRA UINT64_C(0x165667b19e3779f9)

/* Longest window of distinct values (see ct_pattern_stream_t). */
#define CT_PATTERN_WINDOW_BITS 16

/* Middle ranks of min/max take offsets 1..CT_PATTERN_MINMAX_SPREAD-1. */
#define CT_PATTERN_MINMAX_SPREAD 15

/* avg: up to this many ranks all give a share of the mean; beyond, one
 * rank gives it all, so that the float error bound does not grow with the
 * rank count (adding exact zeros rounds nothing). */
#define CT_PATTERN_AVG_SHARED 16

/* The integers a type holds exactly and that fit a 32-bit draw (no
 * pattern has more than 2^32 distinct results): values of 64-bit types
 * stay where a double, the checker's view, is exact too.  Unsigned ranges
 * stop one short of the all-ones poison value. */
typedef struct {
    int64_t lo;
    int64_t hi;
    int prod_odd_bits; /* odd factor of prod below 2^bits ... */
    int prod_max_exp;  /* ... times at most 2^exp: exact in the type */
    double roundoff;   /* unit roundoff of float types, 0 for integers */
} ct_pattern_type_t;

static ct_pattern_type_t ct_pattern_type(ct_dtype_t dtype)
{
    const int64_t i31 = INT64_C(1) << 31, u32 = (INT64_C(1) << 32) - 2;
    const int64_t f24 = INT64_C(1) << 24;
    switch (dtype) {
    case CT_DTYPE_INT8: return (ct_pattern_type_t){-128, 127, 4, 3, 0.0};
    case CT_DTYPE_UINT8: return (ct_pattern_type_t){0, 254, 5, 3, 0.0};
    case CT_DTYPE_INT32: return (ct_pattern_type_t){-i31, i31 - 1, 15, 15, 0.0};
    case CT_DTYPE_UINT32: return (ct_pattern_type_t){0, u32, 16, 15, 0.0};
    case CT_DTYPE_INT64: return (ct_pattern_type_t){-i31, i31 - 1, 26, 26, 0.0};
    case CT_DTYPE_UINT64: return (ct_pattern_type_t){0, u32, 26, 26, 0.0};
    case CT_DTYPE_HALF: return (ct_pattern_type_t){-2048, 2048, 11, 4, ldexp(1.0, -11)};
    case CT_DTYPE_FLOAT: return (ct_pattern_type_t){-f24, f24, 24, 60, ldexp(1.0, -24)};
    case CT_DTYPE_DOUBLE: return (ct_pattern_type_t){-i31, i31 - 1, 24, 60, ldexp(1.0, -53)};
    case CT_DTYPE_BFLOAT16:
    default: return (ct_pattern_type_t){-256, 256, 8, 30, ldexp(1.0, -8)};
    }
}

/* splitmix64's finaliser: a bijection whose every output bit depends on
 * every input bit, so neighbouring indices get unrelated values. */
static uint64_t ct_pattern_mix(uint64_t x)
{
    x += UINT64_C(0x9e3779b97f4a7c15);
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

/* A value in [0, range) from 32 random bits, range <= 2^32, without a
 * division (Lemire's multiply-shift). */
static uint64_t ct_pattern_pick(uint32_t bits, uint64_t range)
{
    return ((uint64_t)bits * range) >> 32;
}

static uint64_t ct_pattern_gcd(uint64_t a, uint64_t b)
{
    while (b != 0) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* ---- streams of codes ----
 *
 * Every pattern numbers its possible expected values 0..codes-1 (a code)
 * and gives element g the code of a stream.  The stream is cut into
 * windows of 2^bits elements (bits as large as codes allows, at most
 * CT_PATTERN_WINDOW_BITS); inside a window, code = (mult*p + add) mod
 * codes for position p, with mult coprime to codes: a permutation, so the
 * values of one window are all different and any slip of an element
 * within a window is caught for sure, even where a type holds only a few
 * dozen results.  mult and add are drawn per window from a hash of the
 * window's number, so windows are unrelated and nothing repeats with a
 * period across the buffer. */
typedef struct {
    uint64_t seed;
    uint64_t codes;
    unsigned bits;
} ct_pattern_stream_t;

static void ct_pattern_stream_init(ct_pattern_stream_t *st, uint64_t seed, uint64_t codes)
{
    st->seed = seed;
    st->codes = codes > 0 ? codes : 1;
    st->bits = 0;
    while (st->bits < CT_PATTERN_WINDOW_BITS && (UINT64_C(2) << st->bits) <= st->codes)
        st->bits++;
}

/* Walks the codes of consecutive elements without a division per step,
 * and (reductions) the ranks' rotation g mod nranks. */
typedef struct {
    const ct_pattern_stream_t *st;
    uint64_t g;
    uint64_t mult;
    uint64_t code;
    uint64_t nranks;
    uint64_t rot;
} ct_pattern_cursor_t;

static void ct_pattern_window(ct_pattern_cursor_t *cur, uint64_t window, uint64_t *add_p)
{
    const ct_pattern_stream_t *st = cur->st;
    uint64_t h = ct_pattern_mix(st->seed ^ window);
    uint64_t mult = 1;
    if (st->codes > 1) {
        mult = 1 + ct_pattern_pick((uint32_t)h, st->codes - 1);
        while (ct_pattern_gcd(mult, st->codes) != 1)
            mult = mult + 1 < st->codes ? mult + 1 : 1;
    }
    cur->mult = mult;
    *add_p = ct_pattern_pick((uint32_t)(h >> 32), st->codes);
}

static void ct_pattern_seek(ct_pattern_cursor_t *cur, const ct_pattern_stream_t *st,
                            uint64_t nranks, uint64_t g)
{
    uint64_t add, pos = g & ((UINT64_C(1) << st->bits) - 1);
    cur->st = st;
    cur->g = g;
    cur->nranks = nranks;
    cur->rot = g % nranks;
    ct_pattern_window(cur, g >> st->bits, &add);
    /* mult < 2^32 and pos < 2^16: no overflow. */
    cur->code = (cur->mult * pos + add) % st->codes;
}

static inline void ct_pattern_next(ct_pattern_cursor_t *cur)
{
    const ct_pattern_stream_t *st = cur->st;
    cur->g++;
    if (++cur->rot == cur->nranks)
        cur->rot = 0;
    if ((cur->g & ((UINT64_C(1) << st->bits) - 1)) == 0) {
        ct_pattern_window(cur, cur->g >> st->bits, &cur->code);
        return;
    }
    cur->code += cur->mult;
    if (cur->code >= st->codes)
        cur->code -= st->codes;
}

/* Code c of a signed magnitude: 0..max are themselves, the rest -2..-max
 * (never -1: all one bits, the poison of an unwritten output). */
static uint64_t ct_pattern_signed_codes(int is_signed, uint64_t max)
{
    return is_signed && max >= 2 ? 2 * max : max + 1;
}

static uint64_t ct_pattern_signed_decode(uint64_t code, uint64_t max, int *neg_p)
{
    *neg_p = code > max;
    return code > max ? code - max + 1 : code;
}

/* ---- data movement ---- */

static void ct_pattern_source_stream(ct_dtype_t dtype, ct_pattern_stream_t *st, int64_t *lo_p)
{
    ct_pattern_type_t t = ct_pattern_type(dtype);
    /* [lo, hi] without -1 */
    ct_pattern_stream_init(st, CT_PATTERN_SEED_SOURCE, (uint64_t)(t.hi - t.lo) + 1 - (t.lo < 0));
    *lo_p = t.lo;
}

static double ct_pattern_source_decode(int64_t lo, uint64_t code)
{
    int64_t v = lo + (int64_t)code;
    return (double)(lo < 0 && v >= -1 ? v + 1 : v);
}

double ct_pattern_source(ct_dtype_t dtype, size_t g)
{
    ct_pattern_stream_t st;
    ct_pattern_cursor_t cur;
    int64_t lo;
    ct_pattern_source_stream(dtype, &st, &lo);
    ct_pattern_seek(&cur, &st, 1, g);
    return ct_pattern_source_decode(lo, cur.code);
}

void ct_pattern_fill_source(void *buf, size_t count, size_t first, ct_dtype_t dtype)
{
    ct_pattern_stream_t st;
    ct_pattern_cursor_t cur;
    int64_t lo;
    ct_pattern_source_stream(dtype, &st, &lo);
    ct_pattern_seek(&cur, &st, 1, first);
    for (size_t j = 0; j < count; j++, ct_pattern_next(&cur))
        ct_dtype_store(buf, j, dtype, ct_pattern_source_decode(lo, cur.code));
}

size_t ct_pattern_check_source(const void *buf, size_t count, size_t first, ct_dtype_t dtype)
{
    ct_pattern_stream_t st;
    ct_pattern_cursor_t cur;
    int64_t lo;
    size_t wrong = 0;
    ct_pattern_source_stream(dtype, &st, &lo);
    ct_pattern_seek(&cur, &st, 1, first);
    for (size_t j = 0; j < count; j++, ct_pattern_next(&cur))
        if (ct_dtype_load(buf, j, dtype) != ct_pattern_source_decode(lo, cur.code))
            wrong++;
    return wrong;
}

/* ---- reductions ---- */

/* Everything about a reduction that does not depend on the element. */
typedef struct {
    ct_op_t op;
    uint64_t nranks;
    int is_signed;
    int64_t lo;          /* min/max: the type's range */
    uint64_t ones;       /* sum: most ranks that add 1; prod: most factors 2 */
    uint64_t bases;      /* sum: choices of base; prod: of the odd factor */
    unsigned bases_bits; /* prod: log2(bases) */
    uint64_t max;        /* sum: largest |sum|; avg: largest |mean| */
    uint64_t spread;     /* min/max: offset of the rank holding the max */
    uint64_t below;      /* min/max: choices of a negative base */
    ct_pattern_stream_t stream;
} ct_pattern_plan_t;

/* The relative error bound of NCCL's avg on floats, a sum of terms
 * x*(1/n), each rounded twice (2u), with each partial sum rounded (u):
 * gamma_k = k*u / (1 - k*u), k = terms+1.  Only the non-zero terms count:
 * beyond CT_PATTERN_AVG_SHARED ranks there is one.  A library that sums
 * first and divides once rounds less. */
static double ct_pattern_avg_gamma(ct_dtype_t dtype, int nranks)
{
    double terms = nranks <= CT_PATTERN_AVG_SHARED ? (double)nranks : 1.0;
    double ku = (terms + 1.0) * ct_pattern_type(dtype).roundoff;
    return ku < 1.0 ? ku / (1.0 - ku) : HUGE_VAL;
}

static uint64_t ct_pattern_min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

static void ct_pattern_plan(const ct_coll_data_t *data, ct_pattern_plan_t *p)
{
    ct_pattern_type_t t = ct_pattern_type(data->dtype);
    uint64_t n = data->nranks > 0 ? (uint64_t)data->nranks : 1, codes;
    /* Largest magnitude of any result, partial results included: every
     * element's inputs share one sign, so no partial sum exceeds the sum. */
    uint64_t limit = (uint64_t)(t.lo < 0 && -t.lo < t.hi ? -t.lo : t.hi);

    p->op = data->op;
    p->nranks = n;
    p->is_signed = t.lo < 0;
    p->lo = t.lo;
    switch (data->op) {
    case CT_OP_PROD:
        p->ones = ct_pattern_min_u64(n, (uint64_t)t.prod_max_exp);
        p->bases_bits = (unsigned)t.prod_odd_bits - 1;
        p->bases = UINT64_C(1) << p->bases_bits; /* odd factors 1, 3, ... */
        codes = p->bases * (p->ones + 1);
        codes = p->is_signed ? 2 * codes - 1 : codes; /* -1 left out */
        break;
    case CT_OP_MIN:
    case CT_OP_MAX:
        /* An element's values [base, base+spread] avoid -1: all below it,
         * or all at or above 0. */
        p->spread = ct_pattern_min_u64(n - 1, CT_PATTERN_MINMAX_SPREAD);
        p->below = p->is_signed ? (uint64_t)(-1 - (int64_t)p->spread - t.lo) : 0;
        codes = p->below + (uint64_t)(t.hi - (int64_t)p->spread) + 1;
        break;
    case CT_OP_AVG:
        p->max = limit / n;
        if (t.roundoff > 0.0) {
            /* Keep the error bound below 0.45 so neighbouring means never
             * match (ct_pattern_matches). */
            double fit = floor(0.45 / ct_pattern_avg_gamma(data->dtype, data->nranks));
            if (fit < (double)p->max)
                p->max = (uint64_t)fit;
        }
        codes = ct_pattern_signed_codes(p->is_signed, p->max);
        break;
    case CT_OP_SUM:
    default:
        p->ones = ct_pattern_min_u64(n, limit);
        p->bases = (limit - p->ones) / n + 1;
        p->max = n * (p->bases - 1) + p->ones;
        codes = ct_pattern_signed_codes(p->is_signed, p->max);
        break;
    }
    ct_pattern_stream_init(&p->stream, CT_PATTERN_SEED_REDUCE ^ ((uint64_t)data->op << 56) ^ n,
                           codes);
}

/* The per-element parameters of every op (see pattern.h). */
typedef struct {
    uint64_t rot;   /* g mod nranks: rank r plays part (r + rot) mod nranks */
    uint64_t m;     /* sum: ranks adding 1; prod: factors 2 */
    int64_t base;   /* sum/avg: |each rank's share|; prod: odd factor; min/max: the min */
    uint64_t extra; /* avg: e, the part of the mean that part 0 gives alone */
    int neg;        /* sum/prod/avg: the element is negative */
} ct_pattern_elem_t;

static inline void ct_pattern_elem(const ct_pattern_plan_t *p, const ct_pattern_cursor_t *cur,
                                   ct_pattern_elem_t *e)
{
    uint64_t code = cur->code;
    /* Which ranks play which part does not change the result, so it can
     * simply cycle: every rank plays every part (holds the min, the max,
     * adds a 1) once in any nranks consecutive elements. */
    e->rot = cur->rot;
    e->m = 0;
    e->extra = 0;
    e->neg = 0;
    switch (p->op) {
    case CT_OP_PROD: {
        uint64_t per_sign = p->bases * (p->ones + 1);
        if (code >= per_sign) { /* negative; code 0 (the product 1) has no -1 */
            e->neg = 1;
            code = code - per_sign + 1;
        }
        e->base = 2 * (int64_t)(code & (p->bases - 1)) + 1; /* bases: a power of 2 */
        e->m = code >> p->bases_bits;
        break;
    }
    case CT_OP_MIN:
    case CT_OP_MAX:
        e->base = code < p->below ? p->lo + (int64_t)code : (int64_t)(code - p->below);
        break;
    case CT_OP_AVG: {
        /* How the mean is split between the ranks does not change it:
         * drawn from another hash of the index. */
        uint64_t a = ct_pattern_signed_decode(code, p->max, &e->neg);
        uint32_t h = (uint32_t)ct_pattern_mix(CT_PATTERN_SEED_EXTRA ^ cur->g);
        e->extra = p->nranks <= CT_PATTERN_AVG_SHARED ? ct_pattern_pick(h, a + 1) : a;
        e->base = (int64_t)(a - e->extra);
        break;
    }
    case CT_OP_SUM:
    default: {
        /* |sum| = nranks*base + m, m <= ones. */
        uint64_t sum = ct_pattern_signed_decode(code, p->max, &e->neg);
        /* Both below 2^32: a 32-bit division is several times faster. */
        uint64_t base = (uint32_t)sum / (uint32_t)p->nranks;
        if (base > p->bases - 1)
            base = p->bases - 1;
        e->base = (int64_t)base;
        e->m = sum - base * p->nranks;
        break;
    }
    }
}

/* min/max: part 0 holds the unique min, part n-1 the unique max, the
 * others lie strictly between. */
static inline uint64_t ct_pattern_minmax_offset(const ct_pattern_plan_t *p, uint64_t k)
{
    if (k == 0)
        return 0;
    if (k == p->nranks - 1)
        return p->spread;
    return k < p->spread ? k : p->spread - 1;
}

static inline double ct_pattern_input_at(const ct_pattern_plan_t *p, const ct_pattern_elem_t *e,
                                         int rank)
{
    uint64_t k = (uint64_t)rank + e->rot;
    double v;
    if (k >= p->nranks)
        k -= p->nranks;
    switch (p->op) {
    case CT_OP_PROD:
        v = (k < e->m ? 2.0 : 1.0) * (k == 0 ? (double)e->base : 1.0);
        return k == 0 && e->neg ? -v : v;
    case CT_OP_MIN:
    case CT_OP_MAX: return (double)(e->base + (int64_t)ct_pattern_minmax_offset(p, k));
    case CT_OP_AVG:
        v = (double)e->base + (k == 0 ? (double)(p->nranks * e->extra) : 0.0);
        return e->neg ? -v : v;
    case CT_OP_SUM:
    default: v = (double)e->base + (k < e->m ? 1.0 : 0.0); return e->neg ? -v : v;
    }
}

static inline double ct_pattern_expected_at(const ct_pattern_plan_t *p, const ct_pattern_elem_t *e)
{
    double v;
    switch (p->op) {
    case CT_OP_PROD: v = ldexp((double)e->base, (int)e->m); break;
    case CT_OP_MIN: return (double)e->base;
    case CT_OP_MAX: return (double)(e->base + (int64_t)p->spread);
    case CT_OP_AVG: v = (double)e->base + (double)e->extra; break;
    case CT_OP_SUM:
    default: v = (double)e->base * (double)p->nranks + (double)e->m; break;
    }
    return e->neg ? -v : v;
}

static void ct_pattern_elem_of(const ct_coll_data_t *data, size_t g, ct_pattern_plan_t *p,
                               ct_pattern_elem_t *e)
{
    ct_pattern_cursor_t cur;
    ct_pattern_plan(data, p);
    ct_pattern_seek(&cur, &p->stream, p->nranks, g);
    ct_pattern_elem(p, &cur, e);
}

double ct_pattern_reduce_input(const ct_coll_data_t *data, int rank, size_t g)
{
    ct_pattern_plan_t p;
    ct_pattern_elem_t e;
    ct_pattern_elem_of(data, g, &p, &e);
    return ct_pattern_input_at(&p, &e, rank);
}

double ct_pattern_reduce_expected(const ct_coll_data_t *data, size_t g)
{
    ct_pattern_plan_t p;
    ct_pattern_elem_t e;
    ct_pattern_elem_of(data, g, &p, &e);
    return ct_pattern_expected_at(&p, &e);
}

/* gamma: ct_pattern_avg_gamma for avg on floats, 0 (exact) otherwise. */
static inline int ct_pattern_close(double gamma, double got, double want)
{
    if (gamma > 0.0)
        return fabs(got - want) <= fmin(gamma * fmax(1.0, fabs(want)), 0.45); /* not NaN */
    return got == want;
}

static double ct_pattern_tolerance(const ct_coll_data_t *data)
{
    if (data->op == CT_OP_AVG && ct_dtype_is_float(data->dtype))
        return ct_pattern_avg_gamma(data->dtype, data->nranks);
    return 0.0;
}

int ct_pattern_matches(const ct_coll_data_t *data, double got, double want)
{
    return ct_pattern_close(ct_pattern_tolerance(data), got, want);
}

void ct_pattern_fill_reduce(void *buf, size_t count, size_t first, const ct_coll_data_t *data)
{
    ct_pattern_plan_t p;
    ct_pattern_cursor_t cur;
    ct_pattern_plan(data, &p);
    ct_pattern_seek(&cur, &p.stream, p.nranks, first);
    for (size_t j = 0; j < count; j++, ct_pattern_next(&cur)) {
        ct_pattern_elem_t e;
        ct_pattern_elem(&p, &cur, &e);
        ct_dtype_store(buf, j, data->dtype, ct_pattern_input_at(&p, &e, data->rank));
    }
}

size_t ct_pattern_check_reduce(const void *buf, size_t count, size_t first,
                               const ct_coll_data_t *data)
{
    ct_pattern_plan_t p;
    ct_pattern_cursor_t cur;
    size_t wrong = 0;
    double gamma = ct_pattern_tolerance(data);
    ct_pattern_plan(data, &p);
    ct_pattern_seek(&cur, &p.stream, p.nranks, first);
    for (size_t j = 0; j < count; j++, ct_pattern_next(&cur)) {
        ct_pattern_elem_t e;
        ct_pattern_elem(&p, &cur, &e);
        if (!ct_pattern_close(gamma, ct_dtype_load(buf, j, data->dtype),
                              ct_pattern_expected_at(&p, &e)))
            wrong++;
    }
    return wrong;
}
