# SPDX-License-Identifier: BSD-3-Clause
# scaling.gp - bus bandwidth against scale (nodes or ranks) at fixed
# sizes, with each line's ideal: its busbw at the smallest scale, held
# flat (busbw folds in the collective's traffic factor, so perfect
# scaling keeps it constant).
#
#   gnuplot -c plots/scaling.gp DATA OUT [TITLE] [FORMAT] [WxH] [UNIT]
#
# DATA: one block per series and size (blocks apart by two blank lines);
#   each block opens with comment lines, then one quoted line that is the
#   legend, then rows "scale busbw_gbps ideal_gbps efficiency".  colltune
#   plot writes it.
# OUT: the image; FORMAT png (pngcairo) or svg, by default from OUT's
#   extension; WxH in pixels, 1280x720 by default; UNIT the x axis, nodes
#   (default) or ranks.
data = ARG1
out = ARG2
title = (ARGC >= 3 && ARG3 ne "") ? ARG3 : "bus bandwidth against scale"
fmt = (ARGC >= 4 && ARG4 ne "") ? ARG4 : (out[strlen(out)-3:] eq ".svg" ? "svg" : "png")
size = (ARGC >= 5 && ARG5 ne "") ? ARG5 : "1280x720"
unit = (ARGC >= 6 && ARG6 ne "") ? ARG6 : "nodes"
w = int(size[1:strstrt(size, "x") - 1])
h = int(size[strstrt(size, "x") + 1:])
if (fmt eq "svg") {
    set terminal svg size w, h dynamic noenhanced font "Sans,12" background "white"
} else {
    set terminal pngcairo size w, h noenhanced font "Sans,12" background "white"
}
set output out

set title title
set xlabel sprintf("scale (%s)", unit)
set ylabel "bus bandwidth (GB/s, 1 GB = 10^9 B; log scale: sizes span decades)"
set logscale x 2
set xtics 2
set format x "%.0f"
set logscale y
set format y "%g"
set grid
set offsets graph 0.05, graph 0.05, 0, 0
set key outside right top box opaque
set datafile missing "NaN"

stats data using 1 nooutput
n = STATS_blocks
plot for [i = 0:n - 1] data index i using 1:2 \
        with linespoints lw 2 pt 7 ps 1 lc (i + 1) title columnheader(1), \
    for [i = 0:n - 1] data index i using 1:3 with lines dt 2 lw 1 lc (i + 1) notitle, \
    NaN with lines dt 2 lw 1 lc "black" title "ideal (flat busbw)"
