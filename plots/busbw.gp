# SPDX-License-Identifier: BSD-3-Clause
# busbw.gp - bus bandwidth against message size, one line per series.
#
#   gnuplot -c plots/busbw.gp DATA OUT [TITLE] [FORMAT] [WxH]
#
# DATA: whitespace-separated columns, one block per series (blocks apart
#   by two blank lines, as gnuplot's `index` wants); each block opens with
#   comment lines, then one quoted line that is the series' legend, then
#   rows "bytes busbw_gbps algbw_gbps median_us".  colltune plot writes it.
# OUT: the image; FORMAT png (pngcairo) or svg, by default from OUT's
#   extension; WxH in pixels, 1280x720 by default.
# Settings shared by the scripts are repeated in each, so that every one
# runs alone.
data = ARG1
out = ARG2
title = (ARGC >= 3 && ARG3 ne "") ? ARG3 : "bus bandwidth"
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
set ylabel "bus bandwidth (GB/s, 1 GB = 10^9 B)"
set logscale x 2
set format x "%.0b%B"
set yrange [0:*]
set grid
set offsets graph 0.02, graph 0.02, 0, 0
set key top left box opaque
set datafile missing "NaN"

stats data using 1 nooutput
plot for [i = 0:STATS_blocks - 1] data index i using 1:2 \
    with linespoints lw 2 pt 7 ps 0.8 title columnheader(1)
