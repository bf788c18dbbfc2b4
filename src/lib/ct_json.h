/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_json.h - the few things colltune needs on top of jansson.
 *
 * jansson builds, dumps and parses the documents.  These helpers cover what
 * it leaves to the caller: strings that may not be UTF-8 (jansson refuses
 * them, so they are sanitised with ct_utf8_sanitize), C NULL strings and
 * non-finite doubles (JSON has neither; both become null), and one error
 * check for a whole document instead of one per member.
 */
#ifndef CT_JSON_H
#define CT_JSON_H

#include <jansson.h>

/* A JSON string; NULL gives null, invalid UTF-8 is sanitised.  Returns NULL
 * only when memory runs out. */
json_t *ct_json_str(const char *s);

/* A JSON number; NaN and infinities give null. */
json_t *ct_json_real(double value);

/* object[key] = value, stealing the reference (as json_object_set_new).
 * The key is sanitised like ct_json_str.  Returns -1 when value is NULL
 * (a failed constructor) or memory runs out, so a document can be built
 * with `bad |= ct_json_set(...)` and checked once. */
int ct_json_set(json_t *object, const char *key, json_t *value);

/* array += value, stealing the reference; -1 as for ct_json_set. */
int ct_json_append(json_t *array, json_t *value);

#endif
