/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit_common.c - the header every emitted file opens with, and the
 * value check the formats share (see emit_format.h).
 */
#include "emit_format.h"

#include "ct_library.h"
#include "ct_printable.h"

#include <string.h>

/* Text from the result, with anything that could end a comment line
 * (newline, CR, any control character) shown as '?'. */
static void ct_emit_put_safe(FILE *fp, const char *s)
{
    if (s == NULL || *s == '\0') {
        fputs("(none)", fp);
        return;
    }
    ct_printable_put(fp, s, (size_t)-1);
}

void ct_emit_put_dir(const ct_emit_ctx_t *ctx, FILE *fp, const char *text)
{
    const char *mark;
    while ((mark = strstr(text, "@DIR@")) != NULL) {
        fwrite(text, 1, (size_t)(mark - text), fp);
        ct_emit_put_safe(fp, ctx->dir);
        text = mark + strlen("@DIR@");
    }
    fputs(text, fp);
}

/* r's job shapes, "1x2, 1x4" (ct_emit_shapes' order). */
static void ct_emit_put_shapes(const ct_tune_result_t *r, FILE *fp)
{
    ct_emit_shape_t shapes[16];
    size_t n = ct_emit_shapes(r, shapes, 16);
    for (size_t i = 0; i < n && i < 16; i++) {
        char name[64];
        ct_emit_shape_name(shapes[i], name, sizeof name);
        fprintf(fp, "%s%s", i ? ", " : "", name);
    }
    if (n > 16)
        fprintf(fp, " and %zu more", n - 16);
}

void ct_emit_header(const ct_emit_ctx_t *ctx, FILE *fp, const char *file, const char *what,
                    const char *const *install)
{
    const ct_tune_result_t *r = ctx->r;

    fprintf(fp, "# %s: %s\n", file, what);
    fputs("# Written by ", fp);
    ct_emit_put_safe(fp, ctx->writer);
    fputs("; re-run colltune tune rather than editing it.\n", fp);
    fputs("# Run ", fp);
    ct_emit_put_safe(fp, r->run_id);
    fputs(" at ", fp);
    ct_emit_put_safe(fp, r->date);
    fputs(", space ", fp);
    ct_emit_put_safe(fp, r->space_name);
    fputs(" (", fp);
    ct_emit_put_safe(fp, r->space_path);
    int multi = ct_emit_multi_shape(r);
    if (multi) {
        fputs("), job shapes ", fp);
        ct_emit_put_shapes(r, fp);
        fputs(" (nodes x ranks per node), ", fp);
    } else
        fprintf(fp, "), %ld ranks on %ld node%s, ", r->nranks, r->nnodes,
                r->nnodes == 1 ? "" : "s");
    ct_emit_put_safe(fp, r->source);
    fputs(" results.\n", fp);
    /* A choice made at one shape is not applied at another: the rules
     * files say where they hold; the others cannot, so they say so. */
    long nodes = r->nnodes > 0 ? r->nnodes : 1;
    const ct_library_file_t *row = ct_library_file_named(file);
    if (multi && row != NULL && row->keyed != CT_FILE_KEY_NONE)
        fputs("# Keyed by shape: each block holds only at the job shape or rank count it\n"
              "# names; the library's own decision stays at every other.\n",
              fp);
    else if (multi)
        fputs("# Measured at the job shapes above; not keyed by shape: each value here was\n"
              "# the same at every shape that chose it (one that differed is left out, and\n"
              "# reported); install it only for jobs of those shapes.\n",
              fp);
    else if (row != NULL && (row->keyed == CT_FILE_KEY_COMM_SIZE ||
                             row->keyed == CT_FILE_KEY_NODES_RANKS)) /* @p-q: several only */
        fprintf(fp, "# Keyed by shape: its rules hold at %ld ranks (%ld node%s x %ld) only.\n",
                r->nranks, nodes, nodes == 1 ? "" : "s", r->nranks / nodes);
    else
        fprintf(fp,
                "# Measured at %ld node%s x %ld ranks; not keyed by shape: install it only for\n"
                "# jobs of that shape.\n",
                nodes, nodes == 1 ? "" : "s", r->nranks / nodes);
    fputs("# Only choices whose gain beat the noise and held in the A/B verification\n"
          "# are here; everything else keeps the library's default.\n",
          fp);
    /* The files name each other by absolute path: copied by hand, they
     * would name this directory still (issue 25). */
    fputs("#\n# Install with: colltune install TUNE_DIR --to DIR  (TUNE_DIR: this file's\n"
          "# directory).  It copies the verified files, rewrites the paths between them\n"
          "# and prints the lines below for DIR; colltune verify-install DIR checks\n"
          "# them.  For this directory:\n",
          fp);
    for (; *install != NULL; install++) {
        fputs(**install ? "#   " : "#", fp);
        ct_emit_put_dir(ctx, fp, *install);
        fputc('\n', fp);
    }
    fputc('\n', fp);
}

ct_status_t ct_emit_check_value(const char *file, const char *name, const char *value,
                                const char *hint, char *err, size_t errlen)
{
    char why[384];
    if (ct_emit_file_value_ok(file, value, why, sizeof why))
        return CT_OK;
    snprintf(err, errlen, "%s: the value of %s %s (%s)", file, name, why, hint);
    return CT_ERR_USAGE;
}
