/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_vec.c - ct_vec: pushes keep every element, capacity doubles, and a
 * size that would overflow is refused with the array left as it was.
 */
#include <stdint.h>
#include <stdlib.h>

#include "ct_test.h"
#include "ct_vec.h"

static ct_test_tally_t tally;

typedef struct {
    int a;
    double b;
    char name[24];
} item_t;

int main(void)
{
    /* 1000 structs: all kept in order; capacity is CT_VEC_FIRST * 2^k. */
    {
        item_t *v = NULL;
        size_t n = 0, cap = 0;
        int ok = 1;
        for (int i = 0; i < 1000; i++) {
            item_t it = {i, i / 2.0, ""};
            snprintf(it.name, sizeof it.name, "item%d", i);
            ok &= CT_VEC_PUSH(v, n, cap, &it) == CT_OK;
            ok &= cap >= n && (cap & (cap - 1)) == 0 && cap >= CT_VEC_FIRST;
        }
        CT_CHECK(&tally, ok);
        CT_CHECK(&tally, n == 1000 && cap == 1024);
        int same = 1;
        for (int i = 0; i < 1000; i++) {
            char want[24];
            snprintf(want, sizeof want, "item%d", i);
            same &= v[i].a == i && v[i].b == i / 2.0 && strcmp(v[i].name, want) == 0;
        }
        CT_CHECK(&tally, same);
        free(v);
    }

    /* reserve: nothing to do when there is room; at least need otherwise,
     * doubling from the capacity there is. */
    {
        char *buf = NULL;
        size_t cap = 0;
        CT_CHECK(&tally, ct_vec_reserve(&buf, &cap, 0, 1) == CT_OK && buf == NULL && cap == 0);
        CT_CHECK(&tally, ct_vec_reserve(&buf, &cap, 100, 1) == CT_OK && buf != NULL && cap == 128);
        memset(buf, 'x', 100);
        char *was = buf;
        CT_CHECK(&tally, ct_vec_reserve(&buf, &cap, 128, 1) == CT_OK && buf == was && cap == 128);
        CT_CHECK(&tally, ct_vec_reserve(&buf, &cap, 129, 1) == CT_OK && cap == 256);
        CT_CHECK(&tally, buf[0] == 'x' && buf[99] == 'x'); /* kept across the move */
        free(buf);
    }

    /* Overflow: a count whose bytes exceed size_t, a count past SIZE_MAX / 2
     * that cannot double, and a push when n is SIZE_MAX; each leaves the
     * array as it was. */
    {
        double *v = NULL;
        size_t n = 0, cap = 0;
        double x = 1.5;
        CT_CHECK(&tally, CT_VEC_PUSH(v, n, cap, &x) == CT_OK && n == 1);
        double *was = v;
        size_t cap_was = cap;
        CT_CHECK(&tally,
                 ct_vec_reserve(&v, &cap, SIZE_MAX / sizeof *v + 1, sizeof *v) == CT_ERR_NOMEM);
        CT_CHECK(&tally, v == was && cap == cap_was && v[0] == 1.5);
        CT_CHECK(&tally, ct_vec_reserve(&v, &cap, SIZE_MAX, 1) == CT_ERR_NOMEM);
        CT_CHECK(&tally, ct_vec_reserve(&v, &cap, SIZE_MAX / 2 + 2, 1) == CT_ERR_NOMEM);
        CT_CHECK(&tally, v == was && cap == cap_was);
        size_t full = SIZE_MAX;
        CT_CHECK(&tally, ct_vec_push(&v, &full, &cap, sizeof *v, &x) == CT_ERR_NOMEM);
        CT_CHECK(&tally, full == SIZE_MAX && v == was && cap == cap_was);
        /* A zero-size element cannot be stored. */
        CT_CHECK(&tally, ct_vec_reserve(&v, &cap, cap + 1, 0) == CT_ERR_NOMEM);
        free(v);
    }
    return CT_DONE(&tally);
}
