/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_emit_oneccl.c - oneccl.env: per-size choices of one collective as
 * one CCL_<COLL>='<algo>:<lo>-<hi>;...' variable, the sizes no range
 * covers left to oneCCL's own table and named.
 *
 * oneCCL has not run here (no oneCCL backend): the results are SYNTHETIC,
 * built by hand.  A real sh sources the file and the value it sets is
 * compared with the developer guide's form; the shipped
 * tuner/spaces/oneccl.ini is read and its variables written.
 */
#define _XOPEN_SOURCE 700

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct_library.h"
#include "ct_test.h"
#include "emit.h"
#include "emit_format.h"
#include "emit_golden.h"
#include "space.h"

static ct_test_tally_t tally;

#define ANY (-1LL)
/* significant and verified, at the result's shape */
#define CH(n, v, sc, lo, hi)                                                                       \
    {                                                                                              \
        .name = n, .value = v, .via = CT_VIA_ENV, .scope = sc, .min_bytes = lo, .max_bytes = hi,   \
        .default_us = 100.0, .tuned_us = 50.0, .significant = 1, .verified = 1                     \
    }

/* allreduce's winners out of size order with a gap between two ranges,
 * allgather from 64 KiB up, bcast for every size, global variables (one
 * with a quote and a $), one over a range (oneCCL reads it for every size), one not significant and
 * another library's choice. */
static ct_tune_choice_t choices[] = {
    CH("CCL_ALLREDUCE", "ring", CT_COLL_ALLREDUCE, 4194304, ANY),
    CH("CCL_ALLREDUCE", "recursive_doubling", CT_COLL_ALLREDUCE, 0, 8191),
    CH("CCL_ALLREDUCE", "rabenseifner", CT_COLL_ALLREDUCE, 8192, 1048575),
    CH("CCL_ALLGATHER", "ring", CT_COLL_ALLGATHER, 65536, ANY),
    CH("CCL_BCAST", "double_tree", CT_COLL_BROADCAST, ANY, ANY),
    CH("CCL_WORKER_COUNT", "2", CT_SCOPE_GLOBAL, ANY, ANY),
    CH("CCL_LOG_LEVEL", "it's $HOME", CT_SCOPE_GLOBAL, ANY, ANY),
    CH("CCL_RS_CHUNK_COUNT", "4", CT_COLL_REDUCE_SCATTER, 1048576, ANY),
    {.name = "CCL_ALLTOALL",
     .value = "scatter",
     .via = CT_VIA_ENV,
     .scope = CT_COLL_ALLTOALL,
     .min_bytes = ANY,
     .max_bytes = ANY,
     .significant = 0,
     .verified = 1},
    CH("NCCL_ALGO", "ring", CT_COLL_ALLREDUCE, ANY, ANY),
};
#define NCHOICES (sizeof choices / sizeof choices[0])

static ct_tune_result_t result(ct_tune_choice_t *c, size_t n)
{
    ct_tune_result_t r = {.space_name = "oneccl",
                          .space_path = "tuner/spaces/oneccl.ini",
                          .run_id = "synthetic-run-0001",
                          .date = "2026-01-02T03:04:05Z",
                          .source = "synthetic",
                          .nranks = 16,
                          .nnodes = 2,
                          .choices = c,
                          .nchoices = n};
    return r;
}

/* The table: CCL_ is oneCCL's, emitted, into its own sourced row. */
static void test_table(void)
{
    const ct_library_t *lib = NULL;
    const ct_library_family_t *f = ct_library_family_of("CCL_ALLREDUCE", 0, &lib);
    CT_CHECK(&tally, f != NULL && lib != NULL && lib->id == CT_LIB_ONECCL && !lib->run_here);
    CT_CHECK(&tally, ct_library_family_carries(f, "oneccl.env"));
    CT_CHECK(&tally, !ct_library_family_carries(f, "nccl.env"));
    CT_CHECK(&tally, ct_library_env_is(CT_LIB_NCCL, "NCCL_ALGO"));
    const ct_library_file_t *row = ct_library_file_named("oneccl.env");
    CT_CHECK(&tally, row != NULL && row->reader == CT_LIB_ONECCL && row->carries == CT_LIB_ONECCL &&
                         row->load.kind == CT_FILE_LOAD_SOURCED && row->keyed == CT_FILE_KEY_NONE &&
                         row->syntax == CT_FILE_SYNTAX_SH_QUOTED);
}

/* What sh sets var to after `set -a; . path` (argv, no user text in a
 * command line), malloc'ed; NULL on failure. */
static char *sh_value(const char *path, const char *var)
{
    char script[256], out[] = "/tmp/ct_emit_oneccl_sh_XXXXXX";
    int fd = mkstemp(out);
    if (fd < 0)
        return NULL;
    snprintf(script, sizeof script, "set -a; . \"$1\" && printf '%%s' \"$%s\" >\"$2\"", var);
    pid_t pid = fork();
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", script, "sh", path, out, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    close(fd);
    char *v =
        pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0
            ? eg_slurp(out)
            : NULL;
    unlink(out);
    return v;
}

static void test_golden(const char *dir)
{
    char err[1024] = "", path[4096];
    ct_tune_result_t r = result(choices, NCHOICES);
    ct_status_t st = ct_emit_all_as(&r, dir, EMIT_GOLDEN_WRITER, err, sizeof err);
    CT_CHECK(&tally, st == CT_OK);
    if (st != CT_OK)
        fprintf(stderr, "%s\n", err);
    eg_check_golden(&tally, dir, "oneccl", "oneccl.env");
    snprintf(path, sizeof path, "%s/oneccl.env", dir);
    /* As the guide writes it: ranges in size order, `max` on top. */
    char *v = sh_value(path, "CCL_ALLREDUCE");
    CT_CHECK_STR(&tally, v, "recursive_doubling:0-8191;rabenseifner:8192-1048575;ring:4194304-max");
    free(v);
    v = sh_value(path, "CCL_ALLGATHER");
    CT_CHECK_STR(&tally, v, "ring:65536-max");
    free(v);
    v = sh_value(path, "CCL_BCAST");
    CT_CHECK_STR(&tally, v, "double_tree");
    free(v);
    v = sh_value(path, "CCL_WORKER_COUNT");
    CT_CHECK_STR(&tally, v, "2");
    free(v);
    v = sh_value(path, "CCL_LOG_LEVEL"); /* a quote, nothing expanded */
    CT_CHECK_STR(&tally, v, "it's $HOME");
    free(v);
    char *text = eg_slurp(path);
    /* The sizes no range covers are oneCCL's, and said so. */
    CT_CHECK(&tally, text && strstr(text, "# Sizes 1048576-4194303 B keep oneCCL's own selection"));
    CT_CHECK(&tally, text && strstr(text, "# Sizes 0-65535 B keep oneCCL's own selection"));
    CT_CHECK(&tally, text && strstr(text, "# Not written: CCL_RS_CHUNK_COUNT=4 from 1048576 B"));
    CT_CHECK(&tally, text && !strstr(text, "export CCL_RS_CHUNK_COUNT"));
    CT_CHECK(&tally, text && !strstr(text, "CCL_ALLTOALL") && !strstr(text, "NCCL_"));
    free(text);
    eg_clear(dir);
}

/* Marked as a tune marks them (ct_emit_cannot_carry, which asks each
 * format's carries hook): a selection variable over a range is oneccl.env's
 * to carry, and stays written; another CCL_ variable over a range is not
 * (oneCCL reads it for every size). */
static void test_carried(const char *dir)
{
    char err[1024] = "", path[4096];
    ct_tune_choice_t c[NCHOICES];
    memcpy(c, choices, sizeof c);
    ct_tune_result_t r = result(c, NCHOICES);
    for (size_t i = 0; i < NCHOICES; i++)
        c[i].unwritable = ct_emit_cannot_carry(&r, &c[i]);
    for (size_t i = 0; i < 3; i++) /* CCL_ALLREDUCE, each over a range */
        CT_CHECK(&tally, c[i].unwritable == NULL);
    CT_CHECK(&tally, c[3].unwritable == NULL); /* CCL_ALLGATHER from 64 KiB */
    CT_CHECK_STR(&tally, c[7].unwritable, "the library reads it for every size");
    ct_status_t st = ct_emit_all_as(&r, dir, EMIT_GOLDEN_WRITER, err, sizeof err);
    CT_CHECK(&tally, st == CT_OK);
    if (st != CT_OK)
        fprintf(stderr, "%s\n", err);
    snprintf(path, sizeof path, "%s/oneccl.env", dir);
    char *v = sh_value(path, "CCL_ALLREDUCE");
    CT_CHECK_STR(&tally, v, "recursive_doubling:0-8191;rabenseifner:8192-1048575;ring:4194304-max");
    free(v);
    v = sh_value(path, "CCL_ALLGATHER");
    CT_CHECK_STR(&tally, v, "ring:65536-max");
    free(v);
    eg_clear(dir);
}

/* The writer alone (emit_format.h), into a temporary file. */
static ct_status_t write_alone(const ct_tune_result_t *r, char *err, size_t errlen)
{
    FILE *fp = tmpfile();
    ct_emit_ctx_t ctx = {r, EMIT_GOLDEN_WRITER, "/nowhere"};
    ct_status_t st = fp ? ct_emit_oneccl_env.write(&ctx, fp, err, errlen) : CT_ERR_IO;
    if (fp)
        fclose(fp);
    return st;
}

/* What one variable cannot hold, each refused naming the file. */
static void test_refused(void)
{
    char err[1024] = "";
    ct_tune_choice_t overlap[] = {
        CH("CCL_ALLREDUCE", "ring", CT_COLL_ALLREDUCE, 0, 8192),
        CH("CCL_ALLREDUCE", "direct", CT_COLL_ALLREDUCE, 8192, ANY),
    };
    ct_tune_result_t r = result(overlap, 2);
    CT_CHECK(&tally, write_alone(&r, err, sizeof err) == CT_ERR_USAGE);
    CT_CHECK(&tally, strncmp(err,
                             "oneccl.env: CCL_ALLREDUCE chosen as ring from 0 B and as "
                             "direct from 8192 B",
                             strlen("oneccl.env: CCL_ALLREDUCE chosen as ring from 0 B and as "
                                    "direct from 8192 B")) == 0);
    overlap[0].max_bytes = 8191; /* adjacent: fine */
    CT_CHECK(&tally, write_alone(&r, err, sizeof err) == CT_OK);
    overlap[0].min_bytes = overlap[0].max_bytes = ANY; /* every size beside a range */
    CT_CHECK(&tally, write_alone(&r, err, sizeof err) == CT_ERR_USAGE);

    ct_tune_choice_t list[] = {CH("CCL_BCAST", "ring:0-10", CT_COLL_BROADCAST, ANY, ANY)};
    r = result(list, 1);
    CT_CHECK(&tally, write_alone(&r, err, sizeof err) == CT_ERR_USAGE);
    CT_CHECK(&tally, strstr(err, "oneccl.env: the value of CCL_BCAST is not one algorithm") == err);

    ct_tune_choice_t line[] = {CH("CCL_WORKER_AFFINITY", "1\n2", CT_SCOPE_GLOBAL, ANY, ANY)};
    r = result(line, 1);
    CT_CHECK(&tally, write_alone(&r, err, sizeof err) == CT_ERR_USAGE);
    CT_CHECK(&tally,
             strstr(err, "oneccl.env: the value of CCL_WORKER_AFFINITY contains a newline"));

    ct_tune_choice_t twice[] = {CH("CCL_WORKER_COUNT", "2", CT_SCOPE_GLOBAL, ANY, ANY),
                                CH("CCL_WORKER_COUNT", "4", CT_SCOPE_GLOBAL, ANY, ANY)};
    r = result(twice, 2);
    CT_CHECK(&tally, write_alone(&r, err, sizeof err) == CT_ERR_USAGE);
    CT_CHECK_STR(&tally, err, "oneccl.env: CCL_WORKER_COUNT chosen as both 2 and 4");
}

/* Two job shapes: the same setting is written once; ranges from two
 * shapes would be one value for both, and are refused: by the writer, and
 * by the one shape check (oneccl.env's row is keyed by nothing), so a
 * tune or merge marks them unwritable and the rest is written. */
static void test_shapes(const char *dir)
{
    char err[1024] = "", path[4096];
    ct_tune_choice_t same[] = {CH("CCL_BCAST", "naive", CT_COLL_BROADCAST, ANY, ANY),
                               CH("CCL_BCAST", "naive", CT_COLL_BROADCAST, ANY, ANY)};
    same[0].nnodes = same[1].nnodes = 1;
    same[0].nranks = 2;
    same[1].nranks = 4;
    ct_tune_result_t r = result(same, 2);
    CT_CHECK(&tally, ct_emit_all_as(&r, dir, EMIT_GOLDEN_WRITER, err, sizeof err) == CT_OK);
    snprintf(path, sizeof path, "%s/oneccl.env", dir);
    char *v = sh_value(path, "CCL_BCAST");
    CT_CHECK_STR(&tally, v, "naive");
    free(v);
    eg_clear(dir);

    ct_tune_choice_t ranges[] = {CH("CCL_ALLREDUCE", "ring", CT_COLL_ALLREDUCE, 0, 8191),
                                 CH("CCL_ALLREDUCE", "direct", CT_COLL_ALLREDUCE, 8192, ANY)};
    ranges[0].nnodes = ranges[1].nnodes = 1;
    ranges[0].nranks = 2;
    ranges[1].nranks = 4;
    r = result(ranges, 2);
    CT_CHECK(&tally, write_alone(&r, err, sizeof err) == CT_ERR_USAGE);
    CT_CHECK_STR(&tally, err,
                 "oneccl.env: CCL_ALLREDUCE chosen at 1x2 and at 1x4: its one value holds at "
                 "every job shape");
    char why[512];
    CT_CHECK_STR(&tally, ct_emit_shape_conflict(&r, &ranges[0], why, sizeof why),
                 "CCL_ALLREDUCE=ring for allreduce over 0..8191 B holds at 1x2 but "
                 "CCL_ALLREDUCE=direct over 8192 B and up at 1x4 differs; oneccl.env holds one "
                 "value for every job shape");
    /* The same algorithm over other sizes is another value too. */
    ranges[1].value = "ring";
    CT_CHECK(&tally, ct_emit_shape_conflict(&r, &ranges[1], why, sizeof why) != NULL);
    CT_CHECK(&tally, write_alone(&r, err, sizeof err) == CT_ERR_USAGE);
    /* Over sizes that start alike but end otherwise, and the reverse. */
    for (int k = 0; k < 2; k++) {
        ranges[1].min_bytes = k == 0 ? 0 : 4096;
        ranges[1].max_bytes = k == 0 ? 4095 : 8191;
        CT_CHECK(&tally, ct_emit_shape_conflict(&r, &ranges[1], why, sizeof why) != NULL);
    }
    ranges[1].min_bytes = 8192;
    ranges[1].max_bytes = ANY;
    ranges[1].value = "direct";
    for (size_t i = 0; i < 2; i++) {
        ranges[i].unwritable = ct_emit_cannot_carry(&r, &ranges[i]);
        CT_CHECK(&tally, ranges[i].unwritable != NULL &&
                             strstr(ranges[i].unwritable, "holds one value for every job shape"));
    }
    /* Beside another variable, which is written. */
    ct_tune_choice_t marked[] = {ranges[0], ranges[1],
                                 CH("CCL_BCAST", "naive", CT_COLL_BROADCAST, ANY, ANY)};
    r = result(marked, 3);
    CT_CHECK(&tally, ct_emit_all_as(&r, dir, EMIT_GOLDEN_WRITER, err, sizeof err) == CT_OK);
    char *text = eg_slurp(path);
    CT_CHECK(&tally, text && strstr(text, "export CCL_BCAST='naive'") &&
                         !strstr(text, "export CCL_ALLREDUCE"));
    free(text);
    eg_clear(dir);

    /* The same ranges at both shapes: one value, no conflict. */
    ct_tune_choice_t alike[] = {CH("CCL_ALLREDUCE", "ring", CT_COLL_ALLREDUCE, 0, 8191),
                                CH("CCL_ALLREDUCE", "ring", CT_COLL_ALLREDUCE, 0, 8191)};
    alike[0].nnodes = alike[1].nnodes = 1;
    alike[0].nranks = 2;
    alike[1].nranks = 4;
    r = result(alike, 2);
    for (size_t i = 0; i < 2; i++)
        CT_CHECK(&tally, ct_emit_cannot_carry(&r, &alike[i]) == NULL);
    CT_CHECK(&tally, ct_emit_all_as(&r, dir, EMIT_GOLDEN_WRITER, err, sizeof err) == CT_OK);
    char *v2 = sh_value(path, "CCL_ALLREDUCE");
    CT_CHECK_STR(&tally, v2, "ring:0-8191");
    free(v2);
    eg_clear(dir);
}

/* The shipped space: every variable oneCCL's, a launch each, and written
 * as two ranges of its first two values. */
static void test_space(const char *dir)
{
    char path[4096], err[1024] = "";
    ct_space_t space;
    snprintf(path, sizeof path, "%s/oneccl.ini", EMIT_SPACES_DIR);
    ct_status_t st = ct_space_load(path, &space, err, sizeof err);
    CT_CHECK(&tally, st == CT_OK);
    if (st != CT_OK) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    CT_CHECK(&tally, space.nvars == 5);
    ct_tune_choice_t *c = calloc(2 * space.nvars, sizeof *c);
    for (size_t i = 0; c != NULL && i < space.nvars; i++) {
        const ct_space_var_t *v = &space.vars[i];
        CT_CHECK(&tally, ct_setting_is(v->name, v->via, CT_LIB_ONECCL) && v->runtime == 0 &&
                             v->scope != CT_SCOPE_GLOBAL && v->nvalues >= 3 && v->def == NULL);
        ct_tune_choice_t lo = CH(v->name, v->values[0], v->scope, 0, 1023),
                         hi = CH(v->name, v->values[1], v->scope, 1024, ANY);
        c[2 * i] = lo;
        c[2 * i + 1] = hi;
    }
    ct_tune_result_t r = result(c, c ? 2 * space.nvars : 0);
    st = ct_emit_all_as(&r, dir, EMIT_GOLDEN_WRITER, err, sizeof err);
    CT_CHECK(&tally, st == CT_OK);
    if (st != CT_OK)
        fprintf(stderr, "%s\n", err);
    snprintf(path, sizeof path, "%s/oneccl.env", dir);
    for (size_t i = 0; c != NULL && st == CT_OK && i < space.nvars; i++) {
        char want[512];
        snprintf(want, sizeof want, "%s:0-1023;%s:1024-max", c[2 * i].value, c[2 * i + 1].value);
        char *v = sh_value(path, c[2 * i].name);
        CT_CHECK_STR(&tally, v, want);
        free(v);
    }
    free(c);
    ct_space_free(&space);
    eg_clear(dir);
}

int main(void)
{
    char dir[] = "/tmp/ct_emit_oneccl_XXXXXX";
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    test_table();
    test_golden(dir);
    test_carried(dir);
    test_refused();
    test_shapes(dir);
    test_space(dir);
    eg_clear(dir);
    rmdir(dir);
    return CT_DONE(&tally);
}
