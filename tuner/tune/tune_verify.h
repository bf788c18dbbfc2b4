/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_verify.h - the last step of a tune: an interleaved A/B on fresh
 * launches in which the tuned side runs with the emitted files themselves
 * (each loaded as its emitter's entry says, ct_emit_load_t in emit.h:
 * --mca mca_base_param_files, UCX_CONFIG_DIR, NCCL_CONF_FILE,
 * NCCL_TUNER_CONFIG_FILE), not with the variables the search forced: Open
 * MPI ignores a rules file it cannot use without a word, so only a
 * measurement shows that a file does what the search found.
 *
 * Do no harm: a file reaches more than the cells the search measured, so
 * the A/B measures everything it reaches.  Its launches run every
 * collective of the backend (-C all) at the sizes the search measured,
 * at 8 B, 4 KiB, 1 MiB and the largest measured size, and at every power
 * of two inside each choice's range (collbench --sizes); on NCCL a second
 * kind of launch runs the datatypes frameworks use (int8 broadcast and
 * allgather, bfloat16 allreduce) at the four check sizes.  Each kind of
 * launch is a scope of its own ("verify", "verify-dtypes") with two
 * configurations, run by the tune's own trial code (journaled,
 * resumable): [0] the defaults (the space's fixed settings), [1] the same
 * plus the settings that point at the candidate files in DIR/verify/.
 * Pairs alternate their order (A B, B A, ...) so a slow spell hits both
 * sides alike.
 *
 * The test, per collective x datatype x size: one-sided exact
 * Mann-Whitney over the launch medians (CT_TUNE_VERIFY_ALPHA).  A cell
 * "holds alone" where the tuned side is faster (p <= alpha) by at least
 * CT_TUNE_MARGIN; it is "slower" (harm) where the default is faster
 * (p <= alpha) by at least CT_TUNE_HARM_MARGIN (tune_decide.h says why).
 *
 * Across cells, Benjamini-Hochberg at q = CT_TUNE_VERIFY_FDR (0.05).
 * One A/B tests dozens of cells, and at p <= 0.05 one in 20 holds by
 * chance (47 cells: two or three a run).  The family is the cells that
 * can verify a choice: the measured ones ("tuned") of the first kind of
 * launch that a writable choice reaches over its range as searched, m of
 * them.  Their p_faster, ascending, p(1) <= ... <= p(m); every cell up to
 * the largest k with p(k) <= k q / m passes (its adjusted p <= q), and a
 * cell "holds" when it passes and holds alone.  The arithmetic:
 *   - At 5 pairs (CT_TUNE_VERIFY_MIN_PAIRS) the smallest one-sided exact
 *     p is 1/C(10,5) = 1/252 = 0.0040, and the next 2/252, 4/252, 7/252,
 *     12/252 = 0.048.  Holm (or Bonferroni) needs the best cell at q/m,
 *     below 1/252 from m = 13: no A/B of 13 cells or more could verify
 *     anything at the default pairs, however large the gain.  BH passes k
 *     cells at 1/252 together once k q/m >= 1/252, k >= m/12.6: one cell
 *     of up to 12, two of 25, four of 50 (47 cells: 4 x 0.05/47 = 0.0043).
 *     A gain that holds at several sizes still verifies; one strong cell
 *     among many does not verify alone.
 *   - With no difference anywhere, BH passes any cell with probability at
 *     most q (Benjamini and Hochberg 1995, independent tests; Benjamini
 *     and Yekutieli 2001, positively dependent ones): at most one A/B in
 *     20 holds a cell.  When it does it may hold two, but the levels
 *     k q/m round down to p's 5 pairs can give: m = 1 holds 12/252 =
 *     0.048 cells an A/B, m = 2 2 x 4/252 x 240/252 + 2 x (12/252)^2 =
 *     0.035, and larger families less.  tests/unit/test_tune_verify.c
 *     measures it on simulated A/Bs (m from 1 to 47: 14 cells held in
 *     800, where the per-cell rule held 544), bench/ab-null on real ones.
 *   - Where a choice's own t cells cannot pass even if each reads the
 *     smallest p its launch counts give (p_min > t q / m), its verdict
 *     says so and names the --verify-pairs whose p_min could.
 * Cells of the datatype launches, unmeasured cells and the confirmation
 * verify no choice, so they are outside the family; the weighted time
 * (--weights) is one test and takes alpha as it is.
 *   - Any launch of either side that fails, gives wrong results or has a
 *     collective refused (NCCL's invalid usage) verifies nothing.
 *   - A per-collective choice: its range shrinks to the part between
 *     slower cells of its collective that holds the most measured sizes
 *     where the gain holds; it is verified when the gain holds at more
 *     than half of the measured sizes of that part.
 *   - A global choice (it reaches everything): verified when no cell of
 *     any kind is slower and, with --weights, the weighted time per launch
 *     passes the test, without, the gain holds at a measured size.
 *   - A slower cell no choice reaches is reported (the files change
 *     nothing there) and blocks nothing.
 * The A/B checks dozens of cells, so some read slower by chance (a cell
 * at p <= 0.05 is 1 in 20 under no difference at all).  A slower cell a
 * choice reaches is therefore a suspect until confirmed: a second A/B of
 * as many fresh pairs ("verify-confirm", only the suspects' collectives,
 * datatypes and sizes) must find it slower too.
 */
#ifndef CT_TUNE_VERIFY_H
#define CT_TUNE_VERIFY_H

#include <stddef.h>

#include "launch_opts.h"
#include "tune_state.h"
#include "tune_result.h"
#include "tune_weights.h"

#define CT_TUNE_VERIFY_NAME "verify"
#define CT_TUNE_VERIFY_DTYPES_NAME "verify-dtypes"
#define CT_TUNE_VERIFY_CONFIRM_NAME "verify-confirm"
/* Kinds of A/B launch: every collective; NCCL's framework datatypes; the
 * confirmation of suspects. */
#define CT_TUNE_VERIFY_MAX_SCOPES 3
/* Most sizes one A/B launch measures. */
#define CT_TUNE_VERIFY_MAX_SIZES 64

/* One collective x datatype x size of the A/B. */
typedef struct {
    const char *coll;
    const char *dtype;
    long long bytes;
    long long nranks, nnodes; /* its shape with --shapes (each judged at its own); 0 without */
    int tuned;                /* the search measured this collective at this size (and shape) */
    int reach;                /* choices that reach it (their ranges after shrinking) */
    double def_us, def_lo, def_hi, def_bw;
    double tun_us, tun_lo, tun_hi, tun_bw;
    size_t ndef, ntun;
    double p_faster; /* tuned faster than default */
    double p_slower; /* default faster than tuned */
    int holds_alone; /* p_faster <= alpha and a median gain >= the margin */
    int family;      /* one of the A/B's tests: measured, and a writable choice reaches it */
    size_t rank;     /* in the family: p_faster's rank, 1 the smallest (ties by order); else 0 */
    double level;    /* in the family: BH's level at its rank, rank * q / m; else 0 */
    double p_adj;    /* in the family: BH-adjusted p_faster (passes at <= q); else 1 */
    int holds;       /* holds alone, in the family and p_adj <= CT_TUNE_VERIFY_FDR */
    int suspect;     /* the first A/B: p_slower <= alpha and a loss >= CT_TUNE_HARM_MARGIN */
    int contradicts; /* slower (harm): a suspect the confirmation found slower too, or one
                        no confirmation ran for */
} ct_tune_vcell_t;

/* Most files one A/B loads: one per emitted format. */
#define CT_TUNE_VERIFY_MAX_FILES 16

/* One file and its digests: of its bytes, and with its directory's path
 * written as @DIR@ (so a file that names its own directory compares
 * across the A/B's directory and the output directory). */
typedef struct {
    char name[64];
    char sha256[65];
    char sha256_rel[65];
} ct_tune_file_hash_t;

/* The digests of the files names[0..n) in dir, into out (room for
 * CT_TUNE_VERIFY_MAX_FILES); returns how many, or 0 with err. */
ct_status_t ct_tune_files_hash(const char *dir, const char *const *names, size_t n,
                               ct_tune_file_hash_t *out, size_t *nout, char *err, size_t errlen);

/* The sizes the search measured: what "tuned" cells are (at a shape with
 * --shapes; 0 without). */
typedef struct {
    const char *coll;
    long long bytes;
    long long nranks, nnodes;
} ct_tune_vsize_t;

typedef struct ct_tune_verify_s {
    size_t pairs;          /* asked for */
    size_t turns;          /* pairs to a launch as app contexts taking turns; 0: fresh */
    char dir[4096];        /* DIR/verify: the candidate files */
    char how[2048];        /* the tuned side's settings, as text */
    char note[512];        /* what the A/B could not keep or use */
    char sizes[1024];      /* collbench --sizes of the "verify" launches */
    char check_sizes[256]; /* and of the "verify-dtypes" launches */
    int dtypes;            /* the "verify-dtypes" launches ran (NCCL) */
    char failed[512];      /* "": every launch ran; else what failed or was refused */
    char confirm_colls[128], confirm_sizes[1024], confirm_dtypes[128]; /* the suspects' */
    size_t nsuspects;       /* suspects a choice reaches: confirmed by a second A/B */
    ct_tune_vcell_t *cells; /* after ct_tune_verify_judge: every scope's, in scope order */
    size_t ncells;
    size_t nfamily;                   /* cells in the family BH corrects over (m) */
    double bh_cutoff;                 /* the largest p_faster that passed BH; 0: none */
    int *verified;                    /* per choice of the result */
    char (*why)[320];                 /* per choice: the verdict, in words */
    long long *min_bytes, *max_bytes; /* per choice: its range after shrinking */
    size_t nchoices;
    double w_def, w_tun, w_p; /* --weights: medians of the weighted time, p */
    size_t w_n;               /* launches with a weighted time, per side (min) */
    /* The scopes' collbench arguments (point into the strings above). */
    const char *args[CT_TUNE_VERIFY_MAX_SCOPES][8];
    /* Which A/B of the tune this is (1: the first; a later one runs the
     * final files again after a cut or drop changed them), and its
     * scopes' names ("verify", "verify-2", ...: a round's launches never
     * mix with another's in the journal). */
    size_t round;
    char names[CT_TUNE_VERIFY_MAX_SCOPES][32];
    char colls[2][256]; /* the first two scopes' collbench -C */
    /* The files the tuned side ran, with their SHA-256 (ct_sha256.h). */
    ct_tune_file_hash_t files[CT_TUNE_VERIFY_MAX_FILES];
    size_t nfiles;
} ct_tune_verify_t;

/* What the A/B needs besides the result. */
typedef struct {
    const char *out;               /* --out */
    const ct_launch_opts_t *lo;    /* the user's launch options */
    const ct_space_config_t *base; /* the settings every trial has (the baseline's) */
    size_t pairs;
    int nccl;                        /* the backend is NCCL: also the datatype launches */
    const ct_tune_vsize_t *searched; /* what the search measured */
    size_t nsearched;
    size_t round; /* 1, 2, ...: the directory verify[-N] and the scopes' names */
    /* The collectives the launches run (collbench -C), comma-separated;
     * NULL: every one.  A later round runs only where the files changed. */
    const char *colls;
} ct_tune_verify_in_t;

/* Writes r's choices (all significant) as candidate files into
 * DIR/verify/ (round 1) or DIR/verify-N/ (round N), and fills scopes[0..*nscopes_p) (their two configurations
 * each, their collectives and collbench arguments) and v->dir, v->how,
 * v->note, v->sizes.  An error with err. */
ct_status_t ct_tune_verify_setup(const ct_tune_result_t *r, const ct_tune_verify_in_t *in,
                                 ct_tune_scope_t *scopes, size_t *nscopes_p, ct_tune_verify_t *v,
                                 char *err, size_t errlen);

/* The sizes of the "verify" launches into buf (room for max, ascending,
 * distinct): those searched, 8 B, 4 KiB, 1 MiB, the largest searched, and
 * every power of two inside each choice's range (an open range up to the
 * largest searched); returns how many. */
size_t ct_tune_verify_sizes(const ct_tune_result_t *r, const ct_tune_vsize_t *searched,
                            size_t nsearched, long long *buf, size_t max);

struct ct_tune_evidence_s;
/*
 * The suspects of the first A/B (ev[0..nev)): slower cells a choice of r
 * reaches.  Returns how many, and sets v->nsuspects and, when there are
 * any, v->confirm_colls, v->confirm_sizes and v->confirm_dtypes (collbench
 * -C, --sizes and -d for the confirmation).
 */
size_t ct_tune_verify_suspects(const struct ct_tune_evidence_s *ev, size_t nev,
                               const ct_tune_result_t *r, ct_tune_verify_t *v);

/* The confirmation's scope (CT_TUNE_VERIFY_CONFIRM_NAME): first's two
 * configurations, the suspects' collectives, sizes and datatypes (from
 * v, which must outlive it). */
ct_status_t ct_tune_verify_confirm_scope(const ct_tune_scope_t *first, ct_tune_verify_t *v,
                                         ct_tune_scope_t *sc);

/*
 * Judges every choice of r from the evidence of the A/B's scopes
 * (ev[0..nev), each with configurations [0] default, [1] tuned;
 * ct_tune_evidence_build), the confirmation's (NULL: none ran; a suspect
 * is then harm), what the search measured, and failed: "" when every
 * launch of both sides ran, else what failed or was refused (it verifies
 * nothing).  Pure: unit-tested on synthetic evidence.
 */
ct_status_t ct_tune_verify_judge(const struct ct_tune_evidence_s *ev, size_t nev,
                                 const struct ct_tune_evidence_s *confirm,
                                 const ct_tune_result_t *r, const ct_tune_vsize_t *searched,
                                 size_t nsearched, const char *failed, ct_tune_verify_t *v);

void ct_tune_verify_free(ct_tune_verify_t *v);

/* Whether the comma-separated list (collbench -C, -d) names word; adds
 * word to buf (room for len) unless it does. */
int ct_tune_list_has(const char *list, const char *word);
void ct_tune_list_add(char *buf, size_t len, const char *word);

/* The MCA files Open MPI reads when mca_base_param_files is not set, as
 * a comma-separated list into tail: the user's --mca mca_base_param_files,
 * else ompi_info's (bounded: helper_run.h).  Setting the parameter
 * replaces that list, so whoever sets it names them after its own file.
 * "" with a note when neither says.  colltune verify-install uses it too. */
void ct_tune_verify_mca_tail(const ct_launch_opts_t *lo, char *tail, size_t len, char *note,
                             size_t notelen);

#endif
