# SPDX-License-Identifier: BSD-3-Clause
# tuned.gp - a tune's verification: default against tuned time per size,
# the bars from the lowest to the highest launch median.
#
#   gnuplot -c plots/tuned.gp DATA OUT [TITLE] [FORMAT] [WxH]
#
# DATA: blocks as in busbw.gp (normally two: "default" and "tuned"), rows
#   "bytes median_us low_us high_us".
data = ARG1
out = ARG2
title = (ARGC >= 3 && ARG3 ne "") ? ARG3 : "tuned against default"
fmt = (ARGC >= 4 && ARG4 ne "") ? ARG4 : (out[strlen(out)-3:] eq ".svg" ? "svg" : "png")
size = (ARGC >= 5 && ARG5 ne "") ? ARG5 : "1280x720"
w = int(size[1:strstrt(size, "x") - 1])
h = int(size[strstrt(size, "x") + 1:])
if (fmt eq "svg") {
    set terminal svg size w, h dynamic noenhanced font "Sans,12" background "white"
} else {
    set terminal pngcairo size w, h noenhanced font "Sans,12" background "white"
}
set output out

set title title
set xlabel "message size (bytes; ki = 1024, Mi = 1024^2)"
set ylabel "time per call, median of launch medians (µs); bars: min to max"
set logscale x 2
set logscale y
set format x "%.0b%B"
set grid
set offsets graph 0.02, graph 0.02, 0, 0
set key top left box opaque
set datafile missing "NaN"

stats data using 1 nooutput
plot for [i = 0:STATS_blocks - 1] data index i using 1:2:3:4 \
    with yerrorlines lw 2 pt 7 ps 1 title columnheader(1)
