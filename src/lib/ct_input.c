/* SPDX-License-Identifier: BSD-3-Clause */
#include "ct_input.h"
#include "ct_path.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

ct_status_t ct_input_open(const char *path, long long max_bytes, FILE **fp_p, char *err,
                          size_t errlen)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return CT_ERR_USAGE;
    }
    struct stat st;
    FILE *f = NULL;
    int flags;
    if (fstat(fd, &st) != 0)
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
    else if (!S_ISREG(st.st_mode))
        snprintf(err, errlen, "%s: is %s, not a regular file", path, ct_path_kind(st.st_mode));
    else if ((long long)st.st_size > max_bytes)
        snprintf(err, errlen, "%s: is %lld bytes; colltune reads at most %lld", path,
                 (long long)st.st_size, max_bytes);
    else if ((flags = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 ||
             (f = fdopen(fd, "r")) == NULL)
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
    if (f == NULL) {
        close(fd);
        return CT_ERR_USAGE;
    }
    *fp_p = f;
    return CT_OK;
}

ct_status_t ct_input_slurp(const char *path, long long max_bytes, int text, char **buf_p,
                           size_t *len_p, char *err, size_t errlen)
{
    FILE *f;
    ct_status_t st = ct_input_open(path, max_bytes, &f, err, errlen);
    if (st != CT_OK)
        return st;
    size_t cap = 65536, len = 0;
    char *buf = malloc(cap);
    while (buf != NULL) {
        if (len + 1 >= cap) {
            char *more = (long long)cap > max_bytes ? NULL : realloc(buf, cap * 2);
            if (more == NULL)
                break;
            buf = more;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        if (n == 0)
            break;
        len += n;
    }
    int bad = buf == NULL || ferror(f) || (long long)len > max_bytes || !feof(f);
    fclose(f);
    if (bad) {
        if (buf == NULL || (long long)len <= max_bytes)
            snprintf(err, errlen, "%s: %s", path, buf == NULL ? "out of memory" : "read error");
        else
            snprintf(err, errlen, "%s: grew past %lld bytes while read", path, max_bytes);
        free(buf);
        return buf == NULL ? CT_ERR_NOMEM : CT_ERR_USAGE;
    }
    buf[len] = '\0';
    const char *nul = text ? memchr(buf, '\0', len) : NULL;
    if (nul != NULL) {
        long line = 1;
        for (const char *p = buf; p < nul; p++)
            line += *p == '\n';
        snprintf(err, errlen, "%s:%ld: a NUL byte (not a text file?)", path, line);
        free(buf);
        return CT_ERR_USAGE;
    }
    *buf_p = buf;
    *len_p = len;
    return CT_OK;
}

ct_status_t ct_input_json(const char *path, long long max_bytes, json_t **doc_p, char *err,
                          size_t errlen)
{
    FILE *f;
    ct_status_t st = ct_input_open(path, max_bytes, &f, err, errlen);
    if (st != CT_OK)
        return st;
    json_error_t je;
    /* A key given twice: jansson would keep the last, without a word
     * (issue 15, E24: a second "schema" was read instead of the first). */
    json_t *doc = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
    fclose(f);
    if (doc == NULL) {
        snprintf(err, errlen, "%s:%d: %s", path, je.line > 0 ? je.line : 1, je.text);
        return CT_ERR_PARSE;
    }
    *doc_p = doc;
    return CT_OK;
}
