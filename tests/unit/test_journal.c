/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_journal.c - the trial journal: a round trip, a torn last line
 * (ignored, and cut before the next append), a corrupt middle line (an
 * error naming file:line), rows read from a collbench results CSV, and a
 * writer process SIGKILLed at random moments, after which every complete
 * line reads back and appending goes on on a line of its own.
 */
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ct_test.h"
#include "journal.h"

static ct_test_tally_t tally;
static char dir[256];
static char jpath[512];

static void make_trial(ct_trial_t *t, long launch, size_t nrows)
{
    static ct_space_setting_t settings[] = {
        {"coll_tuned_use_dynamic_rules", "1", CT_VIA_MCA},
        {"coll_tuned_bcast_algorithm", "6", CT_VIA_MCA},
        {"UCX_TLS", "sm,self \"quoted\"\n;$(x)", CT_VIA_ENV},
    };
    ct_space_config_t config = {settings, 3, 0, "", NULL};
    ct_space_config_key(settings, 3, config.key, sizeof config.key);
    memset(t, 0, sizeof *t);
    CT_CHECK(&tally, ct_trial_set_config(t, &config, "broadcast") == CT_OK);
    t->launch = launch;
    t->status = launch % 3 == 2 ? CT_JOURNAL_SKIPPED_INVALID : CT_JOURNAL_OK;
    t->reason = launch % 3 == 2 ? strdup("two_proc, aborts beyond 2 ranks") : NULL;
    t->exit_code = launch % 3 == 2 ? -1 : 0;
    t->wall_s = 1.25 + (double)launch;
    t->rows = calloc(nrows + 1, sizeof *t->rows);
    t->nrows = nrows;
    for (size_t i = 0; i < nrows; i++) {
        ct_trial_row_t *r = &t->rows[i];
        snprintf(r->collective, sizeof r->collective, "broadcast");
        snprintf(r->placement, sizeof r->placement, i % 2 ? "in-place" : "out-of-place");
        r->bytes = 8LL << i;
        r->median_us = 10.5 + (double)i;
        r->ci_low_us = i == 1 ? NAN : 10.0 + (double)i;
        r->ci_high_us = i == 1 ? NAN : 11.0 + (double)i;
        r->busbw_gbps = 0.125 * (double)(i + 1);
        r->samples = 100 + (long long)i;
        r->wrong = i == 2 ? -1 : 0;
        /* A --shapes launch's rows: alternately two shapes; row 3 has
         * none (journals before shapes were recorded). */
        r->nranks = i == 3 ? 0 : i % 2 ? 8 : 4;
        r->nnodes = i == 3 ? 0 : i % 2 ? 2 : 1;
    }
}

static void same_trial(const ct_trial_t *a, const ct_trial_t *b)
{
    CT_CHECK_STR(&tally, a->key, b->key);
    CT_CHECK_STR(&tally, a->scope, b->scope);
    CT_CHECK(&tally, a->launch == b->launch && a->status == b->status);
    CT_CHECK(&tally, a->exit_code == b->exit_code && a->wall_s == b->wall_s);
    CT_CHECK(&tally, (a->reason == NULL) == (b->reason == NULL));
    if (a->reason && b->reason)
        CT_CHECK_STR(&tally, a->reason, b->reason);
    CT_CHECK(&tally, a->nsettings == b->nsettings);
    for (size_t i = 0; i < a->nsettings && i < b->nsettings; i++) {
        CT_CHECK_STR(&tally, a->settings[i].name, b->settings[i].name);
        CT_CHECK_STR(&tally, a->settings[i].value, b->settings[i].value);
        CT_CHECK(&tally, a->settings[i].via == b->settings[i].via);
    }
    CT_CHECK(&tally, a->nrows == b->nrows);
    for (size_t i = 0; i < a->nrows && i < b->nrows; i++) {
        const ct_trial_row_t *x = &a->rows[i], *y = &b->rows[i];
        CT_CHECK_STR(&tally, x->collective, y->collective);
        CT_CHECK_STR(&tally, x->placement, y->placement);
        CT_CHECK(&tally, x->bytes == y->bytes && x->samples == y->samples && x->wrong == y->wrong);
        CT_CHECK(&tally, x->median_us == y->median_us && x->busbw_gbps == y->busbw_gbps);
        CT_CHECK(&tally, x->nranks == y->nranks && x->nnodes == y->nnodes);
        CT_CHECK(&tally,
                 (isnan(x->ci_low_us) && isnan(y->ci_low_us)) || x->ci_low_us == y->ci_low_us);
        CT_CHECK(&tally,
                 (isnan(x->ci_high_us) && isnan(y->ci_high_us)) || x->ci_high_us == y->ci_high_us);
    }
}

static void append_n(long first, long count, size_t nrows)
{
    ct_journal_t j;
    char err[512];
    CT_CHECK(&tally, ct_journal_open(&j, dir, err, sizeof err) == CT_OK);
    for (long i = first; i < first + count; i++) {
        ct_trial_t t;
        make_trial(&t, i, nrows);
        CT_CHECK(&tally, ct_journal_append(&j, &t, err, sizeof err) == CT_OK);
        ct_trial_free(&t);
    }
    ct_journal_close(&j);
}

/* Every line of the file ends with a newline and holds one object. */
static void check_lines(size_t want)
{
    FILE *fp = fopen(jpath, "r");
    char *line = NULL;
    size_t cap = 0, n = 0;
    ssize_t len;
    while (fp && (len = getline(&line, &cap, fp)) >= 0) {
        CT_CHECK(&tally,
                 len > 2 && line[0] == '{' && line[len - 2] == '}' && line[len - 1] == '\n');
        n++;
    }
    CT_CHECK(&tally, n == want);
    free(line);
    if (fp)
        fclose(fp);
}

static void test_round_trip(void)
{
    unlink(jpath);
    ct_journal_entries_t e;
    char err[512];
    CT_CHECK(&tally, ct_journal_read(jpath, &e, err, sizeof err) == CT_OK && e.n == 0);
    append_n(0, 3, 4);
    CT_CHECK(&tally, ct_journal_read(jpath, &e, err, sizeof err) == CT_OK);
    CT_CHECK(&tally, e.n == 3 && !e.torn);
    for (size_t i = 0; i < e.n; i++) {
        ct_trial_t want;
        make_trial(&want, (long)i, 4);
        same_trial(&e.trials[i], &want);
        ct_trial_free(&want);
    }
    CT_CHECK(&tally, e.n == 3 && ct_journal_find(&e, e.trials[0].key, 2) == &e.trials[2]);
    CT_CHECK(&tally, ct_journal_find(&e, e.trials[0].key, 3) == NULL);
    CT_CHECK(&tally, ct_journal_find(&e, "0000000000000000", 0) == NULL);
    ct_journal_entries_free(&e);
    check_lines(3);
}

static void test_torn(void)
{
    unlink(jpath);
    append_n(0, 2, 2);
    /* Half a third line, as a kill in mid-write would leave it. */
    const char *half = "{\"key\":\"0123\",\"scope\":\"broad";
    int fd = open(jpath, O_WRONLY | O_APPEND);
    CT_CHECK(&tally, fd >= 0 && write(fd, half, strlen(half)) == (ssize_t)strlen(half));
    close(fd);
    ct_journal_entries_t e;
    char err[512];
    CT_CHECK(&tally, ct_journal_read(jpath, &e, err, sizeof err) == CT_OK);
    CT_CHECK(&tally, e.n == 2 && e.torn);
    ct_journal_entries_free(&e);
    append_n(2, 1, 2); /* cuts the torn tail, then appends */
    CT_CHECK(&tally, ct_journal_read(jpath, &e, err, sizeof err) == CT_OK);
    CT_CHECK(&tally, e.n == 3 && !e.torn);
    CT_CHECK(&tally, e.n == 3 && e.trials[2].launch == 2);
    ct_journal_entries_free(&e);
    check_lines(3);
}

static void test_corrupt(void)
{
    unlink(jpath);
    append_n(0, 1, 1);
    FILE *fp = fopen(jpath, "a");
    fputs("{\"key\": \"x\", this is not json\n", fp);
    fclose(fp);
    append_n(1, 1, 1);
    ct_journal_entries_t e;
    char err[512] = "";
    CT_CHECK(&tally, ct_journal_read(jpath, &e, err, sizeof err) == CT_ERR_PARSE);
    CT_CHECK(&tally, strstr(err, "journal.jsonl:2: not JSON") != NULL);
    CT_CHECK(&tally, e.n == 0 && e.trials == NULL);

    /* Valid JSON, but its key is not its config's: edited by hand. */
    unlink(jpath);
    append_n(0, 1, 1);
    fp = fopen(jpath, "a");
    fputs("{\"key\":\"0000000000000000\",\"scope\":\"global\",\"config\":{},\"launch\":0,"
          "\"status\":\"ok\",\"reason\":null,\"exit_code\":0,\"wall_s\":1,\"rows\":[]}\n",
          fp);
    fputs("{\"key\":\"cbf29ce484222325\",\"scope\":\"global\",\"config\":{},\"launch\":0,"
          "\"status\":\"finished\",\"reason\":null,\"exit_code\":0,\"wall_s\":1,\"rows\":[]}\n",
          fp);
    fclose(fp);
    CT_CHECK(&tally, ct_journal_read(jpath, &e, err, sizeof err) == CT_ERR_PARSE);
    CT_CHECK(&tally, strstr(err, "journal.jsonl:2: key: 0000000000000000 is not the key") != NULL);
    if (strstr(err, "journal.jsonl:2: key:") == NULL)
        fprintf(stderr, "  got: %s\n", err);
    /* The baseline's key (no settings) is FNV-1a's offset basis. */
    char key[17];
    ct_space_config_key(NULL, 0, key, sizeof key);
    CT_CHECK_STR(&tally, key, "cbf29ce484222325");
}

static void test_csv(void)
{
    char path[600];
    snprintf(path, sizeof path, "%s/results.csv", dir);
    FILE *fp = fopen(path, "w");
    ct_result_csv_header(fp);
    for (int i = 0; i < 3; i++) {
        ct_result_t r;
        memset(&r, 0, sizeof r);
        snprintf(r.run_id, sizeof r.run_id, "run");
        snprintf(r.backend, sizeof r.backend, "mpi");
        snprintf(r.collective, sizeof r.collective, "allreduce");
        snprintf(r.placement, sizeof r.placement, "out-of-place");
        snprintf(r.dtype, sizeof r.dtype, "float");
        snprintf(r.op, sizeof r.op, "sum");
        snprintf(r.sync, sizeof r.sync, "window");
        r.root = -1;
        r.nranks = 4;
        r.nnodes = 1;
        r.bytes = 1024LL << i;
        r.count = r.bytes / 4;
        r.iterations = 10;
        r.median_us = 5.5 * (i + 1);
        r.ci_low_us = 5.0 * (i + 1);
        r.ci_high_us = 6.0 * (i + 1);
        r.busbw_gbps = 0.5 * (i + 1);
        r.samples = 50 + i;
        r.wrong = i == 1 ? -1 : 0;
        r.converged = 1;
        r.slowest_rank_median_us = 7;
        ct_result_csv_write(fp, &r);
    }
    fclose(fp);
    ct_trial_t t;
    memset(&t, 0, sizeof t);
    char err[512] = "";
    CT_CHECK(&tally, ct_trial_read_csv(&t, path, err, sizeof err) == CT_OK);
    CT_CHECK(&tally, t.nrows == 3);
    if (t.nrows == 3) {
        CT_CHECK_STR(&tally, t.rows[2].collective, "allreduce");
        CT_CHECK(&tally, t.rows[2].bytes == 4096 && t.rows[2].samples == 52);
        CT_CHECK(&tally, t.rows[2].median_us == 16.5 && t.rows[2].ci_high_us == 18.0);
        CT_CHECK(&tally, t.rows[1].wrong == -1 && t.rows[0].wrong == 0);
        CT_CHECK(&tally, t.rows[1].nranks == 4 && t.rows[1].nnodes == 1);
    }
    ct_trial_free(&t);

    fp = fopen(path, "a");
    fputs("run,not,a,row\n", fp);
    fclose(fp);
    CT_CHECK(&tally, ct_trial_read_csv(&t, path, err, sizeof err) == CT_ERR_PARSE);
    CT_CHECK(&tally, strstr(err, "results.csv:5:") != NULL);
    fp = fopen(path, "w");
    fputs("size,time\n1,2\n", fp);
    fclose(fp);
    CT_CHECK(&tally, ct_trial_read_csv(&t, path, err, sizeof err) == CT_ERR_PARSE);
    CT_CHECK(&tally, strstr(err, "results.csv:1: not a collbench results header") != NULL);
    unlink(path);
}

/* A writer appends trials until it is SIGKILLed; the journal must then
 * read back every complete line in order, and take more appends. */
static void test_sigkill(void)
{
    unlink(jpath);
    srand((unsigned)time(NULL) ^ (unsigned)getpid());
    size_t total = 0;
    int torn = 0;
    for (int round = 0; round < 5; round++) {
        long first = (long)(round + 1) * 100000;
        pid_t pid = fork();
        if (pid == 0) {
            ct_journal_t j;
            char err[512];
            if (ct_journal_open(&j, dir, err, sizeof err) != CT_OK)
                _exit(3);
            for (long i = first;; i++) {
                ct_trial_t t;
                make_trial(&t, i, 40); /* long lines: more chances to tear */
                if (ct_journal_append(&j, &t, err, sizeof err) != CT_OK)
                    _exit(3);
                ct_trial_free(&t);
            }
        }
        CT_CHECK(&tally, pid > 0);
        struct timespec nap = {0, 20000000L + (long)(rand() % 150) * 1000000L};
        nanosleep(&nap, NULL);
        kill(pid, SIGKILL);
        int status;
        waitpid(pid, &status, 0);
        CT_CHECK(&tally, WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

        ct_journal_entries_t e;
        char err[512] = "";
        ct_status_t st = ct_journal_read(jpath, &e, err, sizeof err);
        CT_CHECK(&tally, st == CT_OK);
        if (st != CT_OK) {
            fprintf(stderr, "  round %d: %s\n", round, err);
            return;
        }
        /* The earlier rounds' lines, then this writer's, in order. */
        CT_CHECK(&tally, e.n >= total);
        for (size_t i = total; i < e.n; i++)
            CT_CHECK(&tally, e.trials[i].launch == first + (long)(i - total));
        size_t have = e.n;
        torn += e.torn;
        ct_journal_entries_free(&e);

        append_n(first - 1, 1, 1); /* the parent appends after the kill */
        CT_CHECK(&tally, ct_journal_read(jpath, &e, err, sizeof err) == CT_OK);
        CT_CHECK(&tally, e.n == have + 1 && !e.torn);
        CT_CHECK(&tally, e.n == have + 1 && e.trials[have].launch == first - 1);
        total = e.n;
        ct_journal_entries_free(&e);
        check_lines(total);
    }
    fprintf(stderr, "sigkill: %zu trials over 5 killed writers, %d left a torn line\n", total,
            torn);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/ct_journal.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(jpath, sizeof jpath, "%s/%s", dir, CT_JOURNAL_FILE);
    test_round_trip();
    test_torn();
    test_corrupt();
    test_csv();
    test_sigkill();
    unlink(jpath);
    rmdir(dir);
    return CT_DONE(&tally);
}
