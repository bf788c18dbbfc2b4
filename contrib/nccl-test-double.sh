#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# nccl-test-double.sh OUTDIR: build the NCCL test double into OUTDIR, for
# trying collbench's and colltune's NCCL journey on a machine without a GPU.
#
# OUTDIR/libnccl-fake.so is NCCL's C API implemented over MPI on host
# memory (fake_nccl_mpi.c), and OUTDIR/libcudart-stub.so a stub CUDA
# runtime (malloc for cudaMalloc, STUB_CUDA_DEVICES devices).  It is a TEST
# DOUBLE: its timings are MPI's on host memory, never NCCL's; NCCL_ALGO and
# NCCL_PROTO change nothing but what its log says.  Use it to learn the
# commands and check a set-up, not to tune anything for a GPU.
#
# The sources are looked for beside this script (an install puts them in
# nccl-test-double/ under the same share directory) and in the source tree
# (tests/nccl/).  MPICC names the MPI compiler wrapper (default mpicc).
set -eu

usage() {
    echo "usage: $0 OUTDIR   (builds OUTDIR/libnccl-fake.so and OUTDIR/libcudart-stub.so)" >&2
    exit 2
}
[ $# -eq 1 ] || usage
case $1 in -h | --help) usage ;; esac
out=$1

here=$(cd "$(dirname "$0")" && pwd)
src=
for d in "$here/nccl-test-double" "$here/../tests/nccl"; do
    if [ -f "$d/fake_nccl_mpi.c" ] && [ -f "$d/stub_cudart.c" ]; then
        src=$d
        break
    fi
done
[ -n "$src" ] || {
    echo "$0: cannot find fake_nccl_mpi.c and stub_cudart.c in $here/nccl-test-double or $here/../tests/nccl" >&2
    exit 1
}
mpicc=${MPICC:-mpicc}
command -v "$mpicc" >/dev/null 2>&1 || {
    echo "$0: no MPI compiler wrapper '$mpicc' (set MPICC)" >&2
    exit 1
}
mkdir -p "$out"
out=$(cd "$out" && pwd)
"$mpicc" -std=c11 -shared -fPIC -o "$out/libnccl-fake.so" "$src/fake_nccl_mpi.c"
"$mpicc" -std=c11 -shared -fPIC -o "$out/libcudart-stub.so" "$src/stub_cudart.c"

cat <<EOF
Built the NCCL test double: $out/libnccl-fake.so, $out/libcudart-stub.so
This is a TEST DOUBLE, not NCCL: NCCL's API over MPI on host memory. Its
timings are MPI's, never NCCL's; use it to learn the commands, not to tune.

Environment (colltune passes it on to collbench):
  export COLLTUNE_NCCL_LIB=$out/libnccl-fake.so
  export COLLTUNE_CUDART_LIB=$out/libcudart-stub.so
  export STUB_CUDA_DEVICES=2     # "GPUs" per host: at least the ranks per host
or collbench's options: --nccl-lib $out/libnccl-fake.so --cudart-lib $out/libcudart-stub.so

  mpirun -np 2 collbench --backend nccl -C allreduce -b 1K -e 64K -f 4
  colltune tune --space nccl --out tuned --np 2 --strategy random --budget 6 \\
      --verify-pairs 0 --collectives allreduce -- --backend nccl -b 1K -e 4K -f 4
EOF
