# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=sh
# bench/hostile.d/26-messages.sh - issue 26's items 8 (E21 and E10's edge)
# and 10 (C8, N4, L2, L3): sourced by bench/hostile, with its helpers.
# shellcheck disable=SC2154 # cwd, T, CT, CB, CSV: bench/hostile's, which sources this

# --- E21: sbatch --out the recipe it runs, not written yet ---------------
mkdir -p "$T/e21real" && ln -s "$T/e21real" "$T/e21link"
keep "$T/e21real/self.sh"
hcase "E21 sbatch --out the --nightly recipe, not there yet" 2 "which the job runs" \
    "$CT" sbatch --out "$T/e21real/self.sh" --nodes 1 --ntasks-per-node 1 --nightly "$T/e21real/self.sh" nightly
keep "$cwd/self26.sh"
hcase "E21 sbatch --out relative, --nightly absolute, not there yet" 2 "which the job runs" \
    "$CT" sbatch --out self26.sh --nodes 1 --ntasks-per-node 1 --nightly "$cwd/self26.sh" nightly
keep "$T/e21real/self.sh"
hcase "E21 sbatch --out through a symlinked directory, not there yet" 2 "which the job runs" \
    "$CT" sbatch --out "$T/e21link/self.sh" --nodes 1 --ntasks-per-node 1 --nightly "$T/e21real/self.sh" nightly
keep "$T/e21real/ct.sh"
hcase "E21 sbatch --out the --colltune it runs, not there yet" 2 "which the job runs" \
    "$CT" sbatch --out "$T/e21real/ct.sh" --nodes 1 --ntasks-per-node 1 --colltune "$T/e21link/ct.sh" sweep -- --out x

# --- E10's edge: a step one night out of the window ----------------------
history "$T/h33" 33 21
history "$T/h32" 32 21
on_stdout
hcase "E10 regress: a step that left the window a night ago is history" 0 "10 series: 0 slower" "$CT" regress "$T/h33"
on_stdout
hcase "E10 regress: the night before, the step is still in the window" 1 "10 series slower" "$CT" regress "$T/h32"

# --- C8, N4: collbench's messages (an MPI singleton: refused before any run)
c8=coll_tuned_bcast_algorithm=1
c8="$c8,$c8,$c8,$c8,$c8,$c8,$c8,$c8,$c8,$c8,$c8,$c8,$c8,$c8,$c8,$c8,$c8"
no_mem_limit
hcase "C8 collbench --config of 17 settings: the reason is not cut off" 2 \
    "coll_tuned_bcast_algorithm is set twice" "$CB" -C broadcast -b 8 -e 8 -n 3 --config "$c8"
no_mem_limit
hcase "N4 collbench -f 1 that never reaches -e" 2 "-f 1 never reaches -e 64" \
    "$CB" -C allreduce -n 3 -b 8 -e 64 -f 1

# --- L2, L3: a .lock that is not a lock file ----------------------------
mkdir -p "$T/L2" "$T/L3"
echo precious >"$T/precious26.txt"
ln -s "$T/precious26.txt" "$T/L2/.lock"
mkfifo "$T/L3/.lock"
keep "$T/precious26.txt"
hcase "L2 plot --out DIR whose .lock is a symlink" 2 "is a symbolic link, not a regular file" \
    "$CT" plot --gnuplot /bin/true --out "$T/L2" "$CSV"
hcase "L3 plot --out DIR whose .lock is a FIFO" 2 "is a FIFO (named pipe), not a regular file" \
    "$CT" plot --gnuplot /bin/true --out "$T/L3" "$CSV"
