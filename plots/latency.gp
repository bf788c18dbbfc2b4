# SPDX-License-Identifier: BSD-3-Clause
# latency.gp - median latency against message size (meant for the small
# sizes), with error bars, one line per series.
#
#   gnuplot -c plots/latency.gp DATA OUT [TITLE] [FORMAT] [WxH] [BARS]
#
# DATA: blocks as in busbw.gp, rows
#   "bytes median_us p10_us p90_us ci_low_us ci_high_us".
# BARS: "pct" (the default) draws p10 to p90, the spread of the samples;
#   "ci" the 95% confidence interval of the median.  A bound written NaN
#   (schema 1 files have no CI) draws no bar, the point stays.
data = ARG1
out = ARG2
title = (ARGC >= 3 && ARG3 ne "") ? ARG3 : "latency"
fmt = (ARGC >= 4 && ARG4 ne "") ? ARG4 : (out[strlen(out)-3:] eq ".svg" ? "svg" : "png")
size = (ARGC >= 5 && ARG5 ne "") ? ARG5 : "1280x720"
bars = (ARGC >= 6 && ARG6 ne "") ? ARG6 : "pct"
w = int(size[1:strstrt(size, "x") - 1])
h = int(size[strstrt(size, "x") + 1:])
if (fmt eq "svg") {
    set terminal svg size w, h dynamic noenhanced font "Sans,12" background "white"
} else {
    set terminal pngcairo size w, h noenhanced font "Sans,12" background "white"
}
set output out

lo = (bars eq "ci") ? 5 : 3
hi = (bars eq "ci") ? 6 : 4
what = (bars eq "ci") ? "95% CI of the median" : "p10 to p90"
set title title
set xlabel "message size (bytes; ki = 1024)"
set ylabel sprintf("latency, median per call (µs); bars: %s", what)
set logscale x 2
set logscale y
set format x "%.0b%B"
set grid
set offsets graph 0.02, graph 0.02, 0, 0
set key top left box opaque

# NaN != NaN: an unknown bound collapses onto the median.
bound(c) = (column(c) == column(c)) ? column(c) : column(2)
stats data using 1 nooutput
plot for [i = 0:STATS_blocks - 1] data index i using 1:2:(bound(lo)):(bound(hi)) \
    with yerrorlines lw 2 pt 7 ps 0.8 title columnheader(1)
