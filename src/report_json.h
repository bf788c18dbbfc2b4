/*
 * report_json.h - the --json file: every row plus the run's metadata.
 *
 * Written by rank 0 at the end of the run to FILE.tmp and renamed, so a
 * reader never sees half a document (the CSV is the incremental record).
 * results/README.md documents the schema.
 */
#ifndef CT_REPORT_JSON_H
#define CT_REPORT_JSON_H

#include "ct_tuning_env.h"
#include "engine.h"
#include "rankinfo.h"

typedef struct {
    const ct_engine_t *engine;
    int argc;
    char **argv;
    const ct_rankinfo_t *ranks; /* world-size entries */
    const ct_tuning_env_t *env;
    const char *end_time;
    const char *status;         /* "ok", "wrong", "error" */
} ct_report_json_t;

ct_status_t ct_report_json_write(const char *path, const ct_report_json_t *report);

/* The version of the libucp this process has loaded, or NULL. */
const char *ct_report_ucx_version(void);

#endif
