/* SPDX-License-Identifier: BSD-3-Clause */
/* colltune tune --weights: the profile file and the weighted time of one
 * launch, on a trial built by hand. */
#include <stdio.h>
#include <string.h>

#include "ct_test.h"
#include "tune_weights.h"

static const char *write_file(const char *dir, const char *name, const char *text)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f != NULL) {
        fputs(text, f);
        fclose(f);
    }
    return path;
}

static void test_load(ct_test_tally_t *t, const char *dir)
{
    char err[512];
    ct_tune_weights_t w;
    const char *p = write_file(dir, "ok.txt",
                               "# a profile\n"
                               "allreduce 1M 60   # the gradients\n"
                               "\n"
                               "bcast 64K 0.5\n"
                               "4K 2\n");
    CT_CHECK(t, ct_tune_weights_load(p, &w, err, sizeof err) == CT_OK);
    CT_CHECK(t, w.n == 3);
    CT_CHECK(t, w.n == 3 && strcmp(w.w[0].coll, "allreduce") == 0 && w.w[0].bytes == 1048576 &&
                    w.w[0].weight == 60 && w.w[0].line == 2);
    CT_CHECK(t, w.n == 3 && strcmp(w.w[1].coll, "broadcast") == 0 && w.w[1].weight == 0.5);
    CT_CHECK(t, w.n == 3 && w.w[2].coll == NULL && w.w[2].bytes == 4096 && w.w[2].line == 5);
    ct_tune_weights_free(&w);

    struct {
        const char *text, *want;
    } bad[] = {
        {"allreduce 1M 3\nfoo 1M 3\n", ":2: collective: unknown 'foo'"},
        {"allreduce 1Q 3\n", ":1: size: '1Q'"},
        {"\n\nallreduce 1M -3\n", ":3: weight: '-3'"},
        {"allreduce 1M 3x\n", ":1: weight: '3x'"},
        {"allreduce 1M 3 4\n", ":1: want"},
        {"# nothing\n", "no entry has a positive weight"},
        {"1M 0\n", "no entry has a positive weight"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        p = write_file(dir, "bad.txt", bad[i].text);
        err[0] = '\0';
        CT_CHECK(t, ct_tune_weights_load(p, &w, err, sizeof err) == CT_ERR_USAGE);
        CT_CHECK(t, strstr(err, bad[i].want) != NULL && strstr(err, "bad.txt") != NULL);
        if (strstr(err, bad[i].want) == NULL)
            fprintf(stderr, "  got: %s\n", err);
    }
    CT_CHECK(t, ct_tune_weights_load("/nonexistent/w.txt", &w, err, sizeof err) == CT_ERR_USAGE);
}

static void test_weighted(ct_test_tally_t *t)
{
    ct_trial_row_t rows[] = {
        {"allreduce", 1024, "out-of-place", 10, 0, 0, 0, 0, 0, "float"},
        {"allreduce", 1024, "in-place", 99, 0, 0, 0, 0, 0, "float"},
        {"allreduce", 1048576, "out-of-place", 100, 0, 0, 0, 0, 0, "float"},
        {"broadcast", 1024, "out-of-place", 5, 0, 0, 0, 0, 0, "float"},
        {"broadcast", 1048576, "out-of-place", 50, 0, 0, 0, 0, 0, "float"},
    };
    ct_trial_t tr;
    memset(&tr, 0, sizeof tr);
    tr.rows = rows;
    tr.nrows = 5;
    ct_tune_weight_t e[] = {
        {"allreduce", 1048576, 2, 1}, /* 2 x 100 */
        {"allreduce", 4096, 1, 2},    /* nearest on a log scale: 1K (2 steps) not 1M (8): 10 */
        {NULL, 900000, 1, 3},         /* every collective at 1M: 100 + 50 */
    };
    ct_tune_weights_t w = {NULL, e, 3};
    CT_CHECK(t, ct_tune_weighted_us(&w, &tr) == 2 * 100 + 10 + 150);
    ct_tune_weight_t missing[] = {{"alltoall", 1024, 1, 1}};
    ct_tune_weights_t wm = {NULL, missing, 1};
    CT_CHECK(t, ct_tune_weighted_us(&wm, &tr) == -1);
}

int main(void)
{
    ct_test_tally_t t = {0, 0};
    char dir[] = "/tmp/test_tune_weights.XXXXXX";
    if (mkdtemp(dir) == NULL)
        return 99;
    test_load(&t, dir);
    test_weighted(&t);
    char path[4096];
    snprintf(path, sizeof path, "%s/ok.txt", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/bad.txt", dir);
    remove(path);
    remove(dir);
    return CT_DONE(&t);
}
