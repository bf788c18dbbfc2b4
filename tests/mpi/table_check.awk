# SPDX-License-Identifier: BSD-3-Clause
# table_check.awk - asserts collbench's stdout is an nccl-tests table.
#
# Every table has the exact three header lines, data rows of 13 fields with
# numeric size/count/time/bandwidth columns and #wrong 0 in both halves, and
# the two footer lines.  Prints what is wrong and exits 1.
function bad(msg) { print "table_check: line " NR ": " msg ": " $0 > "/dev/stderr"; failed = 1 }
function num(s) { return s ~ /^-?[0-9.]+(e[+-]?[0-9]+)?$/ }
BEGIN {
    cols = "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong "
    units = "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)         "
}
$0 == cols { tables++; want_units = 1; next }
want_units { if ($0 != units) bad("units line differs"); want_units = 0; in_table = 1; next }
/^# Out of bounds values : / {
    if ($0 != "# Out of bounds values : 0 OK") bad("out-of-bounds footer")
    footers++; in_table = 0; next
}
/^# Avg bus bandwidth    : [0-9.e+-]+ $/ { avg++; next }
/^#/ { next }
{
    rows++
    if (!in_table) bad("data row outside a table")
    if (NF != 13) { bad("expected 13 fields, got " NF); next }
    if ($1 !~ /^[0-9]+$/ || $2 !~ /^[0-9]+$/) bad("size/count not integers")
    if ($5 !~ /^-?[0-9]+$/) bad("root not an integer")
    for (i = 6; i <= 13; i++) if (i != 9 && !num($i)) bad("field " i " not a number")
    if ($9 != "0" || $13 != "0") bad("#wrong not 0")
    if (length($0) != 118) bad("row width " length($0) ", nccl-tests rows are 118")
}
END {
    if (tables == 0) { print "table_check: no table" > "/dev/stderr"; exit 1 }
    if (footers != tables || avg != tables) { print "table_check: " tables " tables, " footers " footers, " avg " averages" > "/dev/stderr"; exit 1 }
    if (rows == 0) { print "table_check: no rows" > "/dev/stderr"; exit 1 }
    exit failed
}
