/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * file_values.c - the values each emitted file can carry (file_values.h).
 */
#include "file_values.h"

#include <stdio.h>
#include <string.h>

static int ct_no_newline(const char *file, const char *value, char *why, size_t n)
{
    if (strpbrk(value, "\n\r") == NULL)
        return 1;
    snprintf(why, n, "contains a newline or carriage return, which %s cannot carry", file);
    return 0;
}

int ct_emit_nccl_env_value_ok(const char *name, const char *value, char *why, size_t n)
{
    (void)name, (void)value, (void)why, (void)n;
    return 1;
}

int ct_emit_nccl_conf_value_ok(const char *name, const char *value, char *why, size_t n)
{
    (void)name;
    if (!ct_no_newline("nccl.conf", value, why, n))
        return 0;
    if (strlen(value) > CT_NCCL_CONF_MAX) {
        snprintf(why, n, "is %zu bytes; NCCL reads at most %d of a nccl.conf line", strlen(value),
                 CT_NCCL_CONF_MAX);
        return 0;
    }
    return 1;
}

int ct_emit_ucx_conf_value_ok(const char *name, const char *value, char *why, size_t n)
{
    (void)name;
    if (!ct_no_newline("ucx.conf", value, why, n))
        return 0;
    if (strpbrk(value, ";#") != NULL) {
        snprintf(why, n, "contains ';' or '#', which start a comment in UCX's INI reader");
        return 0;
    }
    return 1;
}

int ct_emit_mpich_env_value_ok(const char *name, const char *value, char *why, size_t n)
{
    (void)name;
    const char *p = value;
    for (; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              strchr("_.,:/+-@%", *p) != NULL))
            break;
    if (value[0] != '\0' && *p == '\0')
        return 1;
    if (value[0] == '\0')
        snprintf(why, n, "is empty, which mpich.env does not write");
    else
        snprintf(why, n,
                 "contains '%c' (byte 0x%02x), which mpich.env does not write unquoted (letters, "
                 "digits and _ . , : / + - @ %% only)",
                 (unsigned char)*p >= 0x20 && *p != 0x7f ? *p : '?', (unsigned char)*p);
    return 0;
}

int ct_emit_mca_params_value_ok(const char *name, const char *value, char *why, size_t n)
{
    (void)name;
    return ct_no_newline("mca-params.conf", value, why, n);
}

int ct_emit_value_ok(const char *name, ct_via_t via, const char *value, char *why, size_t n)
{
    /* Which files a setting goes to is its library family's (ct_library.h);
     * this says only how each file refuses a value. */
    static const struct {
        const char *file;
        int (*ok)(const char *, const char *, char *, size_t);
    } routes[] = {
        {"nccl.env", ct_emit_nccl_env_value_ok},   {"nccl.conf", ct_emit_nccl_conf_value_ok},
        {"ucx.conf", ct_emit_ucx_conf_value_ok},   {"mca-params.conf", ct_emit_mca_params_value_ok},
        {"mpich.env", ct_emit_mpich_env_value_ok},
    };
    const ct_library_family_t *fam = ct_setting_family(name, via, NULL);
    char reason[384];
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
        if (!ct_library_family_carries(fam, routes[i].file))
            continue;
        if (!routes[i].ok(name, value, reason, sizeof reason)) {
            snprintf(why, n, "%s: the value of %s %s", routes[i].file, name, reason);
            return 0;
        }
    }
    return 1;
}
