/*
 * json_get - prints one value of a JSON file, for shell tests.
 *
 *   json_get FILE PATH      PATH: dot-separated keys and array indexes,
 *                           "results.0.busbw_gbps"; a final "#" prints the
 *                           length of an array or object.
 *
 * Strings print raw, numbers as integers when integral, then true/false/null.
 * Exit 1 when the file does not parse or the path does not exist.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_json.h"

static char *json_get_slurp(const char *path, size_t *len_p)
{
    FILE *fp = fopen(path, "rb");
    if (fp == NULL)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + len, 1, cap - len, fp)) > 0;) {
        len += got;
        if (len == cap) {
            char *bigger = realloc(buf, cap * 2);
            if (bigger == NULL)
                free(buf);
            buf = bigger;
            cap *= 2;
        }
    }
    fclose(fp);
    *len_p = len;
    return buf;
}

static const ct_json_value_t *json_get_step(const ct_json_value_t *v, const char *key)
{
    if (v->type == CT_JSON_OBJECT)
        return ct_json_get(v, key);
    if (v->type == CT_JSON_ARRAY) {
        char *end = NULL;
        long i = strtol(key, &end, 10);
        if (*key && *end == '\0' && i >= 0 && (size_t)i < v->n)
            return v->items[i];
    }
    return NULL;
}

int main(int argc, char **argv)
{
    size_t len = 0;
    char err[256];
    ct_json_value_t *root = NULL;

    if (argc != 3) {
        fprintf(stderr, "usage: json_get FILE PATH\n");
        return 2;
    }
    char *text = json_get_slurp(argv[1], &len);
    if (text == NULL || ct_json_parse(text, len, &root, err, sizeof err) != CT_OK) {
        fprintf(stderr, "json_get: %s: %s\n", argv[1], text ? err : "cannot read");
        free(text);
        return 1;
    }
    const ct_json_value_t *v = root;
    char *path = strdup(argv[2]), *save = NULL;
    int rc = 0, want_length = 0;
    for (char *k = strtok_r(path, ".", &save); k && v; k = strtok_r(NULL, ".", &save)) {
        want_length = strcmp(k, "#") == 0;
        if (!want_length)
            v = json_get_step(v, k);
    }
    if (v && want_length && (v->type == CT_JSON_ARRAY || v->type == CT_JSON_OBJECT))
        printf("%zu\n", v->n);
    else if (v == NULL || want_length) {
        fprintf(stderr, "json_get: %s: no value at %s\n", argv[1], argv[2]);
        rc = 1;
    } else if (v->type == CT_JSON_STRING)
        printf("%s\n", v->string);
    else if (v->type == CT_JSON_NUMBER && v->number == floor(v->number) && fabs(v->number) < 1e15)
        printf("%.0f\n", v->number);
    else if (v->type == CT_JSON_NUMBER)
        printf("%.17g\n", v->number);
    else if (v->type == CT_JSON_BOOL)
        printf("%s\n", v->boolean ? "true" : "false");
    else if (v->type == CT_JSON_NULL)
        printf("null\n");
    else
        printf("(%s of %zu)\n", v->type == CT_JSON_ARRAY ? "array" : "object", v->n);
    free(path);
    ct_json_free(root);
    free(text);
    return rc;
}
