/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_dtype.h - element types and reduction operators, as data.
 *
 * One table per enum drives name parsing, help text and sizes, so every
 * component (collbench, the tuner, the tests) spells them the same way as
 * nccl-tests does.  Values are moved in and out of buffers through doubles:
 * the test patterns use small integers, which every type holds exactly.
 */
#ifndef CT_DTYPE_H
#define CT_DTYPE_H

#include <stddef.h>
#include <stdint.h>
#include "ct_status.h"

typedef enum {
    CT_DTYPE_INT8,
    CT_DTYPE_UINT8,
    CT_DTYPE_INT32,
    CT_DTYPE_UINT32,
    CT_DTYPE_INT64,
    CT_DTYPE_UINT64,
    CT_DTYPE_HALF,
    CT_DTYPE_FLOAT,
    CT_DTYPE_DOUBLE,
    CT_DTYPE_BFLOAT16,
    CT_DTYPE_COUNT
} ct_dtype_t;

typedef enum { CT_OP_SUM, CT_OP_PROD, CT_OP_MAX, CT_OP_MIN, CT_OP_AVG, CT_OP_COUNT } ct_op_t;

const char *ct_dtype_name(ct_dtype_t dtype);
size_t ct_dtype_size(ct_dtype_t dtype);
int ct_dtype_is_float(ct_dtype_t dtype);
/* Accepts the canonical names and common aliases (fp32, bf16, int, ...). */
ct_status_t ct_dtype_parse(const char *name, ct_dtype_t *dtype_p);

const char *ct_op_name(ct_op_t op);
ct_status_t ct_op_parse(const char *name, ct_op_t *op_p);

/* Element i of buf, converted to/from double.  Integer stores wrap modulo
 * the type's width, which is what MPI and NCCL do on overflow. */
void ct_dtype_store(void *buf, size_t i, ct_dtype_t dtype, double value);
double ct_dtype_load(const void *buf, size_t i, ct_dtype_t dtype);

/* value as it reads back after a store: the wrap/rounding of the type. */
double ct_dtype_represent(ct_dtype_t dtype, double value);

/* IEEE half and bfloat16 conversions (round to nearest even). */
uint16_t ct_float_to_half(float f);
float ct_half_to_float(uint16_t h);
uint16_t ct_float_to_bf16(float f);
float ct_bf16_to_float(uint16_t b);

#endif
