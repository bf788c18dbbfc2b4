/* SPDX-License-Identifier: BSD-3-Clause */
/* fp_probe.c - a library test_fingerprint dlopens, to see it listed with
 * its build id among the loaded objects. */
int ct_fp_probe(void);
int ct_fp_probe(void) { return 42; }
