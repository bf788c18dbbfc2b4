/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gnuplot.h - finding and running gnuplot and the scripts of plots/, for
 * every command that draws (plot, regress --plot).  C never writes
 * gnuplot code: a script gets a data file and its arguments as argv.
 */
#ifndef CT_GNUPLOT_H
#define CT_GNUPLOT_H

#include <stddef.h>

/* The gnuplot to run: OPT (a path, or a name looked up on PATH) when
 * given, else configure's, then PATH's; into buf.  Checked before any
 * work, so that a machine without it says so at once: 0, or -1 after
 * telling stderr (as WHO) which Debian package to install. */
int ct_gnuplot_find(const char *opt, const char *who, char *buf, size_t len);

/* The directory of the scripts: OPT, $COLLTUNE_PLOTS_DIR, beside the
 * binary in the build tree, the installed ones, then the source tree's
 * (a VPATH build); into buf.  0, or -1 after telling stderr. */
int ct_gnuplot_find_scripts(const char *opt, const char *who, char *buf, size_t len);

/* gnuplot -c DIR/SCRIPT DATA OUT.tmp ARGS..., then OUT.tmp renamed to
 * OUT when gnuplot exited 0 and the image is whole (a PNG ends with its
 * IEND chunk, an SVG with </svg>), so that a failed plot leaves neither a
 * half image nor a cut one over a good one.  Every path reaches gnuplot
 * absolute: a name beginning with '<' or '|' would run a shell there.  An
 * argv vector, never a shell.  0, or -1 after telling stderr (as WHO). */
int ct_gnuplot_draw(const char *gnuplot, const char *dir, const char *script, const char *data,
                    const char *out, const char *const *args, size_t nargs, const char *who);

/* --format png|svg|both into *png and *svg; --size WxH (64 to 16384
 * each) into *w and *h.  0, or -1 after telling stderr (as WHO): the
 * commands that draw take the same values. */
int ct_gnuplot_parse_format(const char *who, const char *value, int *png, int *svg);
int ct_gnuplot_parse_size(const char *who, const char *value, long *w, long *h);

/* The option rows of --gnuplot and --plots-dir, the same in every
 * subcommand that draws (plot, regress), with its own ids: what they mean
 * is said once, here, beside ct_gnuplot_find and ct_gnuplot_find_scripts
 * that read them.  (Out of clang-format, as CT_LAUNCH_OPTS.) */
/* clang-format off */
#define CT_GNUPLOT_OPTS(gnuplot_id, dir_id)                                                        \
    {gnuplot_id, "gnuplot", "PATH", "the gnuplot to run (default: configure's, then PATH)"},       \
    {dir_id, "plots-dir", "DIR",                                                                   \
     "the gnuplot scripts (default: $COLLTUNE_PLOTS_DIR, the build tree, then the installed ones)"}
/* clang-format on */

#endif
