/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_emit_mvapich.c - mvapich.env: MPICH's CVAR choices as MVAPICH 3's
 * MVP_ aliases, written only when the MPI library that ran is MVAPICH.
 *
 * MVAPICH has not run here: the results are SYNTHETIC (built by hand),
 * with the first line MPI_Get_library_version gives (collbench's
 * "mpi_library_version") set by hand too.  The shipped
 * tuner/spaces/mvapich-coll.ini is read and each of its variables turned
 * into a choice, so the space and the file agree on the names.
 */
#define _XOPEN_SOURCE 700

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_library.h"
#include "ct_test.h"
#include "emit.h"
#include "emit_format.h"
#include "emit_golden.h"
#include "space.h"

static ct_test_tally_t tally;

#define ANY (-1LL)
#define MVAPICH3 "MVAPICH Version:\t3.0"
/* significant and verified */
#define CH(n, v, sc, lo, hi)                                                                       \
    {                                                                                              \
        .name = n, .value = v, .via = CT_VIA_ENV, .scope = sc, .min_bytes = lo, .max_bytes = hi,   \
        .default_us = 100.0, .tuned_us = 50.0, .significant = 1, .verified = 1                     \
    }

/* An MVAPICH run of mvapich-coll.ini: algorithms with the requires=
 * settings (the fallback guard, never written), one in MPICH_ spelling,
 * one over a size range only (MVAPICH reads a CVAR for every size), one
 * not significant, and another library's choice. */
static ct_tune_choice_t choices[] = {
    CH("MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM", "ring", CT_COLL_ALLREDUCE, ANY, ANY),
    CH("MPIR_CVAR_COLLECTIVE_FALLBACK", "error", CT_COLL_ALLREDUCE, ANY, ANY),
    CH("MPIR_CVAR_ALLREDUCE_DEVICE_COLLECTIVE", "0", CT_COLL_ALLREDUCE, ANY, ANY),
    CH("MPICH_BCAST_INTRA_ALGORITHM", "osu_knomial", CT_COLL_BROADCAST, ANY, ANY),
    CH("MPIR_CVAR_ALLGATHER_INTRA_ALGORITHM", "ring", CT_COLL_ALLGATHER, 65536, ANY),
    {.name = "MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM",
     .value = "scattered",
     .via = CT_VIA_ENV,
     .scope = CT_COLL_ALLTOALL,
     .min_bytes = ANY,
     .max_bytes = ANY,
     .significant = 0,
     .verified = 1},
    CH("UCX_TLS", "sm,self", CT_SCOPE_GLOBAL, ANY, ANY),
};

static ct_tune_result_t result(ct_tune_choice_t *c, size_t n, const char *library)
{
    ct_tune_result_t r = {.space_name = "mvapich-coll",
                          .space_path = "tuner/spaces/mvapich-coll.ini",
                          .run_id = "synthetic-run-0001",
                          .date = "2026-01-02T03:04:05Z",
                          .source = "synthetic",
                          .nranks = 16,
                          .nnodes = 2,
                          .choices = c,
                          .nchoices = n,
                          .mpi_library = library};
    return r;
}
#define NCHOICES (sizeof choices / sizeof choices[0])

/* Whether ct_emit_files names file for r. */
static int emits(const ct_tune_result_t *r, const char *file)
{
    const char *names[32];
    size_t n = ct_emit_files(r, names, 32);
    for (size_t i = 0; i < n && i < 32; i++)
        if (strcmp(names[i], file) == 0)
            return 1;
    return 0;
}

/* The table's identity rule: how MPI_Get_library_version's text starts. */
static void test_ran(void)
{
    const ct_library_t *lib = ct_library_ran(MVAPICH3 "\nMVAPICH Release date:\t...");
    CT_CHECK(&tally, lib != NULL && lib->id == CT_LIB_MVAPICH);
    lib = ct_library_ran("MPICH Version:\t4.0.2");
    CT_CHECK(&tally, lib != NULL && lib->id == CT_LIB_MPICH);
    lib = ct_library_ran("Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4");
    CT_CHECK(&tally, lib != NULL && lib->id == CT_LIB_OMPI);
    /* MVAPICH2 has MV2_ variables, no MVP_ aliases. */
    CT_CHECK(&tally, ct_library_ran("MVAPICH2 Version:\t2.3.7") == NULL);
    CT_CHECK(&tally, ct_library_ran(NULL) == NULL);
    CT_CHECK(&tally, ct_library_ran("") == NULL);
    /* Its row: MVAPICH reads it, MPICH's family is what it carries. */
    const ct_library_file_t *row = ct_library_file_named("mvapich.env");
    CT_CHECK(&tally, row != NULL && row->reader == CT_LIB_MVAPICH && row->carries == CT_LIB_MPICH &&
                         row->load.kind == CT_FILE_LOAD_SOURCED);
}

/* Written only when MVAPICH ran; mpich.env whichever MPICH-based one did. */
static void test_identity(void)
{
    static const char *const others[] = {"MPICH Version:\t4.0.2", "MVAPICH2 Version:\t2.3.7", NULL};
    ct_tune_result_t r = result(choices, NCHOICES, MVAPICH3);
    CT_CHECK(&tally, emits(&r, "mvapich.env") && emits(&r, "mpich.env"));
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        r = result(choices, NCHOICES, others[i]);
        CT_CHECK(&tally, !emits(&r, "mvapich.env") && emits(&r, "mpich.env"));
    }
    /* Nothing of MPICH's for every size: no file. */
    r = result(choices + 4, NCHOICES - 4, MVAPICH3);
    CT_CHECK(&tally, !emits(&r, "mvapich.env"));
}

static void test_golden(const char *dir)
{
    char err[1024] = "";
    ct_tune_result_t r = result(choices, NCHOICES, MVAPICH3);
    ct_status_t st = ct_emit_all_as(&r, dir, EMIT_GOLDEN_WRITER, err, sizeof err);
    CT_CHECK(&tally, st == CT_OK);
    if (st != CT_OK)
        fprintf(stderr, "%s\n", err);
    eg_check_golden(&tally, dir, "mvapich", "mvapich.env");
    char path[4096];
    snprintf(path, sizeof path, "%s/mvapich.env", dir);
    char *text = eg_slurp(path);
    CT_CHECK(&tally, text != NULL && strstr(text, "export MPIR_CVAR") == NULL &&
                         strstr(text, "export MPICH_") == NULL);
    /* The MVP_ spelling of each full-range CVAR, nothing else set. */
    CT_CHECK(&tally, text && strstr(text, "\nexport MVP_ALLREDUCE_INTRA_ALGORITHM=ring\n"));
    CT_CHECK(&tally, text && strstr(text, "\nexport MVP_ALLREDUCE_DEVICE_COLLECTIVE=0\n"));
    CT_CHECK(&tally, text && strstr(text, "\nexport MVP_BCAST_INTRA_ALGORITHM=osu_knomial\n"));
    CT_CHECK(&tally, text && !strstr(text, "export MVP_COLLECTIVE_FALLBACK"));
    CT_CHECK(&tally, text && !strstr(text, "export MVP_ALLGATHER"));
    CT_CHECK(&tally, text && !strstr(text, "ALLTOALL"));
    CT_CHECK(&tally, text && !strstr(text, "UCX_"));
    CT_CHECK(&tally,
             text && strstr(text, "# Not written: MPIR_CVAR_ALLGATHER_INTRA_ALGORITHM=ring"));
    free(text);
    eg_clear(dir);
}

/* The writer alone (emit_format.h), into a temporary file. */
static ct_status_t write_alone(const ct_tune_result_t *r, char *err, size_t errlen)
{
    FILE *fp = tmpfile();
    ct_emit_ctx_t ctx = {r, EMIT_GOLDEN_WRITER, "/nowhere"};
    ct_status_t st = fp ? ct_emit_mvapich_env.write(&ctx, fp, err, errlen) : CT_ERR_IO;
    if (fp)
        fclose(fp);
    return st;
}

/* Two spellings of one CVAR with two values, a value sh would not keep:
 * refused, naming the file; ct_emit_all then leaves the directory as it
 * was. */
static void test_refused(const char *dir)
{
    char err[1024] = "";
    ct_tune_choice_t twice[] = {
        CH("MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM", "ring", CT_COLL_ALLREDUCE, ANY, ANY),
        CH("MPICH_ALLREDUCE_INTRA_ALGORITHM", "tree", CT_COLL_ALLREDUCE, ANY, ANY),
    };
    ct_tune_result_t r = result(twice, 2, MVAPICH3);
    CT_CHECK(&tally, write_alone(&r, err, sizeof err) == CT_ERR_USAGE);
    CT_CHECK_STR(&tally, err,
                 "mvapich.env: MVP_ALLREDUCE_INTRA_ALGORITHM chosen as both ring and tree");
    CT_CHECK(&tally, ct_emit_all_as(&r, dir, EMIT_GOLDEN_WRITER, err, sizeof err) == CT_ERR_USAGE);
    CT_CHECK(&tally, !eg_has(dir, "mvapich.env") && !eg_has(dir, "mpich.env"));
    /* The same value twice is one line. */
    twice[1].value = "ring";
    CT_CHECK(&tally, write_alone(&r, err, sizeof err) == CT_OK);

    ct_tune_choice_t bad[] = {
        CH("MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM", "ring;reboot", CT_COLL_ALLREDUCE, ANY, ANY),
    };
    r = result(bad, 1, MVAPICH3);
    CT_CHECK(&tally, write_alone(&r, err, sizeof err) == CT_ERR_USAGE);
    CT_CHECK(&tally, strncmp(err, "mvapich.env: ", 13) == 0 && strstr(err, "';'") != NULL);
    eg_clear(dir);
}

/* The shipped space: each variable, at its first value past MVAPICH's
 * default, is written under its MVP_ name. */
static void test_space(const char *dir)
{
    char path[4096], err[1024] = "";
    ct_space_t space;
    snprintf(path, sizeof path, "%s/mvapich-coll.ini", EMIT_SPACES_DIR);
    ct_status_t st = ct_space_load(path, &space, err, sizeof err);
    CT_CHECK(&tally, st == CT_OK);
    if (st != CT_OK) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    CT_CHECK(&tally, space.nvars == 5);
    ct_tune_choice_t *c = calloc(space.nvars, sizeof *c);
    for (size_t i = 0; c != NULL && i < space.nvars; i++) {
        const ct_space_var_t *v = &space.vars[i];
        /* MPICH's names, set at launch, every one with its guard. */
        CT_CHECK(&tally, ct_setting_is(v->name, v->via, CT_LIB_MPICH) && v->runtime == 0 &&
                             v->nvalues > 2 && strcmp(v->values[0], "auto") == 0 &&
                             v->nrequires == 2);
        ct_tune_choice_t one = CH(v->name, v->values[1], v->scope, ANY, ANY);
        c[i] = one;
    }
    ct_tune_result_t r = result(c, c ? space.nvars : 0, MVAPICH3);
    st = ct_emit_all_as(&r, dir, EMIT_GOLDEN_WRITER, err, sizeof err);
    CT_CHECK(&tally, st == CT_OK);
    snprintf(path, sizeof path, "%s/mvapich.env", dir);
    char *text = eg_slurp(path);
    for (size_t i = 0; c != NULL && i < space.nvars; i++) {
        char line[512];
        snprintf(line, sizeof line, "\nexport MVP_%s=%s\n", c[i].name + strlen("MPIR_CVAR_"),
                 c[i].value);
        CT_CHECK(&tally, text != NULL && strstr(text, line) != NULL);
    }
    free(text);
    free(c);
    ct_space_free(&space);
    eg_clear(dir);
}

int main(void)
{
    char dir[] = "/tmp/ct_emit_mvapich_XXXXXX";
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    test_ran();
    test_identity();
    test_golden(dir);
    test_refused(dir);
    test_space(dir);
    eg_clear(dir);
    rmdir(dir);
    return CT_DONE(&tally);
}
