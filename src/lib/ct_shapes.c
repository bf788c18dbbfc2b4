/* SPDX-License-Identifier: BSD-3-Clause */
#include "ct_shapes.h"

#include <stdio.h>
#include <string.h>

#define CT_SHAPE_DIM_MAX 1048576

/* One decimal count of 1..CT_SHAPE_DIM_MAX from p[0..len); -1 if not. */
static int ct_shape_dim(const char *p, size_t len)
{
    long v = 0;
    if (len == 0 || len > 7 || strspn(p, "0123456789") < len)
        return -1;
    for (size_t i = 0; i < len; i++)
        v = v * 10 + (p[i] - '0');
    return v >= 1 && v <= CT_SHAPE_DIM_MAX ? (int)v : -1;
}

void ct_shape_name(const ct_shape_t *shape, char *buf, size_t buflen)
{
    snprintf(buf, buflen, "%dx%d", shape->nnodes, shape->ranks_per_node);
}

ct_status_t ct_shapes_parse(const char *arg, ct_shape_t *out, int *n, char *err, size_t errlen)
{
    *n = 0;
    for (const char *p = arg;; p++) {
        size_t len = strcspn(p, ",");
        size_t x = strcspn(p, "x");
        ct_shape_t s = {-1, -1};
        if (x < len) {
            s.nnodes = ct_shape_dim(p, x);
            s.ranks_per_node = ct_shape_dim(p + x + 1, len - x - 1);
        }
        if (s.nnodes < 0 || s.ranks_per_node < 0) {
            snprintf(err, errlen,
                     "--shapes '%.*s': each item is NODESxRANKS_PER_NODE (e.g. 2x8), both 1 to "
                     "%d, comma-separated",
                     (int)(len > 64 ? 64 : len), p, CT_SHAPE_DIM_MAX);
            return CT_ERR_USAGE;
        }
        if (*n == CT_SHAPES_MAX) {
            snprintf(err, errlen, "--shapes: at most %d shapes", CT_SHAPES_MAX);
            return CT_ERR_USAGE;
        }
        /* Each shape holds the one before, so one launch at the largest
         * has room for every one. */
        if (*n > 0) {
            const ct_shape_t *prev = &out[*n - 1];
            if (s.nnodes < prev->nnodes || s.ranks_per_node < prev->ranks_per_node ||
                (s.nnodes == prev->nnodes && s.ranks_per_node == prev->ranks_per_node)) {
                snprintf(err, errlen,
                         "--shapes: %dx%d after %dx%d: shapes must ascend (no fewer nodes and no "
                         "fewer ranks per node than the shape before, and not the same)",
                         s.nnodes, s.ranks_per_node, prev->nnodes, prev->ranks_per_node);
                return CT_ERR_USAGE;
            }
        }
        out[(*n)++] = s;
        p += len;
        if (*p == '\0')
            break;
    }
    return CT_OK;
}
