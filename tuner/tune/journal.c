/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * journal.c - appending trials durably to DIR/journal.jsonl, and reading
 * them back.
 *
 * Each append is one write(2) of the whole line, newline included, then
 * fsync(2): a line is either complete or the torn last line of the file.
 * Opening cuts a torn tail back to the last newline, so the next line
 * starts on a line of its own.  One colltune appends to a journal at a
 * time (the output directory is its own).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ct_input.h"
#include "ct_outfile.h"
#include "ct_json.h"
#include "ct_vec.h"
#include "journal.h"

/* fsync of the directory, so a new journal's name survives a crash too. */
static void ct_journal_sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

/* Cuts an unterminated last line off the file open as fd. */
static ct_status_t ct_journal_cut_torn(int fd, const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return CT_ERR_IO;
    }
    off_t end = st.st_size;
    char buf[4096];
    while (end > 0) {
        off_t start = end > (off_t)sizeof buf ? end - (off_t)sizeof buf : 0;
        ssize_t n = pread(fd, buf, (size_t)(end - start), start);
        if (n != end - start) {
            snprintf(err, errlen, "%s: cannot read: %s", path, n < 0 ? strerror(errno) : "short");
            return CT_ERR_IO;
        }
        ssize_t i = n - 1;
        while (i >= 0 && buf[i] != '\n')
            i--;
        if (i >= 0) {
            end = start + i + 1;
            break;
        }
        end = start;
    }
    if (end == st.st_size)
        return CT_OK;
    if (ftruncate(fd, end) != 0 || fsync(fd) != 0) {
        snprintf(err, errlen, "%s: cannot cut the torn last line: %s", path, strerror(errno));
        return CT_ERR_IO;
    }
    return CT_OK;
}

/* Whether line (len bytes, no newline) is a journal's: a trial. */
static int ct_journal_is_line(const char *line, size_t len)
{
    json_t *obj = json_loadb(line, len, 0, NULL);
    ct_trial_t t;
    char why[256];
    int ok = json_is_object(obj) && ct_trial_from_json(obj, &t, why, sizeof why) == CT_OK;
    if (ok)
        ct_trial_free(&t);
    json_decref(obj);
    return ok;
}

/* fd is a regular file that is empty or starts with a journal line. */
static ct_status_t ct_journal_check_own(int fd, const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: is not a regular file; a journal must be one", path);
        return CT_ERR_USAGE;
    }
    if (st.st_size == 0)
        return CT_OK;
    char buf[65536];
    ssize_t n = pread(fd, buf, sizeof buf, 0);
    char *nl = n > 0 ? memchr(buf, '\n', (size_t)n) : NULL;
    if (n > 0 && nl == NULL && (size_t)n < sizeof buf && strncmp(buf, "{\"key\":", 7) == 0)
        return CT_OK; /* one torn trial line: a journal killed in its first write */
    if (nl == NULL || !ct_journal_is_line(buf, (size_t)(nl - buf))) {
        snprintf(err, errlen,
                 "%s: its first line is not a colltune journal's; not touching it (another "
                 "--out?)",
                 path);
        return CT_ERR_USAGE;
    }
    return CT_OK;
}

ct_status_t ct_journal_open(ct_journal_t *journal, const char *dir, char *err, size_t errlen)
{
    journal->fd = -1;
    if ((size_t)snprintf(journal->path, sizeof journal->path, "%s/%s", dir, CT_JOURNAL_FILE) >=
        sizeof journal->path) {
        snprintf(err, errlen, "%s: path too long", dir);
        return CT_ERR_USAGE;
    }
    int existed = access(journal->path, F_OK) == 0;
    /* Never through a link, never anything but a regular file, never a
     * file whose first line is not a journal's: opening cuts a torn tail
     * and appends, which would damage whatever else it was (E4). */
    int fd = open(journal->path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK,
                  0644);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", journal->path,
                 errno == ELOOP ? "is a symbolic link; a journal must be a regular file"
                                : strerror(errno));
        return CT_ERR_USAGE;
    }
    ct_status_t st = ct_journal_check_own(fd, journal->path, err, errlen);
    if (st == CT_OK)
        st = ct_journal_cut_torn(fd, journal->path, err, errlen);
    if (st != CT_OK) {
        close(fd);
        return st;
    }
    if (!existed)
        ct_journal_sync_dir(dir);
    journal->fd = fd;
    return CT_OK;
}

ct_status_t ct_journal_append(ct_journal_t *journal, const ct_trial_t *trial, char *err,
                              size_t errlen)
{
    json_t *obj = ct_trial_json(trial);
    /* Compact: jansson escapes control characters, so the line holds no
     * newline but its last. */
    char *text = obj ? json_dumps(obj, JSON_COMPACT) : NULL;
    json_decref(obj);
    if (text == NULL) {
        snprintf(err, errlen, "%s: out of memory", journal->path);
        return CT_ERR_NOMEM;
    }
    size_t len = strlen(text);
    char *line = realloc(text, len + 2);
    if (line == NULL) {
        free(text);
        snprintf(err, errlen, "%s: out of memory", journal->path);
        return CT_ERR_NOMEM;
    }
    line[len] = '\n';
    line[len + 1] = '\0';
    ssize_t n;
    do
        n = write(journal->fd, line, len + 1);
    while (n < 0 && errno == EINTR);
    int saved = errno;
    free(line);
    if (n != (ssize_t)(len + 1)) {
        /* A short write leaves a torn line: cut it, so the file stays a
         * journal of whole lines. */
        char ignore[256];
        (void)ct_journal_cut_torn(journal->fd, journal->path, ignore, sizeof ignore);
        snprintf(err, errlen, "%s: cannot append: %s", journal->path,
                 n < 0 ? strerror(saved) : "short write (disk full?)");
        return CT_ERR_IO;
    }
    if (fsync(journal->fd) != 0) {
        snprintf(err, errlen, "%s: cannot sync: %s", journal->path, strerror(errno));
        return CT_ERR_IO;
    }
    return CT_OK;
}

void ct_journal_close(ct_journal_t *journal)
{
    if (journal->fd >= 0)
        close(journal->fd);
    journal->fd = -1;
}

static ct_status_t ct_journal_push(ct_journal_entries_t *e, size_t *cap, ct_trial_t *t)
{
    return CT_VEC_PUSH(e->trials, e->n, *cap, t);
}

/* Whether t repeats a trial of e (scope, key and launch): a journal lists
 * each trial once, or the report's counters disagree (E16). */
static int ct_journal_duplicate(const ct_journal_entries_t *e, const ct_trial_t *t, char *why,
                                size_t whylen)
{
    if (t->launch < 0 || t->launch > CT_JOURNAL_MAX_LAUNCH) {
        snprintf(why, whylen, "launch %ld: not 0 to %d", t->launch, CT_JOURNAL_MAX_LAUNCH);
        return 1;
    }
    for (size_t i = 0; i < e->n; i++)
        if (e->trials[i].launch == t->launch && strcmp(e->trials[i].key, t->key) == 0 &&
            strcmp(e->trials[i].scope, t->scope) == 0) {
            snprintf(why, whylen, "trial %s %s #%ld is journaled twice", t->scope, t->key,
                     t->launch);
            return 1;
        }
    return 0;
}

/* One complete line (without its newline) into a trial. */
static ct_status_t ct_journal_parse_line(const char *text, size_t len, ct_trial_t *t, char *why,
                                         size_t whylen)
{
    json_error_t jerr;
    json_t *obj = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (obj == NULL) {
        snprintf(why, whylen, "not JSON: %s (column %d)", jerr.text, jerr.column);
        return CT_ERR_PARSE;
    }
    ct_status_t st = ct_trial_from_json(obj, t, why, whylen);
    json_decref(obj);
    if (st != CT_OK)
        return st;
    char key[17];
    ct_space_config_key(t->settings, t->nsettings, key, sizeof key);
    if (strcmp(key, t->key) != 0) {
        snprintf(why, whylen, "key: %s is not the key of its config (%s)", t->key, key);
        ct_trial_free(t);
        return CT_ERR_PARSE;
    }
    return CT_OK;
}

ct_status_t ct_journal_read(const char *path, ct_journal_entries_t *entries_p, char *err,
                            size_t errlen)
{
    memset(entries_p, 0, sizeof *entries_p);
    struct stat lst;
    if (lstat(path, &lst) != 0 && errno == ENOENT)
        return CT_OK; /* no journal yet */
    FILE *fp;
    ct_status_t ost = ct_input_open(path, CT_INPUT_MAX_DATA, &fp, err, errlen);
    if (ost != CT_OK)
        return ost; /* a directory, a FIFO, a dangling link: exit 2 (E16) */
    char *line = NULL, why[512];
    size_t cap = 0, ecap = 0;
    ssize_t len;
    int lineno = 0;
    ct_status_t st = CT_OK;
    while (st == CT_OK && (len = getline(&line, &cap, fp)) >= 0) {
        lineno++;
        if (line[len - 1] != '\n') {
            entries_p->torn = 1; /* killed mid-write: that trial did not finish */
            break;
        }
        ct_trial_t t;
        st = ct_journal_parse_line(line, (size_t)len - 1, &t, why, sizeof why);
        if (st == CT_OK && ct_journal_duplicate(entries_p, &t, why, sizeof why)) {
            ct_trial_free(&t);
            st = CT_ERR_PARSE;
        }
        if (st != CT_OK) {
            snprintf(err, errlen, "%s:%d: %s", path, lineno, why);
            break;
        }
        if ((st = ct_journal_push(entries_p, &ecap, &t)) != CT_OK) {
            ct_trial_free(&t);
            snprintf(err, errlen, "%s: out of memory", path);
        }
    }
    if (st == CT_OK && ferror(fp)) {
        snprintf(err, errlen, "%s: read error", path);
        st = CT_ERR_IO;
    }
    free(line);
    fclose(fp);
    if (st != CT_OK)
        ct_journal_entries_free(entries_p);
    return st;
}

void ct_journal_entries_free(ct_journal_entries_t *entries)
{
    for (size_t i = 0; i < entries->n; i++)
        ct_trial_free(&entries->trials[i]);
    free(entries->trials);
    memset(entries, 0, sizeof *entries);
}

const ct_trial_t *ct_journal_find(const ct_journal_entries_t *entries, const char *key, long launch)
{
    for (size_t i = 0; i < entries->n; i++)
        if (entries->trials[i].launch == launch && strcmp(entries->trials[i].key, key) == 0)
            return &entries->trials[i];
    return NULL;
}

json_t *ct_journal_header(const char *space, const char *space_hash, const char *collbench_args,
                          const char *launcher, const char *objective, const char *env,
                          const char *mca, const char *collbench)
{
    json_t *h = json_object();
    int bad = h == NULL;
    bad = bad || ct_json_set(h, "journal", ct_json_str(CT_JOURNAL_VERSION));
    bad = bad || ct_json_set(h, "space", ct_json_str(space));
    bad = bad || ct_json_set(h, "space_hash", ct_json_str(space_hash));
    bad = bad || ct_json_set(h, "collbench_args", ct_json_str(collbench_args));
    bad = bad || ct_json_set(h, "launcher", ct_json_str(launcher));
    bad = bad || ct_json_set(h, "objective", ct_json_str(objective));
    bad = bad || ct_json_set(h, "env", ct_json_str(env));
    bad = bad || ct_json_set(h, "mca", ct_json_str(mca));
    bad = bad || ct_json_set(h, "collbench", ct_json_str(collbench));
    if (bad) {
        json_decref(h);
        return NULL;
    }
    return h;
}

ct_status_t ct_journal_header_write(const char *dir, const json_t *header, char *err, size_t errlen)
{
    char path[4096];
    ct_outfile_t out;
    if (snprintf(path, sizeof path, "%s/%s", dir, CT_JOURNAL_HEAD_FILE) >= (int)sizeof path) {
        snprintf(err, errlen, "%s: path too long", dir);
        return CT_ERR_USAGE;
    }
    ct_status_t st = ct_outfile_open(&out, path, 0666, err, errlen);
    if (st != CT_OK)
        return st;
    if (json_dumpf(header, out.fp, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0) {
        snprintf(err, errlen, "cannot write %s: out of memory", path);
        ct_outfile_abort(&out);
        return CT_ERR_IO;
    }
    return ct_outfile_commit(&out, err, errlen);
}

/* What --resume compares, the option each member records, and what a head
 * written before the member existed meant by its absence (NULL: the
 * member is required). */
static const struct {
    const char *field, *option, *absent;
} ct_journal_head_fields[] = {
    {"space_hash", "--space", NULL},
    {"collbench_args", "the collbench arguments", NULL},
    {"launcher", "--launcher, --np, --hostfile, --launcher-arg", NULL},
    /* before --objective every trial ran collbench's then default -a 3 */
    {"objective", "--objective", "max"},
    /* before these were recorded: taken as none given, so a tune that had
     * some is refused rather than mixed with one that has none */
    {"env", "--env", "[]"},
    {"mca", "--mca", "[]"},
    {"collbench", "--collbench", ""},
};

/* A head whose members are not what colltune writes: named as malformed
 * (its file, the member, what is wrong), not taken for another tune's. */
static int ct_journal_head_malformed(const char *path, const json_t *h, char *err, size_t errlen)
{
    if (!json_is_object(h)) {
        snprintf(err, errlen, "%s: malformed: not a JSON object", path);
        return 1;
    }
    const json_t *v = json_object_get(h, "journal");
    if (!json_is_string(v)) {
        snprintf(err, errlen, "%s: field journal: %s", path, v ? "not a string" : "missing");
        return 1;
    }
    for (size_t i = 0; i < sizeof ct_journal_head_fields / sizeof ct_journal_head_fields[0]; i++) {
        const char *f = ct_journal_head_fields[i].field;
        v = json_object_get(h, f);
        if (v == NULL && ct_journal_head_fields[i].absent != NULL)
            continue; /* from an older colltune: ct_journal_header_check says so */
        if (!json_is_string(v)) {
            snprintf(err, errlen, "%s: field %s: %s", path, f, v ? "not a string" : "missing");
            return 1;
        }
    }
    return 0;
}

ct_status_t ct_journal_header_read(const char *dir, json_t **header_p, char *err, size_t errlen)
{
    char path[4096];
    *header_p = NULL;
    if (snprintf(path, sizeof path, "%s/%s", dir, CT_JOURNAL_HEAD_FILE) >= (int)sizeof path) {
        snprintf(err, errlen, "%s: path too long", dir);
        return CT_ERR_USAGE;
    }
    struct stat st;
    if (lstat(path, &st) != 0 && errno == ENOENT)
        return CT_OK; /* the caller decides: no trials, or refused */
    ct_status_t rc = ct_input_json(path, CT_INPUT_MAX_CONFIG, header_p, err, errlen);
    if (rc == CT_OK && ct_journal_head_malformed(path, *header_p, err, errlen)) {
        json_decref(*header_p);
        *header_p = NULL;
        return CT_ERR_USAGE;
    }
    const char *v = rc == CT_OK ? json_string_value(json_object_get(*header_p, "journal")) : NULL;
    if (rc == CT_OK && (v == NULL || strcmp(v, CT_JOURNAL_VERSION) != 0)) {
        snprintf(err, errlen, "%s: journal version '%s': this colltune writes %s", path,
                 v ? v : "?", CT_JOURNAL_VERSION);
        json_decref(*header_p);
        *header_p = NULL;
        rc = CT_ERR_USAGE;
    }
    return rc;
}

int ct_journal_header_check(const json_t *have, const json_t *want, char *err, size_t errlen)
{
    for (size_t i = 0; i < sizeof ct_journal_head_fields / sizeof ct_journal_head_fields[0]; i++) {
        const char *f = ct_journal_head_fields[i].field;
        const char *absent = ct_journal_head_fields[i].absent;
        json_t *hv = have ? json_object_get(have, f) : NULL;
        const char *h = json_string_value(hv);
        const char *w = json_string_value(json_object_get(want, f));
        int old = hv == NULL && absent != NULL;
        if (old)
            h = absent;
        if (h == NULL || w == NULL || strcmp(h, w) != 0) {
            snprintf(err, errlen,
                     "the journal is another tune's: its %s is '%s', this one's '%s' (%s)%s", f,
                     h ? h : "?", w ? w : "?", ct_journal_head_fields[i].option,
                     old ? "; its head, from an older colltune, lacks it: taken as that" : "");
            return -1;
        }
    }
    return 0;
}
