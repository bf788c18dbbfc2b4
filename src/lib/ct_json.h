/*
 * ct_json.h - a small JSON writer and reader for results and metadata.
 *
 * Writer: streams to a FILE*, tracking nesting so commas and keys come out
 * right; strings are escaped per RFC 8259 (UTF-8 passes through, control
 * characters become \u00XX).  Non-finite doubles are written as null.
 *
 * Reader: parses a whole document into a tree the caller frees with
 * ct_json_free().  Errors name the line and column.
 */
#ifndef CT_JSON_H
#define CT_JSON_H

#include <stddef.h>
#include <stdio.h>
#include "ct_status.h"

#define CT_JSON_MAX_DEPTH 32

typedef struct {
    FILE *fp;
    int depth;
    int pretty;                           /* newline + indent per member */
    unsigned char count[CT_JSON_MAX_DEPTH]; /* members written so far (capped at 1) */
    unsigned char pending_key;            /* a key was written, value expected */
} ct_json_writer_t;

void ct_json_writer_init(ct_json_writer_t *w, FILE *fp, int pretty);
void ct_json_begin_object(ct_json_writer_t *w);
void ct_json_end_object(ct_json_writer_t *w);
void ct_json_begin_array(ct_json_writer_t *w);
void ct_json_end_array(ct_json_writer_t *w);
void ct_json_key(ct_json_writer_t *w, const char *key);
void ct_json_string(ct_json_writer_t *w, const char *value); /* NULL -> null */
void ct_json_int(ct_json_writer_t *w, long long value);
void ct_json_uint(ct_json_writer_t *w, unsigned long long value);
void ct_json_double(ct_json_writer_t *w, double value);     /* %.17g, round-trips */
void ct_json_bool(ct_json_writer_t *w, int value);
void ct_json_null(ct_json_writer_t *w);

typedef enum {
    CT_JSON_NULL,
    CT_JSON_BOOL,
    CT_JSON_NUMBER,
    CT_JSON_STRING,
    CT_JSON_ARRAY,
    CT_JSON_OBJECT
} ct_json_type_t;

typedef struct ct_json_value ct_json_value_t;
struct ct_json_value {
    ct_json_type_t type;
    int boolean;
    double number;
    char *string;            /* CT_JSON_STRING, NUL-terminated, unescaped */
    size_t n;                /* members of an array or object */
    char **keys;             /* object keys, n of them */
    ct_json_value_t **items; /* array items or object values, n of them */
};

/* Parses text[0..len).  On error returns CT_ERR_PARSE and writes
 * "line L, column C: what" into err. */
ct_status_t ct_json_parse(const char *text, size_t len, ct_json_value_t **root_p,
                          char *err, size_t errlen);
void ct_json_free(ct_json_value_t *value);

/* Object member by key, or NULL. */
const ct_json_value_t *ct_json_get(const ct_json_value_t *object, const char *key);

#endif
