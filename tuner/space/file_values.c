/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * file_values.c - the values each emitted file can carry (file_values.h).
 */
#include "file_values.h"

#include <stdio.h>
#include <string.h>

/* Each rule takes the file's name for its reason. */
typedef int ct_value_rule_t(const char *file, const char *value, char *why, size_t n);

static int ct_no_newline(const char *file, const char *value, char *why, size_t n)
{
    if (strpbrk(value, "\n\r") == NULL)
        return 1;
    snprintf(why, n, "contains a newline or carriage return, which %s cannot carry", file);
    return 0;
}

/* Single-quoted for sh: any C string. */
static int ct_rule_any(const char *file, const char *value, char *why, size_t n)
{
    (void)file, (void)value, (void)why, (void)n;
    return 1;
}

static int ct_rule_nccl_conf(const char *file, const char *value, char *why, size_t n)
{
    if (!ct_no_newline(file, value, why, n))
        return 0;
    if (strlen(value) > CT_NCCL_CONF_MAX) {
        snprintf(why, n, "is %zu bytes; NCCL reads at most %d of a %s line", strlen(value),
                 CT_NCCL_CONF_MAX, file);
        return 0;
    }
    return 1;
}

static int ct_rule_ucx_ini(const char *file, const char *value, char *why, size_t n)
{
    if (!ct_no_newline(file, value, why, n))
        return 0;
    if (strpbrk(value, ";#") != NULL) {
        snprintf(why, n, "contains ';' or '#', which start a comment in UCX's INI reader");
        return 0;
    }
    return 1;
}

/* One unquoted word after export NAME=. */
static int ct_rule_sh_word(const char *file, const char *value, char *why, size_t n)
{
    const char *p = value;
    for (; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              strchr("_.,:/+-@%", *p) != NULL))
            break;
    if (value[0] != '\0' && *p == '\0')
        return 1;
    if (value[0] == '\0')
        snprintf(why, n, "is empty, which %s does not write", file);
    else
        snprintf(why, n,
                 "contains '%c' (byte 0x%02x), which %s does not write unquoted (letters, "
                 "digits and _ . , : / + - @ %% only)",
                 (unsigned char)*p >= 0x20 && *p != 0x7f ? *p : '?', (unsigned char)*p, file);
    return 0;
}

/* The value rule of each syntax (ct_library.h); NULL: its writer checks
 * its values itself (rules files, the plugin's rules, MPICH's tree hold
 * numbers and algorithm names).  A switch: a new syntax is a warning
 * here until it has a rule. */
static ct_value_rule_t *ct_value_rule(ct_file_syntax_t syntax)
{
    switch (syntax) {
    case CT_FILE_SYNTAX_SH: return ct_rule_sh_word;
    case CT_FILE_SYNTAX_SH_QUOTED: return ct_rule_any;
    case CT_FILE_SYNTAX_MCA: return ct_no_newline;
    case CT_FILE_SYNTAX_NCCL_CONF: return ct_rule_nccl_conf;
    case CT_FILE_SYNTAX_UCX_INI: return ct_rule_ucx_ini;
    case CT_FILE_SYNTAX_RULES:
    case CT_FILE_SYNTAX_PLUGIN:
    case CT_FILE_SYNTAX_JSON_TREE: return NULL;
    }
    return NULL;
}

int ct_emit_file_value_ok(const char *file, const char *value, char *why, size_t n)
{
    const ct_library_file_t *row = ct_library_file_named(file);
    ct_value_rule_t *rule = row != NULL ? ct_value_rule(row->syntax) : NULL;
    return rule == NULL || rule(file, value, why, n);
}

int ct_emit_value_ok(const char *name, ct_via_t via, const char *value, char *why, size_t n)
{
    /* Which files a setting goes to is its library family's (ct_library.h);
     * each file refuses a value by its row's syntax. */
    const ct_library_family_t *fam = ct_setting_family(name, via, NULL);
    const ct_library_file_t *row;
    char reason[384];
    for (size_t i = 0; (row = ct_library_file_at(i)) != NULL; i++) {
        ct_value_rule_t *rule = ct_value_rule(row->syntax);
        if (rule == NULL || !ct_library_family_carries(fam, row->name))
            continue;
        if (!rule(row->name, value, reason, sizeof reason)) {
            snprintf(why, n, "%s: the value of %s %s", row->name, name, reason);
            return 0;
        }
    }
    return 1;
}
