/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_pairs.h - the round-robin tournament behind collbench --pairs.
 *
 * The circle method: host 0 stays, the others rotate one place a round.
 * With H even there are H-1 rounds and every host plays in each; with H
 * odd a dummy host makes it H+1, so H rounds and one host sits out each.
 * Every pair of hosts meets exactly once over all rounds.  Pure: no MPI.
 */
#ifndef CT_PAIRS_H
#define CT_PAIRS_H

/* Rounds of the full schedule for nhosts >= 2: nhosts-1 (even), nhosts (odd). */
int ct_pairs_rounds(int nhosts);

/* In round (0 <= round < ct_pairs_rounds), partner[h] gets host h's
 * opponent, or -1 when h sits out.  partner has nhosts entries. */
void ct_pairs_round(int nhosts, int round, int *partner);

#endif
