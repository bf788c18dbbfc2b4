# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=sh
# shellcheck disable=SC2034 # lim is read by hcase (bench/hostile)
# bench/hostile.d/26-children.sh - issue 26 item 9: every helper colltune
# starts (ucx_info, ompi_info, gnuplot) under a time limit and an output
# cap, with a message naming the limit hit (tests/unit/colltune_children.sh).
#   U3 a NUL in ucx_info's output, U4 17 MB of it, U5 one that never exits,
#   U6 one that prints without end (what $TMPDIR held measured by the fake
#   itself), gnuplot that never exits or prints without end, ompi_info that
#   never exits (the A/B of a real tune).

mkdir -p "$T/u26/bin" "$T/u26/tmp"
printf '[space]\nname = u\nvia = env\n[var UCX_TLS]\nvalues = all, tcp\n[var UCX_NO_SUCH_VAR]\nvalues = 1, 2\n' \
    >"$T/u26/ucx.ini"
printf '#!/bin/sh\nexit 3\n' >"$T/u26/bin/mpirun"
chmod +x "$T/u26/bin/mpirun"
# u26_fake DIR NAME BODY: DIR/NAME, a sh script running BODY.
u26_fake() {
    mkdir -p "$T/u26/$1"
    printf '#!/bin/sh\n%s\n' "$3" >"$T/u26/$1/$2"
    chmod +x "$T/u26/$1/$2"
}
u26_fake u3 ucx_info 'printf "UCX_TLS=all\\0\\nUCX_NO_SUCH_VAR=1\\n"'
u26_fake u4 ucx_info 'head -c 17000000 /dev/zero | tr "\\0" a; echo; echo UCX_TLS=all'
u26_fake u5 ucx_info 'exec sleep 1000'
# Ignores SIGTERM so that it can record how large its stdout (in $TMPDIR)
# grew once yes is stopped.
u26_fake u6 ucx_info "trap '' TERM; yes UCX_TLS=x; stat -L -c %s /proc/\$\$/fd/1 >$T/u26/u6.size"
u26_fake gp gp-hang 'exec sleep 1000'
u26_fake gp gp-loud 'exec yes gnuplot-warning >&2'
u26_fake om ompi_info 'exec sleep 1000'
# size-le FILE N: FILE holds a number of at most N.
cat >"$T/u26/bin/size-le" <<'EOS'
#!/bin/sh
s=$(cat "$1" 2>/dev/null) || { echo "$1: missing" >&2; exit 1; }
[ "$s" -le "$2" ] || { echo "$s bytes, more than $2" >&2; exit 1; }
echo "size ok: $s <= $2"
EOS
chmod +x "$T/u26/bin/size-le"

# u26_tune CASE WANT MESSAGE: a tune whose ucx_info is $T/u26/CASE's,
# whose launcher fails at once.
u26_tune() {
    hcase "$(printf %s "$1" | tr u U) tune: ucx_info that $4" "$2" "$3" env PATH="$T/u26/$1:$PATH" TMPDIR="$T/u26/tmp" \
        "$CT" tune --space "$T/u26/ucx.ini" --out "$T/u26/o-$1" --launcher "$T/u26/bin/mpirun" \
        --np 2 --strategy exhaustive -- -b 1K -e 1K
}
u26_tune u3 3 "ucx_info -c ran but printed no usable list (a NUL byte at line 1), so the space's UCX_* names are not checked" \
    "prints a NUL"
u26_tune u4 3 "ucx_info -c printed more than 16 MiB on stdout, so the space's UCX_* names are not checked" \
    "prints 17 MB"
u26_tune u5 3 "ucx_info -c did not finish in 10 s, so the space's UCX_* names are not checked" \
    "never exits"
u26_tune u6 3 "ucx_info -c printed more than 16 MiB on stdout, so the space's UCX_* names are not checked" \
    "prints without end"
on_stdout
hcase "U6: \$TMPDIR held at most 16 MiB and a byte of ucx_info's output" 0 "size ok" \
    "$T/u26/bin/size-le" "$T/u26/u6.size" 16777217

lim=80
hcase "26.9 plot: a gnuplot that never exits" 3 "did not finish in 60 s; killed" \
    "$CT" plot --gnuplot "$T/u26/gp/gp-hang" --out "$T/u26/p-hang" "$CSV"
hcase "26.9 plot: a gnuplot that prints without end" 3 "printed more than 16 MiB on stderr; killed" \
    "$CT" plot --gnuplot "$T/u26/gp/gp-loud" --out "$T/u26/p-loud" "$CSV"

if have mpirun; then
    u26_path=$PATH
    PATH="$T/u26/om:$PATH"
    lim=300 # a real tune, then its A/B (10 trials of a few seconds on a loaded machine)
    mpi_case "26.9 tune: an ompi_info that never exits (the A/B)" 0 \
        "ompi_info did not finish in 10 s, so it did not give Open MPI's default mca_base_param_files" \
        tune --space "$SPACE" --out "$T/u26/om-tune" --np 2 --strategy exhaustive --launches 3 \
        -- -b 1K -e 64K -f 8
    PATH=$u26_path
else
    skip 1 "26.9 ompi_info" "no mpirun"
fi
