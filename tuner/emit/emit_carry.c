/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit_carry.c - whether any file carries a choice, asked of the formats
 * (see emit.h's ct_emit_cannot_carry and ct_emit_shape_conflict).
 *
 * Each format's carries hook says whether its file holds a choice over
 * its size range, or refuses it with the reason; this table-level code
 * names no format.  A choice some format refuses is unwritable with the
 * first refusal (table order); one a format carries is then checked
 * against the other job shapes, keyed as its files' rows say (the least
 * any of them tells apart: a value that mca-params.conf must hold for
 * every shape cannot differ by shape even where the rules file could).
 * A choice no format claims holds for every size (then it holds there
 * as chosen) or is refused: a library reads its variables for every size.
 * The writers never call here (the table holds them): each asks the
 * shape check keyed as its own row (ct_emit_shape_conflict_in).
 */
#include "emit_format.h"

/* How much of a job's shape a key tells apart: a file keyed by process
 * ranges as one keyed by communicator size. */
static int ct_key_rank(ct_file_key_t key)
{
    switch (key) {
    case CT_FILE_KEY_NONE: return 0;
    case CT_FILE_KEY_COMM_SIZE:
    case CT_FILE_KEY_PROCS: return 1;
    case CT_FILE_KEY_NODES_RANKS: return 2;
    }
    return 0;
}

/* Asks every format about c: returns whether one carries it; *refused_p
 * the first refusal (or NULL); *key_p how c's files key it: the least any
 * carrier does; with none, by nothing over every size (it holds as
 * chosen), and for a choice no file can carry as nodes and ranks: no
 * other shape conflicts with it, its refusal is the reason. */
static int ct_emit_ask(const ct_tune_result_t *r, const ct_tune_choice_t *c, const char **refused_p,
                       ct_file_key_t *key_p)
{
    const ct_emit_format_t *f;
    int carried = 0;
    *refused_p = NULL;
    *key_p = CT_FILE_KEY_NONE;
    for (size_t i = 0; (f = ct_emit_format_at(i)) != NULL; i++) {
        const char *why = NULL;
        ct_emit_carry_t a = f->carries != NULL ? f->carries(r, c, &why) : CT_EMIT_NOT_MINE;
        if (a == CT_EMIT_REFUSES && *refused_p == NULL)
            *refused_p = why;
        if (a != CT_EMIT_CARRIES && a != CT_EMIT_CARRIES_ANY_SIZE)
            continue;
        const ct_library_file_t *row = ct_library_file_named(f->name);
        ct_file_key_t k = row != NULL ? row->keyed : CT_FILE_KEY_NONE;
        if (!carried || ct_key_rank(k) < ct_key_rank(*key_p))
            *key_p = k;
        carried = 1;
    }
    if (!carried && (*refused_p != NULL || !ct_emit_full_range(c)))
        *key_p = CT_FILE_KEY_NODES_RANKS;
    return carried;
}

int ct_emit_carried_any_size(const ct_tune_result_t *r, const ct_tune_choice_t *c)
{
    const ct_emit_format_t *f;
    for (size_t i = 0; (f = ct_emit_format_at(i)) != NULL; i++) {
        const char *why = NULL;
        if (f->carries != NULL && f->carries(r, c, &why) == CT_EMIT_CARRIES_ANY_SIZE)
            return 1;
    }
    return 0;
}

const char *ct_emit_cannot_carry(const ct_tune_result_t *r, const ct_tune_choice_t *c)
{
    const char *refused;
    ct_file_key_t key;
    int carried = ct_emit_ask(r, c, &refused, &key);
    if (refused != NULL)
        return refused;
    if (!carried && !ct_emit_full_range(c))
        return "the library reads it for every size";
    return ct_emit_shape_conflict_keyed(r, c, key, NULL, 0);
}

const char *ct_emit_shape_conflict(const ct_tune_result_t *r, const ct_tune_choice_t *c, char *buf,
                                   size_t len)
{
    const char *refused;
    ct_file_key_t key;
    (void)ct_emit_ask(r, c, &refused, &key);
    return ct_emit_shape_conflict_keyed(r, c, key, buf, len);
}
