/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_json.c - the helpers colltune adds to jansson: UTF-8 validation and
 * sanitising (D11: any bytes in, valid JSON out), NULL strings and
 * non-finite numbers as null, and a whole document built with them that
 * jansson dumps and parses back.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ct_json.h"
#include "ct_test.h"
#include "ct_utf8.h"

static ct_test_tally_t tally;

static void check_sequence(const char *bytes, size_t len, size_t want)
{
    size_t got = ct_utf8_sequence((const unsigned char *)bytes, len);
    CT_CHECK(&tally, got == want);
    if (got != want) {
        fprintf(stderr, "  bytes");
        for (size_t i = 0; i < len; i++)
            fprintf(stderr, " %02x", (unsigned char)bytes[i]);
        fprintf(stderr, ": length %zu, want %zu\n", got, want);
    }
}

static void check_sanitize(const char *in, const char *want)
{
    char *got = ct_utf8_sanitize(in);
    CT_CHECK_STR(&tally, got, want);
    CT_CHECK(&tally, got && ct_utf8_valid(got));
    /* jansson is the judge: it refuses invalid UTF-8 outright. */
    json_t *s = got ? json_string(got) : NULL;
    CT_CHECK(&tally, s != NULL);
    json_decref(s);
    free(got);
}

#define FFFD "\xef\xbf\xbd"

int main(void)
{
    /* Valid sequences of every length, at the edges of their ranges. */
    check_sequence("A", 1, 1);
    check_sequence("\x7f", 1, 1);
    check_sequence("\xc2\x80", 2, 2);         /* U+0080 */
    check_sequence("\xdf\xbf", 2, 2);         /* U+07FF */
    check_sequence("\xe0\xa0\x80", 3, 3);     /* U+0800 */
    check_sequence("\xed\x9f\xbf", 3, 3);     /* U+D7FF, below the surrogates */
    check_sequence("\xef\xbf\xbd", 3, 3);     /* U+FFFD */
    check_sequence("\xf0\x90\x80\x80", 4, 4); /* U+10000 */
    check_sequence("\xf4\x8f\xbf\xbf", 4, 4); /* U+10FFFF */
    /* Invalid: stray continuation, overlongs, surrogates, beyond U+10FFFF,
     * truncated, a lead byte followed by ASCII. */
    check_sequence("\x80", 1, 0);
    check_sequence("\xbf", 1, 0);
    check_sequence("\xc0\xaf", 2, 0);
    check_sequence("\xc1\xbf", 2, 0);
    check_sequence("\xe0\x80\xaf", 3, 0);
    check_sequence("\xf0\x80\x80\xaf", 4, 0);
    check_sequence("\xed\xa0\x80", 3, 0);     /* U+D800 */
    check_sequence("\xed\xbf\xbf", 3, 0);     /* U+DFFF */
    check_sequence("\xf4\x90\x80\x80", 4, 0); /* U+110000 */
    check_sequence("\xf5\x80\x80\x80", 4, 0);
    check_sequence("\xff", 1, 0);
    check_sequence("\xe2\x82", 2, 0);
    check_sequence("\xe2\x82\xac", 2, 0); /* the length says truncated */
    check_sequence("\xc3"
                   "A",
                   2, 0);

    CT_CHECK(&tally, ct_utf8_valid(""));
    CT_CHECK(&tally, ct_utf8_valid("plain ascii"));
    CT_CHECK(&tally, ct_utf8_valid("gr\xc3\xbc\xc3\x9f \xe2\x82\xac \xf0\x9f\x98\x80"));
    CT_CHECK(&tally, !ct_utf8_valid("run-\xff"));
    CT_CHECK(&tally, !ct_utf8_valid("\xe2\x82"));

    /* Valid text is copied unchanged; each bad byte becomes one U+FFFD. */
    check_sanitize("", "");
    check_sanitize("gr\xc3\xbc\xc3\x9f", "gr\xc3\xbc\xc3\x9f");
    check_sanitize("run-\xff-id", "run-" FFFD "-id");
    check_sanitize("\xff\xfe", FFFD FFFD);
    check_sanitize("caf\xe9", "caf" FFFD); /* Latin-1 */
    check_sanitize("\xe2\x82", FFFD FFFD); /* truncated at the end */
    check_sanitize("\xe2\x82"
                   "A",
                   FFFD FFFD "A");                  /* truncated mid-string */
    check_sanitize("\xed\xa0\x80", FFFD FFFD FFFD); /* a surrogate */
    check_sanitize("\xc0\xaf"
                   "x\xc3\xa9",
                   FFFD FFFD "x\xc3\xa9"); /* overlong, then valid */

    /* ct_json_str: NULL is null, bad bytes are sanitised, not refused. */
    json_t *v = ct_json_str(NULL);
    CT_CHECK(&tally, json_is_null(v));
    json_decref(v);
    v = ct_json_str("caf\xe9");
    CT_CHECK(&tally, json_is_string(v));
    CT_CHECK_STR(&tally, json_string_value(v), "caf" FFFD);
    json_decref(v);

    /* ct_json_real: what JSON cannot hold is null; the rest is exact. */
    v = ct_json_real(NAN);
    CT_CHECK(&tally, json_is_null(v));
    json_decref(v);
    v = ct_json_real(-INFINITY);
    CT_CHECK(&tally, json_is_null(v));
    json_decref(v);
    v = ct_json_real(0.1);
    CT_CHECK(&tally, json_is_real(v) && json_real_value(v) == 0.1);
    json_decref(v);

    /* ct_json_set / ct_json_append: a failed constructor is an error the
     * caller sees once, and a bad key is sanitised too. */
    json_t *doc = json_object();
    json_t *arr = json_array();
    int bad = 0;
    bad |= ct_json_set(doc, "argv", arr);
    bad |= ct_json_append(arr, ct_json_str("collbench"));
    bad |= ct_json_append(arr, ct_json_str("--run-id=\xff\xfe"));
    bad |= ct_json_set(doc, "env\x80key", ct_json_str("v\xc3"));
    bad |= ct_json_set(doc, "third", ct_json_real(1.0 / 3.0));
    bad |= ct_json_set(doc, "ctl", ct_json_str("q\"uote\\back\nnl\ttab\x01"));
    CT_CHECK(&tally, bad == 0);
    CT_CHECK(&tally, ct_json_set(doc, "failed", NULL) == -1);
    CT_CHECK(&tally, ct_json_append(arr, NULL) == -1);

    char *text = json_dumps(doc, JSON_INDENT(2));
    CT_CHECK(&tally, text != NULL && ct_utf8_valid(text));
    json_error_t jerr;
    json_t *back = text ? json_loads(text, 0, &jerr) : NULL;
    CT_CHECK(&tally, back != NULL);
    if (back) {
        CT_CHECK_STR(&tally, json_string_value(json_array_get(json_object_get(back, "argv"), 1)),
                     "--run-id=" FFFD FFFD);
        CT_CHECK_STR(&tally, json_string_value(json_object_get(back, "env" FFFD "key")), "v" FFFD);
        CT_CHECK(&tally, json_real_value(json_object_get(back, "third")) == 1.0 / 3.0);
        CT_CHECK_STR(&tally, json_string_value(json_object_get(back, "ctl")),
                     "q\"uote\\back\nnl\ttab\x01");
        CT_CHECK(&tally, json_object_get(back, "failed") == NULL);
    }
    /* And jansson itself refuses a document that is not UTF-8, which is
     * why everything above goes through the helpers. */
    json_t *raw = json_loads("{\"k\": \"\xff\"}", 0, &jerr);
    CT_CHECK(&tally, raw == NULL);
    json_decref(raw);
    json_decref(back);
    json_decref(doc);
    free(text);
    return CT_DONE(&tally);
}
