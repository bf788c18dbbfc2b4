/*
 * ct_json.c - streaming JSON writer and recursive-descent parser.
 *
 * Writer nesting: depth 0 is the top level; inside a container at depth d
 * (1..CT_JSON_MAX_DEPTH) count[d - 1] says whether a member was already
 * written, which decides the comma.  The parser accepts the same nesting
 * limit, so anything the writer emits can be read back.
 */
#include "ct_json.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Writer                                                              */
/* ------------------------------------------------------------------ */

void ct_json_writer_init(ct_json_writer_t *w, FILE *fp, int pretty)
{
    memset(w, 0, sizeof(*w));
    w->fp = fp;
    w->pretty = pretty != 0;
}

static void write_indent(ct_json_writer_t *w, int depth)
{
    fputc('\n', w->fp);
    for (int i = 0; i < depth; i++)
        fputs("  ", w->fp);
}

/* Emits whatever must precede a key or value: nothing right after a key,
 * otherwise a comma between members and, in pretty mode, a fresh line. */
static void write_separator(ct_json_writer_t *w)
{
    if (w->pending_key) {
        w->pending_key = 0;
        return;
    }
    if (w->depth <= 0 || w->depth > CT_JSON_MAX_DEPTH)
        return; /* top level, or a caller bug: nested too deep */
    if (w->count[w->depth - 1])
        fputc(',', w->fp);
    if (w->pretty)
        write_indent(w, w->depth);
    w->count[w->depth - 1] = 1;
}

static void write_escaped(FILE *fp, const char *s)
{
    static const char hex[] = "0123456789abcdef";

    fputc('"', fp);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", fp); break;
        case '\\': fputs("\\\\", fp); break;
        case '\n': fputs("\\n", fp); break;
        case '\t': fputs("\\t", fp); break;
        case '\r': fputs("\\r", fp); break;
        case '\b': fputs("\\b", fp); break;
        case '\f': fputs("\\f", fp); break;
        default:
            if (*p < 0x20) {
                fputs("\\u00", fp);
                fputc(hex[*p >> 4], fp);
                fputc(hex[*p & 0xf], fp);
            } else {
                fputc(*p, fp); /* ASCII and UTF-8 bytes pass through */
            }
        }
    }
    fputc('"', fp);
}

static void begin_container(ct_json_writer_t *w, char open)
{
    write_separator(w);
    fputc(open, w->fp);
    w->depth++;
    if (w->depth <= CT_JSON_MAX_DEPTH)
        w->count[w->depth - 1] = 0;
}

static void end_container(ct_json_writer_t *w, char close)
{
    int had_members = 0;

    if (w->depth <= 0)
        return; /* unbalanced end: ignore rather than corrupt state */
    if (w->depth <= CT_JSON_MAX_DEPTH)
        had_members = w->count[w->depth - 1];
    w->depth--;
    w->pending_key = 0;
    if (w->pretty && had_members)
        write_indent(w, w->depth);
    fputc(close, w->fp);
    /* Pretty documents are files meant for people: end them with a newline. */
    if (w->pretty && w->depth == 0)
        fputc('\n', w->fp);
}

void ct_json_begin_object(ct_json_writer_t *w) { begin_container(w, '{'); }
void ct_json_end_object(ct_json_writer_t *w) { end_container(w, '}'); }
void ct_json_begin_array(ct_json_writer_t *w) { begin_container(w, '['); }
void ct_json_end_array(ct_json_writer_t *w) { end_container(w, ']'); }

void ct_json_key(ct_json_writer_t *w, const char *key)
{
    write_separator(w);
    write_escaped(w->fp, key ? key : "");
    fputs(w->pretty ? ": " : ":", w->fp);
    w->pending_key = 1;
}

void ct_json_string(ct_json_writer_t *w, const char *value)
{
    write_separator(w);
    if (value)
        write_escaped(w->fp, value);
    else
        fputs("null", w->fp);
}

void ct_json_int(ct_json_writer_t *w, long long value)
{
    write_separator(w);
    fprintf(w->fp, "%lld", value);
}

void ct_json_uint(ct_json_writer_t *w, unsigned long long value)
{
    write_separator(w);
    fprintf(w->fp, "%llu", value);
}

void ct_json_double(ct_json_writer_t *w, double value)
{
    char buf[40];

    write_separator(w);
    if (!isfinite(value)) {
        fputs("null", w->fp); /* JSON has no NaN or Infinity */
        return;
    }
    snprintf(buf, sizeof(buf), "%.17g", value);
    /* A locale with a decimal comma would make invalid JSON. */
    for (char *p = buf; *p; p++)
        if (*p == ',')
            *p = '.';
    fputs(buf, w->fp);
}

void ct_json_bool(ct_json_writer_t *w, int value)
{
    write_separator(w);
    fputs(value ? "true" : "false", w->fp);
}

void ct_json_null(ct_json_writer_t *w)
{
    write_separator(w);
    fputs("null", w->fp);
}

/* ------------------------------------------------------------------ */
/* Parser                                                              */
/* ------------------------------------------------------------------ */

typedef struct {
    const char *text;
    size_t len;
    size_t pos;
    char *err;
    size_t errlen;
} ct_json_parser_t;

/* Reports an error at byte offset `at`; line and column are 1-based and
 * the column counts bytes. */
static ct_status_t parse_fail(ct_json_parser_t *p, size_t at, ct_status_t status,
                              const char *what)
{
    size_t line = 1, col = 1;

    for (size_t i = 0; i < at && i < p->len; i++) {
        if (p->text[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    if (p->err && p->errlen > 0)
        snprintf(p->err, p->errlen, "line %zu, column %zu: %s", line, col, what);
    return status;
}

static ct_status_t parse_nomem(ct_json_parser_t *p)
{
    return parse_fail(p, p->pos, CT_ERR_NOMEM, "out of memory");
}

static int peek(const ct_json_parser_t *p)
{
    return p->pos < p->len ? (unsigned char)p->text[p->pos] : -1;
}

static void skip_ws(ct_json_parser_t *p)
{
    while (p->pos < p->len) {
        char c = p->text[p->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            break;
        p->pos++;
    }
}

static ct_status_t parse_value(ct_json_parser_t *p, int depth, ct_json_value_t **out);

static ct_status_t parse_literal(ct_json_parser_t *p, ct_json_value_t *v)
{
    static const struct {
        const char *word;
        ct_json_type_t type;
        int boolean;
    } literals[] = {
        {"true", CT_JSON_BOOL, 1},
        {"false", CT_JSON_BOOL, 0},
        {"null", CT_JSON_NULL, 0},
    };

    for (size_t i = 0; i < sizeof(literals) / sizeof(literals[0]); i++) {
        size_t n = strlen(literals[i].word);
        if (p->len - p->pos >= n && memcmp(p->text + p->pos, literals[i].word, n) == 0) {
            v->type = literals[i].type;
            v->boolean = literals[i].boolean;
            p->pos += n;
            return CT_OK;
        }
    }
    return parse_fail(p, p->pos, CT_ERR_PARSE, "invalid literal");
}

static int is_digit_at(const ct_json_parser_t *p, size_t i)
{
    return i < p->len && p->text[i] >= '0' && p->text[i] <= '9';
}

/* Validates the RFC 8259 number grammar, then converts a NUL-terminated
 * copy (text need not be terminated) with strtod. */
static ct_status_t parse_number(ct_json_parser_t *p, ct_json_value_t *v)
{
    size_t start = p->pos, i = p->pos;
    char small[64], *copy = small;

    if (i < p->len && p->text[i] == '-')
        i++;
    if (!is_digit_at(p, i))
        return parse_fail(p, i, CT_ERR_PARSE, "invalid number");
    if (p->text[i] == '0')
        i++; /* no leading zeros: "01" ends the number after "0" */
    else
        while (is_digit_at(p, i))
            i++;
    if (i < p->len && p->text[i] == '.') {
        i++;
        if (!is_digit_at(p, i))
            return parse_fail(p, i, CT_ERR_PARSE, "digit expected after '.'");
        while (is_digit_at(p, i))
            i++;
    }
    if (i < p->len && (p->text[i] == 'e' || p->text[i] == 'E')) {
        i++;
        if (i < p->len && (p->text[i] == '+' || p->text[i] == '-'))
            i++;
        if (!is_digit_at(p, i))
            return parse_fail(p, i, CT_ERR_PARSE, "digit expected in exponent");
        while (is_digit_at(p, i))
            i++;
    }

    size_t n = i - start;
    if (n >= sizeof(small) && (copy = malloc(n + 1)) == NULL)
        return parse_nomem(p);
    memcpy(copy, p->text + start, n);
    copy[n] = '\0';
    errno = 0;
    v->number = strtod(copy, NULL);
    int overflow = errno == ERANGE && isinf(v->number);
    if (copy != small)
        free(copy);
    if (overflow)
        return parse_fail(p, start, CT_ERR_PARSE, "number out of range");
    v->type = CT_JSON_NUMBER;
    p->pos = i;
    return CT_OK;
}

static int hex4(const char *s, unsigned *out)
{
    unsigned v = 0;

    for (int i = 0; i < 4; i++) {
        char c = s[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else
            return 0;
    }
    *out = v;
    return 1;
}

static size_t put_utf8(char *dst, unsigned cp)
{
    if (cp < 0x80) {
        dst[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        dst[0] = (char)(0xc0 | (cp >> 6));
        dst[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        dst[0] = (char)(0xe0 | (cp >> 12));
        dst[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        dst[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    dst[0] = (char)(0xf0 | (cp >> 18));
    dst[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    dst[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    dst[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* Decodes \uXXXX (p->pos at the 'u'), joining a surrogate pair, and
 * appends UTF-8 to dst.  Returns bytes written via *n. */
static ct_status_t parse_unicode_escape(ct_json_parser_t *p, size_t esc, char *dst,
                                        size_t *n)
{
    unsigned cp, lo;

    if (p->len - p->pos < 5 || !hex4(p->text + p->pos + 1, &cp))
        return parse_fail(p, esc, CT_ERR_PARSE, "invalid \\u escape");
    p->pos += 5;
    if (cp >= 0xdc00 && cp <= 0xdfff)
        return parse_fail(p, esc, CT_ERR_PARSE, "unpaired low surrogate");
    if (cp >= 0xd800 && cp <= 0xdbff) {
        if (p->len - p->pos < 6 || p->text[p->pos] != '\\' || p->text[p->pos + 1] != 'u' ||
            !hex4(p->text + p->pos + 2, &lo) || lo < 0xdc00 || lo > 0xdfff)
            return parse_fail(p, esc, CT_ERR_PARSE, "unpaired high surrogate");
        p->pos += 6;
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
    }
    /* Strings are NUL-terminated C strings: an embedded NUL would silently
     * truncate the value, so refuse it. */
    if (cp == 0)
        return parse_fail(p, esc, CT_ERR_PARSE, "\\u0000 is not supported");
    *n = put_utf8(dst, cp);
    return CT_OK;
}

static ct_status_t parse_escape(ct_json_parser_t *p, char *dst, size_t *n)
{
    static const char from[] = "\"\\/bfnrt";
    static const char to[] = "\"\\/\b\f\n\r\t";
    size_t esc = p->pos - 1; /* the backslash */
    int c = peek(p);
    const char *hit = c > 0 ? strchr(from, c) : NULL;

    if (c == 'u')
        return parse_unicode_escape(p, esc, dst, n);
    if (hit == NULL)
        return parse_fail(p, esc, CT_ERR_PARSE, "invalid escape in string");
    *dst = to[hit - from];
    *n = 1;
    p->pos++;
    return CT_OK;
}

/* Parses a string at p->pos (the opening quote) into a new allocation.
 * The decoded form is never longer than the escaped one, so the first
 * pass only finds the closing quote to size the buffer. */
static ct_status_t parse_string(ct_json_parser_t *p, char **out)
{
    size_t open = p->pos, end = open + 1;
    ct_status_t st;

    while (end < p->len && p->text[end] != '"')
        end += p->text[end] == '\\' ? 2 : 1;
    if (end >= p->len)
        return parse_fail(p, open, CT_ERR_PARSE, "unterminated string");

    char *buf = malloc(end - open);
    size_t n = 0;
    if (buf == NULL)
        return parse_nomem(p);
    p->pos = open + 1;
    while (p->pos < end) {
        unsigned char c = (unsigned char)p->text[p->pos];
        if (c < 0x20) {
            free(buf);
            return parse_fail(p, p->pos, CT_ERR_PARSE, "control character in string");
        }
        p->pos++;
        if (c != '\\') {
            buf[n++] = (char)c;
            continue;
        }
        size_t k = 0;
        if ((st = parse_escape(p, buf + n, &k)) != CT_OK) {
            free(buf);
            return st;
        }
        n += k;
    }
    buf[n] = '\0';
    p->pos = end + 1;
    *out = buf;
    return CT_OK;
}

/* Appends a member to an array or object, growing by doubling. */
static int append_member(ct_json_value_t *v, size_t *cap, char *key, ct_json_value_t *item)
{
    if (v->n == *cap) {
        size_t ncap = *cap ? *cap * 2 : 4;
        ct_json_value_t **items = realloc(v->items, ncap * sizeof(*items));
        if (items == NULL)
            return 0;
        v->items = items;
        if (v->type == CT_JSON_OBJECT) {
            char **keys = realloc(v->keys, ncap * sizeof(*keys));
            if (keys == NULL)
                return 0;
            v->keys = keys;
        }
        *cap = ncap;
    }
    if (v->type == CT_JSON_OBJECT)
        v->keys[v->n] = key;
    v->items[v->n++] = item;
    return 1;
}

/* Parses one member: for objects `"key": value`, for arrays `value`.
 * On success the member belongs to v. */
static ct_status_t parse_member(ct_json_parser_t *p, ct_json_value_t *v, size_t *cap,
                                int depth)
{
    char *key = NULL;
    ct_json_value_t *item = NULL;
    ct_status_t st;

    if (v->type == CT_JSON_OBJECT) {
        if (peek(p) != '"')
            return parse_fail(p, p->pos, CT_ERR_PARSE, "expected string key");
        if ((st = parse_string(p, &key)) != CT_OK)
            return st;
        skip_ws(p);
        if (peek(p) != ':') {
            free(key);
            return parse_fail(p, p->pos, CT_ERR_PARSE, "expected ':'");
        }
        p->pos++;
    }
    if ((st = parse_value(p, depth + 1, &item)) != CT_OK) {
        free(key);
        return st;
    }
    if (!append_member(v, cap, key, item)) {
        free(key);
        ct_json_free(item);
        return parse_nomem(p);
    }
    return CT_OK;
}

/* Parses an array or object; p->pos is at the opening bracket. */
static ct_status_t parse_container(ct_json_parser_t *p, ct_json_value_t *v, int depth)
{
    char close = v->type == CT_JSON_OBJECT ? '}' : ']';
    size_t cap = 0;
    ct_status_t st;

    if (depth >= CT_JSON_MAX_DEPTH)
        return parse_fail(p, p->pos, CT_ERR_PARSE, "nesting too deep");
    p->pos++;
    skip_ws(p);
    if (peek(p) == close) {
        p->pos++;
        return CT_OK;
    }
    for (;;) {
        skip_ws(p);
        if ((st = parse_member(p, v, &cap, depth)) != CT_OK)
            return st;
        skip_ws(p);
        int c = peek(p);
        p->pos++;
        if (c == close)
            return CT_OK;
        if (c != ',')
            return parse_fail(p, p->pos - 1, CT_ERR_PARSE,
                              close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static ct_status_t parse_value(ct_json_parser_t *p, int depth, ct_json_value_t **out)
{
    ct_json_value_t *v;
    ct_status_t st;
    int c;

    skip_ws(p);
    c = peek(p);
    if ((v = calloc(1, sizeof(*v))) == NULL)
        return parse_nomem(p);
    switch (c) {
    case '{':
        v->type = CT_JSON_OBJECT;
        st = parse_container(p, v, depth);
        break;
    case '[':
        v->type = CT_JSON_ARRAY;
        st = parse_container(p, v, depth);
        break;
    case '"':
        v->type = CT_JSON_STRING;
        st = parse_string(p, &v->string);
        break;
    case 't':
    case 'f':
    case 'n':
        st = parse_literal(p, v);
        break;
    default:
        if (c == '-' || (c >= '0' && c <= '9'))
            st = parse_number(p, v);
        else if (c < 0)
            st = parse_fail(p, p->pos, CT_ERR_PARSE, "unexpected end of input");
        else
            st = parse_fail(p, p->pos, CT_ERR_PARSE, "expected value");
    }
    if (st != CT_OK) {
        ct_json_free(v);
        return st;
    }
    *out = v;
    return CT_OK;
}

ct_status_t ct_json_parse(const char *text, size_t len, ct_json_value_t **root_p,
                          char *err, size_t errlen)
{
    ct_json_parser_t p = {text, text ? len : 0, 0, err, errlen};
    ct_json_value_t *root = NULL;
    ct_status_t st;

    *root_p = NULL;
    if (err && errlen > 0)
        err[0] = '\0';
    if ((st = parse_value(&p, 0, &root)) != CT_OK)
        return st;
    skip_ws(&p);
    if (p.pos < p.len) {
        ct_json_free(root);
        return parse_fail(&p, p.pos, CT_ERR_PARSE, "unexpected data after document");
    }
    *root_p = root;
    return CT_OK;
}

void ct_json_free(ct_json_value_t *value)
{
    if (value == NULL)
        return;
    for (size_t i = 0; i < value->n; i++) {
        if (value->keys)
            free(value->keys[i]);
        ct_json_free(value->items[i]);
    }
    free(value->keys);
    free(value->items);
    free(value->string);
    free(value);
}

const ct_json_value_t *ct_json_get(const ct_json_value_t *object, const char *key)
{
    if (object == NULL || object->type != CT_JSON_OBJECT || key == NULL)
        return NULL;
    for (size_t i = 0; i < object->n; i++)
        if (strcmp(object->keys[i], key) == 0)
            return object->items[i];
    return NULL;
}
