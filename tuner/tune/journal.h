/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * journal.h - the trial journal: DIR/journal.jsonl, one JSON object per
 * finished trial, one line each.
 *
 * Durability is per line: a line is appended with one write(2) and then
 * fsync'ed before the append returns, so a finished trial survives a
 * SIGKILL or a crash of colltune.  Only the last line can be torn (killed
 * mid-write): the reader ignores an unterminated last line, and opening the
 * journal to append cuts such a tail off first, so a new line never merges
 * into it.  Any other line that does not parse is an error naming
 * file:line: the journal is the record of money spent, and silently
 * dropping trials from its middle would hide a real problem.
 *
 * Record members (documented in tuner/spaces/README.md): key, scope,
 * config (NAME -> {value, via}), launch, status, reason, exit_code,
 * wall_s, group (optional), rows [{collective, dtype (optional), bytes, placement,
 * nranks and nnodes (optional),
 * median_us, ci_low_us, ci_high_us, busbw_gbps, samples, wrong}], refused (optional:
 * [{collective, dtype, reason}], what the library refused under this configuration
 * while the other collectives ran).
 */
#ifndef CT_JOURNAL_H
#define CT_JOURNAL_H

#include <jansson.h>
#include <stddef.h>
#include "ct_result.h"
#include "ct_status.h"
#include "space.h"

#define CT_JOURNAL_FILE "journal.jsonl"
#define CT_JOURNAL_HEAD_FILE "journal.head.json"
#define CT_JOURNAL_VERSION "colltune-journal/1"
/* A configuration is launched far fewer times than this. */
#define CT_JOURNAL_MAX_LAUNCH 1000000000

typedef enum {
    CT_JOURNAL_OK,
    CT_JOURNAL_WRONG,           /* collbench exit 1: #wrong > 0 */
    CT_JOURNAL_CRASH,           /* a signal, or exit 3 / anything unexpected */
    CT_JOURNAL_TIMEOUT,         /* killed by the trial timeout (or exit 124) */
    CT_JOURNAL_UNAVAILABLE,     /* exit 77: the backend cannot run here */
    CT_JOURNAL_BAD_INPUT,       /* exit 2 */
    CT_JOURNAL_SKIPPED_INVALID, /* never launched: invalid at this scale (reason says why) */
    CT_JOURNAL_STATUS_COUNT
} ct_journal_status_t;

/* One measured row of a trial, what the search needs of ct_result_t. */
typedef struct {
    char collective[24];
    long long bytes;
    char placement[16];
    double median_us;
    double ci_low_us; /* NaN when collbench could not say (written as null) */
    double ci_high_us;
    double busbw_gbps;
    long long samples;
    long long wrong; /* -1: not checked */
    char dtype[16];  /* "" in journals from before it was recorded */
    /* The job shape it was measured at (collbench --shapes measures
     * several in one launch, each on a sub-communicator of its own); 0 in
     * journals from before it was recorded. */
    long long nranks, nnodes;
} ct_trial_row_t;

/* One collective x dtype the library refused, and its message. */
typedef struct {
    char collective[24];
    char dtype[16];
    char *reason; /* owned */
} ct_trial_refusal_t;

typedef struct {
    char key[17];   /* ct_space_config_key of settings */
    char scope[24]; /* "global" or a collective */
    ct_space_setting_t *settings;
    size_t nsettings;
    long launch; /* which launch of this configuration (0, 1, ...) */
    ct_journal_status_t status;
    char *reason; /* why skipped or failed; NULL when none */
    int exit_code;
    double wall_s;
    long nranks, nnodes; /* the scale collbench saw (results.csv); 0: unknown */
    /* The launch it was measured in when that launch measured several
     * configurations (collbench --config): trials with the same group ran
     * side by side in one process, so they pair.  "": a launch of its own. */
    char group[64];
    ct_trial_row_t *rows;
    size_t nrows;
    /* Collectives the library refused under this configuration (collbench
     * exit 4: NCCL's invalid usage when NCCL_ALGO/NCCL_PROTO leave a call
     * no algorithm, MPICH's forced algorithm that cannot run): invalid for
     * those collectives only, so the trial stays ok and its other rows
     * count (tune_trial.c drops the refused ones' rows). */
    ct_trial_refusal_t *refused;
    size_t nrefused;
} ct_trial_t;

/* "ok", "wrong", "crash", "timeout", "unavailable", "bad-input",
 * "skipped-invalid"; and back (-1 when unknown). */
const char *ct_journal_status_name(ct_journal_status_t status);
int ct_journal_status_parse(const char *name);

/* Fills trial->settings (copied), key and scope from a configuration. */
ct_status_t ct_trial_set_config(ct_trial_t *trial, const ct_space_config_t *config,
                                const char *scope);
/* Reads the rows of a collbench results CSV into trial->rows (replacing
 * them), by ct_results_read.  CT_ERR_PARSE with "path:line: ..." in err
 * for a bad file, CT_ERR_USAGE with "path: reason" for one that cannot be
 * opened. */
ct_status_t ct_trial_read_csv(ct_trial_t *trial, const char *path, char *err, size_t errlen);
/* The same, for the rows of configuration config (0, 1, ...: collbench
 * --config's numbering) of a launch that measured several; -1: every row.
 * id: that configuration's config_id (ct_trial_read_json), or NULL or ""
 * to take the ids in the order they first appear (wrong once a refused
 * collective leaves a configuration out of the first rows).  A
 * configuration the file has no rows of gets none. */
#define CT_TRIAL_MAX_CONFIGS 65
ct_status_t ct_trial_read_csv_config(ct_trial_t *trial, const char *path, long config,
                                     const char *id, char *err, size_t errlen);
/* What collbench's JSON (--json) at path says of configuration config
 * (-1: a launch without --config): its "refused" entries into
 * trial->refused, and its config_id into id (room for 24; "" without
 * --config).  A missing file is CT_ERR_USAGE, a file that is not
 * collbench's JSON CT_ERR_PARSE, each with err.  When libs is set, each
 * of its fields still NULL gets, from the same read, what the run loaded
 * (malloc'ed): the libmpich's path (fingerprint.libraries) and
 * MPI_Get_library_version's text ("mpi_library_version"). */
typedef struct {
    char *mpich_lib;
    char *mpi_library;
} ct_trial_libs_t;
ct_status_t ct_trial_read_json(ct_trial_t *trial, const char *path, long config, char *id,
                               ct_trial_libs_t *libs, char *err, size_t errlen);
/* Appends one refusal (reason copied). */
ct_status_t ct_trial_add_refusal(ct_trial_t *trial, const char *collective, const char *dtype,
                                 const char *reason);
void ct_trial_free(ct_trial_t *trial);

/* An open journal, for appending. */
typedef struct {
    int fd;
    char path[4096];
} ct_journal_t;

/* Opens (creating) DIR/journal.jsonl for appending; an unterminated last
 * line (a torn write) is cut off first. */
ct_status_t ct_journal_open(ct_journal_t *journal, const char *dir, char *err, size_t errlen);
/* Appends trial as one line and fsyncs it. */
ct_status_t ct_journal_append(ct_journal_t *journal, const ct_trial_t *trial, char *err,
                              size_t errlen);
void ct_journal_close(ct_journal_t *journal);

/* The finished trials of a journal file, in order. */
typedef struct {
    ct_trial_t *trials;
    size_t n;
    int torn; /* the last line was unterminated and was ignored */
} ct_journal_entries_t;

/* Reads path (a missing file is an empty journal).  A complete line that is
 * not a trial is CT_ERR_PARSE with "path:line: why" in err. */
ct_status_t ct_journal_read(const char *path, ct_journal_entries_t *entries_p, char *err,
                            size_t errlen);
void ct_journal_entries_free(ct_journal_entries_t *entries);

/* The entry for key at launch, or NULL: what --resume skips. */
const ct_trial_t *ct_journal_find(const ct_journal_entries_t *entries, const char *key,
                                  long launch);

/* The record as a JSON object (for the journal line and the reports). */
json_t *ct_trial_json(const ct_trial_t *trial);
/* And back; CT_ERR_PARSE with the member at fault in why. */
ct_status_t ct_trial_from_json(const json_t *obj, ct_trial_t *trial_p, char *why, size_t whylen);

/* Which tune a journal belongs to, in DIR/journal.head.json beside it,
 * so that --resume never mixes two tunes' trials (E12) nor evidence from
 * two launch settings: {"journal": "colltune-journal/1", "space": NAME,
 * "space_hash": HEX, "collbench_args": TEXT, "launcher": TEXT,
 * "objective": "max"|"avg", "env": TEXT, "mca": TEXT, "collbench": PATH}
 * (TEXT: a JSON array's compact text; launcher: [words, np, hostfile,
 * --launcher-arg...]; objective: tune --objective, the collbench -a of
 * every trial; env/mca: the user's --env/--mca "NAME=VALUE" in order;
 * collbench: --collbench, "" for the default).  A new object; NULL without
 * memory. */
json_t *ct_journal_header(const char *space, const char *space_hash, const char *collbench_args,
                          const char *launcher, const char *objective, const char *env,
                          const char *mca, const char *collbench);

/* Writes header to DIR/journal.head.json (beside, then renamed). */
ct_status_t ct_journal_header_write(const char *dir, const json_t *header, char *err,
                                    size_t errlen);

/* Reads DIR/journal.head.json into *header_p (NULL when there is none:
 * the caller refuses a journal with trials and no head).
 * CT_ERR_USAGE/PARSE with err otherwise; a head that is not an object, or
 * whose members are not strings (or a required one missing), is
 * CT_ERR_USAGE with "DIR/journal.head.json: field F: not a string". */
ct_status_t ct_journal_header_read(const char *dir, json_t **header_p, char *err, size_t errlen);

/* Whether the journal's header have belongs to the tune described by
 * want: 0, or -1 with err naming the first member that differs, both
 * values and the option that sets it.  have NULL (no head) compares as a
 * head with no members.  A member a head from an older colltune lacks is
 * taken as what that colltune did: "objective" as "max" (every trial ran
 * collbench's then default -a 3), "env" and "mca" as "[]" and
 * "collbench" as "" (none given), so a tune begun with some is refused,
 * never mixed, and the message says the value was taken so. */
int ct_journal_header_check(const json_t *have, const json_t *want, char *err, size_t errlen);

#endif
