/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit_common.c - the header every emitted file opens with, and the
 * checks the formats share (see emit_format.h).
 */
#include "emit_format.h"

#include "ct_printable.h"

#include <string.h>

int ct_emit_usable(const ct_tune_choice_t *c)
{
    return c->significant && c->verified && c->unwritable == NULL;
}

const char *ct_emit_cannot_carry(const ct_tune_result_t *r, const ct_tune_choice_t *c)
{
    ct_nccl_list_kind_t kind;
    /* Per collective even over every size: its value's entry for the
     * collective is what gets written (emit_nccl_vars.c). */
    if (ct_emit_nccl_list_kind(c, &kind))
        return ct_emit_nccl_cannot_carry(r, c);
    if (ct_emit_full_range(c))
        return NULL;
    /* An MPICH algorithm over a range: a subtree of MPICH's own tree. */
    if (ct_emit_mpich_csel_carries(r, c) || ct_emit_mpich_csel_needs(r, c))
        return NULL;
    /* Written whenever a coll/tuned choice is, and alone it changes no
     * decision (without rules or a forced algorithm 4.1 decides as before). */
    if (c->via == CT_VIA_MCA && strcmp(c->name, "coll_tuned_use_dynamic_rules") == 0)
        return NULL;
    if (c->via == CT_VIA_MCA) {
        const ct_coll_name_t *cn = ct_coll_name_of_tuned_var(c->name);
        if (cn != NULL && cn->tuned.alg != NULL &&
            (strcmp(c->name, cn->tuned.alg) == 0 || strcmp(c->name, cn->tuned.seg) == 0 ||
             (cn->tuned.fanout && strcmp(c->name, cn->tuned.fanout) == 0)))
            return NULL;
        return "an MCA parameter holds for every size; only coll/tuned algorithms, segment "
               "sizes and fan-outs have per-size rules";
    }
    return "the library reads it for every size";
}

int ct_emit_full_range(const ct_tune_choice_t *c) { return c->min_bytes <= 0 && c->max_bytes < 0; }

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
    fprintf(fp, "), %ld ranks on %ld node%s, ", r->nranks, r->nnodes, r->nnodes == 1 ? "" : "s");
    ct_emit_put_safe(fp, r->source);
    fputs(" results.\n", fp);
    /* A choice made at one shape is not applied at another: the rules
     * files say where they hold; the others cannot, so they say so. */
    long nodes = r->nnodes > 0 ? r->nnodes : 1;
    if (strcmp(file, CT_EMIT_TUNED_RULES_NAME) == 0 || strcmp(file, CT_EMIT_NCCL_TUNER_NAME) == 0)
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

ct_status_t ct_emit_check_name(const ct_tune_choice_t *c, const char *file, char *err,
                               size_t errlen)
{
    const char *p = c->name;
    int ok = p != NULL && (*p == '_' || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z'));
    for (; ok && *p; p++)
        ok = *p == '_' || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
             (*p >= '0' && *p <= '9');
    if (ok)
        return CT_OK;
    snprintf(err, errlen, "%s: variable name \"%s\" is not a name (letters, digits, _)", file,
             c->name ? c->name : "(null)");
    return CT_ERR_USAGE;
}

ct_status_t ct_emit_check_value(ct_emit_value_ok_t *ok, const char *file, const char *name,
                                const char *value, const char *hint, char *err, size_t errlen)
{
    char why[384];
    if (ok(name, value, why, sizeof why))
        return CT_OK;
    snprintf(err, errlen, "%s: the value of %s %s (%s)", file, name, why, hint);
    return CT_ERR_USAGE;
}
