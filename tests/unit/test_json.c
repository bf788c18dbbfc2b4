/*
 * test_json.c - ct_json writer/parser round trips and parse errors.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ct_json.h"
#include "ct_test.h"

static const char *const tricky = "q\"uote\\back/slash\nnl\ttab\rcr\bbs\fff"
                                  "\x01\x1f end \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";
static const char *const tricky_escaped =
    "\"q\\\"uote\\\\back/slash\\nnl\\ttab\\rcr\\bbs\\fff\\u0001\\u001f end "
    "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"";

/* Writes the sample document with every kind of value. */
static void write_sample(ct_json_writer_t *w)
{
    ct_json_begin_object(w);
    ct_json_key(w, "name");
    ct_json_string(w, tricky);
    ct_json_key(w, "nothing");
    ct_json_string(w, NULL);
    ct_json_key(w, "ints");
    ct_json_begin_array(w);
    ct_json_int(w, 0);
    ct_json_int(w, -42);
    ct_json_int(w, LLONG_MAX);
    ct_json_int(w, LLONG_MIN);
    ct_json_uint(w, ULLONG_MAX);
    ct_json_int(w, 9007199254740992LL); /* 2^53: exact as a double */
    ct_json_end_array(w);
    ct_json_key(w, "doubles");
    ct_json_begin_array(w);
    ct_json_double(w, 0.1);
    ct_json_double(w, 1e300);
    ct_json_double(w, -2.5e-308);
    ct_json_double(w, 5e-324);
    ct_json_double(w, 1.0 / 3.0);
    ct_json_double(w, NAN);
    ct_json_double(w, INFINITY);
    ct_json_end_array(w);
    ct_json_key(w, "flags");
    ct_json_begin_object(w);
    ct_json_key(w, "yes");
    ct_json_bool(w, 1);
    ct_json_key(w, "no");
    ct_json_bool(w, 0);
    ct_json_key(w, "none");
    ct_json_null(w);
    ct_json_end_object(w);
    ct_json_key(w, "empty_obj");
    ct_json_begin_object(w);
    ct_json_end_object(w);
    ct_json_key(w, "empty_arr");
    ct_json_begin_array(w);
    ct_json_end_array(w);
    ct_json_key(w, "nested");
    ct_json_begin_array(w);
    ct_json_begin_array(w);
    ct_json_begin_object(w);
    ct_json_key(w, "k\"ey");
    ct_json_begin_array(w);
    ct_json_int(w, 1);
    ct_json_end_array(w);
    ct_json_end_object(w);
    ct_json_end_array(w);
    ct_json_string(w, "");
    ct_json_end_array(w);
    ct_json_end_object(w);
}

/* Runs write_sample into a tmpfile and returns its text (caller frees). */
static char *render(int pretty, size_t *len_p)
{
    FILE *fp = tmpfile();
    ct_json_writer_t w;
    char *buf;
    long len;

    if (fp == NULL)
        return NULL;
    ct_json_writer_init(&w, fp, pretty);
    write_sample(&w);
    fflush(fp);
    len = ftell(fp);
    rewind(fp);
    buf = malloc((size_t)len + 1);
    if (buf && fread(buf, 1, (size_t)len, fp) != (size_t)len) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        buf[len] = '\0';
    fclose(fp);
    *len_p = (size_t)len;
    return buf;
}

static int is_num(const ct_json_value_t *v, double want)
{
    return v && v->type == CT_JSON_NUMBER && v->number == want;
}

static int is_type(const ct_json_value_t *v, ct_json_type_t type)
{
    return v && v->type == type;
}

static const ct_json_value_t *item(const ct_json_value_t *v, size_t i)
{
    if (v == NULL || (v->type != CT_JSON_ARRAY && v->type != CT_JSON_OBJECT) || i >= v->n)
        return NULL;
    return v->items[i];
}

static void check_sample_tree(ct_test_tally_t *t, const ct_json_value_t *root)
{
    const ct_json_value_t *v, *flags, *nested;

    CT_CHECK(t, is_type(root, CT_JSON_OBJECT) && root->n == 8);
    v = ct_json_get(root, "name");
    CT_CHECK(t, is_type(v, CT_JSON_STRING));
    CT_CHECK_STR(t, v ? v->string : NULL, tricky);
    CT_CHECK(t, is_type(ct_json_get(root, "nothing"), CT_JSON_NULL));

    v = ct_json_get(root, "ints");
    CT_CHECK(t, is_type(v, CT_JSON_ARRAY) && v->n == 6);
    CT_CHECK(t, is_num(item(v, 0), 0.0));
    CT_CHECK(t, is_num(item(v, 1), -42.0));
    CT_CHECK(t, is_num(item(v, 2), (double)LLONG_MAX));
    CT_CHECK(t, is_num(item(v, 3), (double)LLONG_MIN));
    CT_CHECK(t, is_num(item(v, 4), (double)ULLONG_MAX));
    CT_CHECK(t, is_num(item(v, 5), 9007199254740992.0));

    v = ct_json_get(root, "doubles");
    CT_CHECK(t, is_type(v, CT_JSON_ARRAY) && v->n == 7);
    CT_CHECK(t, is_num(item(v, 0), 0.1));
    CT_CHECK(t, is_num(item(v, 1), 1e300));
    CT_CHECK(t, is_num(item(v, 2), -2.5e-308));
    CT_CHECK(t, is_num(item(v, 3), 5e-324));
    CT_CHECK(t, is_num(item(v, 4), 1.0 / 3.0));
    CT_CHECK(t, is_type(item(v, 5), CT_JSON_NULL));
    CT_CHECK(t, is_type(item(v, 6), CT_JSON_NULL));

    flags = ct_json_get(root, "flags");
    CT_CHECK(t, is_type(flags, CT_JSON_OBJECT) && flags->n == 3);
    v = ct_json_get(flags, "yes");
    CT_CHECK(t, is_type(v, CT_JSON_BOOL) && v->boolean == 1);
    v = ct_json_get(flags, "no");
    CT_CHECK(t, is_type(v, CT_JSON_BOOL) && v->boolean == 0);
    CT_CHECK(t, is_type(ct_json_get(flags, "none"), CT_JSON_NULL));
    CT_CHECK(t, ct_json_get(flags, "missing") == NULL);

    v = ct_json_get(root, "empty_obj");
    CT_CHECK(t, is_type(v, CT_JSON_OBJECT) && v->n == 0);
    v = ct_json_get(root, "empty_arr");
    CT_CHECK(t, is_type(v, CT_JSON_ARRAY) && v->n == 0);

    nested = ct_json_get(root, "nested");
    CT_CHECK(t, is_type(nested, CT_JSON_ARRAY) && nested->n == 2);
    v = item(item(nested, 0), 0);
    CT_CHECK(t, is_type(v, CT_JSON_OBJECT) && v->n == 1);
    CT_CHECK_STR(t, v && v->n == 1 ? v->keys[0] : NULL, "k\"ey");
    v = ct_json_get(v, "k\"ey");
    CT_CHECK(t, is_type(v, CT_JSON_ARRAY) && v->n == 1 && is_num(item(v, 0), 1.0));
    v = item(nested, 1);
    CT_CHECK(t, is_type(v, CT_JSON_STRING));
    CT_CHECK_STR(t, v ? v->string : NULL, "");
}

static void test_round_trip(ct_test_tally_t *t, int pretty)
{
    size_t len = 0;
    char *text = render(pretty, &len);
    ct_json_value_t *root = NULL;
    char err[128];

    CT_CHECK(t, text != NULL);
    if (text == NULL)
        return;
    CT_CHECK(t, ct_json_parse(text, len, &root, err, sizeof(err)) == CT_OK);
    if (root == NULL)
        fprintf(stderr, "parse error: %s\n%s\n", err, text);
    check_sample_tree(t, root);
    CT_CHECK(t, strstr(text, tricky_escaped) != NULL);
    CT_CHECK(t, strstr(text, "9223372036854775807") != NULL);
    CT_CHECK(t, strstr(text, "-9223372036854775808") != NULL);
    CT_CHECK(t, strstr(text, "18446744073709551615") != NULL);
    if (pretty) {
        CT_CHECK(t, strncmp(text, "{\n  \"name\": \"", 13) == 0);
        CT_CHECK(t, strstr(text, "\n    -42,\n") != NULL);
        CT_CHECK(t, strstr(text, "\"empty_obj\": {},\n  \"empty_arr\": [],\n") != NULL);
        CT_CHECK(t, len > 2 && strcmp(text + len - 3, "\n}\n") == 0);
    } else {
        CT_CHECK(t, strchr(text, '\n') == NULL);
        CT_CHECK(t, strstr(text, ": ") == NULL && strstr(text, ", ") == NULL);
        CT_CHECK(t, strstr(text, "\"ints\":[0,-42,") != NULL);
        CT_CHECK(t, strstr(text, "[0.10000000000000001,1.0000000000000001e+300,") != NULL);
        CT_CHECK(t, strstr(text, ",null,null]") != NULL);
        CT_CHECK(t, strstr(text, "\"nested\":[[{\"k\\\"ey\":[1]}],\"\"]}") != NULL);
    }
    ct_json_free(root);
    free(text);
}

/* A small document must come out byte for byte in both modes. */
static void test_exact_layout(ct_test_tally_t *t)
{
    static const char *const want[2] = {
        "{\"a\":[1,{\"b\":true}],\"c\":{}}",
        "{\n  \"a\": [\n    1,\n    {\n      \"b\": true\n    }\n  ],\n  \"c\": {}\n}\n",
    };

    for (int pretty = 0; pretty < 2; pretty++) {
        char buf[256] = {0};
        FILE *fp = tmpfile();
        ct_json_writer_t w;
        size_t n;

        CT_CHECK(t, fp != NULL);
        if (fp == NULL)
            return;
        ct_json_writer_init(&w, fp, pretty);
        ct_json_begin_object(&w);
        ct_json_key(&w, "a");
        ct_json_begin_array(&w);
        ct_json_int(&w, 1);
        ct_json_begin_object(&w);
        ct_json_key(&w, "b");
        ct_json_bool(&w, 1);
        ct_json_end_object(&w);
        ct_json_end_array(&w);
        ct_json_key(&w, "c");
        ct_json_begin_object(&w);
        ct_json_end_object(&w);
        ct_json_end_object(&w);
        rewind(fp);
        n = fread(buf, 1, sizeof(buf) - 1, fp);
        buf[n] = '\0';
        fclose(fp);
        CT_CHECK_STR(t, buf, want[pretty]);
        CT_CHECK(t, w.depth == 0);
    }
}

static void test_escapes(ct_test_tally_t *t)
{
    static const char doc[] =
        "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\", \"\\u0041\\u00e9\\u20AC\\ud83d\\ude00\\uD834\\uDD1E\","
        " \"raw \xc3\xa9\"]";
    ct_json_value_t *root = NULL;
    char err[128] = "";

    CT_CHECK(t, ct_json_parse(doc, sizeof(doc) - 1, &root, err, sizeof(err)) == CT_OK);
    CT_CHECK(t, is_type(root, CT_JSON_ARRAY) && root->n == 3);
    CT_CHECK_STR(t, is_type(item(root, 0), CT_JSON_STRING) ? item(root, 0)->string : NULL,
                 "\"\\/\b\f\n\r\t");
    CT_CHECK_STR(t, is_type(item(root, 1), CT_JSON_STRING) ? item(root, 1)->string : NULL,
                 "A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf0\x9d\x84\x9e");
    CT_CHECK_STR(t, is_type(item(root, 2), CT_JSON_STRING) ? item(root, 2)->string : NULL,
                 "raw \xc3\xa9");
    ct_json_free(root);
}

static void test_scalars(ct_test_tally_t *t)
{
    static const struct {
        const char *text;
        double num;
    } nums[] = {
        {"0", 0.0},        {"-0", -0.0},        {"12", 12.0},     {"-1.5", -1.5},
        {"1e3", 1000.0},   {"1E+3", 1000.0},    {"25e-1", 2.5},   {" 7 ", 7.0},
        {"1e-400", 0.0},   {"0.1", 0.1},
    };
    ct_json_value_t *root = NULL;

    for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
        CT_CHECK(t, ct_json_parse(nums[i].text, strlen(nums[i].text), &root, NULL, 0) == CT_OK);
        CT_CHECK(t, is_num(root, nums[i].num));
        ct_json_free(root);
    }
    CT_CHECK(t, ct_json_parse("true", 4, &root, NULL, 0) == CT_OK);
    CT_CHECK(t, is_type(root, CT_JSON_BOOL) && root->boolean == 1);
    ct_json_free(root);
    CT_CHECK(t, ct_json_parse("\"s\"", 3, &root, NULL, 0) == CT_OK);
    CT_CHECK_STR(t, is_type(root, CT_JSON_STRING) ? root->string : NULL, "s");
    ct_json_free(root);
    /* len bounds the input: what follows it is never read. */
    CT_CHECK(t, ct_json_parse("[1,2]garbage", 5, &root, NULL, 0) == CT_OK);
    CT_CHECK(t, is_type(root, CT_JSON_ARRAY) && root->n == 2);
    ct_json_free(root);
    CT_CHECK(t, ct_json_parse("123456", 3, &root, NULL, 0) == CT_OK);
    CT_CHECK(t, is_num(root, 123.0));
    ct_json_free(root);
    /* Duplicate keys are allowed; lookup finds the first. */
    CT_CHECK(t, ct_json_parse("{\"a\":1,\"a\":2}", 13, &root, NULL, 0) == CT_OK);
    CT_CHECK(t, is_num(ct_json_get(root, "a"), 1.0));
    CT_CHECK(t, ct_json_get(item(root, 0), "a") == NULL); /* not an object */
    CT_CHECK(t, ct_json_get(NULL, "a") == NULL);
    ct_json_free(root);
    ct_json_free(NULL);
}

static void expect_error(ct_test_tally_t *t, const char *text, const char *want)
{
    ct_json_value_t *root = (ct_json_value_t *)&root; /* must be reset */
    char err[160] = "";
    ct_status_t st = ct_json_parse(text, strlen(text), &root, err, sizeof(err));

    CT_CHECK(t, st == CT_ERR_PARSE);
    CT_CHECK(t, root == NULL);
    CT_CHECK_STR(t, err, want);
    if (st == CT_OK)
        ct_json_free(root);
}

/* Brackets nested `depth` deep around a 0. */
static char *nest(int depth)
{
    char *s = malloc((size_t)depth * 2 + 2);

    if (s == NULL)
        return NULL;
    memset(s, '[', (size_t)depth);
    s[depth] = '0';
    memset(s + depth + 1, ']', (size_t)depth);
    s[2 * depth + 1] = '\0';
    return s;
}

static void test_errors(ct_test_tally_t *t)
{
    expect_error(t, "", "line 1, column 1: unexpected end of input");
    expect_error(t, "  \n ", "line 2, column 2: unexpected end of input");
    expect_error(t, "{\n  \"a\": \"abc\n}", "line 2, column 8: unterminated string");
    expect_error(t, "{\n  \"a\": \"ab\tc\"\n}", "line 2, column 11: control character in string");
    expect_error(t, "[1,\n 2,\n]", "line 3, column 1: expected value");
    expect_error(t, "{\"a\": 1,\n  }", "line 2, column 3: expected string key");
    expect_error(t, "[1, 2", "line 1, column 6: expected ',' or ']'");
    expect_error(t, "{\"a\" 1}", "line 1, column 6: expected ':'");
    expect_error(t, "{\"a\": 1 \"b\": 2}", "line 1, column 9: expected ',' or '}'");
    expect_error(t, "{a: 1}", "line 1, column 2: expected string key");
    expect_error(t, "[tru]", "line 1, column 2: invalid literal");
    expect_error(t, "\n\n   nul", "line 3, column 4: invalid literal");
    expect_error(t, "[True]", "line 1, column 2: expected value");
    expect_error(t, "{}\n  x", "line 2, column 3: unexpected data after document");
    expect_error(t, "[1] [2]", "line 1, column 5: unexpected data after document");
    expect_error(t, "truex", "line 1, column 5: unexpected data after document");
    expect_error(t, "01", "line 1, column 2: unexpected data after document");
    expect_error(t, "-", "line 1, column 2: invalid number");
    expect_error(t, "+1", "line 1, column 1: expected value");
    expect_error(t, ".5", "line 1, column 1: expected value");
    expect_error(t, "[1.]", "line 1, column 4: digit expected after '.'");
    expect_error(t, "1e", "line 1, column 3: digit expected in exponent");
    expect_error(t, "1e+x", "line 1, column 4: digit expected in exponent");
    expect_error(t, "[1e400]", "line 1, column 2: number out of range");
    expect_error(t, "\"a\\x\"", "line 1, column 3: invalid escape in string");
    expect_error(t, "\"\\u12G4\"", "line 1, column 2: invalid \\u escape");
    expect_error(t, "\"\\u12\"", "line 1, column 2: invalid \\u escape");
    expect_error(t, "\"\\ud83d\"", "line 1, column 2: unpaired high surrogate");
    expect_error(t, "\"\\ud83d\\u0041\"", "line 1, column 2: unpaired high surrogate");
    expect_error(t, "\"x\\ude00\"", "line 1, column 3: unpaired low surrogate");
    expect_error(t, "\"\\u0000\"", "line 1, column 2: \\u0000 is not supported");
    expect_error(t, "\"abc\\\"", "line 1, column 1: unterminated string");

    /* CT_JSON_MAX_DEPTH levels parse; one more does not. */
    char *ok = nest(CT_JSON_MAX_DEPTH), *deep = nest(CT_JSON_MAX_DEPTH + 1);
    ct_json_value_t *root = NULL;
    char want[64];
    CT_CHECK(t, ok != NULL && deep != NULL);
    if (ok && deep) {
        CT_CHECK(t, ct_json_parse(ok, strlen(ok), &root, NULL, 0) == CT_OK);
        ct_json_free(root);
        snprintf(want, sizeof(want), "line 1, column %d: nesting too deep",
                 CT_JSON_MAX_DEPTH + 1);
        expect_error(t, deep, want);
    }
    free(ok);
    free(deep);

    /* A short err buffer is truncated, not overrun; NULL err is allowed. */
    char small[8];
    memset(small, 'x', sizeof(small));
    CT_CHECK(t, ct_json_parse("[", 1, &root, small, sizeof(small)) == CT_ERR_PARSE);
    CT_CHECK_STR(t, small, "line 1,");
    CT_CHECK(t, ct_json_parse("[", 1, &root, NULL, 0) == CT_ERR_PARSE);
    CT_CHECK(t, root == NULL);
}

/* Writer output nested to the limit must be readable. */
static void test_writer_depth(ct_test_tally_t *t)
{
    FILE *fp = tmpfile();
    ct_json_writer_t w;
    ct_json_value_t *root = NULL;
    char buf[512];
    size_t n;

    CT_CHECK(t, fp != NULL);
    if (fp == NULL)
        return;
    ct_json_writer_init(&w, fp, 0);
    for (int i = 0; i < CT_JSON_MAX_DEPTH; i++) {
        ct_json_begin_array(&w);
        ct_json_int(&w, i);
    }
    for (int i = 0; i < CT_JSON_MAX_DEPTH; i++)
        ct_json_end_array(&w);
    rewind(fp);
    n = fread(buf, 1, sizeof(buf) - 1, fp);
    buf[n] = '\0';
    fclose(fp);
    CT_CHECK(t, ct_json_parse(buf, n, &root, NULL, 0) == CT_OK);
    CT_CHECK(t, is_type(root, CT_JSON_ARRAY) && root->n == 2);
    CT_CHECK(t, strncmp(buf, "[0,[1,[2,", 9) == 0);
    ct_json_free(root);
}

int main(void)
{
    ct_test_tally_t tally = {0, 0};

    test_round_trip(&tally, 0);
    test_round_trip(&tally, 1);
    test_exact_layout(&tally);
    test_escapes(&tally);
    test_scalars(&tally);
    test_errors(&tally);
    test_writer_depth(&tally);
    return CT_DONE(&tally);
}
