/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sizes.h - the message sizes of a run, and whether they fit.
 *
 * Sizes run from -b to -e, multiplied by -f or stepped by -i, as in
 * nccl-tests, or are the explicit list of --sizes.  As in nccl-tests, a
 * size that does not divide into whole elements (per rank, where the
 * collective splits by ranks) is rounded down to the nearest size that
 * does, so the defaults and -b 8 -e 128M -f 2 run at 3, 5, 6 or 24 ranks;
 * the row shows the size measured, and the engine prints one note per run
 * naming what was rounded.  Two sizes that round to the same one run
 * once.  A size too small to give every rank one element is skipped with
 * a note, so that a sweep from 8 B works for allgather at any scale.
 */
#ifndef CT_SIZES_H
#define CT_SIZES_H

#include <stddef.h>
#include "coll.h"
#include "options.h"

#define CT_SWEEP_MAX_SIZES 4096

/* All sizes of the sweep, ascending: --sizes' list when given, else -b to
 * -e by -f or -i.  *sizes_p is malloc'd. */
ct_status_t ct_sweep_sizes(const ct_options_t *opts, size_t **sizes_p, size_t *n_p, char *err,
                           size_t errlen);

/* What one task's sizes run on: a collective and type at a rank count,
 * through a backend whose call takes at most max_count elements in its
 * count argument (0: no limit; MPI's count is an int). */
typedef struct {
    const ct_coll_desc_t *coll;
    ct_dtype_t dtype;
    int nranks;
    size_t max_count;
    const char *max_count_why; /* the backend's reason, for the message */
} ct_sweep_target_t;

/* What ct_sweep_filter did besides keeping a size as it was. */
typedef struct {
    size_t skipped;      /* below one element per rank */
    size_t rounded;      /* rounded down to a valid size */
    size_t dropped;      /* rounded onto a size already in the sweep */
    size_t example_from; /* the first rounded size, and what it became */
    size_t example_to;
} ct_sweep_notes_t;

/* The sizes the target can run at, ascending and distinct, in valid[]
 * (room for n; sizes[] ascending).  A size whose count exceeds max_count
 * is an error (never wrapped), found here, before any memory check or
 * allocation. */
ct_status_t ct_sweep_filter(const size_t *sizes, size_t n, const ct_sweep_target_t *target,
                            size_t *valid, size_t *nvalid_p, ct_sweep_notes_t *notes_p, char *err,
                            size_t errlen);

/* Appends "coll dtype (N sizes, e.g. A -> B B)" for a target whose notes
 * say sizes were rounded, comma-separated, to the run's one note. */
void ct_sweep_note_rounded(char *note, size_t notelen, const ct_sweep_target_t *target,
                           const ct_sweep_notes_t *notes);

/* The two buffers one rank allocates for coll at bytes: the receive buffer
 * also holds in-place input, which for reduce_scatter exceeds the output. */
void ct_sweep_buffer_bytes(const ct_coll_desc_t *coll, size_t bytes, ct_dtype_t dtype, int nranks,
                           size_t *send_bytes_p, size_t *recv_bytes_p);

/* Bytes one rank allocates for coll at its largest size. */
size_t ct_sweep_rank_bytes(const ct_coll_desc_t *coll, size_t max_bytes, ct_dtype_t dtype,
                           int nranks, int staged);

/* Fails with a message when local_ranks ranks needing need bytes each
 * exceed avail bytes of host memory. */
ct_status_t ct_sweep_check_memory(size_t need, int local_ranks, size_t avail, char *err,
                                  size_t errlen);

/* MemAvailable from /proc/meminfo, in bytes. */
ct_status_t ct_sweep_host_memory(size_t *avail_p);

#endif
