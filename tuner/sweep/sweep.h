/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sweep.h - `colltune sweep`: what sweep.c (one run) and sweep_scales.c
 * (the same run at several scales) share.
 */
#ifndef CT_SWEEP_H
#define CT_SWEEP_H

#include <stddef.h>
#include "launch_opts.h"
#include "launcher.h"
#include "run_once.h"

#define CT_SWEEP_MAX_SCALES 32

typedef struct {
    const char *out;
    ct_launch_opts_t lo; /* --np ... --collbench */
    int force, resume;
    char **cb_args; /* after "--", not owned */
    size_t ncb_args;
    /* --scales: the same sweep at each scale, ascending */
    long scales[CT_SWEEP_MAX_SCALES];
    size_t nscales;
    int by_nodes;        /* --scale-by: 1 nodes (default), 0 ranks */
    long ranks_per_node; /* --ranks-per-node, for nodes */
} ct_sweep_args_t;

/* What ct_run_once_dir (run_once.h) needs of a sweep's arguments: its
 * launch options, --force and collbench's arguments. */
ct_run_dir_t ct_sweep_run_dir(const ct_sweep_args_t *a);

/* --scales: ct_run_once_dir at each scale into DIR/scale-S/, then
 * DIR/results.csv (every scale's rows), DIR/scaling.md, the table on
 * stdout, and the plots in DIR/plots/.  Returns the exit code. */
int ct_sweep_scales(ct_sweep_args_t *a);

#endif
