/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_shapes.c - --shapes' parser (shapes.h): items, bounds, the ascending
 * rule, the count limit, and errors naming the item; and that collbench's
 * options take it (and refuse it with --pairs).
 */
#include <stdio.h>
#include <string.h>

#include "ct_test.h"
#include "options.h"
#include "ct_shapes.h"

static ct_test_tally_t tally;

/* Parses arg; on success "KxR,KxR,..." into got, else "error: " + err. */
static const char *parse(const char *arg, char *got, size_t len)
{
    ct_shape_t s[CT_SHAPES_MAX];
    char err[256] = "";
    int n = -1;
    if (ct_shapes_parse(arg, s, &n, err, sizeof err) != CT_OK) {
        snprintf(got, len, "error: %s", err);
        return got;
    }
    size_t used = 0;
    got[0] = '\0';
    for (int i = 0; i < n && used < len; i++) {
        char name[32];
        ct_shape_name(&s[i], name, sizeof name);
        used += (size_t)snprintf(got + used, len - used, "%s%s", i ? "," : "", name);
    }
    return got;
}

int main(void)
{
    char got[512];

    CT_CHECK_STR(&tally, parse("1x2", got, sizeof got), "1x2");
    CT_CHECK_STR(&tally, parse("1x2,1x4,2x4,4x8", got, sizeof got), "1x2,1x4,2x4,4x8");
    CT_CHECK_STR(&tally, parse("1048576x1", got, sizeof got), "1048576x1");
    /* Each shape holds the one before. */
    CT_CHECK(&tally,
             strstr(parse("1x8,2x4", got, sizeof got), "2x4 after 1x8: shapes must ascend"));
    CT_CHECK(&tally, strstr(parse("2x2,2x2", got, sizeof got), "shapes must ascend"));
    CT_CHECK(&tally, strstr(parse("2x2,1x4", got, sizeof got), "shapes must ascend"));
    /* Malformed items are named. */
    const char *bad[] = {"",    "1x2,",  ",1x2", "x2",   "1x",        "1y2",        "0x2",
                         "2x0", "1x2x3", "-1x2", "1x 2", "1048577x1", "99999999x1", "1x2,,2x2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        parse(bad[i], got, sizeof got);
        CT_CHECK(&tally, strstr(got, "error: --shapes '") == got);
        CT_CHECK(&tally, strstr(got, "NODESxRANKS_PER_NODE") != NULL);
    }
    parse("1x1,1y2", got, sizeof got);
    CT_CHECK(&tally, strstr(got, "--shapes '1y2'") != NULL);
    /* At most CT_SHAPES_MAX. */
    char many[512] = "";
    for (int i = 1; i <= CT_SHAPES_MAX + 1; i++)
        snprintf(many + strlen(many), sizeof many - strlen(many), "%s1x%d", i > 1 ? "," : "", i);
    CT_CHECK(&tally, strstr(parse(many, got, sizeof got), "at most 16 shapes") != NULL);
    many[strlen(many) - strlen(",1x17")] = '\0';
    CT_CHECK(&tally, strncmp(parse(many, got, sizeof got), "1x1,1x2,", 8) == 0);

    /* Through collbench's options. */
    ct_options_t opts;
    char err[512] = "";
    char a0[] = "collbench", a1[] = "--shapes", a2[] = "1x2,2x2", a3[] = "--pairs";
    char *argv[] = {a0, a1, a2, NULL, NULL};
    CT_CHECK(&tally, ct_options_parse(3, argv, &opts, err, sizeof err) == CT_OK);
    CT_CHECK(&tally,
             opts.nshapes == 2 && opts.shapes[1].nnodes == 2 && opts.shapes[1].ranks_per_node == 2);
    argv[3] = a3;
    CT_CHECK(&tally, ct_options_parse(4, argv, &opts, err, sizeof err) == CT_ERR_USAGE);
    CT_CHECK(&tally, strstr(err, "--shapes: not with --pairs") != NULL);
    return CT_DONE(&tally);
}
