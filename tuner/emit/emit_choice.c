/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit_choice.c - a choice as every file sees it (see emit.h and
 * emit_format.h): whether the files carry it at all, whether it holds
 * for every size, and whether its name is one a NAME=value line can
 * hold.  A leaf: the formats, the shapes and the table all read it.
 */
#include "emit_format.h"

int ct_emit_usable(const ct_tune_choice_t *c)
{
    return c->significant && c->verified && c->unwritable == NULL;
}

int ct_emit_full_range(const ct_tune_choice_t *c) { return c->min_bytes <= 0 && c->max_bytes < 0; }

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
