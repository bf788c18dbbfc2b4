/* SPDX-License-Identifier: BSD-3-Clause */
/* ct_outfile: a commit replaces the target whole and leaves no temporary;
 * an abort, or a commit whose rename fails, leaves the target as it was
 * and no temporary, with a message naming the target and the reason.
 * ct_outfile_rename_all: a set renamed all or nothing, the targets it
 * replaced put back when a rename fails half way. */
#define _DEFAULT_SOURCE /* fsync, mkdtemp */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ct_outfile.h"
#include "ct_outfile_set.h"
#include "ct_test.h"
#include "ct_tmpname.h"

/* Fault injection: this program's rename and fsync take the place of
 * libc's for the library linked into it.  Each call is counted (fsyncs of
 * a directory apart), and the call numbered fail_rename / fail_fsync
 * (counted from 1; 0: none) fails with EIO. */
static int renames, fail_rename, fsyncs, dir_fsyncs, fail_fsync;

int rename(const char *from, const char *to)
{
    if (++renames == fail_rename) {
        errno = EIO;
        return -1;
    }
    return renameat(AT_FDCWD, from, AT_FDCWD, to);
}

int fsync(int fd)
{
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
        dir_fsyncs++;
    if (++fsyncs == fail_fsync) {
        errno = EIO;
        return -1;
    }
    return 0; /* what reaches the disk does not matter here */
}

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

/* Every entry of dir but . and .. */
static int ct_count_all(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
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

static void ct_put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* stderr into path until ct_stderr_back(saved). */
static int ct_stderr_to(const char *path)
{
    fflush(stderr);
    int saved = dup(2);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, 2);
    close(fd);
    return saved;
}

static void ct_stderr_back(int saved)
{
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
}

static ct_test_tally_t t = {0, 0};
static char err[9000], buf[1024], want[9000];

/* The last steps of a file another program wrote (ct_outfile_rename). */
static void test_rename(const char *dir)
{
    char tmp[512], target[512], sub[512];
    snprintf(tmp, sizeof tmp, "%s/r.part", dir);
    snprintf(target, sizeof target, "%s/r.txt", dir);
    ct_put(target, "old\n");

    /* Renamed onto the target, the directory fsync'ed. */
    ct_put(tmp, "new\n");
    int d0 = dir_fsyncs;
    CT_CHECK(&t, ct_outfile_rename(tmp, target, err, sizeof err) == CT_OK);
    ct_slurp(target, buf, sizeof buf);
    CT_CHECK_STR(&t, buf, "new\n");
    CT_CHECK(&t, access(tmp, F_OK) != 0);
    CT_CHECK(&t, dir_fsyncs == d0 + 1);

    /* No temporary: the target stays. */
    CT_CHECK(&t, ct_outfile_rename(tmp, target, err, sizeof err) == CT_ERR_IO);
    snprintf(want, sizeof want, "cannot write %s: No such file or directory", target);
    CT_CHECK_STR(&t, err, want);
    ct_slurp(target, buf, sizeof buf);
    CT_CHECK_STR(&t, buf, "new\n");

    /* The temporary's fsync fails: nothing renamed, the temporary gone. */
    ct_put(tmp, "newer\n");
    fail_fsync = fsyncs + 1;
    CT_CHECK(&t, ct_outfile_rename(tmp, target, err, sizeof err) == CT_ERR_IO);
    fail_fsync = 0;
    snprintf(want, sizeof want, "cannot write %s: Input/output error", target);
    CT_CHECK_STR(&t, err, want);
    ct_slurp(target, buf, sizeof buf);
    CT_CHECK_STR(&t, buf, "new\n");
    CT_CHECK(&t, access(tmp, F_OK) != 0);

    /* The rename fails (a directory in the target's place): the
     * temporary is removed. */
    snprintf(sub, sizeof sub, "%s/rdir", dir);
    CT_CHECK(&t, mkdir(sub, 0755) == 0);
    ct_put(tmp, "x\n");
    CT_CHECK(&t, ct_outfile_rename(tmp, sub, err, sizeof err) == CT_ERR_IO);
    snprintf(want, sizeof want, "cannot write %s: Is a directory", sub);
    CT_CHECK_STR(&t, err, want);
    CT_CHECK(&t, access(tmp, F_OK) != 0);
    rmdir(sub);
    unlink(target);
}

/* The commit's errors: the first failed step's errno is the one reported,
 * the target stays, the temporary goes. */
static void test_commit_errors(const char *dir)
{
    char target[512];
    ct_outfile_t o;
    snprintf(target, sizeof target, "%s/c.txt", dir);
    CT_CHECK(&t, ct_outfile_write_text(target, "old\n", err, sizeof err) == CT_OK);

    /* The temporary's fsync fails. */
    CT_CHECK(&t, ct_outfile_open(&o, target, 0666, err, sizeof err) == CT_OK);
    fputs("new\n", o.fp);
    fail_fsync = fsyncs + 1;
    CT_CHECK(&t, ct_outfile_commit(&o, err, sizeof err) == CT_ERR_IO);
    fail_fsync = 0;
    snprintf(want, sizeof want, "cannot write %s: Input/output error", target);
    CT_CHECK_STR(&t, err, want);
    ct_slurp(target, buf, sizeof buf);
    CT_CHECK_STR(&t, buf, "old\n");
    CT_CHECK(&t, ct_count_tmp(dir) == 0 && o.fp == NULL && o.tmp[0] == '\0');

    /* A write failed earlier (the stream's error indicator, errno
     * ENOSPC): that is the error, even with nothing left to flush and an
     * fsync that would fail too. */
    CT_CHECK(&t, ct_outfile_open(&o, target, 0666, err, sizeof err) == CT_OK);
    CT_CHECK(&t, fgetc(o.fp) == EOF && ferror(o.fp)); /* a write-only stream */
    errno = ENOSPC;
    fail_fsync = fsyncs + 1;
    CT_CHECK(&t, ct_outfile_commit(&o, err, sizeof err) == CT_ERR_IO);
    fail_fsync = 0;
    snprintf(want, sizeof want, "cannot write %s: No space left on device", target);
    CT_CHECK_STR(&t, err, want);
    ct_slurp(target, buf, sizeof buf);
    CT_CHECK_STR(&t, buf, "old\n");
    CT_CHECK(&t, ct_count_tmp(dir) == 0);

    /* A commit fsyncs the directory after the rename. */
    int d0 = dir_fsyncs;
    CT_CHECK(&t, ct_outfile_write_text(target, "new\n", err, sizeof err) == CT_OK);
    CT_CHECK(&t, dir_fsyncs == d0 + 1);

    /* Our own pid's temporary already there (a dead run's, its pid
     * reused): replaced, not an error. */
    char tmp[4400];
    CT_CHECK(&t, ct_tmpname(target, tmp, sizeof tmp) == CT_OK);
    ct_put(tmp, "leftover");
    CT_CHECK(&t, ct_outfile_write_text(target, "newer\n", err, sizeof err) == CT_OK);
    ct_slurp(target, buf, sizeof buf);
    CT_CHECK_STR(&t, buf, "newer\n");
    CT_CHECK(&t, ct_count_tmp(dir) == 0);
    unlink(target);
}

/* The longest target is 4095 bytes (the struct's 4096 with its NUL):
 * 4096 is refused as too long, before anything is created. */
static void test_long_target(const char *dir)
{
    static char target[4200];
    ct_outfile_t o;
    int n = snprintf(target, sizeof target, "%s/", dir);
    memset(target + n, 'x', 4096 - (size_t)n);
    target[4096] = '\0';
    CT_CHECK(&t, ct_outfile_open(&o, target, 0666, err, sizeof err) == CT_ERR_USAGE);
    CT_CHECK(&t, strstr(err, ": path too long") != NULL && o.fp == NULL && o.tmp[0] == '\0');
    target[4095] = '\0'; /* fits the struct; the system refuses it */
    CT_CHECK(&t, ct_outfile_open(&o, target, 0666, err, sizeof err) == CT_ERR_IO);
    CT_CHECK(&t, strncmp(err, "cannot create ", 14) == 0 && strstr(err, "too long") != NULL);
}

/* In the current directory (dir): relative targets, the file "m" beside
 * them.  After a failed open, or after a commit, there is nothing left to
 * remove: an abort (a caller's cleanup) removes no file at all. */
static void test_nothing_to_remove(void)
{
    ct_outfile_t o;
    ct_put("m", "precious");
    CT_CHECK(&t, ct_outfile_open(&o, "m/y", 0666, err, sizeof err) == CT_ERR_IO); /* m: a file */
    CT_CHECK(&t, o.fp == NULL && o.tmp[0] == '\0');
    ct_outfile_abort(&o);
    ct_slurp("m", buf, sizeof buf);
    CT_CHECK_STR(&t, buf, "precious");

    CT_CHECK(&t, ct_outfile_open(&o, "mx", 0666, err, sizeof err) == CT_OK);
    fputs("mx\n", o.fp);
    int d0 = dir_fsyncs;
    CT_CHECK(&t, ct_outfile_commit(&o, err, sizeof err) == CT_OK);
    CT_CHECK(&t, dir_fsyncs == d0 + 1); /* ".", the target has no '/' */
    CT_CHECK(&t, o.fp == NULL && o.tmp[0] == '\0');
    ct_outfile_abort(&o);
    ct_slurp("m", buf, sizeof buf);
    CT_CHECK_STR(&t, buf, "precious");
    ct_slurp("mx", buf, sizeof buf);
    CT_CHECK_STR(&t, buf, "mx\n");
    unlink("m");
    unlink("mx");
}

/* The name of dst's copy aside (ct_outfile_set.c: DST.old's temporary). */
static void old_of(const char *dst, char *out, size_t len)
{
    char base[PATH_MAX + 80];
    snprintf(base, sizeof base, "%s.old", dst);
    ct_tmpname(base, out, len);
}

static void test_rename_all(const char *top)
{
    char dir[512], a[600], b[600], c[600], ta[600], tb[600], tc[600], old[PATH_MAX + 512];
    char log[600];
    snprintf(dir, sizeof dir, "%s/set", top);
    CT_CHECK(&t, mkdir(dir, 0755) == 0);
    snprintf(log, sizeof log, "%s/stderr", top);
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/b", dir);
    snprintf(c, sizeof c, "%s/c", dir);
    snprintf(ta, sizeof ta, "%s/a.new", dir);
    snprintf(tb, sizeof tb, "%s/b.new", dir);
    snprintf(tc, sizeof tc, "%s/c.new", dir);
    /* Each list ends in NULL past n: a loop that runs one too far fails. */
    const char *tmp[] = {ta, tb, tc, NULL}, *dst[] = {a, b, c, NULL};

    CT_CHECK(&t, ct_outfile_rename_all(0, tmp, dst, err, sizeof err) == CT_OK);

    /* All renamed, a and b replaced, c new: nothing else left (no copy
     * aside, no temporary), each directory fsync'ed. */
    ct_put(a, "old a");
    ct_put(b, "old b");
    ct_put(ta, "new a");
    ct_put(tb, "new b");
    ct_put(tc, "new c");
    int d0 = dir_fsyncs;
    int saved = ct_stderr_to(log);
    CT_CHECK(&t, ct_outfile_rename_all(3, tmp, dst, err, sizeof err) == CT_OK);
    ct_stderr_back(saved);
    CT_CHECK(&t, dir_fsyncs >= d0 + 1);
    ct_slurp(a, buf, sizeof buf);
    CT_CHECK_STR(&t, buf, "new a");
    ct_slurp(b, buf, sizeof buf);
    CT_CHECK_STR(&t, buf, "new b");
    ct_slurp(c, buf, sizeof buf);
    CT_CHECK_STR(&t, buf, "new c");
    CT_CHECK(&t, ct_count_all(dir) == 3);
    ct_slurp(log, buf, sizeof buf);
    CT_CHECK_STR(&t, buf, "");

    /* The third rename fails (its temporary is missing): a is put back
     * from its copy, b (new) removed, quietly; c was never touched. */
    unlink(b);
    unlink(c);
    ct_put(a, "old a");
    ct_put(ta, "new a");
    ct_put(tb, "new b");
    saved = ct_stderr_to(log);
    CT_CHECK(&t, ct_outfile_rename_all(3, tmp, dst, err, sizeof err) == CT_ERR_IO);
    ct_stderr_back(saved);
    snprintf(want, sizeof want, "cannot rename %s to %s: No such file or directory", tc, c);
    CT_CHECK_STR(&t, err, want);
    ct_slurp(a, buf, sizeof buf);
    CT_CHECK_STR(&t, buf, "old a");
    CT_CHECK(&t, access(b, F_OK) != 0 && access(c, F_OK) != 0);
    CT_CHECK(&t, ct_count_all(dir) == 1);
    ct_slurp(log, buf, sizeof buf);
    CT_CHECK_STR(&t, buf, "");

    /* The second rename fails, and so does putting a back: said on
     * stderr, and a's copy aside is kept, the only old a left. */
    ct_put(ta, "new a");
    old_of(a, old, sizeof old);
    fail_rename = renames + 3; /* ta, tb (missing), then a put back */
    saved = ct_stderr_to(log);
    CT_CHECK(&t, ct_outfile_rename_all(2, tmp, dst, err, sizeof err) == CT_ERR_IO);
    ct_stderr_back(saved);
    fail_rename = 0;
    snprintf(want, sizeof want, "cannot rename %s to %s: No such file or directory", tb, b);
    CT_CHECK_STR(&t, err, want);
    ct_slurp(log, buf, sizeof buf);
    snprintf(want, sizeof want, "colltune: cannot put back %s from %s: Input/output error\n", a,
             old);
    CT_CHECK_STR(&t, buf, want);
    ct_slurp(old, buf, sizeof buf);
    CT_CHECK_STR(&t, buf, "old a");
    unlink(old);
    unlink(a);

    /* A target that cannot be linked aside (a directory): nothing is
     * renamed. */
    ct_put(ta, "new a");
    CT_CHECK(&t, mkdir(a, 0755) == 0);
    CT_CHECK(&t, ct_outfile_rename_all(1, tmp, dst, err, sizeof err) == CT_ERR_IO);
    snprintf(want, sizeof want, "cannot keep %s aside as ", a);
    CT_CHECK(&t, strncmp(err, want, strlen(want)) == 0);
    CT_CHECK(&t, access(ta, F_OK) == 0);
    rmdir(a);
    unlink(ta);

    /* DST.old must fit PATH_MAX + 80 bytes with its NUL: a target of
     * PATH_MAX + 76 bytes is too long, one byte less is tried (and the
     * system refuses it). */
    static char lng[PATH_MAX + 100];
    const char *ltmp[] = {ta, NULL}, *ldst[] = {lng, NULL};
    int n = snprintf(lng, sizeof lng, "%s/", dir);
    memset(lng + n, 'y', PATH_MAX + 76 - (size_t)n);
    lng[PATH_MAX + 76] = '\0';
    CT_CHECK(&t, ct_outfile_rename_all(1, ltmp, ldst, err, sizeof err) == CT_ERR_USAGE);
    CT_CHECK(&t, strstr(err, ": path too long") != NULL);
    lng[PATH_MAX + 75] = '\0';
    CT_CHECK(&t, ct_outfile_rename_all(1, ltmp, ldst, err, sizeof err) == CT_ERR_IO);
    CT_CHECK(&t, strncmp(err, "cannot keep ", 12) == 0);

    unlink(log);
    unlink(a);
    rmdir(dir);
}

/* A process started with stdin closed: descriptor 0 is a valid one, used
 * and closed again like any other (never refused, never leaked). */
static void test_fd0(const char *dir)
{
    char target[512], tmp[512];
    ct_outfile_t o;
    snprintf(target, sizeof target, "%s/z.txt", dir);
    snprintf(tmp, sizeof tmp, "%s/z.part", dir);
    close(0);
    errno = EEXIST; /* whatever errno was before is not open's answer */
    CT_CHECK(&t, ct_outfile_open(&o, target, 0666, err, sizeof err) == CT_OK);
    CT_CHECK(&t, o.fp != NULL && fileno(o.fp) == 0);
    if (o.fp)
        fputs("z\n", o.fp);
    CT_CHECK(&t, ct_outfile_commit(&o, err, sizeof err) == CT_OK);
    CT_CHECK(&t, fcntl(0, F_GETFD) == -1); /* closed */
    ct_slurp(target, buf, sizeof buf);
    CT_CHECK_STR(&t, buf, "z\n");

    /* ct_outfile_rename opens the temporary as 0, then the directory. */
    ct_put(tmp, "zz\n");
    int d0 = dir_fsyncs;
    CT_CHECK(&t, ct_outfile_rename(tmp, target, err, sizeof err) == CT_OK);
    CT_CHECK(&t, dir_fsyncs == d0 + 1 && fcntl(0, F_GETFD) == -1);
    ct_slurp(target, buf, sizeof buf);
    CT_CHECK_STR(&t, buf, "zz\n");
    unlink(target);
}

int main(void)
{
    char dir[] = "/tmp/ct-outfile.XXXXXX", target[512], sub[256];
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

    test_rename(dir);
    test_commit_errors(dir);
    test_long_target(dir);
    test_rename_all(dir);
    CT_CHECK(&t, chdir(dir) == 0);
    test_nothing_to_remove();
    CT_CHECK(&t, chdir("/") == 0);
    test_fd0(dir); /* last: it closes stdin */
    CT_CHECK(&t, ct_count_all(dir) == 0);
    rmdir(dir);
    return CT_DONE(&t);
}
