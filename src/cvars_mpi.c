/* SPDX-License-Identifier: BSD-3-Clause */
/* cvars.h over MPI_T (MPI 3.0).  Each call opens and closes its own MPI_T
 * session (ct_cvars_begin/ct_cvars_end), so nothing is left to finalize at
 * exit: Open MPI 4.1 crashes in MPI_T_finalize after MPI_Finalize when
 * handles are still allocated.  ct_cvars_hold keeps a session open across
 * calls: closing the last one costs Open MPI 4.1 about 0.5 s (it unloads
 * and later reloads its components), which made each --config cost 1.5 s. */
#include "ct_mpich_desc.h"
#include "cvars.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static const char *ct_cvars_scope_name(int scope)
{
    switch (scope) {
    case MPI_T_SCOPE_CONSTANT: return "constant";
    case MPI_T_SCOPE_READONLY: return "readonly";
    case MPI_T_SCOPE_LOCAL: return "local";
    case MPI_T_SCOPE_GROUP: return "group";
    case MPI_T_SCOPE_GROUP_EQ: return "group_eq";
    case MPI_T_SCOPE_ALL: return "all";
    case MPI_T_SCOPE_ALL_EQ: return "all_eq";
    default: return "unknown";
    }
}

/* Formats the value behind h, of MPI type dt, into c. */
static ct_status_t ct_cvars_format(MPI_T_cvar_handle h, MPI_Datatype dt, int count, ct_cvar_t *c)
{
    /* The largest scalar or a string of count bytes. */
    union {
        int i;
        unsigned u;
        long l;
        long long ll;
        unsigned long ul;
        unsigned long long ull;
        double d;
        char s[4096];
    } buf;
    memset(&buf, 0, sizeof buf);
    if (dt == MPI_CHAR && (count < 1 || (size_t)count > sizeof buf.s))
        return CT_ERR_BACKEND;
    if (MPI_T_cvar_read(h, &buf) != MPI_SUCCESS)
        return CT_ERR_BACKEND;
    c->kind = CT_CVAR_INT;
    if (dt == MPI_INT)
        snprintf(c->value, sizeof c->value, "%d", buf.i);
    else if (dt == MPI_UNSIGNED)
        snprintf(c->value, sizeof c->value, "%u", buf.u);
    else if (dt == MPI_LONG)
        snprintf(c->value, sizeof c->value, "%ld", buf.l);
    else if (dt == MPI_LONG_LONG)
        snprintf(c->value, sizeof c->value, "%lld", buf.ll);
    else if (dt == MPI_UNSIGNED_LONG)
        snprintf(c->value, sizeof c->value, "%lu", buf.ul);
    else if (dt == MPI_UNSIGNED_LONG_LONG || dt == MPI_COUNT)
        snprintf(c->value, sizeof c->value, "%llu", buf.ull);
    else if (dt == MPI_DOUBLE) {
        c->kind = CT_CVAR_REAL;
        snprintf(c->value, sizeof c->value, "%.17g", buf.d);
    } else if (dt == MPI_C_BOOL) {
        /* The buffer is zeroed: a one-byte bool reads right through .i. */
        c->kind = CT_CVAR_BOOL;
        snprintf(c->value, sizeof c->value, "%s", buf.i ? "true" : "false");
    } else if (dt == MPI_CHAR) {
        c->kind = CT_CVAR_STRING;
        /* A longer string is cut (the JSON records what fits). */
        size_t len = strnlen(buf.s, sizeof c->value - 1);
        memcpy(c->value, buf.s, len);
        c->value[len] = '\0';
    } else
        return CT_ERR_BACKEND;
    return CT_OK;
}

/* The variable behind name: a handle (free it), its type, scope and
 * count.  CT_ERR_USAGE when the library has no such variable,
 * CT_ERR_BACKEND when MPI_T cannot handle it (bound to an object, or no
 * handle). */
static ct_status_t ct_cvars_lookup(const char *name, MPI_T_cvar_handle *h, MPI_Datatype *dt,
                                   int *scope, int *count, int *idx_p)
{
    int idx, verbosity, bind, namelen = 0, desclen = 0;
    MPI_T_enum enumtype;

    if (MPI_T_cvar_get_index(name, &idx) != MPI_SUCCESS)
        return CT_ERR_USAGE;
    if (MPI_T_cvar_get_info(idx, NULL, &namelen, &verbosity, dt, &enumtype, NULL, &desclen, &bind,
                            scope) != MPI_SUCCESS ||
        bind != MPI_T_BIND_NO_OBJECT || MPI_T_cvar_handle_alloc(idx, NULL, h, count) != MPI_SUCCESS)
        return CT_ERR_BACKEND;
    if (idx_p)
        *idx_p = idx;
    return CT_OK;
}

#define CT_CVARS_NO_SUCH                                                                           \
    "the MPI library has no such control variable (Open MPI: ompi_info --all lists them, a "       \
    "component's exist only when it is opened; MPICH: mpivars)"

static ct_status_t ct_cvars_read_one(const char *name, ct_cvar_t *c, char *err, size_t errlen)
{
    int scope, count;
    MPI_Datatype dt;
    MPI_T_cvar_handle h;

    /* Every field: a caller compares unset too (configs.c), and an MPI_T
     * variable is never unset. */
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    ct_status_t st = ct_cvars_lookup(name, &h, &dt, &scope, &count, NULL);
    if (st != CT_OK) {
        snprintf(err, errlen, "--cvars %s: %s", name,
                 st == CT_ERR_USAGE ? CT_CVARS_NO_SUCH : "MPI_T cannot read it");
        return CT_ERR_USAGE;
    }
    c->scope = ct_cvars_scope_name(scope);
    st = ct_cvars_format(h, dt, count, c);
    MPI_T_cvar_handle_free(&h);
    if (st != CT_OK)
        snprintf(err, errlen, "--cvars %s: MPI_T cannot read it (type or size not supported)",
                 name);
    return st == CT_OK ? CT_OK : CT_ERR_USAGE;
}

/* Opens an MPI_T session for one call; what: the option, for the message. */
static ct_status_t ct_cvars_begin(const char *what, char *err, size_t errlen)
{
    int provided;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
        snprintf(err, errlen, "%s: MPI_T_init_thread failed", what);
        return CT_ERR_BACKEND;
    }
    return CT_OK;
}

static void ct_cvars_end(void) { MPI_T_finalize(); }

ct_status_t ct_cvars_hold(char *err, size_t errlen) { return ct_cvars_begin("MPI_T", err, errlen); }

void ct_cvars_release(void) { ct_cvars_end(); }

ct_status_t ct_cvars_read(const char *list, ct_cvars_t *out, char *err, size_t errlen)
{
    out->n = 0;
    ct_status_t st = ct_cvars_begin("--cvars", err, errlen);
    if (st != CT_OK)
        return st;
    for (const char *p = list; *p && st == CT_OK;) {
        size_t len = strcspn(p, ",");
        char name[96];
        snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), p);
        if (out->n == CT_CVARS_MAX) {
            snprintf(err, errlen, "--cvars: more than %d names", CT_CVARS_MAX);
            st = CT_ERR_USAGE;
        } else
            st = ct_cvars_read_one(name, &out->v[out->n++], err, errlen);
        p += len;
        if (*p == ',')
            p++;
    }
    ct_cvars_end();
    return st;
}

ct_status_t ct_cvars_each(int (*keep)(const char *name),
                          void (*each)(const ct_cvar_t *c, void *arg), void *arg, char *err,
                          size_t errlen)
{
    int num = 0;
    ct_cvar_t c;
    ct_status_t st = ct_cvars_begin("MPI_T", err, errlen);
    if (st != CT_OK)
        return st;
    if (MPI_T_cvar_get_num(&num) != MPI_SUCCESS)
        num = 0;
    for (int i = 0; i < num; i++) {
        int namelen = (int)sizeof c.name, verbosity, bind, scope, desclen = 0, count;
        MPI_Datatype dt;
        MPI_T_enum enumtype;
        MPI_T_cvar_handle h;
        memset(&c, 0, sizeof c);
        /* A longer name is cut by MPI_T: it matches nothing it should. */
        if (MPI_T_cvar_get_info(i, c.name, &namelen, &verbosity, &dt, &enumtype, NULL, &desclen,
                                &bind, &scope) != MPI_SUCCESS ||
            bind != MPI_T_BIND_NO_OBJECT || !keep(c.name) ||
            MPI_T_cvar_handle_alloc(i, NULL, &h, &count) != MPI_SUCCESS)
            continue;
        c.scope = ct_cvars_scope_name(scope);
        st = ct_cvars_format(h, dt, count, &c);
        MPI_T_cvar_handle_free(&h);
        if (st == CT_OK)
            each(&c, arg);
    }
    ct_cvars_end();
    return CT_OK;
}

/* An integer variable's storage, whatever its MPI type. */
typedef union {
    int i;
    unsigned u;
    long l;
    unsigned long ul;
    long long ll;
    unsigned long long ull;
} ct_cvar_int_t;

/* Whether dt is an integer type this file writes; *is_signed says which. */
static int ct_cvars_int_type(MPI_Datatype dt, int *is_signed)
{
    *is_signed = dt == MPI_INT || dt == MPI_LONG || dt == MPI_LONG_LONG;
    return *is_signed || dt == MPI_UNSIGNED || dt == MPI_UNSIGNED_LONG ||
           dt == MPI_UNSIGNED_LONG_LONG || dt == MPI_COUNT;
}

static const char *ct_cvars_type_name(MPI_Datatype dt)
{
    if (dt == MPI_DOUBLE)
        return "double";
    if (dt == MPI_C_BOOL)
        return "bool";
    if (dt == MPI_CHAR)
        return "string";
    return "not an integer";
}

/* text, decimal, into *v as dt stores it; 0 when it is no such value. */
static int ct_cvars_parse_int(const char *text, MPI_Datatype dt, int is_signed, ct_cvar_int_t *v)
{
    char *end = NULL;
    errno = 0;
    memset(v, 0, sizeof *v);
    if (!(isdigit((unsigned char)text[0]) || (is_signed && text[0] == '-')))
        return 0;
    if (is_signed) {
        long long x = strtoll(text, &end, 10);
        if (errno || *end || (dt == MPI_INT && (x < INT_MIN || x > INT_MAX)) ||
            (dt == MPI_LONG && (x < LONG_MIN || x > LONG_MAX)))
            return 0;
        if (dt == MPI_INT)
            v->i = (int)x;
        else if (dt == MPI_LONG)
            v->l = (long)x;
        else
            v->ll = x;
        return 1;
    }
    unsigned long long x = strtoull(text, &end, 10);
    if (errno || *end || (dt == MPI_UNSIGNED && x > UINT_MAX) ||
        (dt == MPI_UNSIGNED_LONG && x > ULONG_MAX))
        return 0;
    if (dt == MPI_UNSIGNED)
        v->u = (unsigned)x;
    else if (dt == MPI_UNSIGNED_LONG)
        v->ul = (unsigned long)x;
    else
        v->ull = x;
    return 1;
}

/* MPICH 4 exposes its enum CVARs (the algorithm choices) as MPI_INT with
 * no MPI_T enumeration: the value is the choice's position in the
 * description's items (ct_mpich_desc.h, the reading colltune checks a
 * space's values with). */
/* The position of value among the variable idx's description items, or
 * -1 with the allowed names in list (empty when it has none). */
static int ct_cvars_enum_position(int idx, const char *value, char *list, size_t listlen)
{
    char name[256], desc[4096], buf[4096];
    const char *names[CT_MPICH_DESC_MAX_ITEMS];
    int namelen = (int)sizeof name, desclen = (int)sizeof desc, verbosity, bind, scope;
    MPI_Datatype dt;
    MPI_T_enum enumtype;
    list[0] = '\0';
    desc[0] = '\0';
    if (MPI_T_cvar_get_info(idx, name, &namelen, &verbosity, &dt, &enumtype, desc, &desclen, &bind,
                            &scope) != MPI_SUCCESS ||
        dt != MPI_INT || enumtype != MPI_T_ENUM_NULL)
        return -1;
    size_t n = ct_mpich_alg_values(desc, buf, sizeof buf, names, CT_MPICH_DESC_MAX_ITEMS);
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(names[i], value) == 0)
            return (int)i;
        int k = snprintf(list + used, listlen - used, "%s%s", i ? ", " : "", names[i]);
        if (k > 0 && (size_t)k < listlen - used)
            used += (size_t)k;
    }
    return -1;
}

/* value as the integer to write: a decimal, or (an MPI_INT with named
 * choices in its description) a choice's name.  0 when neither; list then
 * names the choices (empty when the variable has none). */
static int ct_cvars_value_int(int idx, const char *value, MPI_Datatype dt, int is_signed,
                              ct_cvar_int_t *v, char *list, size_t listlen)
{
    list[0] = '\0';
    if (ct_cvars_parse_int(value, dt, is_signed, v))
        return 1;
    if (dt != MPI_INT || !(islower((unsigned char)value[0]) || value[0] == '_'))
        return 0;
    int pos = ct_cvars_enum_position(idx, value, list, listlen);
    if (pos < 0)
        return 0;
    memset(v, 0, sizeof *v);
    v->i = pos;
    return 1;
}

/* The variable behind name, for writing: a handle (free it) and its type
 * and scope.  CT_ERR_USAGE, naming "--config NAME=VALUE", when the library
 * has no such variable or MPI_T cannot handle it. */
static ct_status_t ct_cvars_open(const char *name, const char *value, MPI_T_cvar_handle *h,
                                 MPI_Datatype *dt, int *scope, int *idx, char *err, size_t errlen)
{
    int count;
    ct_status_t st = ct_cvars_lookup(name, h, dt, scope, &count, idx);
    if (st != CT_OK)
        snprintf(err, errlen, "--config %s=%s: %s", name, value,
                 st == CT_ERR_USAGE ? CT_CVARS_NO_SUCH : "MPI_T cannot handle it");
    return st == CT_OK ? CT_OK : CT_ERR_USAGE;
}

/* Why name cannot be written at run time, or NULL when it can. */
static const char *ct_cvars_unwritable(int scope)
{
    if (scope == MPI_T_SCOPE_READONLY)
        return "a launch setting (mpirun --mca), not one collbench can change at run time";
    if (scope == MPI_T_SCOPE_CONSTANT)
        return "a constant of the library build, not one collbench can change";
    return NULL;
}

/* Writes value to h, reads it back, compares, and restores *startup. */
static ct_status_t ct_cvars_try_write(MPI_T_cvar_handle h, int idx, MPI_Datatype dt,
                                      const char *name, const char *value, ct_cvar_t *startup,
                                      char *err, size_t errlen)
{
    int is_signed;
    ct_cvar_int_t want, before;
    ct_cvar_t after;
    char list[1024];

    ct_cvars_int_type(dt, &is_signed);
    if (!ct_cvars_value_int(idx, value, dt, is_signed, &want, list, sizeof list)) {
        if (list[0])
            snprintf(err, errlen, "--config %s=%s: not one of its choices (%s) nor an integer",
                     name, value, list);
        else
            snprintf(err, errlen, "--config %s=%s: not a value of its MPI_T type (%s integer)",
                     name, value, is_signed ? "a signed" : "an unsigned");
        return CT_ERR_USAGE;
    }
    if (MPI_T_cvar_read(h, &before) != MPI_SUCCESS || ct_cvars_format(h, dt, 1, startup) != CT_OK) {
        snprintf(err, errlen, "--config %s=%s: MPI_T cannot read it", name, value);
        return CT_ERR_USAGE;
    }
    snprintf(after.value, sizeof after.value, "?");
    int wrote = MPI_T_cvar_write(h, &want) == MPI_SUCCESS;
    if (wrote)
        (void)ct_cvars_format(h, dt, 1, &after);
    (void)MPI_T_cvar_write(h, &before);
    char canon[32];
    if (dt == MPI_INT)
        snprintf(canon, sizeof canon, "%d", want.i);
    else if (is_signed)
        snprintf(canon, sizeof canon, "%lld", strtoll(value, NULL, 10));
    else
        snprintf(canon, sizeof canon, "%llu", strtoull(value, NULL, 10));
    if (!wrote || strcmp(after.value, canon) != 0) {
        snprintf(err, errlen, "--config %s=%s: MPI_T %s (scope %s)", name, value,
                 wrote ? "wrote it but reads back another value"
                       : "refused the write (a value outside its range or enumeration?)",
                 startup->scope);
        return CT_ERR_USAGE;
    }
    return CT_OK;
}

ct_status_t ct_cvars_probe(const char *name, const char *value, ct_cvar_t *startup, char *err,
                           size_t errlen)
{
    int scope, is_signed, idx = -1;
    MPI_Datatype dt;
    MPI_T_cvar_handle h;

    memset(startup, 0, sizeof *startup);
    snprintf(startup->name, sizeof startup->name, "%s", name);
    ct_status_t st = ct_cvars_begin("--config", err, errlen);
    if (st != CT_OK)
        return st;
    st = ct_cvars_open(name, value, &h, &dt, &scope, &idx, err, errlen);
    if (st == CT_OK) {
        startup->scope = ct_cvars_scope_name(scope);
        /* The scope first: a launch setting is one whatever its type. */
        if (ct_cvars_unwritable(scope)) {
            snprintf(err, errlen, "--config %s=%s: MPI_T scope %s: %s", name, value, startup->scope,
                     ct_cvars_unwritable(scope));
            st = CT_ERR_USAGE;
        } else if (!ct_cvars_int_type(dt, &is_signed)) {
            snprintf(err, errlen,
                     "--config %s=%s: MPI_T type %s: collbench writes integer variables only", name,
                     value, ct_cvars_type_name(dt));
            st = CT_ERR_USAGE;
        } else
            st = ct_cvars_try_write(h, idx, dt, name, value, startup, err, errlen);
        MPI_T_cvar_handle_free(&h);
    }
    ct_cvars_end();
    return st;
}

ct_status_t ct_cvars_write(const char *name, const char *value, char *err, size_t errlen)
{
    int scope, is_signed, idx = -1;
    MPI_Datatype dt;
    MPI_T_cvar_handle h;
    ct_cvar_int_t v;
    char list[1024];

    ct_status_t st = ct_cvars_begin("--config", err, errlen);
    if (st != CT_OK)
        return st;
    st = ct_cvars_open(name, value, &h, &dt, &scope, &idx, err, errlen);
    if (st == CT_OK) {
        if (!ct_cvars_int_type(dt, &is_signed) ||
            !ct_cvars_value_int(idx, value, dt, is_signed, &v, list, sizeof list) ||
            MPI_T_cvar_write(h, &v) != MPI_SUCCESS) {
            snprintf(err, errlen, "--config %s=%s: MPI_T_cvar_write failed", name, value);
            st = CT_ERR_BACKEND;
        }
        MPI_T_cvar_handle_free(&h);
    }
    ct_cvars_end();
    return st == CT_OK ? CT_OK : CT_ERR_BACKEND;
}
