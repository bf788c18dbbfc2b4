/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_cli.h - `colltune tune`'s command line: the options, --help, and
 * the arguments they parse into.  The run (tune.c) takes a parsed
 * ct_tune_args_t; nothing here launches or reads a file but the space's
 * location.
 */
#ifndef CT_TUNE_CLI_H
#define CT_TUNE_CLI_H

#include <limits.h>
#include <stdio.h>

#include "ct_shapes.h"
#include "launch_opts.h"
#include "tune_search.h"

typedef struct {
    const char *space_path; /* the file --space names (space_buf) */
    char space_buf[PATH_MAX];
    int list_spaces;
    const char *out;
    ct_launch_opts_t lo; /* --np ... --collbench */
    const char *collectives;
    ct_tune_plan_t plan;
    int resume;
    const char *weights;
    long verify_pairs;
    long verify_turns; /* A/B pairs per launch as app contexts; 0: fresh; -1: all */
    int rules_json;
    int extend_ranges;
    int launches_given;
    const char *objective;  /* "max" or "avg" */
    const char *shapes_arg; /* --shapes as given, or NULL */
    ct_shape_t shapes[CT_SHAPES_MAX];
    int nshapes;
    char **cb_args;
    size_t ncb_args;
} ct_tune_args_t;

/* The defaults before parsing: halving, 2 launches, seed 1, the
 * verification's least pairs, --objective max.  a->lo is the caller's to
 * initialise (ct_launch_opts_init). */
void ct_tune_args_defaults(ct_tune_args_t *a);

/* `colltune tune --help`. */
void ct_tune_usage(FILE *f);

/* argv into *a: CT_EXIT_OK, -1 after --help (exit 0 without running), or
 * an exit code after a message naming the option. */
int ct_tune_parse(int argc, char **argv, ct_tune_args_t *a);

#endif
