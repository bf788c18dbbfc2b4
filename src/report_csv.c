/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * report_csv.c - the --csv file: one row per size and placement, appended
 * and written through at once, so a crash or -T loses no finished row.
 *
 * Rows go out with write(2), one whole row per call, never through a
 * stdio buffer: a failure (a full disk) is seen at the row that caused it,
 * and the file is cut back to the last whole row, so rows already written
 * stay and no half row is left for the next append to run into.
 * "--csv -" streams to stdout (the table then goes to stderr).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"

typedef struct {
    const char *path;  /* as the user gave it, for messages */
    char target[4096]; /* where it resolved to (a symlink followed) */
    int fd;
    int own_fd;     /* not stdout */
    int regular;    /* can be cut back after a failed write */
    int created;    /* did not exist before this run */
    long long rows; /* written by this run */
} ct_csv_report_t;

static int ct_csv_wanted(const ct_options_t *opts) { return opts->csv_path != NULL; }

static ct_status_t ct_csv_write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return CT_ERR_IO;
        buf += n;
        len -= (size_t)n;
    }
    return CT_OK;
}

/* Writes what fn formats, as one write; on failure a regular file is cut
 * back to where it ended before. */
static ct_status_t ct_csv_put(ct_csv_report_t *c, void (*fn)(FILE *, const void *), const void *arg,
                              const char *what)
{
    char *buf = NULL;
    size_t len = 0;
    struct stat st;
    FILE *mem = open_memstream(&buf, &len);
    if (mem == NULL)
        return ct_report_io_error("--csv", c->path, what, errno);
    fn(mem, arg);
    if (fclose(mem) != 0) {
        free(buf);
        return ct_report_io_error("--csv", c->path, what, ENOMEM);
    }
    off_t before = c->regular && fstat(c->fd, &st) == 0 ? st.st_size : -1;
    ct_status_t rc = ct_csv_write_all(c->fd, buf, len);
    int err = errno;
    free(buf);
    if (rc == CT_OK)
        return CT_OK;
    if (before >= 0 && ftruncate(c->fd, before) == 0)
        fprintf(stderr, "collbench: error: --csv %s: %s: %s (the rows written before are kept)\n",
                c->path, what, strerror(err));
    else
        ct_report_io_error("--csv", c->path, what, err);
    return CT_ERR_IO;
}

static void ct_csv_fmt_header(FILE *fp, const void *arg)
{
    (void)arg;
    ct_result_csv_header(fp);
}

static void ct_csv_fmt_row(FILE *fp, const void *arg) { ct_result_csv_write(fp, arg); }

static void ct_csv_fmt_newline(FILE *fp, const void *arg)
{
    (void)arg;
    fputc('\n', fp);
}

/* An existing file must start with our header.  Its last line may lack its
 * newline (an editor, a copy cut short): the newline is added first, so the
 * new rows never merge into that line. */
static ct_status_t ct_csv_check_existing(ct_csv_report_t *c, off_t size)
{
    char head[4096];
    ssize_t n = pread(c->fd, head, sizeof head - 1, 0);
    if (n < 0) {
        ct_report_io_error("--csv", c->path, "cannot read", errno);
        return CT_ERR_USAGE;
    }
    head[n] = '\0';
    head[strcspn(head, "\r\n")] = '\0';
    int version = ct_result_csv_is_header(head);
    if (version == 0) {
        fprintf(stderr,
                "collbench: error: --csv %s: line 1: not a collbench results header; "
                "refusing to append to another file\n",
                c->path);
        return CT_ERR_USAGE;
    }
    /* One file, one column layout: readers take the header's word for it. */
    if (version != CT_RESULT_SCHEMA) {
        fprintf(stderr,
                "collbench: error: --csv %s: line 1: a schema version %d header; this "
                "collbench writes version %d rows, which would not match it: use a new file\n",
                c->path, version, CT_RESULT_SCHEMA);
        return CT_ERR_USAGE;
    }
    char last;
    if (pread(c->fd, &last, 1, size - 1) != 1) {
        ct_report_io_error("--csv", c->path, "cannot read", errno);
        return CT_ERR_USAGE;
    }
    if (last != '\n' &&
        ct_csv_put(c, ct_csv_fmt_newline, NULL, "cannot complete the last line") != CT_OK)
        return CT_ERR_USAGE;
    return CT_OK;
}

static ct_status_t ct_csv_open(const ct_report_run_t *run, ct_report_files_t *files, void **state_p)
{
    const char *path = run->opts->csv_path;
    const ct_path_target_t *t = NULL;
    ct_csv_report_t *c = calloc(1, sizeof *c);
    ct_status_t st = CT_OK;
    struct stat fst;

    if (c == NULL)
        return CT_ERR_NOMEM;
    c->path = path;
    c->fd = -1;
    if (strcmp(path, "-") == 0) {
        c->fd = STDOUT_FILENO;
        st = ct_csv_put(c, ct_csv_fmt_header, NULL, "cannot write the header");
        if (st != CT_OK) {
            free(c);
            return CT_ERR_USAGE;
        }
        *state_p = c;
        return CT_OK;
    }
    if (ct_report_claim(files, "--csv", path, &t) != CT_OK) {
        free(c);
        return CT_ERR_USAGE;
    }
    /* O_NONBLOCK: a FIFO swapped in since the check must not hang the open
     * (it fails, or the fstat below refuses it). */
    c->fd = open(t->path, O_RDWR | O_APPEND | O_CREAT | O_NOCTTY | O_NONBLOCK | O_CLOEXEC, 0666);
    if (c->fd < 0) {
        ct_report_io_error("--csv", path, "cannot open", errno);
        free(c);
        return CT_ERR_USAGE;
    }
    c->own_fd = 1;
    c->created = !t->exists;
    snprintf(c->target, sizeof c->target, "%s", t->path);
    if (fstat(c->fd, &fst) != 0 || !S_ISREG(fst.st_mode)) {
        fprintf(stderr, "collbench: error: --csv %s: is %s, not a regular file\n", path,
                ct_path_kind(fst.st_mode));
        st = CT_ERR_USAGE;
    }
    if (st == CT_OK)
        fcntl(c->fd, F_SETFL, O_APPEND);
    c->regular = 1;
    if (st == CT_OK && fst.st_size > 0)
        st = ct_csv_check_existing(c, fst.st_size);
    else if (st == CT_OK)
        st = ct_csv_put(c, ct_csv_fmt_header, NULL, "cannot write the header") == CT_OK
                 ? CT_OK
                 : CT_ERR_USAGE;
    if (st != CT_OK) {
        close(c->fd);
        if (c->created) /* a file this run made and could not use */
            unlink(c->target);
        free(c);
        return st;
    }
    *state_p = c;
    return CT_OK;
}

static ct_status_t ct_csv_row(void *state, const ct_report_row_t *row)
{
    ct_csv_report_t *c = state;
    ct_status_t st = ct_csv_put(c, ct_csv_fmt_row, row->result, "write failed");
    if (st == CT_OK)
        c->rows++;
    return st;
}

/* close(2) is where some file systems (NFS) report a failed write. */
static ct_status_t ct_csv_end(void *state, ct_status_t run_status)
{
    ct_csv_report_t *c = state;
    (void)run_status;
    if (!c->own_fd)
        return CT_OK;
    int rc = close(c->fd);
    c->fd = -1;
    c->own_fd = 0;
    if (rc != 0)
        return ct_report_io_error("--csv", c->path, "write failed", errno);
    return CT_OK;
}

/* A file this run created and wrote no row to goes again, so a run that
 * failed before measuring leaves nothing behind. */
static void ct_csv_abort(void *state)
{
    ct_csv_report_t *c = state;
    if (c->own_fd)
        close(c->fd);
    if (c->created && c->rows == 0)
        unlink(c->target);
    free(c);
}

const ct_report_ops_t ct_report_csv = {
    .name = "csv",
    .wanted = ct_csv_wanted,
    .open = ct_csv_open,
    .row = ct_csv_row,
    .end = ct_csv_end,
    .close = free,
    .abort = ct_csv_abort,
};
