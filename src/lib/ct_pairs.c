/* SPDX-License-Identifier: BSD-3-Clause */
#include "ct_pairs.h"

int ct_pairs_rounds(int nhosts) { return nhosts % 2 == 0 ? nhosts - 1 : nhosts; }

void ct_pairs_round(int nhosts, int round, int *partner)
{
    /* n seats; seat 0 holds host 0, seat s > 0 holds the host that the
     * rotation puts there.  Seat s plays seat n-1-s.  Host n-1 is the
     * dummy when nhosts is odd. */
    int n = nhosts % 2 == 0 ? nhosts : nhosts + 1;
    for (int h = 0; h < nhosts; h++)
        partner[h] = -1;
    for (int s = 0; s < n / 2; s++) {
        int t = n - 1 - s;
        int a = s == 0 ? 0 : 1 + (s - 1 + round) % (n - 1);
        int b = 1 + (t - 1 + round) % (n - 1);
        if (a < nhosts && b < nhosts) {
            partner[a] = b;
            partner[b] = a;
        }
    }
}
