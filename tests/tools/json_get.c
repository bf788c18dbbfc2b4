/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * json_get - prints one value of a JSON file, for shell tests.
 *
 *   json_get FILE PATH      PATH: dot-separated keys and array indexes,
 *                           "results.0.busbw_gbps"; a final "#" prints the
 *                           length of an array or object; "\." is a
 *                           dot inside a key ("libraries.libc\.so\.6").
 *
 * Strings print raw, numbers as integers when integral, then true/false/null.
 * Exit 1 when the file does not parse (jansson: strict RFC 8259, UTF-8
 * only) or the path does not exist.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *json_get_step(json_t *v, const char *key)
{
    if (json_is_object(v))
        return json_object_get(v, key);
    if (json_is_array(v)) {
        char *end = NULL;
        long i = strtol(key, &end, 10);
        if (*key && *end == '\0' && i >= 0)
            return json_array_get(v, (size_t)i);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    json_error_t err;

    if (argc != 3) {
        fprintf(stderr, "usage: json_get FILE PATH\n");
        return 2;
    }
    json_t *root = json_load_file(argv[1], JSON_REJECT_DUPLICATES, &err);
    if (root == NULL) {
        fprintf(stderr, "json_get: %s: line %d, column %d: %s\n", argv[1], err.line, err.column,
                err.text);
        return 1;
    }
    json_t *v = root;
    char *path = strdup(argv[2]);
    int rc = 0, want_length = 0;
    /* Keys split at unescaped dots, empty ones skipped (as strtok did). */
    for (const char *p = argv[2]; *p && v;) {
        size_t n = 0;
        for (; *p && *p != '.'; p++)
            path[n++] = *p == '\\' && p[1] ? *++p : *p;
        path[n] = '\0';
        if (*p == '.')
            p++;
        if (n == 0)
            continue;
        want_length = strcmp(path, "#") == 0;
        if (!want_length)
            v = json_get_step(v, path);
    }
    if (v && want_length && json_is_array(v))
        printf("%zu\n", json_array_size(v));
    else if (v && want_length && json_is_object(v))
        printf("%zu\n", json_object_size(v));
    else if (v == NULL || want_length) {
        fprintf(stderr, "json_get: %s: no value at %s\n", argv[1], argv[2]);
        rc = 1;
    } else if (json_is_string(v))
        printf("%s\n", json_string_value(v));
    else if (json_is_integer(v))
        printf("%lld\n", (long long)json_integer_value(v));
    else if (json_is_real(v) && json_real_value(v) == floor(json_real_value(v)) &&
             fabs(json_real_value(v)) < 1e15)
        printf("%.0f\n", json_real_value(v));
    else if (json_is_real(v))
        printf("%.17g\n", json_real_value(v));
    else if (json_is_boolean(v))
        printf("%s\n", json_is_true(v) ? "true" : "false");
    else if (json_is_null(v))
        printf("null\n");
    else
        printf("(%s of %zu)\n", json_is_array(v) ? "array" : "object",
               json_is_array(v) ? json_array_size(v) : json_object_size(v));
    free(path);
    json_decref(root);
    return rc;
}
