/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_shapes.h - --shapes: several job shapes measured in one launch.
 *
 * A shape is k nodes x r ranks per node: the first k hosts of the launch
 * (in the order of their first rank) and the first r ranks of each.  The
 * shapes ascend, each holding the one before, so a launch at the largest
 * measures every smaller one on a sub-communicator.  Parsing needs no MPI
 * (collbench's options.c, colltune tune's tune_cli.c); the checks against the launch and the run are shapes_run.c.
 */
#ifndef CT_LIB_SHAPES_H
#define CT_LIB_SHAPES_H

#include <stddef.h>

#include "ct_status.h"

#define CT_SHAPES_MAX 16

typedef struct {
    int nnodes;
    int ranks_per_node;
} ct_shape_t;

/* "1x2,2x2,4x8" into out (at most CT_SHAPES_MAX), *n set.  Each item is
 * KxR with 1 <= K, R <= 1048576; each next shape has no fewer nodes and no
 * fewer ranks per node than the one before, and is not the same.  On error
 * CT_ERR_USAGE with the item named in err. */
ct_status_t ct_shapes_parse(const char *arg, ct_shape_t *out, int *n, char *err, size_t errlen);

/* "2x4" into buf. */
void ct_shape_name(const ct_shape_t *shape, char *buf, size_t buflen);

#endif
