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
 * defines a const ct_emit_format_t (emit_format.h: its file name, when the
 * result wants it, its writer, the install text its header prints, and
 * how its library is made to read it), and add that entry to the table in
 * emit.c.  Nothing else: the A/B verification (tuner/tune/tune_verify.c)
 * loads every file by its entry's ct_emit_load_t, and the report lists
 * the files from the same table.
 */

/*
 * How the A/B makes a library read one emitted file: the setting that
 * points the library at it.  var NULL: the library reads it through
 * another emitted file (coll-tuned-rules.* is named inside
 * mca-params.conf), or a person sources it (nccl.env holds what nccl.conf
 * holds, and nccl.conf is loaded), so the A/B sets nothing for it;
 * unless sourced is set (below).
 */
typedef struct {
    const char *var;    /* e.g. NCCL_CONF_FILE, or NULL */
    ct_via_t via;       /* an environment variable or an MCA parameter */
    int names_dir;      /* var names the file's directory (UCX_CONFIG_DIR), not the file */
    int keeps_defaults; /* var replaces the library's default list of files (Open MPI's
                            mca_base_param_files): the A/B appends that list after ours */
    const char *also;   /* a variable set too unless the user's environment or --env has it */
    /* var NULL, and the file is a sourceable list of `export NAME=VALUE`
     * lines (mpich.env: MPICH has no variable naming a file): the A/B sets
     * each in the tuned side's environment. */
    int sourced;
    const char *also_value;
} ct_emit_load_t;

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
 * NULL when one can: any choice that holds for every size; a coll/tuned
 * algorithm, segment size or fan-out (the rules file has per-size rules);
 * NCCL_ALGO or NCCL_PROTO for one collective, over every size (nccl.conf's
 * per-collective list) or over a range where its value leaves the
 * collective one algorithm or protocol (a tuner-plugin rule).  Anything
 * else over a part of the sizes would be set for sizes never measured.
 * NCCL_ALGO / NCCL_PROTO are also refused, over any range, for alltoall
 * (send/recv to NCCL), for a value NCCL would refuse or that has no entry
 * for the collective, and for a rule whose algorithm or protocol
 * nccl.conf's list disables for that collective.  A static string. */
const char *ct_emit_cannot_carry(const ct_tune_result_t *r, const ct_tune_choice_t *c);

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

/* As ct_emit_files, with each file's load facts into loads_p (room for
 * max) beside its name. */
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
