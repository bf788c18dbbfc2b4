/*
 * sweep.h - `colltune sweep`: what sweep.c (one run) and sweep_scales.c
 * (the same run at several scales) share.
 */
#ifndef CT_SWEEP_H
#define CT_SWEEP_H

#include <stddef.h>
#include "launch_opts.h"
#include "launcher.h"

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

/* One collbench run through launcher l (its np, hostfile and extra as
 * the caller set them) into dir: prepared, old results refused or (with
 * a->force) removed, then results.*, collbench.txt/.err and launch.json.
 * Returns the exit code. */
int ct_sweep_once(const ct_sweep_args_t *a, const char *dir, const ct_launcher_t *l);

/* --scales: ct_sweep_once at each scale into DIR/scale-S/, then
 * DIR/results.csv (every scale's rows), DIR/scaling.md, the table on
 * stdout, and the plots in DIR/plots/.  Returns the exit code. */
int ct_sweep_scales(ct_sweep_args_t *a);

#endif
