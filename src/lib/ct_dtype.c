/* SPDX-License-Identifier: BSD-3-Clause */
#include "ct_dtype.h"

#include <math.h>
#include <string.h>
#include <strings.h>

typedef struct {
    const char *name;
    size_t size;
    int is_float;
    const char *aliases[3];
} ct_dtype_info_t;

static const ct_dtype_info_t ct_dtype_table[CT_DTYPE_COUNT] = {
    [CT_DTYPE_INT8] = {"int8", 1, 0, {"char", "i8", NULL}},
    [CT_DTYPE_UINT8] = {"uint8", 1, 0, {"u8", NULL, NULL}},
    [CT_DTYPE_INT32] = {"int32", 4, 0, {"int", "i32", NULL}},
    [CT_DTYPE_UINT32] = {"uint32", 4, 0, {"uint", "u32", NULL}},
    [CT_DTYPE_INT64] = {"int64", 8, 0, {"i64", NULL, NULL}},
    [CT_DTYPE_UINT64] = {"uint64", 8, 0, {"u64", NULL, NULL}},
    [CT_DTYPE_HALF] = {"half", 2, 1, {"float16", "fp16", NULL}},
    [CT_DTYPE_FLOAT] = {"float", 4, 1, {"float32", "fp32", NULL}},
    [CT_DTYPE_DOUBLE] = {"double", 8, 1, {"float64", "fp64", NULL}},
    [CT_DTYPE_BFLOAT16] = {"bfloat16", 2, 1, {"bf16", NULL, NULL}},
};

static const char *const ct_op_names[CT_OP_COUNT] = {
    [CT_OP_SUM] = "sum", [CT_OP_PROD] = "prod", [CT_OP_MAX] = "max",
    [CT_OP_MIN] = "min", [CT_OP_AVG] = "avg",
};

const char *ct_dtype_name(ct_dtype_t dtype)
{
    return dtype < CT_DTYPE_COUNT ? ct_dtype_table[dtype].name : "?";
}

size_t ct_dtype_size(ct_dtype_t dtype)
{
    return dtype < CT_DTYPE_COUNT ? ct_dtype_table[dtype].size : 0;
}

int ct_dtype_is_float(ct_dtype_t dtype)
{
    return dtype < CT_DTYPE_COUNT && ct_dtype_table[dtype].is_float;
}

ct_status_t ct_dtype_parse(const char *name, ct_dtype_t *dtype_p)
{
    for (int d = 0; d < CT_DTYPE_COUNT; d++) {
        const ct_dtype_info_t *info = &ct_dtype_table[d];
        int match = strcasecmp(name, info->name) == 0;
        for (int a = 0; !match && a < 3 && info->aliases[a]; a++)
            match = strcasecmp(name, info->aliases[a]) == 0;
        if (match) {
            *dtype_p = (ct_dtype_t)d;
            return CT_OK;
        }
    }
    return CT_ERR_USAGE;
}

const char *ct_op_name(ct_op_t op) { return op < CT_OP_COUNT ? ct_op_names[op] : "?"; }

ct_status_t ct_op_parse(const char *name, ct_op_t *op_p)
{
    for (int o = 0; o < CT_OP_COUNT; o++) {
        if (strcasecmp(name, ct_op_names[o]) == 0) {
            *op_p = (ct_op_t)o;
            return CT_OK;
        }
    }
    return CT_ERR_USAGE;
}

uint16_t ct_float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint32_t sign = (x >> 16) & 0x8000u;
    int32_t exp = (int32_t)((x >> 23) & 0xff) - 127 + 15;
    uint32_t mant = x & 0x7fffffu;

    if (((x >> 23) & 0xff) == 0xff) /* inf or nan */
        return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0));
    if (exp >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (exp <= 0) {
        if (exp < -10)
            return (uint16_t)sign;
        mant |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - exp);
        uint32_t half = mant >> shift;
        uint32_t rem = mant & ((1u << shift) - 1);
        uint32_t mid = 1u << (shift - 1);
        if (rem > mid || (rem == mid && (half & 1)))
            half++;
        return (uint16_t)(sign | half);
    }
    uint32_t half = sign | ((uint32_t)exp << 10) | (mant >> 13);
    uint32_t rem = mant & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (half & 1)))
        half++; /* may carry into the exponent, which is still correct */
    return (uint16_t)half;
}

float ct_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    uint32_t x;

    if (exp == 0) {
        float v = ldexpf((float)mant, -24);
        return sign ? -v : v;
    }
    if (exp == 31)
        x = sign | 0x7f800000u | (mant << 13);
    else
        x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

uint16_t ct_float_to_bf16(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40u); /* quiet nan */
    x += 0x7fffu + ((x >> 16) & 1u);
    return (uint16_t)(x >> 16);
}

float ct_bf16_to_float(uint16_t b)
{
    uint32_t x = (uint32_t)b << 16;
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

void ct_dtype_store(void *buf, size_t i, ct_dtype_t dtype, double value)
{
    /* Integers go through int64 so that out-of-range sums wrap like the
     * hardware does instead of hitting undefined float-to-int conversion. */
    int64_t iv = (int64_t)value;
    switch (dtype) {
    case CT_DTYPE_INT8: ((int8_t *)buf)[i] = (int8_t)(uint8_t)iv; break;
    case CT_DTYPE_UINT8: ((uint8_t *)buf)[i] = (uint8_t)iv; break;
    case CT_DTYPE_INT32: ((int32_t *)buf)[i] = (int32_t)(uint32_t)iv; break;
    case CT_DTYPE_UINT32: ((uint32_t *)buf)[i] = (uint32_t)iv; break;
    case CT_DTYPE_INT64: ((int64_t *)buf)[i] = iv; break;
    case CT_DTYPE_UINT64: ((uint64_t *)buf)[i] = (uint64_t)iv; break;
    case CT_DTYPE_HALF: ((uint16_t *)buf)[i] = ct_float_to_half((float)value); break;
    case CT_DTYPE_FLOAT: ((float *)buf)[i] = (float)value; break;
    case CT_DTYPE_DOUBLE: ((double *)buf)[i] = value; break;
    case CT_DTYPE_BFLOAT16: ((uint16_t *)buf)[i] = ct_float_to_bf16((float)value); break;
    default: break;
    }
}

double ct_dtype_load(const void *buf, size_t i, ct_dtype_t dtype)
{
    switch (dtype) {
    case CT_DTYPE_INT8: return ((const int8_t *)buf)[i];
    case CT_DTYPE_UINT8: return ((const uint8_t *)buf)[i];
    case CT_DTYPE_INT32: return ((const int32_t *)buf)[i];
    case CT_DTYPE_UINT32: return ((const uint32_t *)buf)[i];
    case CT_DTYPE_INT64: return (double)((const int64_t *)buf)[i];
    case CT_DTYPE_UINT64: return (double)((const uint64_t *)buf)[i];
    case CT_DTYPE_HALF: return ct_half_to_float(((const uint16_t *)buf)[i]);
    case CT_DTYPE_FLOAT: return ((const float *)buf)[i];
    case CT_DTYPE_DOUBLE: return ((const double *)buf)[i];
    case CT_DTYPE_BFLOAT16: return ct_bf16_to_float(((const uint16_t *)buf)[i]);
    default: return NAN;
    }
}

double ct_dtype_represent(ct_dtype_t dtype, double value)
{
    unsigned char cell[8];
    ct_dtype_store(cell, 0, dtype, value);
    return ct_dtype_load(cell, 0, dtype);
}
