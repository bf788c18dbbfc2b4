/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_path.c - ct_path_target: where a write to an output path lands,
 * through symlinks (dangling ones too), for files that exist or not, and
 * the refusals (missing directory, loop) that make collbench exit 2.
 */
#define _DEFAULT_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_path.h"
#include "ct_test.h"

static ct_test_tally_t tally;

static void expect_target(const char *path, const char *want, int exists)
{
    ct_path_target_t t;
    char err[256] = "";
    ct_status_t st = ct_path_target(path, &t, err, sizeof err);
    CT_CHECK(&tally, st == CT_OK);
    if (st != CT_OK) {
        fprintf(stderr, "  %s: %s\n", path, err);
        return;
    }
    CT_CHECK_STR(&tally, t.path, want);
    CT_CHECK(&tally, t.exists == exists);
}

static void expect_error(const char *path, const char *want)
{
    ct_path_target_t t;
    char err[256] = "";
    CT_CHECK(&tally, ct_path_target(path, &t, err, sizeof err) == CT_ERR_USAGE);
    CT_CHECK(&tally, strstr(err, want) != NULL);
    if (strstr(err, want) == NULL)
        fprintf(stderr, "  %s: '%s', want '%s'\n", path, err, want);
}

int main(void)
{
    char tmpl[] = "/tmp/ct_path_test.XXXXXX", dir[PATH_MAX], p[PATH_MAX * 2], w[PATH_MAX * 2];
    if (mkdtemp(tmpl) == NULL || realpath(tmpl, dir) == NULL)
        return 99;

    snprintf(p, sizeof p, "%s/file", dir);
    FILE *fp = fopen(p, "w");
    if (fp)
        fclose(fp);
    expect_target(p, p, 1);
    snprintf(p, sizeof p, "%s/./sub/../file", dir); /* no sub: stat fails */
    expect_error(p, "does not exist");
    snprintf(p, sizeof p, "%s/new.json", dir);
    expect_target(p, p, 0);
    snprintf(p, sizeof p, "%s/./new.json", dir);
    snprintf(w, sizeof w, "%s/new.json", dir);
    expect_target(p, w, 0);

    /* A symlink to an existing file, and a dangling one, resolve to the
     * file they name; a chain of two relative links as well. */
    snprintf(p, sizeof p, "%s/link", dir);
    if (symlink("file", p) != 0)
        return 99;
    snprintf(w, sizeof w, "%s/file", dir);
    expect_target(p, w, 1);
    snprintf(p, sizeof p, "%s/dangling", dir);
    if (symlink("made.json", p) != 0)
        return 99;
    snprintf(w, sizeof w, "%s/made.json", dir);
    expect_target(p, w, 0);
    snprintf(p, sizeof p, "%s/chain", dir);
    if (symlink("dangling", p) != 0)
        return 99;
    expect_target(p, w, 0);

    /* A directory resolves (the caller refuses it by its mode). */
    ct_path_target_t t;
    char err[256];
    CT_CHECK(&tally, ct_path_target(dir, &t, err, sizeof err) == CT_OK && t.exists &&
                         S_ISDIR(t.st.st_mode));

    snprintf(p, sizeof p, "%s/missing/r.json", dir);
    expect_error(p, "does not exist");
    snprintf(p, sizeof p, "%s/missing/", dir);
    expect_error(p, "does not exist");
    snprintf(p, sizeof p, "%s/file/r.json", dir);
    expect_error(p, "Not a directory");
    snprintf(p, sizeof p, "%s/loop", dir);
    if (symlink("loop", p) != 0)
        return 99;
    expect_error(p, "symbolic links");
    expect_error("", "empty");

    /* A relative path resolves against the working directory. */
    if (chdir(dir) == 0) {
        snprintf(w, sizeof w, "%s/rel.csv", dir);
        expect_target("rel.csv", w, 0);
    }
    CT_CHECK_STR(&tally, ct_path_kind(S_IFIFO), "a FIFO (named pipe)");
    CT_CHECK_STR(&tally, ct_path_kind(S_IFCHR), "a character device");

    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return CT_DONE(&tally);
}
