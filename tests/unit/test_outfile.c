/* SPDX-License-Identifier: BSD-3-Clause */
/* ct_outfile: a commit replaces the target whole and leaves no temporary;
 * an abort, or a commit whose rename fails, leaves the target as it was
 * and no temporary, with a message naming the target and the reason. */
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ct_outfile.h"
#include "ct_test.h"

static int ct_count_tmp(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        n += len > 4 && strcmp(e->d_name + len - 4, ".tmp") == 0;
    }
    if (d != NULL)
        closedir(d);
    return n;
}

static void ct_slurp(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, len - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
}

int main(void)
{
    ct_test_tally_t t = {0, 0};
    char dir[] = "/tmp/ct-outfile.XXXXXX", target[512], sub[256], buf[1024], err[9000];
    CT_CHECK(&t, mkdtemp(dir) != NULL);
    snprintf(target, sizeof target, "%s/out.txt", dir);

    CT_CHECK(&t, ct_outfile_write_text(target, "old\n", err, sizeof err) == CT_OK);
    ct_slurp(target, buf, sizeof buf);
    CT_CHECK_STR(&t, buf, "old\n");

    ct_outfile_t o;
    CT_CHECK(&t, ct_outfile_open(&o, target, 0666, err, sizeof err) == CT_OK);
    CT_CHECK(&t, ct_count_tmp(dir) == 1);
    fputs("half", o.fp);
    ct_outfile_abort(&o);
    ct_slurp(target, buf, sizeof buf);
    CT_CHECK_STR(&t, buf, "old\n");
    CT_CHECK(&t, ct_count_tmp(dir) == 0);

    CT_CHECK(&t, ct_outfile_open(&o, target, 0666, err, sizeof err) == CT_OK);
    fputs("new\n", o.fp);
    CT_CHECK(&t, ct_outfile_commit(&o, err, sizeof err) == CT_OK);
    ct_slurp(target, buf, sizeof buf);
    CT_CHECK_STR(&t, buf, "new\n");
    CT_CHECK(&t, ct_count_tmp(dir) == 0);

    /* A directory in the target's place: the rename fails. */
    snprintf(sub, sizeof sub, "%s/d", dir);
    CT_CHECK(&t, mkdir(sub, 0755) == 0);
    snprintf(target, sizeof target, "%s/x", sub);
    CT_CHECK(&t, mkdir(target, 0755) == 0);
    CT_CHECK(&t, ct_outfile_write_text(target, "x\n", err, sizeof err) == CT_ERR_IO);
    snprintf(buf, sizeof buf, "cannot write %s: Is a directory", target);
    CT_CHECK_STR(&t, err, buf);
    CT_CHECK(&t, ct_count_tmp(sub) == 0);

    /* No directory to put the temporary in. */
    snprintf(target, sizeof target, "%s/missing/y", dir);
    CT_CHECK(&t, ct_outfile_write_text(target, "y\n", err, sizeof err) == CT_ERR_IO);
    CT_CHECK(&t, strstr(err, "cannot create") != NULL && strstr(err, "No such file") != NULL);

    rmdir(target);
    snprintf(target, sizeof target, "%s/x", sub);
    rmdir(target);
    rmdir(sub);
    snprintf(target, sizeof target, "%s/out.txt", dir);
    unlink(target);
    rmdir(dir);
    return CT_DONE(&t);
}
