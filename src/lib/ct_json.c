/* SPDX-License-Identifier: BSD-3-Clause */
#include "ct_json.h"

#include <math.h>
#include <stdlib.h>

#include "ct_utf8.h"

json_t *ct_json_str(const char *s)
{
    if (s == NULL)
        return json_null();
    if (ct_utf8_valid(s))
        return json_string(s);
    char *clean = ct_utf8_sanitize(s);
    json_t *value = clean ? json_string(clean) : NULL;
    free(clean);
    return value;
}

json_t *ct_json_real(double value) { return isfinite(value) ? json_real(value) : json_null(); }

int ct_json_set(json_t *object, const char *key, json_t *value)
{
    if (value == NULL)
        return -1;
    if (ct_utf8_valid(key))
        return json_object_set_new(object, key, value);
    char *clean = ct_utf8_sanitize(key);
    int rc = clean ? json_object_set_new(object, clean, value) : (json_decref(value), -1);
    free(clean);
    return rc;
}

int ct_json_append(json_t *array, json_t *value)
{
    if (value == NULL)
        return -1;
    return json_array_append_new(array, value);
}
