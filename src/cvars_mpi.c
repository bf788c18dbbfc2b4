/* cvars.h over MPI_T (MPI 3.0).  Each read opens and closes its own MPI_T
 * session, so nothing is left to finalize at exit: Open MPI 4.1 crashes in
 * MPI_T_finalize after MPI_Finalize when handles are still allocated. */
#include "cvars.h"

#include <mpi.h>
#include <stdint.h>
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

static ct_status_t ct_cvars_read_one(const char *name, ct_cvar_t *c, char *err, size_t errlen)
{
    int idx, verbosity, bind, scope, count, namelen = 0, desclen = 0;
    MPI_Datatype dt;
    MPI_T_enum enumtype;
    MPI_T_cvar_handle h;

    snprintf(c->name, sizeof c->name, "%s", name);
    if (MPI_T_cvar_get_index(name, &idx) != MPI_SUCCESS) {
        snprintf(err, errlen,
                 "--cvars %s: the MPI library has no such control variable (ompi_info --all "
                 "lists them; a component's exist only when it is opened)",
                 name);
        return CT_ERR_USAGE;
    }
    if (MPI_T_cvar_get_info(idx, NULL, &namelen, &verbosity, &dt, &enumtype, NULL, &desclen, &bind,
                            &scope) != MPI_SUCCESS ||
        bind != MPI_T_BIND_NO_OBJECT ||
        MPI_T_cvar_handle_alloc(idx, NULL, &h, &count) != MPI_SUCCESS) {
        snprintf(err, errlen, "--cvars %s: MPI_T cannot read it", name);
        return CT_ERR_USAGE;
    }
    c->scope = ct_cvars_scope_name(scope);
    ct_status_t st = ct_cvars_format(h, dt, count, c);
    MPI_T_cvar_handle_free(&h);
    if (st != CT_OK)
        snprintf(err, errlen, "--cvars %s: MPI_T cannot read it (type or size not supported)",
                 name);
    return st == CT_OK ? CT_OK : CT_ERR_USAGE;
}

ct_status_t ct_cvars_read(const char *list, ct_cvars_t *out, char *err, size_t errlen)
{
    int provided;
    out->n = 0;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
        snprintf(err, errlen, "--cvars: MPI_T_init_thread failed");
        return CT_ERR_BACKEND;
    }
    ct_status_t st = CT_OK;
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
    MPI_T_finalize();
    return st;
}
