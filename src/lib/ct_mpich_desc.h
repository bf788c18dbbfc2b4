/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_mpich_desc.h - the algorithm names an MPICH 4.0 *_ALGORITHM CVAR's
 * description lists ("auto - ... nb - ..."), in order: MPICH's MPI_T has no
 * enum for these MPI_INT variables, so a name's position in that list is
 * the value to write (collbench --config), and the list is what a space's
 * values are checked against (colltune, through mpivars).  One reading for
 * both, so that the name colltune checked is the position collbench writes.
 */
#ifndef CT_MPICH_DESC_H
#define CT_MPICH_DESC_H

#include <stddef.h>

/* More items than any 4.0 algorithm CVAR lists. */
#define CT_MPICH_DESC_MAX_ITEMS 64

/* The values the description of an *_ALGORITHM CVAR lists ("auto - ...
 * nb - ..."), as MPI_T gives it and mpivars prints it (the items' line breaks dropped, so
 * each word is glued to the end of the text before it): at most max words
 * into words (pointers into buf, room for buflen).  Returns how many. */
size_t ct_mpich_alg_values(const char *desc, char *buf, size_t buflen, const char **words,
                           size_t max);

#endif
