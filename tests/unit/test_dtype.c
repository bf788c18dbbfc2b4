/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_dtype.c - ct_dtype: names and aliases, sizes, store/load round trips,
 * integer wrap, and IEEE half / bfloat16 conversions (round to nearest even).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ct_dtype.h"
#include "ct_test.h"

static ct_test_tally_t tally;

static void check_parse(const char *name, ct_dtype_t want)
{
    ct_dtype_t got = CT_DTYPE_COUNT;
    CT_CHECK(&tally, ct_dtype_parse(name, &got) == CT_OK);
    CT_CHECK(&tally, got == want);
    if (got != want)
        fprintf(stderr, "  ct_dtype_parse(\"%s\") = %d, want %d\n", name, (int)got, (int)want);
}

static void check_parse_bad(const char *name)
{
    ct_dtype_t got = CT_DTYPE_COUNT;
    CT_CHECK(&tally, ct_dtype_parse(name, &got) == CT_ERR_USAGE);
    CT_CHECK(&tally, got == CT_DTYPE_COUNT);
}

static void check_half(float f, uint16_t want)
{
    uint16_t got = ct_float_to_half(f);
    CT_CHECK(&tally, got == want);
    if (got != want)
        fprintf(stderr, "  ct_float_to_half(%.9g) = 0x%04x, want 0x%04x\n", (double)f, got, want);
}

static void check_bf16(float f, uint16_t want)
{
    uint16_t got = ct_float_to_bf16(f);
    CT_CHECK(&tally, got == want);
    if (got != want)
        fprintf(stderr, "  ct_float_to_bf16(%.9g) = 0x%04x, want 0x%04x\n", (double)f, got, want);
}

static void check_store(ct_dtype_t d, double in, double want)
{
    unsigned char buf[32];
    memset(buf, 0xa5, sizeof buf);
    ct_dtype_store(buf, 1, d, in);
    double got = ct_dtype_load(buf, 1, d);
    CT_CHECK(&tally, got == want);
    if (got != want)
        fprintf(stderr, "  %s: store %.17g loads %.17g, want %.17g\n", ct_dtype_name(d), in, got,
                want);
    CT_CHECK(&tally, ct_dtype_represent(d, in) == want);
    /* Element 1 only: neighbours untouched. */
    size_t sz = ct_dtype_size(d);
    for (size_t b = 0; b < sz; b++)
        CT_CHECK(&tally, buf[b] == 0xa5 && buf[2 * sz + b] == 0xa5);
}

int main(void)
{
    static const struct {
        ct_dtype_t d;
        const char *name;
        size_t size;
        int is_float;
    } types[] = {
        {CT_DTYPE_INT8, "int8", 1, 0},     {CT_DTYPE_UINT8, "uint8", 1, 0},
        {CT_DTYPE_INT32, "int32", 4, 0},   {CT_DTYPE_UINT32, "uint32", 4, 0},
        {CT_DTYPE_INT64, "int64", 8, 0},   {CT_DTYPE_UINT64, "uint64", 8, 0},
        {CT_DTYPE_HALF, "half", 2, 1},     {CT_DTYPE_FLOAT, "float", 4, 1},
        {CT_DTYPE_DOUBLE, "double", 8, 1}, {CT_DTYPE_BFLOAT16, "bfloat16", 2, 1},
    };
    CT_CHECK(&tally, sizeof types / sizeof types[0] == CT_DTYPE_COUNT);

    /* Names (nccl-tests' spelling), sizes, float flag, canonical parse. */
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        CT_CHECK_STR(&tally, ct_dtype_name(types[i].d), types[i].name);
        CT_CHECK(&tally, ct_dtype_size(types[i].d) == types[i].size);
        CT_CHECK(&tally, !!ct_dtype_is_float(types[i].d) == types[i].is_float);
        check_parse(types[i].name, types[i].d);
    }
    CT_CHECK_STR(&tally, ct_dtype_name(CT_DTYPE_COUNT), "?");
    CT_CHECK(&tally, ct_dtype_size(CT_DTYPE_COUNT) == 0);

    /* Aliases, case-insensitive. */
    check_parse("char", CT_DTYPE_INT8);
    check_parse("i8", CT_DTYPE_INT8);
    check_parse("u8", CT_DTYPE_UINT8);
    check_parse("int", CT_DTYPE_INT32);
    check_parse("i32", CT_DTYPE_INT32);
    check_parse("uint", CT_DTYPE_UINT32);
    check_parse("u32", CT_DTYPE_UINT32);
    check_parse("i64", CT_DTYPE_INT64);
    check_parse("u64", CT_DTYPE_UINT64);
    check_parse("float16", CT_DTYPE_HALF);
    check_parse("fp16", CT_DTYPE_HALF);
    check_parse("float32", CT_DTYPE_FLOAT);
    check_parse("fp32", CT_DTYPE_FLOAT);
    check_parse("float64", CT_DTYPE_DOUBLE);
    check_parse("fp64", CT_DTYPE_DOUBLE);
    check_parse("bf16", CT_DTYPE_BFLOAT16);
    check_parse("FLOAT", CT_DTYPE_FLOAT);
    check_parse("BFloat16", CT_DTYPE_BFLOAT16);
    check_parse_bad("");
    check_parse_bad("int16");
    check_parse_bad("floatx");
    check_parse_bad("float ");
    check_parse_bad("all");

    /* Ops. */
    static const char *const ops[CT_OP_COUNT] = {"sum", "prod", "max", "min", "avg"};
    for (int o = 0; o < CT_OP_COUNT; o++) {
        ct_op_t got = CT_OP_COUNT;
        CT_CHECK_STR(&tally, ct_op_name((ct_op_t)o), ops[o]);
        CT_CHECK(&tally, ct_op_parse(ops[o], &got) == CT_OK && got == (ct_op_t)o);
    }
    {
        ct_op_t got = CT_OP_COUNT;
        CT_CHECK(&tally, ct_op_parse("MAX", &got) == CT_OK && got == CT_OP_MAX);
        got = CT_OP_COUNT;
        CT_CHECK(&tally, ct_op_parse("mean", &got) == CT_ERR_USAGE && got == CT_OP_COUNT);
        CT_CHECK(&tally, ct_op_parse("", &got) == CT_ERR_USAGE);
        CT_CHECK(&tally, ct_op_parse("all", &got) == CT_ERR_USAGE);
        CT_CHECK(&tally, ct_op_parse("summ", &got) == CT_ERR_USAGE);
        CT_CHECK_STR(&tally, ct_op_name(CT_OP_COUNT), "?");
    }

    /* Small integers round-trip through every type; negatives through the
     * signed and float ones. */
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        ct_dtype_t d = types[i].d;
        for (int v = 0; v <= 100; v++)
            check_store(d, v, v);
        if (d != CT_DTYPE_UINT8 && d != CT_DTYPE_UINT32 && d != CT_DTYPE_UINT64)
            for (int v = -100; v < 0; v++)
                check_store(d, v, v);
        /* A buffer of many elements, each at its own index. */
        unsigned char buf[64 * 8];
        for (size_t j = 0; j < 64; j++)
            ct_dtype_store(buf, j, d, (double)(j % 50));
        int all = 1;
        for (size_t j = 0; j < 64; j++)
            all &= ct_dtype_load(buf, j, d) == (double)(j % 50);
        CT_CHECK(&tally, all);
    }

    /* Integer wrap modulo the width. */
    check_store(CT_DTYPE_INT8, 200, -56);
    check_store(CT_DTYPE_INT8, 128, -128);
    check_store(CT_DTYPE_INT8, -129, 127);
    check_store(CT_DTYPE_INT8, 256, 0);
    check_store(CT_DTYPE_UINT8, 256, 0);
    check_store(CT_DTYPE_UINT8, 300, 44);
    check_store(CT_DTYPE_UINT8, -1, 255);
    check_store(CT_DTYPE_INT32, 2147483648.0, -2147483648.0);
    check_store(CT_DTYPE_INT32, 4294967296.0 + 7, 7);
    check_store(CT_DTYPE_UINT32, 4294967296.0 + 5, 5);
    check_store(CT_DTYPE_UINT32, -1, 4294967295.0);
    check_store(CT_DTYPE_INT64, -5, -5);
    check_store(CT_DTYPE_INT64, 9007199254740992.0, 9007199254740992.0);
    check_store(CT_DTYPE_UINT64, -1, 18446744073709551615.0);
    /* Integers truncate toward zero. */
    check_store(CT_DTYPE_INT32, 2.75, 2);
    check_store(CT_DTYPE_INT32, -2.75, -2);
    /* Float stores round to the type. */
    check_store(CT_DTYPE_FLOAT, 0.1, (double)0.1f);
    check_store(CT_DTYPE_DOUBLE, 0.1, 0.1);
    check_store(CT_DTYPE_HALF, 1.0 / 3.0, 0.333251953125);
    check_store(CT_DTYPE_BFLOAT16, 1.0 / 3.0, 0.333984375);
    check_store(CT_DTYPE_HALF, 65504, 65504);
    check_store(CT_DTYPE_HALF, 65536, INFINITY);
    check_store(CT_DTYPE_BFLOAT16, 257, 256);
    check_store(CT_DTYPE_HALF, 2049, 2048);

    /* Half: exact values. */
    check_half(0.0f, 0x0000);
    check_half(-0.0f, 0x8000);
    check_half(1.0f, 0x3c00);
    check_half(-1.0f, 0xbc00);
    check_half(2.0f, 0x4000);
    check_half(0.5f, 0x3800);
    check_half(3.0f, 0x4200);
    check_half(65504.0f, 0x7bff);
    check_half(-65504.0f, 0xfbff);
    check_half(ldexpf(1.0f, -14), 0x0400); /* smallest normal */
    check_half(ldexpf(1.0f, -24), 0x0001); /* smallest subnormal */
    check_half(ldexpf(1023.0f, -24), 0x03ff);
    check_half(INFINITY, 0x7c00);
    check_half(-INFINITY, 0xfc00);
    {
        uint16_t h = ct_float_to_half(NAN);
        CT_CHECK(&tally, (h & 0x7c00u) == 0x7c00u && (h & 0x03ffu) != 0);
        CT_CHECK(&tally, isnan(ct_half_to_float(h)));
    }
    /* Half: round to nearest, ties to even. */
    check_half(1.0f + ldexpf(1.0f, -11), 0x3c00);                     /* tie, down to even */
    check_half(1.0f + 3 * ldexpf(1.0f, -11), 0x3c02);                 /* tie, up to even */
    check_half(1.0f + ldexpf(1.0f, -11) + ldexpf(1.0f, -20), 0x3c01); /* above the tie */
    check_half(1.0f + ldexpf(1.0f, -12), 0x3c00);                     /* below the tie */
    check_half(2047.0f + 0.5f, 0x6800); /* 2047.5: tie between 2047 and 2048 */
    check_half(2049.0f, 0x6800);        /* tie, down to even 2048 */
    check_half(2051.0f, 0x6802);        /* tie, up to even 2052 */
    check_half(65519.0f, 0x7bff);       /* below the tie to infinity */
    check_half(65520.0f, 0x7c00);       /* tie: rounds to even = infinity */
    check_half(1e6f, 0x7c00);           /* overflow */
    check_half(-1e6f, 0xfc00);
    check_half(ldexpf(1.0f, -25), 0x0000);    /* tie between 0 and 2^-24 */
    check_half(ldexpf(3.0f, -26), 0x0001);    /* 1.5 * 2^-25 */
    check_half(ldexpf(3.0f, -25), 0x0002);    /* 1.5 ulp: tie, up to even 2 */
    check_half(ldexpf(5.0f, -25), 0x0002);    /* 2.5 ulp: tie, down to even 2 */
    check_half(ldexpf(1.0f, -26), 0x0000);    /* underflow */
    check_half(ldexpf(2047.0f, -25), 0x0400); /* subnormal rounds up to normal */
    /* Half to float. */
    CT_CHECK(&tally, ct_half_to_float(0x3c00) == 1.0f);
    CT_CHECK(&tally, ct_half_to_float(0x4000) == 2.0f);
    CT_CHECK(&tally, ct_half_to_float(0x3800) == 0.5f);
    CT_CHECK(&tally, ct_half_to_float(0x7bff) == 65504.0f);
    CT_CHECK(&tally, ct_half_to_float(0xc000) == -2.0f);
    CT_CHECK(&tally, ct_half_to_float(0x0001) == ldexpf(1.0f, -24));
    CT_CHECK(&tally, ct_half_to_float(0x03ff) == ldexpf(1023.0f, -24));
    CT_CHECK(&tally, ct_half_to_float(0x8001) == -ldexpf(1.0f, -24));
    CT_CHECK(&tally, ct_half_to_float(0x0400) == ldexpf(1.0f, -14));
    CT_CHECK(&tally, ct_half_to_float(0x7c00) == INFINITY);
    CT_CHECK(&tally, ct_half_to_float(0xfc00) == -INFINITY);
    CT_CHECK(&tally, isnan(ct_half_to_float(0x7e00)));
    {
        float nz = ct_half_to_float(0x8000);
        CT_CHECK(&tally, nz == 0.0f && signbit(nz));
    }
    /* Every finite half survives half -> float -> half. */
    {
        int bad = 0;
        for (uint32_t h = 0; h < 0x10000u; h++) {
            if ((h & 0x7c00u) == 0x7c00u)
                continue;
            if (ct_float_to_half(ct_half_to_float((uint16_t)h)) != h)
                bad++;
        }
        CT_CHECK(&tally, bad == 0);
        if (bad)
            fprintf(stderr, "  %d halves do not round-trip\n", bad);
    }

    /* bfloat16: exact values. */
    check_bf16(0.0f, 0x0000);
    check_bf16(-0.0f, 0x8000);
    check_bf16(1.0f, 0x3f80);
    check_bf16(-1.0f, 0xbf80);
    check_bf16(2.0f, 0x4000);
    check_bf16(0.5f, 0x3f00);
    check_bf16(256.0f, 0x4380);
    check_bf16(255.0f, 0x437f);
    check_bf16(INFINITY, 0x7f80);
    check_bf16(-INFINITY, 0xff80);
    {
        uint16_t b = ct_float_to_bf16(NAN);
        CT_CHECK(&tally, (b & 0x7f80u) == 0x7f80u && (b & 0x007fu) != 0);
        CT_CHECK(&tally, isnan(ct_bf16_to_float(b)));
    }
    /* bfloat16: round to nearest, ties to even (256..512 steps by 2). */
    check_bf16(257.0f, 0x4380);                      /* tie, down to even 256 */
    check_bf16(259.0f, 0x4382);                      /* tie, up to even 260 */
    check_bf16(257.5f, 0x4381);                      /* above the tie */
    check_bf16(1.0f + ldexpf(1.0f, -8), 0x3f80);     /* tie, down */
    check_bf16(1.0f + 3 * ldexpf(1.0f, -8), 0x3f82); /* tie, up */
    check_bf16(3.4028235e38f, 0x7f80);               /* FLT_MAX rounds to infinity */
    CT_CHECK(&tally, ct_bf16_to_float(0x4380) == 256.0f);
    CT_CHECK(&tally, ct_bf16_to_float(0x3f80) == 1.0f);
    CT_CHECK(&tally, ct_bf16_to_float(0x4381) == 258.0f);
    CT_CHECK(&tally, ct_bf16_to_float(0x7f80) == INFINITY);
    CT_CHECK(&tally, ct_bf16_to_float(0xc000) == -2.0f);

    return CT_DONE(&tally);
}
