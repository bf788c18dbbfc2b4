/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * space.c - reading a space file.
 *
 * libinih splits name = value lines and strips comments; it does not tell
 * which line it is on (Debian builds it without INI_HANDLER_LINENO) nor
 * report sections without keys, so it reads through our own line reader,
 * which counts lines, sees [section] headers (an empty [var X] must still
 * be an error) and notices indented continuation lines.  Every field is
 * checked as it is read, with the line it came from; what needs a whole
 * section (a variable without values) is checked when the section ends.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "ct_input.h"
#include "ct_size.h"
#include "ct_vec.h"
#include "file_values.h"
#include "space.h"
#include "space_known.h"
#include "space_list.h"

/* Bits of the keys a section has set, to catch a key given twice. */
enum {
    KEY_NAME = 1 << 0,
    KEY_DESCRIBE = 1 << 1,
    KEY_VIA = 1 << 2,
    KEY_SCOPE = 1 << 3,
    KEY_VALUES = 1 << 4,
    KEY_RANGE = 1 << 5,
    KEY_POW2 = 1 << 6,
    KEY_DEFAULT = 1 << 7,
    KEY_REQUIRES = 1 << 8,
    KEY_MAX_RANKS = 1 << 9,
    KEY_WHEN = 1 << 10,
    KEY_VALUE = 1 << 11,
    KEY_PRODUCT = 1 << 12,
    KEY_SUM = 1 << 13,
    KEY_MIN = 1 << 14,
    KEY_MAX = 1 << 15,
    KEY_APPLY = 1 << 16,
};

typedef enum { SEC_NONE, SEC_SPACE, SEC_VAR, SEC_CONSTRAINT } ct_section_t;

typedef struct {
    FILE *fp;
    const char *path;
    ct_space_t *space;
    int line;     /* of the line inih is handling */
    int indented; /* it starts with white space: a continuation */
    char *buf;    /* getline's */
    size_t cap;
    ct_section_t sec; /* the section being read */
    int sec_line;
    unsigned seen; /* KEY_* set in this section */
    int bound_line;
    ct_status_t status;
    int fail_line; /* the line status and err name */
    char *err;
    size_t errlen;
    int default_via_set;
    int space_seen; /* a [space] header was read: a second one is refused */
    ct_via_t default_via;
    /* The current variable's value lines (vlines[i]: values[i]'s) and
     * its requires= line: its via may come after them, and the files
     * that carry a value depend on it (ct_space_check_files). */
    int *vlines;
    size_t nvlines, vlines_cap;
    int requires_line;
} ct_space_parser_t;

static ct_status_t ct_space_fail(ct_space_parser_t *p, int line, const char *field, const char *fmt,
                                 ...)
{
    if (p->status != CT_OK)
        return p->status; /* the first error is the one to report */
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    snprintf(p->err, p->errlen, "%s:%d: %s: %s", p->path, line, field, why);
    p->status = CT_ERR_USAGE;
    p->fail_line = line;
    return p->status;
}

static char *ct_strdup(const char *s) { return s ? strdup(s) : NULL; }

static ct_space_var_t *ct_space_cur_var(ct_space_parser_t *p)
{
    return &p->space->vars[p->space->nvars - 1];
}

static ct_space_constraint_t *ct_space_cur_constraint(ct_space_parser_t *p)
{
    return &p->space->constraints[p->space->nconstraints - 1];
}

static const char *ct_space_kind_word(ct_space_kind_t kind)
{
    switch (kind) {
    case CT_SPACE_VAR: return "var";
    case CT_SPACE_FIXED: return "fixed";
    case CT_SPACE_PASS: return "pass";
    }
    return "?";
}

/* A name a launcher can pass: letters, digits and '_'. */
static int ct_space_name_ok(const char *name)
{
    if (*name == '\0' || isdigit((unsigned char)*name))
        return 0;
    for (const char *s = name; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return 0;
    return 1;
}

/* Whether value is one of var's values. */
static int ct_space_has_value(const ct_space_var_t *var, const char *value)
{
    for (size_t i = 0; i < var->nvalues; i++)
        if (strcmp(var->values[i], value) == 0)
            return 1;
    return 0;
}

/* --- the end of a section: what needs all of its keys --- */

/* Every value a trial may set, against every file that could carry it
 * (file_values.h): refused here, at its line, rather than after the
 * whole search when the files are written. */
static ct_status_t ct_space_check_files(ct_space_parser_t *p, const ct_space_var_t *v)
{
    char why[512];
    for (size_t i = 0; v->kind == CT_SPACE_VAR && i < v->nvalues; i++)
        if (!ct_emit_value_ok(v->name, v->via, v->values[i], why, sizeof why))
            return ct_space_fail(p, i < p->nvlines ? p->vlines[i] : p->sec_line, v->name, "%s",
                                 why);
    for (size_t i = 0; i < v->nrequires; i++)
        if (!ct_emit_value_ok(v->requires[i].name, v->via, v->requires[i].value, why, sizeof why))
            return ct_space_fail(p, p->requires_line, "requires", "%s", why);
    return CT_OK;
}

static ct_status_t ct_space_end_var(ct_space_parser_t *p)
{
    ct_space_var_t *v = ct_space_cur_var(p);
    char why[256];
    if (v->kind == CT_SPACE_VAR && v->nvalues == 0)
        return ct_space_fail(p, p->sec_line, v->name, "no values (give values=, range= or pow2=)");
    if (v->kind == CT_SPACE_FIXED && v->nvalues != 1)
        return ct_space_fail(p, p->sec_line, v->name, "a fixed variable needs value=");
    for (size_t i = 0; i < v->nrequires; i++)
    v->requires[i].via = v->via; /* via= may come after requires= */
    /* collbench --config writes an MPI control variable through MPI_T, or
     * (nccl backend) sets an NCCL_* variable around one communicator's
     * ncclCommInitRank: the library family says which (ct_library.h). */
    const ct_library_t *lib = NULL;
    const ct_library_family_t *fam = ct_setting_family(v->name, v->via, &lib);
    int settable = v->via == CT_VIA_MCA ||
                   (fam != NULL && (fam->apply & (CT_APPLY_MPIT | CT_APPLY_COMM)) != 0);
    /* MPICH reads most CVARs once, at MPI_Init: only the algorithm choices
     * measured to take effect at the next call are written at run time. */
    if (settable && lib != NULL && lib->id == CT_LIB_MPICH && !ct_space_known_runtime(v->name)) {
        if (v->runtime == 1)
            return ct_space_fail(p, p->sec_line, "apply",
                                 "%s: of MPICH's variables only the blocking "
                                 "MPIR_CVAR_<COLL>_INTRA_ALGORITHM are set at run time",
                                 v->name);
        settable = 0;
    }
    if (v->runtime == 1 && !settable)
        return ct_space_fail(p, p->sec_line, "apply",
                             "%s: only an MPI control variable (via = mca), an NCCL_* variable "
                             "or an MPICH algorithm (MPIR_CVAR_<COLL>_INTRA_ALGORITHM) is set "
                             "at run time",
                             v->name);
    if (v->runtime == 0)
        v->runtime = settable && ct_space_known_runtime(v->name);
    else if (v->runtime < 0)
        v->runtime = 0;
    int known;
    if (ct_space_known_scope(v->name, &known, why, sizeof why) != CT_OK)
        return ct_space_fail(p, p->sec_line, v->name, "%s", why);
    if (v->kind == CT_SPACE_VAR && known >= 0 && v->scope != known)
        return ct_space_fail(p, p->sec_line, "scope", "%s affects only %s, not %s", v->name,
                             ct_space_scope_name(known), ct_space_scope_name(v->scope));
    if (v->kind == CT_SPACE_VAR && known == CT_SCOPE_GLOBAL && v->scope != CT_SCOPE_GLOBAL)
        return ct_space_fail(p, p->sec_line, "scope", "%s affects every collective: scope = global",
                             v->name);
    return ct_space_check_files(p, v);
}

long long ct_space_constraint_step(ct_constraint_op_t op, long long acc, long long x)
{
    long long r;
    if (op == CT_CONSTRAINT_PRODUCT ? !__builtin_mul_overflow(acc, x, &r)
                                    : !__builtin_add_overflow(acc, x, &r))
        return r;
    int negative = op == CT_CONSTRAINT_PRODUCT ? (acc < 0) != (x < 0) : x < 0;
    return negative ? LLONG_MIN : LLONG_MAX;
}

/* Every combination of the constraint's variables, until one satisfies it;
 * a space too large to try (over 2^20) is taken as satisfiable. */
static int ct_space_constraint_satisfiable(const ct_space_t *s, const ct_space_constraint_t *c,
                                           long long *closest_p)
{
    size_t idx[16] = {0};
    long long tries = 0;
    *closest_p = 0;
    for (;;) {
        long long acc = c->op == CT_CONSTRAINT_PRODUCT ? 1 : 0;
        for (size_t k = 0; k < c->nvars; k++) {
            long long v = strtoll(s->vars[c->vars[k]].values[idx[k]], NULL, 10);
            acc = ct_space_constraint_step(c->op, acc, v);
        }
        if ((!c->has_min || acc >= c->min) && (!c->has_max || acc <= c->max))
            return 1;
        if (tries == 0 || (c->has_max && acc > c->max && acc < *closest_p) ||
            (!(c->has_max && acc > c->max) && acc > *closest_p))
            *closest_p = acc;
        if (++tries > (1 << 20))
            return 1;
        size_t k = 0;
        while (k < c->nvars && ++idx[k] == s->vars[c->vars[k]].nvalues)
            idx[k++] = 0;
        if (k == c->nvars)
            return 0;
    }
}

static ct_status_t ct_space_end_constraint(ct_space_parser_t *p)
{
    ct_space_constraint_t *c = ct_space_cur_constraint(p);
    if (c->nvars == 0)
        return ct_space_fail(p, p->sec_line, c->name, "no variables (give product= or sum=)");
    if (!c->has_min && !c->has_max)
        return ct_space_fail(p, p->sec_line, c->name, "no bound (give max= and/or min=)");
    long long closest;
    if (!ct_space_constraint_satisfiable(p->space, c, &closest))
        return ct_space_fail(p, p->bound_line, c->has_max ? "max" : "min",
                             "constraint %s cannot be met: no combination of the values of its "
                             "variables lies in the bounds (closest: %lld)",
                             c->name, closest);
    return CT_OK;
}

static ct_status_t ct_space_end_section(ct_space_parser_t *p)
{
    if (p->status != CT_OK)
        return p->status;
    switch (p->sec) {
    case SEC_VAR: return ct_space_end_var(p);
    case SEC_CONSTRAINT: return ct_space_end_constraint(p);
    default: return CT_OK;
    }
}

/* --- [section] headers --- */

static ct_status_t ct_space_begin_var(ct_space_parser_t *p, ct_space_kind_t kind, const char *name)
{
    ct_space_t *s = p->space;
    if (!ct_space_name_ok(name))
        return ct_space_fail(p, p->line, ct_space_kind_word(kind),
                             "\"%s\" is not a variable name (letters, digits, _)", name);
    long dup = ct_space_find(s, name);
    if (dup >= 0)
        return ct_space_fail(p, p->line, name, "declared twice (first at line %d)",
                             s->vars[dup].line);
    ct_space_var_t v = {
        .name = ct_strdup(name),
        .line = p->line,
        .kind = kind,
        .scope = CT_SCOPE_GLOBAL,
        .when_var = (size_t)-1,
        /* mca when the [space] says so, else by name: OMPI names are lower
         * case, NCCL_ and UCX_ ones are not. */
        .via = p->default_via_set ? p->default_via
                                  : (islower((unsigned char)name[0]) ? CT_VIA_MCA : CT_VIA_ENV),
    };
    if (v.name == NULL || CT_VEC_PUSH(s->vars, s->nvars, s->vars_cap, &v) != CT_OK) {
        free(v.name);
        return p->status = CT_ERR_NOMEM;
    }
    return CT_OK;
}

static ct_status_t ct_space_begin_constraint(ct_space_parser_t *p, const char *name)
{
    ct_space_t *s = p->space;
    for (size_t i = 0; i < s->nconstraints; i++)
        if (strcmp(s->constraints[i].name, name) == 0)
            return ct_space_fail(p, p->line, name, "constraint declared twice (first at line %d)",
                                 s->constraints[i].line);
    ct_space_constraint_t c = {.name = ct_strdup(name), .line = p->line};
    if (c.name == NULL ||
        CT_VEC_PUSH(s->constraints, s->nconstraints, s->constraints_cap, &c) != CT_OK) {
        free(c.name);
        return p->status = CT_ERR_NOMEM;
    }
    return CT_OK;
}

/* A "[kind name]" line (trimmed, with its brackets). */
static ct_status_t ct_space_section(ct_space_parser_t *p, char *text)
{
    if (ct_space_end_section(p) != CT_OK)
        return p->status;
    char *close = strchr(text, ']');
    if (close == NULL)
        return ct_space_fail(p, p->line, "section", "no closing ']'");
    *close = '\0';
    char *kind = text + 1;
    while (isspace((unsigned char)*kind))
        kind++;
    char *name = kind + strcspn(kind, " \t");
    if (*name)
        *name++ = '\0';
    while (isspace((unsigned char)*name))
        name++;
    char *end = name + strlen(name);
    while (end > name && isspace((unsigned char)end[-1]))
        *--end = '\0';
    p->sec_line = p->line;
    p->seen = 0;
    if (strcmp(kind, "space") == 0 && *name == '\0') {
        if (p->space_seen || p->space->nvars || p->space->nconstraints)
            return ct_space_fail(p, p->line, "space", "[space] must come first, and once");
        p->space_seen = 1;
        p->sec = SEC_SPACE;
        return CT_OK;
    }
    int has_name = *name != '\0' && strpbrk(name, " \t") == NULL;
    if (strcmp(kind, "var") == 0 && has_name) {
        p->sec = SEC_VAR;
        return ct_space_begin_var(p, CT_SPACE_VAR, name);
    }
    if (strcmp(kind, "fixed") == 0 && has_name) {
        p->sec = SEC_VAR;
        return ct_space_begin_var(p, CT_SPACE_FIXED, name);
    }
    if (strcmp(kind, "pass") == 0 && has_name) {
        p->sec = SEC_VAR;
        return ct_space_begin_var(p, CT_SPACE_PASS, name);
    }
    if (strcmp(kind, "constraint") == 0 && has_name) {
        p->sec = SEC_CONSTRAINT;
        return ct_space_begin_constraint(p, name);
    }
    p->sec = SEC_NONE;
    return ct_space_fail(p, p->line, "section",
                         "unknown section [%s%s%s]: expected [space], [var NAME], [fixed NAME], "
                         "[pass NAME] or [constraint NAME]",
                         kind, *name ? " " : "", name);
}

/* The reader inih pulls lines through (fgets-like). */
static char *ct_space_read_line(char *str, int num, void *stream)
{
    ct_space_parser_t *p = stream;
    if (p->status != CT_OK)
        return NULL;
    ssize_t len = getline(&p->buf, &p->cap, p->fp);
    if (len < 0)
        return NULL;
    p->line++;
    if (memchr(p->buf, '\0', (size_t)len) != NULL) {
        ct_space_fail(p, p->line, "line", "a NUL byte (not a text file?)");
        return NULL;
    }
    if (len >= num - 1) {
        ct_space_fail(p, p->line, "line",
                      "longer than %d characters (continue a list on indented lines)", num - 3);
        return NULL;
    }
    char *line = p->buf;
    if (p->line == 1 && strncmp(line, "\xEF\xBB\xBF", 3) == 0) {
        /* A UTF-8 byte order mark, an editor's: "[space]" behind it was
         * no header, and line 2 "outside any section" (issue 15, E23). */
        line += 3;
        len -= 3;
    }
    p->indented = line[0] == ' ' || line[0] == '\t';
    char *t = line;
    while (isspace((unsigned char)*t))
        t++;
    /* inih sees the header too (it ends a continuation), but the section
     * is ours: the handler ignores inih's view of it. */
    memcpy(str, line, (size_t)len + 1);
    if (*t == '[' && ct_space_section(p, t) != CT_OK)
        return NULL;
    return str;
}

/* --- keys --- */

static ct_status_t ct_space_parse_via(ct_space_parser_t *p, const char *value, ct_via_t *via_p)
{
    if (strcmp(value, "mca") == 0)
        *via_p = CT_VIA_MCA;
    else if (strcmp(value, "env") == 0)
        *via_p = CT_VIA_ENV;
    else
        return ct_space_fail(p, p->line, "via", "\"%s\" is not mca or env", value);
    return CT_OK;
}

static ct_status_t ct_space_check_value(ct_space_parser_t *p, const ct_space_var_t *v,
                                        const char *field, const char *value)
{
    char why[384];
    if (*value == '\0')
        return ct_space_fail(p, p->line, field, "empty value for %s", v->name);
    if (strchr(value, '\n'))
        return ct_space_fail(p, p->line, field, "a value cannot span lines");
    if (ct_space_known_check(v->name, value, why, sizeof why) != CT_OK)
        return ct_space_fail(p, p->line, field, "%s: %s", v->name, why);
    return CT_OK;
}

static ct_status_t ct_space_add_value(ct_space_parser_t *p, ct_space_var_t *v, const char *field,
                                      const char *value)
{
    if (ct_space_check_value(p, v, field, value) != CT_OK)
        return p->status;
    if (ct_space_has_value(v, value))
        return ct_space_fail(p, p->line, field, "%s listed twice", value);
    if (v->nvalues >= 4096)
        return ct_space_fail(p, p->line, field, "more than 4096 values");
    char *copy = ct_strdup(value);
    if (copy == NULL || CT_VEC_PUSH(v->values, v->nvalues, v->values_cap, &copy) != CT_OK) {
        free(copy);
        return p->status = CT_ERR_NOMEM;
    }
    p->nvlines = v->nvalues - 1; /* values[] and vlines[] stay index for index */
    if (CT_VEC_PUSH(p->vlines, p->nvlines, p->vlines_cap, &p->line) != CT_OK)
        return p->status = CT_ERR_NOMEM;
    return CT_OK;
}

/* values = a, b, "c,d" */
static ct_status_t ct_space_key_values(ct_space_parser_t *p, ct_space_var_t *v, const char *value)
{
    ct_space_list_t list;
    char why[256];
    if (ct_space_list_split(value, &list, why, sizeof why) != CT_OK)
        return ct_space_fail(p, p->line, "values", "%s", why);
    if (list.n == 0 && !p->indented)
        ct_space_fail(p, p->line, "values", "empty list");
    for (size_t i = 0; i < list.n && p->status == CT_OK; i++)
        ct_space_add_value(p, v, "values", list.items[i]);
    ct_space_list_free(&list);
    return p->status;
}

/* "LO..HI[:STEP]" (range) or "LO..HI" (pow2), sizes accepted (64K). */
static ct_status_t ct_space_key_range(ct_space_parser_t *p, ct_space_var_t *v, const char *field,
                                      const char *value, int pow2)
{
    char lo_s[64], hi_s[64], step_s[64] = "1";
    const char *dots = strstr(value, "..");
    const char *colon = dots ? strchr(dots, ':') : NULL;
    if (dots == NULL || (pow2 && colon) || (size_t)(dots - value) >= sizeof lo_s)
        return ct_space_fail(p, p->line, field, "\"%s\" is not LO..HI%s", value,
                             pow2 ? "" : "[:STEP]");
    snprintf(lo_s, sizeof lo_s, "%.*s", (int)(dots - value), value);
    snprintf(hi_s, sizeof hi_s, "%.*s", colon ? (int)(colon - dots - 2) : (int)strlen(dots + 2),
             dots + 2);
    if (colon)
        snprintf(step_s, sizeof step_s, "%s", colon + 1);
    size_t lo, hi, step;
    if (ct_size_parse(lo_s, &lo) != CT_OK || ct_size_parse(hi_s, &hi) != CT_OK ||
        ct_size_parse(step_s, &step) != CT_OK)
        return ct_space_fail(p, p->line, field, "\"%s\": bounds and step must be sizes or integers",
                             value);
    if (lo > hi)
        return ct_space_fail(p, p->line, field, "\"%s\": low bound above high bound", value);
    if (step == 0)
        return ct_space_fail(p, p->line, field, "\"%s\": step 0", value);
    if (pow2 && (lo == 0 || (lo & (lo - 1)) || (hi & (hi - 1))))
        return ct_space_fail(p, p->line, field, "\"%s\": bounds must be powers of two", value);
    if (!pow2 && (hi - lo) / step >= 4096)
        return ct_space_fail(p, p->line, field, "\"%s\": more than 4096 values", value);
    for (size_t x = lo; p->status == CT_OK; x = pow2 ? x * 2 : x + step) {
        char text[32];
        snprintf(text, sizeof text, "%zu", x);
        ct_space_add_value(p, v, field, text);
        /* The next value would pass hi (x <= hi here, so hi - x cannot
         * wrap, as hi - step did for a step above hi). */
        if (pow2 ? x > hi / 2 : hi - x < step)
            break;
    }
    return p->status;
}

/* requires = NAME=VALUE, ... : set whenever the variable is. */
static ct_status_t ct_space_key_requires(ct_space_parser_t *p, ct_space_var_t *v, const char *value)
{
    ct_space_list_t list;
    char why[256];
    if (ct_space_list_split(value, &list, why, sizeof why) != CT_OK)
        return ct_space_fail(p, p->line, "requires", "%s", why);
    p->requires_line = p->line;
    v->requires = calloc(list.n ? list.n : 1, sizeof *v->requires);
    if (v->requires == NULL)
        p->status = CT_ERR_NOMEM;
    for (size_t i = 0; i < list.n && p->status == CT_OK; i++) {
        char *eq = strchr(list.items[i], '=');
        if (eq == NULL || eq == list.items[i] || eq[1] == '\0') {
            ct_space_fail(p, p->line, "requires", "\"%s\" is not NAME=VALUE", list.items[i]);
            break;
        }
        *eq = '\0';
        if (!ct_space_name_ok(list.items[i])) {
            ct_space_fail(p, p->line, "requires", "\"%s\" is not a variable name", list.items[i]);
            break;
        }
        if (ct_space_known_check(list.items[i], eq + 1, why, sizeof why) != CT_OK) {
            ct_space_fail(p, p->line, "requires", "%s: %s", list.items[i], why);
            break;
        }
        ct_space_setting_t *r = &v->requires[v->nrequires++];
        r->name = ct_strdup(list.items[i]);
        r->value = ct_strdup(eq + 1);
        r->via = v->via;
        if (r->name == NULL || r->value == NULL)
            p->status = CT_ERR_NOMEM;
    }
    if (list.n == 0)
        ct_space_fail(p, p->line, "requires", "empty list");
    ct_space_list_free(&list);
    return p->status;
}

/* max_ranks = VALUE:N, ... : VALUE is valid only up to N ranks. */
static ct_status_t ct_space_key_max_ranks(ct_space_parser_t *p, ct_space_var_t *v,
                                          const char *value)
{
    ct_space_list_t list;
    char why[256];
    if (v->nvalues == 0)
        return ct_space_fail(p, p->line, "max_ranks", "give the values first");
    if (ct_space_list_split(value, &list, why, sizeof why) != CT_OK)
        return ct_space_fail(p, p->line, "max_ranks", "%s", why);
    v->limits = calloc(list.n ? list.n : 1, sizeof *v->limits);
    if (v->limits == NULL)
        p->status = CT_ERR_NOMEM;
    for (size_t i = 0; i < list.n && p->status == CT_OK; i++) {
        char *colon = strrchr(list.items[i], ':');
        char *end;
        long n = colon ? strtol(colon + 1, &end, 10) : 0;
        if (colon == NULL || colon[1] == '\0' || *end != '\0' || n < 1) {
            ct_space_fail(p, p->line, "max_ranks", "\"%s\" is not VALUE:RANKS", list.items[i]);
            break;
        }
        *colon = '\0';
        if (!ct_space_has_value(v, list.items[i])) {
            ct_space_fail(p, p->line, "max_ranks", "%s is not one of %s's values", list.items[i],
                          v->name);
            break;
        }
        ct_space_limit_t *l = &v->limits[v->nlimits++];
        l->value = ct_strdup(list.items[i]);
        l->max_ranks = n;
        l->why = ct_strdup("max_ranks in the space file");
        if (l->value == NULL || l->why == NULL)
            p->status = CT_ERR_NOMEM;
    }
    if (list.n == 0)
        ct_space_fail(p, p->line, "max_ranks", "empty list");
    ct_space_list_free(&list);
    return p->status;
}

/* when = NAME=V1,V2: varies only while an earlier variable of the same
 * scope has one of those values (segment sizes, fan-outs). */
static ct_status_t ct_space_key_when(ct_space_parser_t *p, ct_space_var_t *v, const char *value)
{
    char name[128];
    const char *eq = strchr(value, '=');
    if (eq == NULL || eq == value || (size_t)(eq - value) >= sizeof name)
        return ct_space_fail(p, p->line, "when", "\"%s\" is not NAME=VALUE[,VALUE...]", value);
    snprintf(name, sizeof name, "%.*s", (int)(eq - value), value);
    long w = ct_space_find(p->space, name);
    if (w < 0 || (size_t)w == p->space->nvars - 1 || p->space->vars[w].kind != CT_SPACE_VAR)
        return ct_space_fail(p, p->line, "when", "%s is not a searched variable declared above",
                             name);
    const ct_space_var_t *wv = &p->space->vars[w];
    if (wv->scope != v->scope)
        return ct_space_fail(p, p->line, "when", "%s has another scope (%s) than %s (%s)", name,
                             ct_space_scope_name(wv->scope), v->name,
                             ct_space_scope_name(v->scope));
    ct_space_list_t list;
    char why[256];
    if (ct_space_list_split(eq + 1, &list, why, sizeof why) != CT_OK)
        return ct_space_fail(p, p->line, "when", "%s", why);
    v->when_var = (size_t)w;
    v->when_values = calloc(list.n ? list.n : 1, sizeof *v->when_values);
    if (v->when_values == NULL)
        p->status = CT_ERR_NOMEM;
    for (size_t i = 0; i < list.n && p->status == CT_OK; i++) {
        if (!ct_space_has_value(wv, list.items[i])) {
            ct_space_fail(p, p->line, "when", "%s is not one of %s's values", list.items[i], name);
            break;
        }
        if ((v->when_values[v->nwhen++] = ct_strdup(list.items[i])) == NULL)
            p->status = CT_ERR_NOMEM;
    }
    if (list.n == 0)
        ct_space_fail(p, p->line, "when", "no values after %s=", name);
    ct_space_list_free(&list);
    return p->status;
}

static ct_status_t ct_space_key_scope(ct_space_parser_t *p, ct_space_var_t *v, const char *value)
{
    if (strcmp(value, "global") == 0) {
        v->scope = CT_SCOPE_GLOBAL;
        return CT_OK;
    }
    const ct_coll_name_t *c = ct_coll_name_find(value);
    if (c == NULL || c->id == CT_COLL_NONE) {
        char list[160] = "global";
        for (int i = 0; i < CT_COLL_COUNT; i++) {
            size_t used = strlen(list);
            snprintf(list + used, sizeof list - used, ", %s", ct_coll_name((ct_coll_id_t)i));
        }
        return ct_space_fail(p, p->line, "scope", "\"%s\" is not one of %s", value, list);
    }
    v->scope = c->id;
    return CT_OK;
}

static ct_status_t ct_space_key_var(ct_space_parser_t *p, const char *name, const char *value)
{
    ct_space_var_t *v = ct_space_cur_var(p);
    int var = v->kind == CT_SPACE_VAR;
    if (strcmp(name, "describe") == 0)
        return (v->describe = ct_strdup(value)) ? CT_OK : (p->status = CT_ERR_NOMEM);
    if (strcmp(name, "via") == 0)
        return ct_space_parse_via(p, value, &v->via);
    if (strcmp(name, "value") == 0 && v->kind == CT_SPACE_FIXED)
        return ct_space_add_value(p, v, "value", value);
    if (strcmp(name, "scope") == 0 && var) {
        if (v->nvalues || v->nwhen)
            return ct_space_fail(p, p->line, "scope", "give scope before values and when");
        return ct_space_key_scope(p, v, value);
    }
    if (strcmp(name, "values") == 0 && var)
        return ct_space_key_values(p, v, value);
    if (strcmp(name, "range") == 0 && var)
        return ct_space_key_range(p, v, "range", value, 0);
    if (strcmp(name, "pow2") == 0 && var)
        return ct_space_key_range(p, v, "pow2", value, 1);
    if (strcmp(name, "default") == 0 && var) {
        if (ct_space_check_value(p, v, "default", value) != CT_OK)
            return p->status;
        return (v->def = ct_strdup(value)) ? CT_OK : (p->status = CT_ERR_NOMEM);
    }
    if (strcmp(name, "requires") == 0 && var)
        return ct_space_key_requires(p, v, value);
    if (strcmp(name, "max_ranks") == 0 && var)
        return ct_space_key_max_ranks(p, v, value);
    if (strcmp(name, "when") == 0 && var)
        return ct_space_key_when(p, v, value);
    if (strcmp(name, "apply") == 0 && var) {
        if (strcmp(value, "runtime") != 0 && strcmp(value, "launch") != 0)
            return ct_space_fail(p, p->line, "apply", "\"%s\" is not runtime or launch", value);
        v->runtime = strcmp(value, "runtime") == 0 ? 1 : -1; /* -1: launch, given */
        return CT_OK;
    }
    return ct_space_fail(p, p->line, name, "unknown key in [%s %s]", ct_space_kind_word(v->kind),
                         v->name);
}

static ct_status_t ct_space_bound(ct_space_parser_t *p, const char *field, const char *value,
                                  long long *v_p)
{
    char *end;
    errno = 0;
    long long v = strtoll(value, &end, 10);
    if (errno || end == value || *end != '\0')
        return ct_space_fail(p, p->line, field, "\"%s\" is not an integer", value);
    *v_p = v;
    p->bound_line = p->line;
    return CT_OK;
}

static ct_status_t ct_space_key_constraint(ct_space_parser_t *p, const char *name,
                                           const char *value)
{
    ct_space_constraint_t *c = ct_space_cur_constraint(p);
    if (strcmp(name, "describe") == 0)
        return CT_OK;
    if (strcmp(name, "max") == 0) {
        c->has_max = 1;
        return ct_space_bound(p, name, value, &c->max);
    }
    if (strcmp(name, "min") == 0) {
        c->has_min = 1;
        return ct_space_bound(p, name, value, &c->min);
    }
    int product = strcmp(name, "product") == 0;
    if (!product && strcmp(name, "sum") != 0)
        return ct_space_fail(p, p->line, name, "unknown key in [constraint %s]", c->name);
    if (c->nvars)
        return ct_space_fail(p, p->line, name, "give product= or sum=, once");
    c->op = product ? CT_CONSTRAINT_PRODUCT : CT_CONSTRAINT_SUM;
    ct_space_list_t list;
    char why[256];
    if (ct_space_list_split(value, &list, why, sizeof why) != CT_OK)
        return ct_space_fail(p, p->line, name, "%s", why);
    if (list.n < 2 || list.n > 16)
        ct_space_fail(p, p->line, name, "needs 2 to 16 variables");
    c->vars = calloc(list.n ? list.n : 1, sizeof *c->vars);
    if (c->vars == NULL && p->status == CT_OK)
        p->status = CT_ERR_NOMEM;
    for (size_t i = 0; i < list.n && p->status == CT_OK; i++) {
        long k = ct_space_find(p->space, list.items[i]);
        const ct_space_var_t *v = k >= 0 ? &p->space->vars[k] : NULL;
        if (v == NULL || v->kind != CT_SPACE_VAR) {
            ct_space_fail(p, p->line, name, "%s is not a searched variable declared above",
                          list.items[i]);
            break;
        }
        if (v->scope != p->space->vars[c->vars[0]].scope && i > 0) {
            ct_space_fail(p, p->line, name, "%s and %s have different scopes", list.items[i],
                          p->space->vars[c->vars[0]].name);
            break;
        }
        for (size_t j = 0; j < v->nvalues && p->status == CT_OK; j++) {
            char *end;
            (void)strtoll(v->values[j], &end, 10);
            if (end == v->values[j] || *end != '\0')
                ct_space_fail(p, p->line, name, "%s has a value that is not an integer (%s)",
                              v->name, v->values[j]);
        }
        c->vars[c->nvars++] = (size_t)k;
    }
    ct_space_list_free(&list);
    return p->status;
}

static ct_status_t ct_space_key_space(ct_space_parser_t *p, const char *name, const char *value)
{
    ct_space_t *s = p->space;
    if (strcmp(name, "name") == 0) {
        if (*value == '\0') /* it names the tune in its report and journal */
            return ct_space_fail(p, p->line, name, "empty (the space needs a name)");
        return (s->name = ct_strdup(value)) ? CT_OK : (p->status = CT_ERR_NOMEM);
    }
    if (strcmp(name, "describe") == 0)
        return (s->describe = ct_strdup(value)) ? CT_OK : (p->status = CT_ERR_NOMEM);
    if (strcmp(name, "via") == 0) {
        p->default_via_set = 1;
        return ct_space_parse_via(p, value, &p->default_via);
    }
    return ct_space_fail(p, p->line, name, "unknown key in [space]");
}

static unsigned ct_space_key_bit(const char *name)
{
    static const struct {
        const char *name;
        unsigned bit;
    } keys[] = {
        {"name", KEY_NAME},         {"describe", KEY_DESCRIBE},
        {"via", KEY_VIA},           {"scope", KEY_SCOPE},
        {"values", KEY_VALUES},     {"range", KEY_RANGE},
        {"pow2", KEY_POW2},         {"default", KEY_DEFAULT},
        {"requires", KEY_REQUIRES}, {"max_ranks", KEY_MAX_RANKS},
        {"when", KEY_WHEN},         {"value", KEY_VALUE},
        {"product", KEY_PRODUCT},   {"sum", KEY_SUM},
        {"min", KEY_MIN},           {"max", KEY_MAX},
        {"apply", KEY_APPLY},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(keys[i].name, name) == 0)
            return keys[i].bit;
    return 0;
}

static int ct_space_handler(void *user, const char *section, const char *name, const char *value)
{
    ct_space_parser_t *p = user;
    (void)section; /* ours: the reader saw the header */
    if (p->status != CT_OK)
        return 0;
    unsigned bit = ct_space_key_bit(name);
    if (p->indented && bit == KEY_VALUES && (p->seen & KEY_VALUES)) {
        ct_space_key_values(p, ct_space_cur_var(p), value); /* a continuation line */
        return p->status == CT_OK;
    }
    if (p->indented && (p->seen & bit))
        return ct_space_fail(p, p->line, name, "only values= continues on indented lines"), 0;
    if (p->seen & bit)
        return ct_space_fail(p, p->line, name, "given twice in this section"), 0;
    p->seen |= bit;
    unsigned lists = p->seen & (KEY_VALUES | KEY_RANGE | KEY_POW2);
    if (lists & (lists - 1))
        return ct_space_fail(p, p->line, name, "give one of values=, range= and pow2="), 0;
    if ((p->seen & KEY_PRODUCT) && (p->seen & KEY_SUM))
        return ct_space_fail(p, p->line, name, "give product= or sum=, not both"), 0;
    switch (p->sec) {
    case SEC_SPACE: ct_space_key_space(p, name, value); break;
    case SEC_VAR: ct_space_key_var(p, name, value); break;
    case SEC_CONSTRAINT: ct_space_key_constraint(p, name, value); break;
    case SEC_NONE: ct_space_fail(p, p->line, name, "outside any section (start with [space])");
    }
    return p->status == CT_OK;
}

ct_status_t ct_space_load(const char *path, ct_space_t *space_p, char *err, size_t errlen)
{
    memset(space_p, 0, sizeof *space_p);
    ct_space_parser_t p = {.path = path, .space = space_p, .err = err, .errlen = errlen};
    if (errlen)
        err[0] = '\0';
    char why[4200];
    if (ct_input_open(path, CT_INPUT_MAX_CONFIG, &p.fp, why, sizeof why) != CT_OK) {
        /* why is "PATH: reason"; the space's messages say "cannot read" */
        size_t skip = strlen(path) + 2;
        snprintf(err, errlen, "%s: cannot read: %s", path, strlen(why) > skip ? why + skip : why);
        return CT_ERR_USAGE;
    }
    int rc = ini_parse_stream(ct_space_read_line, &p, ct_space_handler, &p);
    /* inih's own complaint (no '='), unless a line before it failed: inih
     * reads on after its first one, so a later line's message named a
     * line past the first bad one (issue 15, E23). */
    if (rc > 0 && (p.status == CT_OK || (p.status == CT_ERR_USAGE && rc < p.fail_line))) {
        p.status = CT_OK;
        ct_space_fail(&p, rc, "line", "not [section], NAME = VALUE or a comment");
    }
    if (p.status == CT_OK && ferror(p.fp))
        ct_space_fail(&p, p.line, "file", "read error");
    ct_space_end_section(&p);
    if (p.status == CT_OK && space_p->name == NULL)
        ct_space_fail(&p, p.sec_line ? p.sec_line : 1, "space", "no [space] name =");
    free(p.buf);
    free(p.vlines);
    fclose(p.fp);
    if (p.status != CT_OK) {
        ct_status_t st = p.status;
        if (st == CT_ERR_NOMEM)
            snprintf(err, errlen, "%s: out of memory", path);
        ct_space_free(space_p);
        return st;
    }
    if ((space_p->path = ct_strdup(path)) == NULL) {
        ct_space_free(space_p);
        return CT_ERR_NOMEM;
    }
    return CT_OK;
}

static void ct_space_settings_free(ct_space_setting_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(s[i].name);
        free(s[i].value);
    }
    free(s);
}

void ct_space_free(ct_space_t *space)
{
    for (size_t i = 0; i < space->nvars; i++) {
        ct_space_var_t *v = &space->vars[i];
        free(v->name);
        for (size_t j = 0; j < v->nvalues; j++)
            free(v->values[j]);
        free(v->values);
        free(v->def);
        ct_space_settings_free(v->requires, v->nrequires);
        for (size_t j = 0; j < v->nlimits; j++) {
            free(v->limits[j].value);
            free(v->limits[j].why);
        }
        free(v->limits);
        for (size_t j = 0; j < v->nwhen; j++)
            free(v->when_values[j]);
        free(v->when_values);
        free(v->describe);
    }
    free(space->vars);
    for (size_t i = 0; i < space->nconstraints; i++) {
        free(space->constraints[i].name);
        free(space->constraints[i].vars);
    }
    free(space->constraints);
    free(space->path);
    free(space->name);
    free(space->describe);
    memset(space, 0, sizeof *space);
}

long ct_space_find(const ct_space_t *space, const char *name)
{
    for (size_t i = 0; i < space->nvars; i++)
        if (strcmp(space->vars[i].name, name) == 0)
            return (long)i;
    return -1;
}

unsigned ct_space_scopes(const ct_space_t *space)
{
    unsigned bits = 0;
    for (size_t i = 0; i < space->nvars; i++)
        if (space->vars[i].kind == CT_SPACE_VAR)
            bits |= 1u << (space->vars[i].scope + 1);
    return bits;
}

const char *ct_space_scope_name(int scope)
{
    return scope == CT_SCOPE_GLOBAL ? "global" : ct_coll_name((ct_coll_id_t)scope);
}

const char *ct_space_via_name(ct_via_t via) { return via == CT_VIA_MCA ? "mca" : "env"; }
