# SPDX-License-Identifier: BSD-3-Clause
# timeseries.gp - a history of runs: each run's median time, per series
# (a collective at one size, ...), with the baseline band and the flagged
# runs marked.  Drawn by `colltune regress --plot`; usable alone:
#
#   gnuplot -c plots/timeseries.gp DATA OUT [TITLE] [FORMAT] [WxH]
#
# DATA: one block per series (blocks apart by two blank lines), each a
# quoted title line, then one row per run, oldest first:
#   index run time median_us band_low_us band_median_us band_high_us flag mark
# index: the run's place in the history (0 = oldest); run: its directory
# name (quoted); time: when it ran, YYYY-MM-DDTHH:MM:SSZ (UTC), or "-"
# when unknown (an import without dates).  band_*: the window the verdict
# was judged against and the runs after it: its median and the range a
# single run may reach (R1's bounds) either side (NaN elsewhere: no band).  flag: 0 not flagged, 1 the first
# slow run, 2 a later slow run, 3 the first faster run, 4 a later faster
# run; mark: the same in words ("-", "first_slow", "slow", "first_fast",
# "fast"), for people and greps.
# FORMAT: png (pngcairo) or svg (default: OUT's extension); WxH in pixels
# (default 1280x720).
#
# The picture: x is the run's time (tic labels by the span: days, or hours
# when all runs are within two days), or, when any run has no time, the
# run's place with its name.  y is fitted to what is drawn (the medians and
# the band) with a margin (15% of the span; a factor 1.15 on a log axis),
# logarithmic only where that spans 10x or more.  One band is drawn, so that bands never blur into each other: the
# first flagged series', else the first series' with one; its colour is
# its series'.
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

tf = "%Y-%m-%dT%H:%M:%SZ"
known(c) = column(c) == column(c)
# six colours that read on white and are neither the marks' red nor green
set linetype 1 lc rgb "#1f77b4"
set linetype 2 lc rgb "#ff7f0e"
set linetype 3 lc rgb "#9467bd"
set linetype 4 lc rgb "#8c564b"
set linetype 5 lc rgb "#17becf"
set linetype 6 lc rgb "#e377c2"
set linetype cycle 6

stats data using 4 name "M" nooutput
nb = M_blocks
# Every stats before any range is set: stats keeps to the ranges.
# (the title lines have no third column: valid(4) keeps them out)
stats data using (valid(4) ? (strcol(3) eq "-" ? 1 : 0) : NaN) name "ND" nooutput
timeaxis = ND_max == 0
stats data using 1 name "IX" nooutput
if (timeaxis) {
    stats data using (valid(4) ? strptime(tf, strcol(3)) : NaN) name "T" nooutput
}
stats data using (column(8) == 1 ? 1 : 0) name "FS" nooutput
stats data using (column(8) == 2 ? 1 : 0) name "LS" nooutput
stats data using (column(8) == 3 ? 1 : 0) name "FF" nooutput
stats data using (column(8) == 4 ? 1 : 0) name "LF" nooutput
# The band drawn: the first flagged series', else the first with a band.
bd = -1
bf = -1
do for [i = 0:nb - 1] {
    stats data index i using 8:(known(6) ? 1 : 0) name "B" nooutput
    if (bf < 0 && B_max_x > 0 && B_sum_y > 0) { bf = i }
    if (bd < 0 && B_sum_y > 0) { bd = i }
}
bd = bf >= 0 ? bf : bd
# The band's legend entry names its series when there are several (its
# title line, less the verdict in parentheses); the key's title says in
# words what the band is.
bandtitle = "baseline"
if (bd >= 0 && nb > 1) {
    lbl = ""
    stats data index bd every ::0::0 using (lbl = strcol(1), 0) nooutput
    cut = 0
    do for [k = 1:strlen(lbl) - 1] {
        if (lbl[k:k + 1] eq " (") { cut = k }
    }
    bandtitle = sprintf("baseline of %s", cut > 1 ? lbl[1:cut - 1] : lbl)
}
# The y range: the medians and the band actually drawn.  Autoscale is no
# use here: it widens a log axis to whole decades, and `set offsets` then
# widens it by another (0.1 to 1000 for times of 1 to 16 us, issue 23).
ylo = M_min
yhi = M_max
if (bd >= 0) {
    stats data index bd using (known(5) ? column(5) : column(4)):(known(7) ? column(7) : column(4)) \
        name "BR" nooutput
    ylo = BR_min_x < ylo ? BR_min_x : ylo
    yhi = BR_max_y > yhi ? BR_max_y : yhi
}
if (yhi >= 10 * ylo) {
    set logscale y
    scale = "log scale"
    set yrange [ylo / 1.15 : yhi * 1.15]
    # labels at 1, 2, 3 and 5 of each decade (fewer over more decades)
    d0 = floor(log10(ylo / 1.15))
    d1 = ceil(log10(yhi * 1.15))
    decades = log10(yhi / ylo)
    steps = decades <= 1.5 ? "1 2 3 5" : decades <= 3.5 ? "1 2 5" : "1"
    set ytics ()
    set mytics 10
    do for [d = d0:d1] {
        do for [m in steps] {
            v = real(m) * 10.0 ** d
            if (v >= ylo / 1.15 && v <= yhi * 1.15) {
                set ytics add (sprintf("%g", v) v)
            }
        }
    }
} else {
    scale = "linear scale"
    pad = (yhi > ylo ? yhi - ylo : yhi) * 0.15
    set yrange [(ylo - pad > 0 ? ylo - pad : 0) : yhi + pad]
}

if (timeaxis) {
    span = T_max - T_min
    tpad = span > 0 ? 0.03 * span : 3600
    set xdata time
    set xrange [T_min - tpad : T_max + tpad]
    if (span < 86400 && strftime("%Y-%m-%d", T_min) eq strftime("%Y-%m-%d", T_max)) {
        # runs minutes apart (a test, a bench) need the seconds
        set format x (span < 1800 ? "%H:%M:%S" : "%H:%M") timedate
        set xlabel sprintf("run start (UTC), %s\n ", strftime("%Y-%m-%d", T_min))
    } else {
        if (span < 2 * 86400) {
            set format x "%b %d\n%H:%M" timedate
        } else {
            if (span < 300 * 86400) {
                set format x "%b %d" timedate
            } else {
                set format x "%Y-%m-%d" timedate
            }
        }
        set xlabel sprintf("run start (UTC), %s to %s\n ", strftime("%Y-%m-%d", T_min), \
                           strftime("%Y-%m-%d", T_max))
    }
    set xtics font ",10"
} else {
    # at most about 24 run labels along the axis
    step = int(IX_max / 24) + 1
    set xrange [IX_min - 0.5 : IX_max + 0.5]
    set xlabel "run, oldest to newest (run directory; no run times known)\n "
    set xtics rotate by 40 right font ",10"
}
xv(dummy) = !valid(4) ? NaN : timeaxis ? strptime(tf, strcol(3)) : column(1)

set title title
set ylabel sprintf("median time per call (µs, %s)", scale)
set grid xtics ytics mytics lw 1 lc rgb "#dddddd", lw 1 lc rgb "#f0f0f0"
set key below left horizontal box opaque maxcols 3
if (bd >= 0) {
    set key title "shaded: the baseline, the range a single run may reach; dashed: its median" left
}
set style fill transparent solid 0.18 noborder

mark(f) = (column(8) == f) ? column(4) : NaN
runlabel(c) = (int(column(1)) % step == 0) ? strcol(c) : ""
# Run names label the axis only where there are no times (a macro: a
# time axis takes no xticlabels).
xmed = timeaxis ? "(xv(0)):4" : "1:4:xticlabels(runlabel(2))"
band = bd < 0 ? "" : sprintf("data index %d using (xv(0)):5:7 with filledcurves lc %d " . \
        "title bandtitle, data index %d using (xv(0)):6 with lines dt 2 lw 1.5 lc %d " . \
        "title 'baseline median', ", bd, bd + 1, bd, bd + 1)
plot @band \
     for [i = 0:nb - 1] data index i using @xmed \
        with linespoints lw 2 pt 7 ps 0.6 lc i + 1 title columnheader(1), \
     data using (xv(0)):(mark(1)) with points pt 9 ps 2.4 lc rgb "#d62728" \
        title (FS_sum > 0 ? "first slow run" : ""), \
     data using (xv(0)):(mark(2)) with points pt 8 ps 1.8 lw 2 lc rgb "#d62728" \
        title (LS_sum > 0 ? "later slow runs" : ""), \
     data using (xv(0)):(mark(3)) with points pt 11 ps 2.4 lc rgb "#2ca02c" \
        title (FF_sum > 0 ? "first faster run" : ""), \
     data using (xv(0)):(mark(4)) with points pt 10 ps 1.8 lw 2 lc rgb "#2ca02c" \
        title (LF_sum > 0 ? "later faster runs" : "")
