/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit.h - the config files a tune leaves behind: one call writes every
 * file the result calls for into a directory.
 *
 * Only choices that are significant and verified are written, and a file
 * is written only when the result holds a choice it covers: an Open MPI
 * result writes no nccl.* file, a result without UCX_ variables no
 * ucx.conf.  Every file opens with a comment header naming what wrote it,
 * from which run, and how to install it (the rules file excepted where its
 * reader cannot skip comments; Open MPI 4.1's can).
 *
 * Writing is all or nothing: each file goes to a temporary file beside its
 * target (its name holds the pid), is fsync'd, and only when every file
 * has been written are they renamed into place.  On an error the
 * temporaries are removed and no target is touched.
 */
#ifndef CT_EMIT_H
#define CT_EMIT_H

#include <stddef.h>

#include "ct_status.h"
#include "setting.h"
#include "tune_result.h"

/*
 * To add an output format: write one tuner/emit/emit_<format>.c that
 * defines a const ct_emit_format_t (emit_format.h: its file name, which
 * is its row's in the library table, when the result wants it, its
 * writer, which choices it carries and the install text its header
 * prints), add that entry to the table in emit.c, and its row to
 * src/lib/ct_library_files.c.  Nothing else: the A/B verification
 * (tuner/tune/tune_verify.c) loads every file by its row's load
 * (ct_emit_loads), the report lists the files from the same table, and
 * ct_emit_cannot_carry asks every format's carries hook.
 */

/*
 * How the A/B makes a library read one emitted file: its row's load in
 * the library table (ct_library.h's ct_file_load_t: the variable that
 * points the library at it, or named by another file, sourced, or not
 * loaded), or what the emitter's load_for says for this result.
 */
typedef ct_file_load_t ct_emit_load_t;

/*
 * Writes every file r calls for into outdir (which must exist).  The
 * header names colltune's version and git revision from config.h.  A value
 * a format cannot carry (a newline in nccl.conf, a name that is not a
 * variable name) is CT_ERR_USAGE with the variable named in err; a write
 * error is CT_ERR_IO.  Nothing in outdir changes on either: every target
 * is checked (as ct_emit_check_dir does) before the first write, and a
 * failed rename puts back the files replaced before it.
 */
ct_status_t ct_emit_all(const ct_tune_result_t *r, const char *outdir, char *err, size_t errlen);

/*
 * Whether outdir can take the files ct_emit_all writes, checked before a
 * search so that a bad --out fails at once: CT_ERR_USAGE, with why in err,
 * for a newline in its real path, a comma there when mca_files (the files
 * may include mca-params.conf, whose path goes into Open MPI's
 * comma-separated mca_base_param_files), or a file name ct_emit_all may
 * write that exists and is not a regular file (or a symbolic link, which
 * a rename replaces); CT_ERR_IO when outdir cannot be resolved.
 */
ct_status_t ct_emit_check_dir(const char *outdir, int mca_files, char *err, size_t errlen);
/* The same checks on real, the real path outdir has, or will have once
 * made (ct_outdir_realpath): a refused --out is then never created. */
ct_status_t ct_emit_check_real_dir(const char *outdir, const char *real, int mca_files, char *err,
                                   size_t errlen);

/* As ct_emit_all, with the header's "written by" text given (tests pin it
 * so golden files stay stable across versions). */
ct_status_t ct_emit_all_as(const ct_tune_result_t *r, const char *outdir, const char *writer,
                           char *err, size_t errlen);

/* The MPIR collective selection tree MPICH 4 compiled into library lib
 * (libmpich.so.12: maint/tuning/coll/mpir/generic.json as one string),
 * malloc'ed into *tree_p: what r->mpich_tree takes.  CT_ERR_IO when lib
 * cannot be read, CT_ERR_USAGE when it holds no such tree. */
ct_status_t ct_emit_mpich_tree_read(const char *lib, char **tree_p, char *err, size_t errlen);

/* Why no file ct_emit_all writes can carry c over its size range, or
 * NULL when one can.  Each format's carries hook is asked (emit_carry.c):
 * a choice some format refuses is refused with its reason, one a format
 * carries is checked against the other job shapes (ct_emit_shape_conflict),
 * and one no format claims is carried only over every size ("the library
 * reads it for every size").  Over a range the formats carry a coll/tuned
 * algorithm, segment size or fan-out (the rules file has per-size rules);
 * an MPIR algorithm CVAR, with MPICH's own tree known (its selection
 * file), and the setting it needs; oneCCL's CCL_<COLL> (its value holds
 * ranges); NCCL_ALGO or NCCL_PROTO for one collective where its value
 * leaves the collective one algorithm or protocol (a tuner-plugin rule).
 * NCCL_ALGO / NCCL_PROTO are also refused, over any range, for alltoall
 * (send/recv to NCCL), for a value NCCL would refuse or that has no entry
 * for the collective, for a global choice over a range, and for a rule
 * whose algorithm or protocol nccl.conf's list disables for that
 * collective.  A static string. */
const char *ct_emit_cannot_carry(const ct_tune_result_t *r, const ct_tune_choice_t *c);

/* Why c's value cannot be written because of another job shape's choice,
 * or NULL, keyed as the rows (ct_library.h's keyed) of the files whose
 * carries hooks take c say (the least any of them tells apart): a file
 * keyed by nothing (mca-params.conf, nccl.env, oneccl.env, ...) where
 * another shape chose another value of the same variable for the same
 * scope (for c over a range, or another range: the value holds it); or
 * keyed by rank count (coll/tuned's rules, MPICH's tree, Intel MPI's
 * @p-q) where a shape with as many ranks on other nodes chose otherwise
 * over overlapping sizes.  A value chosen at one shape and not at another
 * is no conflict.  The reason, naming both shapes, both values and the
 * files, goes into buf; with buf NULL a static reason is returned
 * (ct_emit_cannot_carry's). */
const char *ct_emit_shape_conflict(const ct_tune_result_t *r, const ct_tune_choice_t *c, char *buf,
                                   size_t len);

/* A choice the files carry: significant, verified and writable (the A/B
 * rounds compare the files of exactly these). */
int ct_emit_usable(const ct_tune_choice_t *c);

/* Why the site's own settings (r->site, site.h) would outrank c in every
 * form a file could carry it in, into buf, or NULL when the files win (or
 * the site sets nothing that matters).  Such a choice is reported with the
 * setting named, never verified or written. */
const char *ct_emit_outranked(const ct_tune_result_t *r, const ct_tune_choice_t *c, char *buf,
                              size_t len);

/* The file names ct_emit_all would write for r, in write order, into
 * names_p (room for max); returns how many. */
size_t ct_emit_files(const ct_tune_result_t *r, const char **names_p, size_t max);

/* The name of the i-th format of the table (write order), NULL past the
 * last: what ct_library.h's emitter lists name. */
const char *ct_emit_format_name(size_t i);

/* As ct_emit_files, with each file's load into loads_p (room for max)
 * beside its name: its emitter's load_for for r, else its row's. */
size_t ct_emit_loads(const ct_tune_result_t *r, const char **names_p,
                     const ct_emit_load_t **loads_p, size_t max);

/* --- emit_shape.c: the job shapes a result's choices were measured at --- */

typedef struct {
    long nnodes, nranks;
} ct_emit_shape_t;

/* c's shape: its own, else the result's (nnodes at least 1). */
ct_emit_shape_t ct_emit_choice_shape(const ct_tune_result_t *r, const ct_tune_choice_t *c);
/* The distinct shapes of r's usable choices (ct_emit_usable; r's own
 * shape when it has none), by ranks then nodes, into shapes (room for
 * max; may be NULL); returns how many there are. */
size_t ct_emit_shapes(const ct_tune_result_t *r, ct_emit_shape_t *shapes, size_t max);
/* r seen at one shape: *view is r with nnodes/nranks = s and only the
 * choices of shape s (shallow copies in a malloc'ed array, each with its
 * shape set), so a writer for one shape writes every shape in turn.
 * CT_ERR_NOMEM; ct_emit_shape_view_free frees the array only. */
ct_status_t ct_emit_shape_view(const ct_tune_result_t *r, ct_emit_shape_t s,
                               ct_tune_result_t *view);
void ct_emit_shape_view_free(ct_tune_result_t *view);

#endif
