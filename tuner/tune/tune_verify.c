/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_verify.c - the A/B with the emitted files (tune_verify.h).
 */
#define _XOPEN_SOURCE 700

#include "helper_run.h"
#include "tune_verify.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_hash.h"
#include "ct_sha256.h"
#include "ct_size.h"
#include "ct_stats.h"
#include "emit.h"
#include "outdir.h"
#include "trial.h"
#include "evidence.h"
#include "tune_decide.h"
#include "ct_vec.h"

void ct_tune_verify_free(ct_tune_verify_t *v)
{
    free(v->cells);
    free(v->verified);
    free(v->why);
    free(v->min_bytes);
    free(v->max_bytes);
    v->cells = NULL;
    v->verified = NULL;
    v->why = NULL;
    v->min_bytes = v->max_bytes = NULL;
    v->ncells = v->nchoices = 0;
}

static int ct_tune_verify_cmp(const void *a, const void *b)
{
    return strcmp(((const ct_space_setting_t *)a)->name, ((const ct_space_setting_t *)b)->name);
}

static ct_status_t ct_tune_verify_add(ct_space_config_t *c, const char *name, const char *value,
                                      ct_via_t via)
{
    ct_space_setting_t *s = realloc(c->settings, (c->n + 1) * sizeof *s);
    if (s == NULL)
        return CT_ERR_NOMEM;
    c->settings = s;
    s[c->n].name = strdup(name);
    s[c->n].value = strdup(value);
    s[c->n].via = via;
    if (s[c->n].name == NULL || s[c->n].value == NULL) {
        free(s[c->n].name);
        free(s[c->n].value);
        return CT_ERR_NOMEM;
    }
    c->n++;
    return CT_OK;
}

/* The MCA files Open MPI reads when mca_base_param_files is not set (the
 * user's and the system's, where the site's settings live): from the
 * user's own --mca mca_base_param_files, else from ompi_info.  Setting
 * the parameter replaces that list, so the A/B must name them too.  ""
 * with a note when neither says. */
void ct_tune_verify_mca_tail(const ct_launch_opts_t *lo, char *tail, size_t len, char *note,
                             size_t notelen)
{
    tail[0] = '\0';
    for (size_t i = 0; i < lo->nmca; i++)
        if (strcmp(lo->mca[i].name, "mca_base_param_files") == 0) {
            snprintf(tail, len, "%s", lo->mca[i].value);
            return;
        }
    char why[640] = "";
    char *argv[] = {"ompi_info", "--parsable", "--param", "mca", "base", "--level", "9", NULL};
    char *text = ct_helper_run(argv, why, sizeof why);
    const char *key = ":mca_base_param_files:value:";
    const char *p = text != NULL ? strstr(text, key) : NULL;
    if (p != NULL) {
        p += strlen(key);
        snprintf(tail, len, "%.*s", (int)strcspn(p, "\n"), p);
    } else if (text != NULL) {
        snprintf(why, sizeof why, "ran but printed no mca_base_param_files line");
    }
    free(text);
    if (tail[0] == '\0')
        snprintf(note, notelen,
                 "ompi_info %s, so it did not give Open MPI's default mca_base_param_files: the "
                 "tuned side read only the emitted mca-params.conf, not the system's",
                 why);
}

/* Whether the user's environment or --env sets name. */
static int ct_tune_verify_user_has(const ct_launch_opts_t *lo, const char *name)
{
    int has = getenv(name) != NULL;
    for (size_t i = 0; i < lo->nenv; i++)
        has |= strcmp(lo->env[i].name, name) == 0;
    return has;
}

/* v as sh reads it when it opens with a single quote (nccl.env's quoting:
 * '...' with ' as '\'', emit_nccl_env.c), in place; else left as is. */
static void ct_tune_verify_unquote(char *v)
{
    char *out = v;
    const char *p = v;
    if (*p != '\'')
        return;
    while (*p) {
        const char *end = *p == '\'' ? strchr(p + 1, '\'') : NULL;
        if (end != NULL) {
            memmove(out, p + 1, (size_t)(end - p - 1));
            out += end - p - 1;
            p = end + 1;
        } else if (p[0] == '\\' && p[1] != '\0') {
            *out++ = p[1];
            p += 2;
        } else {
            *out++ = *p++;
        }
    }
    *out = '\0';
}

/* A sourced file (mpich.env): each `export NAME=VALUE` line into tuned's
 * environment, as `set -a; . FILE` would set it (the emitter writes values
 * unquoted, file_values.c's rule), and "sourced FILE" into v->how. */
static ct_status_t ct_tune_verify_source(const char *dir, const char *name,
                                         ct_space_config_t *tuned, ct_tune_verify_t *v,
                                         size_t *used)
{
    char path[PATH_MAX + 64], line[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return CT_ERR_IO;
    ct_status_t st = CT_OK;
    while (st == CT_OK && fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "export ", 7) != 0)
            continue;
        char *eq = strchr(line + 7, '=');
        if (eq == NULL)
            continue;
        *eq = '\0';
        ct_tune_verify_unquote(eq + 1);
        st = ct_tune_verify_add(tuned, line + 7, eq + 1, CT_VIA_ENV);
    }
    fclose(f);
    int m =
        snprintf(v->how + *used, sizeof v->how - *used, "%ssourced %s", *used ? "; " : "", path);
    if (st == CT_OK && m > 0 && (size_t)m < sizeof v->how - *used)
        *used += (size_t)m;
    return st;
}

/* Adds to tuned the settings that make a library read the emitted file
 * name in dir, as its emitter's entry says (ld), and appends them to
 * v->how (*used: its length). */
static ct_status_t ct_tune_verify_load(const ct_launch_opts_t *lo, const char *dir,
                                       const char *name, const ct_emit_load_t *ld,
                                       ct_space_config_t *tuned, ct_tune_verify_t *v, size_t *used)
{
    if (ld->kind == CT_FILE_LOAD_SOURCED)
        return ct_tune_verify_source(dir, name, tuned, v, used);
    if (ld->kind != CT_FILE_LOAD_VAR || ld->var == NULL)
        return CT_OK;
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (ld->keeps_defaults) {
        char tail[4096];
        ct_tune_verify_mca_tail(lo, tail, sizeof tail, v->note, sizeof v->note);
        if (tail[0] != '\0') {
            size_t pl = strlen(path);
            snprintf(path + pl, sizeof path - pl, ",%s", tail);
        }
    }
    ct_status_t st = CT_OK;
    if (ld->also != NULL && !ct_tune_verify_user_has(lo, ld->also))
        st = ct_tune_verify_add(tuned, ld->also, ld->also_value, CT_VIA_ENV);
    const char *value = ld->names_dir ? dir : path;
    if (st == CT_OK)
        st = ct_tune_verify_add(tuned, ld->var, value, ld->mca ? CT_VIA_MCA : CT_VIA_ENV);
    if (st != CT_OK)
        return st;
    int m = snprintf(v->how + *used, sizeof v->how - *used, "%s%s %s=%s", *used ? "; " : "",
                     ld->mca ? "--mca" : "env", ld->var, value);
    if (m > 0 && (size_t)m < sizeof v->how - *used)
        *used += (size_t)m;
    return CT_OK;
}

/* Adds bytes to buf[0..*n) (room for max) unless there already. */
static void ct_tune_size_add(long long *buf, size_t *n, size_t max, long long bytes)
{
    for (size_t i = 0; i < *n; i++)
        if (buf[i] == bytes)
            return;
    if (*n < max)
        buf[(*n)++] = bytes;
}

static long long ct_tune_searched_max(const ct_tune_vsize_t *searched, size_t nsearched)
{
    long long top = 0;
    for (size_t i = 0; i < nsearched; i++)
        if (searched[i].bytes > top)
            top = searched[i].bytes;
    return top;
}

/* The sizes every collective is checked at: 8 B, 4 KiB, 1 MiB and the
 * largest the search measured. */
static size_t ct_tune_check_sizes(long long top, long long *buf, size_t max)
{
    size_t n = 0;
    const long long fixed[] = {8, 4096, 1LL << 20};
    for (size_t i = 0; i < 3; i++)
        ct_tune_size_add(buf, &n, max, fixed[i]);
    if (top > 0)
        ct_tune_size_add(buf, &n, max, top);
    ct_vec_sort(buf, n, sizeof *buf, ct_vec_cmp_ll);
    return n;
}

size_t ct_tune_verify_sizes(const ct_tune_result_t *r, const ct_tune_vsize_t *searched,
                            size_t nsearched, long long *buf, size_t max)
{
    long long top = ct_tune_searched_max(searched, nsearched);
    size_t n = ct_tune_check_sizes(top, buf, max);
    for (size_t i = 0; i < nsearched; i++)
        ct_tune_size_add(buf, &n, max, searched[i].bytes);
    /* A file carries a choice for every size of its range, measured or
     * not: every power of two inside it is measured too. */
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        if (c->scope == CT_SCOPE_GLOBAL)
            continue;
        long long lo = c->min_bytes > 8 ? c->min_bytes : 8;
        long long hi = c->max_bytes >= 0 && c->max_bytes < top ? c->max_bytes : top;
        for (long long p = 8; p > 0 && p <= hi; p *= 2)
            if (p >= lo)
                ct_tune_size_add(buf, &n, max, p);
    }
    ct_vec_sort(buf, n, sizeof *buf, ct_vec_cmp_ll);
    return n;
}

/* buf as collbench --sizes takes it: "8,4096,...". */
static void ct_tune_sizes_text(const long long *v, size_t n, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        int m = snprintf(buf + used, len - used, "%s%lld", i ? "," : "", v[i]);
        if (m < 0 || (size_t)m >= len - used)
            break;
        used += (size_t)m;
    }
}

/* A copy of the settings of from into to (empty). */
static ct_status_t ct_tune_verify_copy(const ct_space_config_t *from, ct_space_config_t *to)
{
    ct_status_t st = CT_OK;
    for (size_t i = 0; i < from->n && st == CT_OK; i++)
        st = ct_tune_verify_add(to, from->settings[i].name, from->settings[i].value,
                                from->settings[i].via);
    if (st == CT_OK)
        snprintf(to->key, sizeof to->key, "%s", from->key);
    return st;
}

/* A scope of the A/B named name, over colls, its two configurations
 * copies of sides[0..2). */
static ct_status_t ct_tune_verify_scope(const char *name, const char *colls,
                                        const char *const *args, const ct_space_config_t *sides,
                                        ct_tune_scope_t *sc)
{
    memset(sc, 0, sizeof *sc);
    sc->scope = CT_SCOPE_GLOBAL;
    sc->name = name;
    sc->colls = colls;
    sc->args = args;
    sc->configs.configs = calloc(2, sizeof *sc->configs.configs);
    sc->excluded = calloc(2, sizeof *sc->excluded);
    sc->alive = calloc(2, sizeof *sc->alive);
    if (sc->configs.configs == NULL || sc->excluded == NULL || sc->alive == NULL)
        return CT_ERR_NOMEM;
    sc->configs.n = 2;
    ct_status_t st = CT_OK;
    for (size_t side = 0; side < 2 && st == CT_OK; side++)
        st = ct_tune_verify_copy(&sides[side], &sc->configs.configs[side]);
    return st;
}

ct_status_t ct_tune_files_hash(const char *dir, const char *const *names, size_t n,
                               ct_tune_file_hash_t *out, size_t *nout, char *err, size_t errlen)
{
    *nout = 0;
    for (size_t f = 0; f < n && f < CT_TUNE_VERIFY_MAX_FILES; f++) {
        char path[PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/%s", dir, names[f]);
        ct_tune_file_hash_t *h = &out[(*nout)++];
        snprintf(h->name, sizeof h->name, "%s", names[f]);
        ct_status_t st = ct_sha256_file(path, dir, h->sha256, h->sha256_rel, err, errlen);
        if (st != CT_OK)
            return st;
    }
    return CT_OK;
}

/* Removes what an earlier A/B of other choices left in dir (a resumed
 * tune, or a round that dropped a format): the A/B loads and hashes the
 * files this round writes, and no stale file may sit beside them. */
static void ct_tune_verify_clear_dir(const char *dir)
{
    for (size_t i = 0; ct_emit_format_name(i) != NULL; i++) {
        char path[PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/%s", dir, ct_emit_format_name(i));
        (void)unlink(path);
    }
}

/* The A/B's collectives (every one, or a later round's; the datatype
 * launches those of the frameworks' among them) and its scopes' names
 * (round 1 keeps the names every earlier tune's journal has). */
static void ct_tune_verify_names(const ct_tune_verify_in_t *in, ct_tune_verify_t *v)
{
    snprintf(v->colls[0], sizeof v->colls[0], "%s", in->colls ? in->colls : "all");
    static const char *const dtype_colls[] = {"allreduce", "broadcast", "allgather"};
    for (size_t k = 0; k < 3; k++)
        if (in->colls == NULL || ct_tune_list_has(in->colls, dtype_colls[k]))
            ct_tune_list_add(v->colls[1], sizeof v->colls[1], dtype_colls[k]);
    const char *base_names[CT_TUNE_VERIFY_MAX_SCOPES] = {
        CT_TUNE_VERIFY_NAME, CT_TUNE_VERIFY_DTYPES_NAME, CT_TUNE_VERIFY_CONFIRM_NAME};
    for (size_t k = 0; k < CT_TUNE_VERIFY_MAX_SCOPES; k++)
        if (v->round == 1)
            snprintf(v->names[k], sizeof v->names[k], "%s", base_names[k]);
        else
            snprintf(v->names[k], sizeof v->names[k], "%s-%zu", base_names[k], v->round);
}

/* DIR/<the A/B's name>, made, as an absolute path into abs and v->dir. */
static ct_status_t ct_tune_verify_dir(const ct_tune_verify_in_t *in, ct_tune_verify_t *v, char *abs,
                                      char *err, size_t errlen)
{
    char dir[4096];
    if (ct_outdir_path(in->out, v->names[0], dir, sizeof dir) != CT_OK) {
        snprintf(err, errlen, "--out %s: path too long", in->out);
        return CT_ERR_USAGE;
    }
    ct_status_t st = ct_outdir_prepare(dir, err, errlen);
    if (st != CT_OK)
        return st;
    if (realpath(dir, abs) == NULL) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return CT_ERR_IO;
    }
    snprintf(v->dir, sizeof v->dir, "%s", abs);
    return CT_OK;
}

/* The candidate files in abs: every significant choice, marked verified
 * only so the emitters write it (the final files carry the verdicts);
 * their names, how each is loaded (*nfiles of them) and their digests
 * in v. */
static ct_status_t ct_tune_verify_write(const ct_tune_result_t *r, const char *abs,
                                        const char **names, const ct_emit_load_t **loads,
                                        size_t *nfiles, ct_tune_verify_t *v, char *err,
                                        size_t errlen)
{
    ct_tune_result_t cand = *r;
    cand.choices = calloc(r->nchoices ? r->nchoices : 1, sizeof *cand.choices);
    if (cand.choices == NULL)
        return CT_ERR_NOMEM;
    for (size_t i = 0; i < r->nchoices; i++) {
        cand.choices[i] = r->choices[i];
        cand.choices[i].verified = cand.choices[i].significant;
    }
    ct_tune_verify_clear_dir(abs);
    ct_status_t st = ct_emit_all(&cand, abs, err, errlen);
    *nfiles = st == CT_OK ? ct_emit_loads(&cand, names, loads, CT_TUNE_VERIFY_MAX_FILES) : 0;
    free(cand.choices);
    if (st == CT_OK)
        st = ct_tune_files_hash(abs, names, *nfiles, v->files, &v->nfiles, err, errlen);
    return st;
}

/* The choices' digest, as 16 hex digits into hex[17]. */
static void ct_tune_verify_choices_hex(const ct_tune_result_t *r, char *hex)
{
    uint64_t h = CT_HASH_INIT;
    for (size_t i = 0; i < r->nchoices; i++) {
        char text[128];
        const ct_tune_choice_t *c = &r->choices[i];
        snprintf(text, sizeof text, "|%d:%lld:%lld:", c->scope, c->min_bytes, c->max_bytes);
        h = ct_hash_string(h, text);
        h = ct_hash_string(h, c->name);
        h = ct_hash_string(h, c->value);
    }
    snprintf(hex, 17, "%016llx", (unsigned long long)h);
}

/* The A/B's two sides: [0] the defaults; [1] the defaults and the files
 * names[0..nfiles) in abs, loaded as loads[] say (v->how tells how). */
static ct_status_t ct_tune_verify_sides(const ct_tune_result_t *r, const ct_tune_verify_in_t *in,
                                        const char *abs, const char *const *names,
                                        const ct_emit_load_t *const *loads, size_t nfiles,
                                        ct_space_config_t *sides, ct_tune_verify_t *v)
{
    ct_status_t st = CT_OK;
    for (size_t side = 0; side < 2 && st == CT_OK; side++)
        for (size_t i = 0; i < in->base->n && st == CT_OK; i++)
            st = ct_tune_verify_add(&sides[side], in->base->settings[i].name,
                                    in->base->settings[i].value, in->base->settings[i].via);
    size_t used = 0;
    for (size_t f = 0; f < nfiles && f < CT_TUNE_VERIFY_MAX_FILES && st == CT_OK; f++)
        st = ct_tune_verify_load(in->lo, abs, names[f], loads[f], &sides[1], v, &used);
    /* The tuned side's id covers the choices too, through a variable the
     * libraries ignore (its journal key is that of its settings): a
     * resumed tune that decided otherwise does not reuse an A/B of other
     * files. */
    char hex[17];
    ct_tune_verify_choices_hex(r, hex);
    if (st == CT_OK)
        st = ct_tune_verify_add(&sides[1], "COLLTUNE_VERIFY_CHOICES", hex, CT_VIA_ENV);
    /* Keys as the journal checks them: of the settings sorted by name. */
    for (size_t side = 0; side < 2 && st == CT_OK; side++) {
        ct_space_config_t *c = &sides[side];
        ct_vec_sort(c->settings, c->n, sizeof *c->settings, ct_tune_verify_cmp);
        ct_space_config_key(c->settings, c->n, c->key, sizeof c->key);
    }
    return st;
}

/* Every collective at the searched sizes, the check sizes and the
 * powers of two inside the ranges; on NCCL, the framework datatypes at
 * the check sizes: v's sizes and the launches' arguments. */
static void ct_tune_verify_args(const ct_tune_result_t *r, const ct_tune_verify_in_t *in,
                                ct_tune_verify_t *v)
{
    long long sizes[CT_TUNE_VERIFY_MAX_SIZES];
    size_t ns =
        ct_tune_verify_sizes(r, in->searched, in->nsearched, sizes, CT_TUNE_VERIFY_MAX_SIZES);
    ct_tune_sizes_text(sizes, ns, v->sizes, sizeof v->sizes);
    ns = ct_tune_check_sizes(ct_tune_searched_max(in->searched, in->nsearched), sizes,
                             CT_TUNE_VERIFY_MAX_SIZES);
    ct_tune_sizes_text(sizes, ns, v->check_sizes, sizeof v->check_sizes);
    const char *const main_args[] = {"--sizes", v->sizes, NULL};
    const char *const dtype_args[] = {"--sizes", v->check_sizes, "-d", "int8,bfloat16", NULL};
    memcpy(v->args[0], main_args, sizeof main_args);
    memcpy(v->args[1], dtype_args, sizeof dtype_args);
}

static void ct_tune_verify_sides_free(ct_space_config_t *sides)
{
    for (size_t side = 0; side < 2; side++) {
        for (size_t i = 0; i < sides[side].n; i++) {
            free(sides[side].settings[i].name);
            free(sides[side].settings[i].value);
        }
        free(sides[side].settings);
    }
}

ct_status_t ct_tune_verify_setup(const ct_tune_result_t *r, const ct_tune_verify_in_t *in,
                                 ct_tune_scope_t *scopes, size_t *nscopes_p, ct_tune_verify_t *v,
                                 char *err, size_t errlen)
{
    char abs[PATH_MAX];
    *nscopes_p = 0;
    memset(v, 0, sizeof *v);
    v->pairs = in->pairs;
    v->round = in->round > 0 ? in->round : 1;
    ct_tune_verify_names(in, v);
    const char *names[CT_TUNE_VERIFY_MAX_FILES];
    const ct_emit_load_t *loads[CT_TUNE_VERIFY_MAX_FILES];
    size_t nfiles = 0;
    ct_status_t st = ct_tune_verify_dir(in, v, abs, err, errlen);
    if (st == CT_OK)
        st = ct_tune_verify_write(r, abs, names, loads, &nfiles, v, err, errlen);
    if (st != CT_OK)
        return st;
    ct_space_config_t sides[2];
    memset(sides, 0, sizeof sides);
    st = ct_tune_verify_sides(r, in, abs, names, loads, nfiles, sides, v);
    ct_tune_verify_args(r, in, v);
    if (st == CT_OK)
        st = ct_tune_verify_scope(v->names[0], v->colls[0], v->args[0], sides, &scopes[0]);
    if (st == CT_OK)
        *nscopes_p = 1;
    if (st == CT_OK && in->nccl && v->colls[1][0] != '\0') {
        st = ct_tune_verify_scope(v->names[1], v->colls[1], v->args[1], sides, &scopes[1]);
        *nscopes_p = 2;
        v->dtypes = 1;
    }
    ct_tune_verify_sides_free(sides);
    return st;
}

/* One collective x datatype x size of the A/B: side [0] default, [1]
 * tuned; a side with no launches shows a median of 0, not NaN. */
static void ct_tune_verify_cell(const ct_tune_ev_cell_t *e, ct_tune_vcell_t *c)
{
    const ct_tune_launches_t *d = &e->cfg[0], *t = &e->cfg[1];
    memset(c, 0, sizeof *c);
    c->coll = e->coll;
    c->dtype = e->dtype;
    c->bytes = e->bytes;
    c->nranks = e->nranks;
    c->nnodes = e->nnodes;
    c->ndef = d->n;
    c->ntun = t->n;
    c->def_us = ct_stats_median_or(d->us, c->ndef, 0);
    c->def_lo = ct_tune_min(d->us, c->ndef);
    c->def_hi = ct_tune_max(d->us, c->ndef);
    c->def_bw = ct_stats_median_or(d->bw, c->ndef, 0);
    c->tun_us = ct_stats_median_or(t->us, c->ntun, 0);
    c->tun_lo = ct_tune_min(t->us, c->ntun);
    c->tun_hi = ct_tune_max(t->us, c->ntun);
    c->tun_bw = ct_stats_median_or(t->bw, c->ntun, 0);
    c->p_faster = ct_stats_mw_p_less(t->us, c->ntun, d->us, c->ndef);
    c->p_slower = ct_stats_mw_p_less(d->us, c->ndef, t->us, c->ntun);
    int both = c->ntun > 0 && c->ndef > 0;
    /* What the cell alone says; whether it holds is the family's call
     * (ct_tune_verify_bh). */
    c->holds_alone = both && c->p_faster <= CT_TUNE_VERIFY_ALPHA &&
                     c->tun_us <= (1.0 - CT_TUNE_MARGIN) * c->def_us;
    c->p_adj = 1;
    /* A loss the test sees and that is larger than what chance gives one
     * of many cells (CT_TUNE_HARM_MARGIN); harm once confirmed. */
    c->suspect = both && c->p_slower <= CT_TUNE_VERIFY_ALPHA &&
                 c->tun_us >= (1.0 + CT_TUNE_HARM_MARGIN) * c->def_us;
    c->contradicts = c->suspect;
}

/* The cell of ev at c's collective, datatype, size and shape, or NULL. */
static const ct_tune_ev_cell_t *ct_tune_ev_find(const ct_tune_evidence_t *ev,
                                                const ct_tune_vcell_t *c)
{
    for (size_t k = 0; ev != NULL && k < ev->ncells; k++) {
        const ct_tune_ev_cell_t *e = &ev->cells[k];
        if (e->bytes == c->bytes && e->nranks == c->nranks && e->nnodes == c->nnodes &&
            strcmp(e->coll, c->coll) == 0 && strcmp(e->dtype, c->dtype) == 0)
            return e;
    }
    return NULL;
}

int ct_tune_list_has(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; p != NULL && *p;) {
        size_t m = strcspn(p, ",");
        if (m == n && strncmp(p, word, n) == 0)
            return 1;
        p += m + (p[m] == ',');
    }
    return 0;
}

void ct_tune_list_add(char *buf, size_t len, const char *word)
{
    if (ct_tune_list_has(buf, word))
        return;
    size_t used = strlen(buf);
    snprintf(buf + used, len - used, "%s%s", used ? "," : "", word);
}

static int ct_tune_searched_has(const ct_tune_vsize_t *searched, size_t n, const ct_tune_vcell_t *c)
{
    for (size_t i = 0; i < n; i++)
        if (searched[i].bytes == c->bytes && searched[i].nranks == c->nranks &&
            searched[i].nnodes == c->nnodes && strcmp(searched[i].coll, c->coll) == 0)
            return 1;
    return 0;
}

/* Whether choice ch (over [lo, hi], hi -1: any) reaches cell c.  With
 * --shapes a per-collective choice reaches its own shape's cells only
 * (a file keyed by shape writes it there alone); a global one holds for
 * every communicator, so every cell. */
static int ct_tune_reaches(const ct_tune_choice_t *ch, long long lo, long long hi,
                           const ct_tune_vcell_t *c)
{
    if (ch->scope == CT_SCOPE_GLOBAL)
        return 1;
    if (c->nranks > 0 && ch->nranks > 0 && (c->nranks != ch->nranks || c->nnodes != ch->nnodes))
        return 0;
    return strcmp(c->coll, ct_space_scope_name(ch->scope)) == 0 && c->bytes >= lo &&
           (hi < 0 || c->bytes <= hi);
}

/* A family cell's p_faster and its index in v->cells, for ranking. */
typedef struct {
    double p;
    size_t k;
} ct_tune_pk_t;

static int ct_tune_pk_cmp(const void *a, const void *b)
{
    const ct_tune_pk_t *x = a, *y = b;
    if (x->p != y->p)
        return x->p < y->p ? -1 : 1;
    return x->k < y->k ? -1 : x->k > y->k;
}

/* Marks the family (measured cells of the first kind of launch that a
 * writable choice reaches: reach is set) and runs Benjamini-Hochberg over
 * it: the adjusted p of rank j is the least m p(i) / i over i >= j, and
 * a cell holds when it holds alone and that is <= q (tune_verify.h). */
static ct_status_t ct_tune_verify_bh(ct_tune_verify_t *v, size_t nmain)
{
    size_t m = 0;
    for (size_t k = 0; k < nmain; k++) {
        ct_tune_vcell_t *c = &v->cells[k];
        c->family = c->tuned && c->reach > 0;
        m += (size_t)c->family;
    }
    v->nfamily = m;
    v->bh_cutoff = 0;
    if (m == 0)
        return CT_OK;
    ct_tune_pk_t *pk = malloc(m * sizeof *pk);
    if (pk == NULL)
        return CT_ERR_NOMEM;
    size_t n = 0;
    for (size_t k = 0; k < nmain; k++)
        if (v->cells[k].family)
            pk[n++] = (ct_tune_pk_t){v->cells[k].p_faster, k};
    ct_vec_sort(pk, m, sizeof *pk, ct_tune_pk_cmp);
    double adj = 1;
    for (size_t j = m; j-- > 0;) {
        ct_tune_vcell_t *c = &v->cells[pk[j].k];
        double a = (double)m * pk[j].p / (double)(j + 1);
        adj = a < adj ? a : adj;
        c->rank = j + 1;
        c->level = (double)(j + 1) * CT_TUNE_VERIFY_FDR / (double)m;
        c->p_adj = adj;
        c->holds = c->holds_alone && adj <= CT_TUNE_VERIFY_FDR;
        if (adj <= CT_TUNE_VERIFY_FDR && pk[j].p > v->bh_cutoff)
            v->bh_cutoff = pk[j].p;
    }
    free(pk);
    return CT_OK;
}

/* C(a + b, a): the orderings an exact Mann-Whitney of a against b counts;
 * 1 / it is the smallest p it can give. */
static double ct_tune_orderings(size_t a, size_t b)
{
    double c = 1;
    for (size_t i = 1; i <= a; i++)
        c = c * (double)(b + i) / (double)i;
    return c;
}

/*
 * Appends to why what the family did to choice ch (reaching cells over
 * its range as searched): cells that held alone but not over the family,
 * and, where its own t family cells cannot pass even each at the
 * smallest p their launch counts give (1/C(na+nb, na) > t q / m), the
 * pairs whose smallest p could.
 */
static void ct_tune_verify_family_note(const ct_tune_verify_t *v, const ct_tune_choice_t *ch,
                                       char *why, size_t why_len)
{
    size_t t = 0, alone = 0, pairs = 0;
    double pmin = 1;
    for (size_t k = 0; k < v->ncells; k++) {
        const ct_tune_vcell_t *c = &v->cells[k];
        if (!c->family || !ct_tune_reaches(ch, ch->min_bytes, ch->max_bytes, c))
            continue;
        t++;
        alone += (size_t)(c->holds_alone && !c->holds);
        double p = 1.0 / ct_tune_orderings(c->ndef, c->ntun);
        pmin = p < pmin ? p : pmin;
        size_t n = c->ndef < c->ntun ? c->ndef : c->ntun;
        pairs = n > pairs ? n : pairs;
    }
    size_t used = strlen(why);
    if (alone > 0) {
        int w = snprintf(why + used, why_len - used,
                         "; %zu more faster alone (p <= %.2f), not over the %zu cells tested "
                         "(Benjamini-Hochberg, q = %.2f)",
                         alone, CT_TUNE_VERIFY_ALPHA, v->nfamily, CT_TUNE_VERIFY_FDR);
        used += w > 0 && (size_t)w < why_len - used ? (size_t)w : 0;
    }
    double level = (double)t * CT_TUNE_VERIFY_FDR / (double)v->nfamily;
    if (t == 0 || pmin <= level)
        return;
    size_t could = pairs + 1;
    while (could < CT_STATS_MW_MAX && 1.0 / ct_tune_orderings(could, could) > level)
        could++;
    snprintf(why + used, why_len - used,
             "; at %zu pairs its %zu measured cell%s cannot pass over %zu (least p %.2g > "
             "%zu x %.2f / %zu): --verify-pairs %zu could",
             pairs, t, t == 1 ? "" : "s", v->nfamily, pmin, t, CT_TUNE_VERIFY_FDR, v->nfamily,
             could);
}

/* A global choice reaches every cell: verified when none is slower. */
static void ct_tune_verify_global(const ct_tune_verify_t *v, int weighted, int *verified, char *why,
                                  size_t why_len)
{
    size_t tuned = 0, holds = 0, slower = 0;
    const ct_tune_vcell_t *first = NULL;
    for (size_t k = 0; k < v->ncells; k++) {
        const ct_tune_vcell_t *c = &v->cells[k];
        if (c->contradicts && slower++ == 0)
            first = c;
        tuned += (size_t)c->tuned;
        holds += (size_t)(c->tuned && c->holds);
    }
    if (first != NULL) {
        char sz[32];
        ct_size_format((size_t)first->bytes, sz, sizeof sz);
        snprintf(why, why_len,
                 "the tuned side was significantly slower at %zu of %zu cells (%s %s %s)", slower,
                 v->ncells, first->coll, first->dtype, sz);
    } else if (weighted) {
        *verified = v->w_n >= CT_TUNE_VERIFY_MIN_PAIRS && v->w_p <= CT_TUNE_VERIFY_ALPHA &&
                    v->w_tun <= (1.0 - CT_TUNE_MARGIN) * v->w_def;
        snprintf(why, why_len,
                 "weighted time %.2f -> %.2f us (p = %.3g, %zu launches each); slower in none "
                 "of %zu cells",
                 v->w_def, v->w_tun, v->w_p, v->w_n, v->ncells);
    } else if (tuned == 0) {
        snprintf(why, why_len, "the A/B measured no size the search did");
    } else {
        *verified = holds > 0;
        snprintf(why, why_len, "faster at %zu of %zu measured sizes, slower in none of %zu cells",
                 holds, tuned, v->ncells);
    }
}

/*
 * A per-collective choice: the cells of its collective inside its range
 * (the first kind of launch, every size), cut at the slower ones; the
 * part whose measured sizes hold the gain most often stays, and its
 * bounds become the choice's range.  Slower cells of the other kinds
 * (datatypes) inside what stays verify nothing.
 */
static void ct_tune_verify_coll(ct_tune_verify_t *v, size_t i, const ct_tune_choice_t *ch,
                                size_t nmain, char *why, size_t why_len)
{
    long long lo = ch->min_bytes, hi = ch->max_bytes;
    long long best_lo = lo, best_hi = hi, run_lo = lo;
    size_t best_holds = 0, best_tuned = 0, run_holds = 0, run_tuned = 0, in = 0, cuts = 0;
    long long cut_at = -1;
    int have_best = 0;
    for (size_t k = 0; k <= nmain; k++) {
        const ct_tune_vcell_t *c = k < nmain ? &v->cells[k] : NULL;
        if (c != NULL && !ct_tune_reaches(ch, lo, hi, c))
            continue;
        if (c != NULL && !c->contradicts) {
            in++;
            run_tuned += (size_t)c->tuned;
            run_holds += (size_t)(c->tuned && c->holds);
            continue;
        }
        /* The end of a run: at a slower cell, or past the last cell. */
        long long run_hi = c != NULL ? c->bytes - 1 : hi;
        if (!have_best || run_holds > best_holds) {
            best_lo = run_lo;
            best_hi = run_hi;
            best_holds = run_holds;
            best_tuned = run_tuned;
            have_best = 1;
        }
        if (c != NULL) {
            in++;
            if (cuts++ == 0)
                cut_at = c->bytes;
            run_lo = c->bytes + 1;
            run_holds = run_tuned = 0;
        }
    }
    char at[32] = "";
    if (cuts > 0)
        ct_size_format((size_t)cut_at, at, sizeof at);
    if (in == 0) {
        snprintf(why, why_len, "the A/B measured no size in its range");
        return;
    }
    if (best_holds == 0 && cuts > 0) {
        snprintf(why, why_len,
                 "the tuned side was significantly slower at %zu of %zu sizes of its range "
                 "(first at %s), and no part of it held the gain",
                 cuts, in, at);
        return;
    }
    v->min_bytes[i] = best_lo;
    v->max_bytes[i] = best_hi;
    /* The other kinds of launch (datatypes) inside what stays. */
    for (size_t k = nmain; k < v->ncells; k++) {
        const ct_tune_vcell_t *c = &v->cells[k];
        if (c->contradicts && ct_tune_reaches(ch, best_lo, best_hi, c)) {
            char sz[32];
            ct_size_format((size_t)c->bytes, sz, sizeof sz);
            snprintf(why, why_len, "the tuned side was significantly slower for %s %s at %s",
                     c->coll, c->dtype, sz);
            return;
        }
    }
    v->verified[i] = 2 * best_holds > best_tuned;
    if (cuts == 0)
        snprintf(why, why_len,
                 "faster at %zu of %zu measured sizes of its range, slower at none of %zu sizes",
                 best_holds, best_tuned, in);
    else
        snprintf(why, why_len,
                 "range cut to where it held: slower at %zu of %zu sizes (first at %s); "
                 "faster at %zu of %zu measured sizes of what stays",
                 cuts, in, at, best_holds, best_tuned);
}

size_t ct_tune_verify_suspects(const ct_tune_evidence_t *ev, size_t nev, const ct_tune_result_t *r,
                               ct_tune_verify_t *v)
{
    long long sizes[CT_TUNE_VERIFY_MAX_SIZES];
    size_t ns = 0;
    v->nsuspects = 0;
    v->confirm_colls[0] = v->confirm_dtypes[0] = v->confirm_sizes[0] = '\0';
    for (size_t e = 0; e < nev; e++)
        for (size_t k = 0; k < ev[e].ncells; k++) {
            ct_tune_vcell_t c;
            ct_tune_verify_cell(&ev[e].cells[k], &c);
            int reached = 0;
            for (size_t i = 0; i < r->nchoices && !reached; i++)
                reached = r->choices[i].unwritable == NULL &&
                          ct_tune_reaches(&r->choices[i], r->choices[i].min_bytes,
                                          r->choices[i].max_bytes, &c);
            if (!c.suspect || !reached)
                continue;
            v->nsuspects++;
            ct_tune_list_add(v->confirm_colls, sizeof v->confirm_colls, c.coll);
            ct_tune_list_add(v->confirm_dtypes, sizeof v->confirm_dtypes, c.dtype);
            ct_tune_size_add(sizes, &ns, CT_TUNE_VERIFY_MAX_SIZES, c.bytes);
        }
    ct_vec_sort(sizes, ns, sizeof *sizes, ct_vec_cmp_ll);
    ct_tune_sizes_text(sizes, ns, v->confirm_sizes, sizeof v->confirm_sizes);
    return v->nsuspects;
}

ct_status_t ct_tune_verify_confirm_scope(const ct_tune_scope_t *first, ct_tune_verify_t *v,
                                         ct_tune_scope_t *sc)
{
    const char *const args[] = {"--sizes", v->confirm_sizes, "-d", v->confirm_dtypes, NULL};
    memcpy(v->args[2], args, sizeof args);
    return ct_tune_verify_scope(v->names[2], v->confirm_colls, v->args[2], first->configs.configs,
                                sc);
}

ct_status_t ct_tune_verify_judge(const ct_tune_evidence_t *ev, size_t nev,
                                 const ct_tune_evidence_t *confirm, const ct_tune_result_t *r,
                                 const ct_tune_vsize_t *searched, size_t nsearched,
                                 const char *failed, ct_tune_verify_t *v)
{
    ct_tune_verify_free(v);
    size_t total = 0, nmain = nev > 0 ? ev[0].ncells : 0;
    for (size_t e = 0; e < nev; e++)
        total += ev[e].ncells;
    v->cells = calloc(total ? total : 1, sizeof *v->cells);
    v->nchoices = r->nchoices;
    size_t nc = r->nchoices ? r->nchoices : 1;
    v->verified = calloc(nc, sizeof *v->verified);
    v->why = calloc(nc, sizeof *v->why);
    v->min_bytes = calloc(nc, sizeof *v->min_bytes);
    v->max_bytes = calloc(nc, sizeof *v->max_bytes);
    if (v->cells == NULL || v->verified == NULL || v->why == NULL || v->min_bytes == NULL ||
        v->max_bytes == NULL)
        return CT_ERR_NOMEM;
    snprintf(v->failed, sizeof v->failed, "%s", failed ? failed : "");
    for (size_t e = 0; e < nev; e++)
        for (size_t k = 0; k < ev[e].ncells; k++) {
            ct_tune_vcell_t *c = &v->cells[v->ncells++];
            ct_tune_verify_cell(&ev[e].cells[k], c);
            c->tuned = e == 0 && ct_tune_searched_has(searched, nsearched, c);
            /* A suspect is harm only if the confirmation finds it slower too. */
            const ct_tune_ev_cell_t *again =
                c->suspect && confirm ? ct_tune_ev_find(confirm, c) : NULL;
            if (again != NULL) {
                ct_tune_vcell_t c2;
                ct_tune_verify_cell(again, &c2);
                c->contradicts = c2.suspect;
            }
        }
    /* What the candidate files reached in each cell (the ranges as
     * searched): a slower cell none reaches is noise, not harm; a
     * measured cell one reaches is one of the family BH corrects over. */
    for (size_t k = 0; k < v->ncells; k++)
        for (size_t i = 0; i < r->nchoices; i++)
            v->cells[k].reach += r->choices[i].unwritable == NULL &&
                                 ct_tune_reaches(&r->choices[i], r->choices[i].min_bytes,
                                                 r->choices[i].max_bytes, &v->cells[k]);
    if (ct_tune_verify_bh(v, nmain) != CT_OK)
        return CT_ERR_NOMEM;
    int weighted = nev > 0 && ev[0].weighted;
    if (weighted) {
        const ct_tune_launches_t *d = &ev[0].weighted_us[0], *t = &ev[0].weighted_us[1];
        v->w_def = ct_stats_median_or(d->us, d->n, 0);
        v->w_tun = ct_stats_median_or(t->us, t->n, 0);
        v->w_p = ct_stats_mw_p_less(t->us, t->n, d->us, d->n);
        v->w_n = d->n < t->n ? d->n : t->n;
    }
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *ch = &r->choices[i];
        v->min_bytes[i] = ch->min_bytes;
        v->max_bytes[i] = ch->max_bytes;
        if (ch->unwritable)
            snprintf(v->why[i], sizeof v->why[i], "no file can carry it over its sizes: %s",
                     ch->unwritable);
        else if (v->failed[0])
            snprintf(v->why[i], sizeof v->why[i], "%.180s", v->failed);
        else if (ch->scope == CT_SCOPE_GLOBAL)
            ct_tune_verify_global(v, weighted, &v->verified[i], v->why[i], sizeof v->why[i]);
        else
            ct_tune_verify_coll(v, i, ch, nmain, v->why[i], sizeof v->why[i]);
        if (!v->verified[i] && !ch->unwritable && !v->failed[0] &&
            !(ch->scope == CT_SCOPE_GLOBAL && weighted))
            ct_tune_verify_family_note(v, ch, v->why[i], sizeof v->why[i]);
    }
    return CT_OK;
}
