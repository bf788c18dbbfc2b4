# timeseries.gp - a history of runs: each run's median time, per series
# (a collective at one size, ...), with the baseline band and the flagged
# runs marked.  Drawn by `colltune regress --plot`; usable alone:
#
#   gnuplot -c plots/timeseries.gp DATA OUT [TITLE] [FORMAT] [WxH]
#
# DATA: one block per series (blocks apart by two blank lines), each a
# quoted title line, then one row per run, oldest first:
#   index run date median_us band_low_us band_median_us band_high_us flag mark
# index: the run's place in the history (0 = oldest); run: its directory
# name (quoted); date: YYYY-MM-DD.  band_*: the window the verdict was
# judged against and the runs after it: its median and R1's bounds either
# side (NaN elsewhere: no band).  flag: 0 not flagged, 1 the first slow
# run, 2 a later slow run, 3 the first faster run, 4 a later faster run;
# mark: the same in words ("-", "first_slow", "slow", "first_fast",
# "fast"), for people and greps.
# FORMAT: png (pngcairo) or svg (default: OUT's extension); WxH in pixels
# (default 1280x720).  The y axis is logarithmic when the times span more
# than a factor of 10.
data = ARG1
out = ARG2
title = (ARGC >= 3 && ARG3 ne "") ? ARG3 : "time series"
fmt = (ARGC >= 4 && ARG4 ne "") ? ARG4 : (out[strlen(out)-3:] eq "svg" ? "svg" : "png")
size = (ARGC >= 5 && ARG5 ne "") ? ARG5 : "1280x720"
w = int(size[1:strstrt(size, "x") - 1])
h = int(size[strstrt(size, "x") + 1:])
if (fmt eq "svg") {
    set terminal svg size w, h dynamic noenhanced font "Sans,12" background "white"
} else {
    set terminal pngcairo size w, h noenhanced font "Sans,12" background "white"
}
set output out

stats data using 4 nooutput
nb = STATS_blocks
if (STATS_max > 10 * STATS_min) {
    set logscale y
    scale = "log scale"
} else {
    scale = "linear scale"
}
stats data using 1 nooutput
# at most about 24 run labels along the axis
step = int(STATS_max / 24) + 1
stats data using (column(8) == 1 ? 1 : 0) name "FS" nooutput
stats data using (column(8) == 2 ? 1 : 0) name "LS" nooutput
stats data using (column(8) == 3 ? 1 : 0) name "FF" nooutput
stats data using (column(8) == 4 ? 1 : 0) name "LF" nooutput

set title title
set xlabel "run, oldest to newest (run directory)\n "
set ylabel sprintf("median time per call (µs, %s)", scale)
set grid
set xtics rotate by 40 right font ",10"
set offsets graph 0.02, graph 0.02, graph 0.05, graph 0.05
set key below left horizontal box opaque maxcols 3
set style fill transparent solid 0.15 noborder

mark(f) = (column(8) == f) ? column(4) : NaN
runlabel(c) = (int(column(1)) % step == 0) ? strcol(c) : ""
plot for [i = 0:nb - 1] data index i using 1:5:7 with filledcurves lc i + 1 \
        title (i == 0 ? "baseline band: R1 bounds" : ""), \
     for [i = 0:nb - 1] data index i using 1:6 with lines dt 2 lw 1.5 lc i + 1 \
        title (i == 0 ? "baseline median" : ""), \
     for [i = 0:nb - 1] data index i using 1:4:xticlabels(runlabel(2)) \
        with linespoints lw 2 pt 7 ps 0.6 lc i + 1 title columnheader(1), \
     data using 1:(mark(1)) with points pt 9 ps 2.4 lc rgb "#d62728" \
        title (FS_sum > 0 ? "first slow run" : ""), \
     data using 1:(mark(2)) with points pt 8 ps 1.8 lw 2 lc rgb "#d62728" \
        title (LS_sum > 0 ? "later slow runs" : ""), \
     data using 1:(mark(3)) with points pt 11 ps 2.4 lc rgb "#2ca02c" \
        title (FF_sum > 0 ? "first faster run" : ""), \
     data using 1:(mark(4)) with points pt 10 ps 1.8 lw 2 lc rgb "#2ca02c" \
        title (LF_sum > 0 ? "later faster runs" : "")
