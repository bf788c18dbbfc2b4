/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_result.h - what a tune decided: the contract between the search
 * (tune.c) and the config-file emitters (emit_*.c).
 *
 * A choice is one variable's value for one scope (global or one
 * collective) and one size range, with the evidence behind it.  The
 * emitters write only choices that are significant and verified, and only
 * the files whose variables the space tuned (no NCCL file from an Open MPI
 * space).  Results built by hand (tests) say so in source.
 */
#ifndef CT_TUNE_RESULT_H
#define CT_TUNE_RESULT_H

#include <stddef.h>

#include "setting.h"
#include "site.h"

typedef struct {
    char *name;          /* e.g. coll_tuned_allreduce_algorithm, NCCL_ALGO */
    char *value;         /* as the library reads it */
    ct_via_t via;        /* env or mca */
    int scope;           /* CT_SCOPE_GLOBAL or a ct_coll_id_t */
    long long min_bytes; /* size range (collbench's size convention, */
    long long max_bytes; /* inclusive); -1 for "any" */
    double default_us;   /* median time with the defaults, at verification */
    double tuned_us;     /* median time with this choice */
    int significant;     /* the gain beats the noise (the stated test) */
    int verified;        /* held in the interleaved A/B with the files */
    /* Why no file can carry it over its size range (an MCA parameter or
     * an NCCL variable holds for every size, and the tune measured only
     * some), or NULL: ct_emit_cannot_carry.  Such a choice is reported,
     * never verified or written. */
    const char *unwritable;
    /* The site setting that outranks every form it could be written in
     * (ct_emit_outranked), in words, malloc'ed, or NULL; unwritable then
     * points at it. */
    char *outranked;
    /* Why the search's own evidence says it adds nothing to the rest of
     * its configuration (tune_choices.c), malloc'ed, or NULL: such a
     * choice is reported, not significant, never verified or written;
     * unwritable then points at it. */
    char *idle;
    /* The job shape it was measured at (ranks per node = nranks /
     * nnodes); 0: the result's own (ct_emit_choice_shape).  A choice holds
     * for jobs of its shape only: a file keyed by shape (ct_library.h's
     * rows) writes a block per shape, and the library's own decision
     * stays at every other. */
    long nnodes, nranks;
} ct_tune_choice_t;

typedef struct {
    const char *space_name; /* the space file's [space] name */
    const char *space_path;
    const char *run_id; /* the tune's id, named in every file header */
    const char *date;   /* ISO 8601 UTC */
    const char *source; /* "measured" or, in tests, "synthetic" */
    long nranks;
    long nnodes;
    ct_tune_choice_t *choices;
    size_t nchoices;
    int rules_json; /* also coll-tuned-rules.json, Open MPI 6's format */
    /* The installed MPICH's built-in MPIR selection tree (JSON text, from
     * ct_emit_mpich_tree_read), or NULL: without it no
     * mpich-coll-selection.json is written, since that file replaces the
     * whole tree and must keep MPICH's own decisions around the choices. */
    const char *mpich_tree;
    /* What the site already sets (site.h), or NULL for a clean site: a
     * choice the site would outrank in its usual file is written in the
     * form that wins (ct_site_outranks), or not at all. */
    const ct_site_t *site;
    /* What MPI_Get_library_version said in the run (collbench's JSON
     * "mpi_library_version"), or NULL: a file read by one library of a
     * shared family (mvapich.env: MPICH's names, MVAPICH's spelling) is
     * written only when that library ran (ct_library_ran). */
    const char *mpi_library;
} ct_tune_result_t;

#endif
