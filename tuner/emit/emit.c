/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit.c - the table of config-file formats and the all-or-nothing write
 * (see emit.h).  A new format is one emit_<format>.c, one line here and
 * its row in the library table (ct_library_files.c).  Which file carries
 * a choice is asked of the formats by emit_carry.c, through this table.
 */
#define _XOPEN_SOURCE 700

#include "emit.h"
#include "ct_outfile.h"
#include "ct_outfile_set.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "ct_tmpname.h"
#include "emit_format.h"

/* In write order; the rules file is written before the mca-params.conf
 * that names it only for tidiness: nothing is renamed until all are. */
static const ct_emit_format_t *const ct_emit_formats[] = {
    &ct_emit_nccl_env,      &ct_emit_nccl_conf,        &ct_emit_nccl_tuner,  &ct_emit_ucx_conf,
    &ct_emit_tuned_rules,   &ct_emit_tuned_rules_json, &ct_emit_mca_params,  &ct_emit_mpich_env,
    &ct_emit_intel_mpi_env, &ct_emit_mpich_csel,       &ct_emit_mvapich_env, &ct_emit_oneccl_env,
};
#define CT_EMIT_NFORMATS (sizeof ct_emit_formats / sizeof ct_emit_formats[0])

/* What a format's row says of loading it (no row: not loaded; test_emit
 * holds every format to a row). */
static const ct_emit_load_t *ct_emit_row_load(const ct_emit_format_t *f)
{
    static const ct_emit_load_t none = {.kind = CT_FILE_LOAD_NONE};
    const ct_library_file_t *row = ct_library_file_named(f->name);
    return row != NULL ? &row->load : &none;
}

size_t ct_emit_loads(const ct_tune_result_t *r, const char **names_p,
                     const ct_emit_load_t **loads_p, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < CT_EMIT_NFORMATS; i++)
        if (ct_emit_formats[i]->wanted(r)) {
            const ct_emit_format_t *f = ct_emit_formats[i];
            const ct_emit_load_t *ld = f->load_for ? f->load_for(r) : NULL;
            if (n < max && names_p != NULL)
                names_p[n] = f->name;
            if (n < max && loads_p != NULL)
                loads_p[n] = ld != NULL ? ld : ct_emit_row_load(f);
            n++;
        }
    return n;
}

const char *ct_emit_outranked(const ct_tune_result_t *r, const ct_tune_choice_t *c, char *buf,
                              size_t len)
{
    if (r->site == NULL)
        return NULL;
    for (size_t i = 0; i < CT_EMIT_NFORMATS; i++) {
        const char *why =
            ct_emit_formats[i]->outranked ? ct_emit_formats[i]->outranked(r, c, buf, len) : NULL;
        if (why != NULL)
            return why;
    }
    return NULL;
}

const ct_emit_format_t *ct_emit_format_at(size_t i)
{
    return i < CT_EMIT_NFORMATS ? ct_emit_formats[i] : NULL;
}

const char *ct_emit_format_name(size_t i)
{
    return i < CT_EMIT_NFORMATS ? ct_emit_formats[i]->name : NULL;
}

size_t ct_emit_files(const ct_tune_result_t *r, const char **names_p, size_t max)
{
    return ct_emit_loads(r, names_p, NULL, max);
}

/* Writes one format into a temporary beside dst (ct_outfile: created new,
 * fsync'd, closed, not renamed); its name into tmp. */
static ct_status_t ct_emit_one(const ct_emit_ctx_t *ctx, const ct_emit_format_t *f, const char *dst,
                               char *tmp, size_t tmplen, char *err, size_t errlen)
{
    ct_outfile_t o;
    ct_status_t st = ct_outfile_open(&o, dst, 0644, err, errlen);
    if (st != CT_OK)
        return st;
    snprintf(tmp, tmplen, "%s", o.tmp);
    st = f->write(ctx, o.fp, err, errlen);
    if (st != CT_OK) {
        ct_outfile_abort(&o);
        return st;
    }
    return ct_outfile_finish(&o, err, errlen);
}

/* Whether one of the formats r calls for (every format when r is NULL)
 * names its file in mca_base_param_files. */
static int ct_emit_any_mca(const ct_tune_result_t *r)
{
    for (size_t i = 0; i < CT_EMIT_NFORMATS; i++)
        if ((r == NULL || ct_emit_formats[i]->wanted(r)) &&
            ct_emit_row_load(ct_emit_formats[i])->keeps_defaults)
            return 1;
    return 0;
}

/* The checks of ct_emit_check_dir on dir (a real path) for the formats r
 * calls for (every one when r is NULL). */
static ct_status_t ct_emit_check_real(const ct_tune_result_t *r, const char *outdir,
                                      const char *dir, int mca_files, char *err, size_t errlen)
{
    if (strpbrk(dir, "\n\r") != NULL) {
        snprintf(err, errlen,
                 "output directory %s: a newline in its path cannot be written into "
                 "mca-params.conf",
                 outdir);
        return CT_ERR_USAGE;
    }
    /* Open MPI splits mca_base_param_files at commas: the A/B's tuned side
     * and the header's install line would name two files that are not
     * mca-params.conf, and the verification would be A/A. */
    if (mca_files && strchr(dir, ',') != NULL) {
        snprintf(err, errlen,
                 "output directory %s: its path %s has a comma, and mca-params.conf's path "
                 "goes into Open MPI's comma-separated mca_base_param_files list (choose a "
                 "directory without one)",
                 outdir, dir);
        return CT_ERR_USAGE;
    }
    for (size_t i = 0; i < CT_EMIT_NFORMATS; i++) {
        char dst[PATH_MAX + 64];
        struct stat sb;
        if (r != NULL && !ct_emit_formats[i]->wanted(r))
            continue;
        snprintf(dst, sizeof dst, "%s/%s", dir, ct_emit_formats[i]->name);
        /* A rename replaces a regular file or a symbolic link; anything else
         * would fail it after other targets were replaced. */
        if (lstat(dst, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISLNK(sb.st_mode)) {
            snprintf(err, errlen, "%s exists and is not a regular file: it cannot be replaced",
                     dst);
            return CT_ERR_USAGE;
        }
    }
    return CT_OK;
}

ct_status_t ct_emit_check_dir(const char *outdir, int mca_files, char *err, size_t errlen)
{
    char dir[PATH_MAX];
    if (realpath(outdir, dir) == NULL) {
        snprintf(err, errlen, "output directory %s: %s", outdir, strerror(errno));
        return CT_ERR_IO;
    }
    return ct_emit_check_real(NULL, outdir, dir, mca_files, err, errlen);
}

ct_status_t ct_emit_check_real_dir(const char *outdir, const char *real, int mca_files, char *err,
                                   size_t errlen)
{
    return ct_emit_check_real(NULL, outdir, real, mca_files, err, errlen);
}

ct_status_t ct_emit_all_as(const ct_tune_result_t *r, const char *outdir, const char *writer,
                           char *err, size_t errlen)
{
    char dir[PATH_MAX];
    char tmp[CT_EMIT_NFORMATS][PATH_MAX + 304];
    char dst[CT_EMIT_NFORMATS][PATH_MAX + 64];
    size_t n = 0;
    ct_status_t st = CT_OK;

    if (realpath(outdir, dir) == NULL) {
        snprintf(err, errlen, "output directory %s: %s", outdir, strerror(errno));
        return CT_ERR_IO;
    }
    /* Every target checked before anything is written. */
    if ((st = ct_emit_check_real(r, outdir, dir, ct_emit_any_mca(r), err, errlen)) != CT_OK)
        return st;
    ct_emit_ctx_t ctx = {r, writer, dir};
    for (size_t i = 0; i < CT_EMIT_NFORMATS && st == CT_OK; i++) {
        const ct_emit_format_t *f = ct_emit_formats[i];
        if (!f->wanted(r))
            continue;
        snprintf(dst[n], sizeof dst[n], "%s/%s", dir, f->name);
        tmp[n][0] = '\0';
        st = ct_emit_one(&ctx, f, dst[n], tmp[n], sizeof tmp[n], err, errlen);
        if (st == CT_ERR_USAGE && tmp[n][0] == '\0')
            snprintf(err, errlen, "output directory %s: path too long", outdir);
        n++;
    }
    if (st == CT_OK) {
        const char *tmps[CT_EMIT_NFORMATS], *dsts[CT_EMIT_NFORMATS];
        for (size_t i = 0; i < n; i++) {
            tmps[i] = tmp[i];
            dsts[i] = dst[i];
        }
        st = ct_outfile_rename_all(n, tmps, dsts, err, errlen);
    }
    if (st != CT_OK)
        for (size_t i = 0; i < n; i++)
            if (tmp[i][0] != '\0')
                (void)unlink(tmp[i]); /* those already renamed are gone: ENOENT */
    return st;
}

ct_status_t ct_emit_all(const ct_tune_result_t *r, const char *outdir, char *err, size_t errlen)
{
    return ct_emit_all_as(r, outdir, "colltune " PACKAGE_VERSION " (git " CT_GIT_REV ")", err,
                          errlen);
}
