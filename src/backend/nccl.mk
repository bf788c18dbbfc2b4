# SPDX-License-Identifier: BSD-3-Clause
# src/backend/nccl.mk - the NCCL backend, included from Makefile.am.
# Paths are relative to $(top_srcdir); variables are only appended to.

# The backend: NCCL and the CUDA runtime are dlopen'd, never linked.
# nccl_abi_check.c generates no code; it proves nccl_abi.h against nccl.h
# and cuda_runtime.h when configure found them (CT_HAVE_NCCL_H).
src_libcollbench_la_SOURCES += \
	src/backend/backend_nccl.c \
	src/backend/nccl_abi.h src/backend/nccl_abi_check.c \
	src/backend/nccl_loader.c src/backend/nccl_loader.h

# Runs with no GPU: every way of being unavailable must exit 77 on all
# ranks with its exact reason, and never hang.  The test builds its stub
# libnccl from tests/nccl/stub_nccl.c with the system compiler.
TESTS += tests/mpi/nccl_unavailable.sh
EXTRA_DIST += tests/mpi/nccl_unavailable.sh tests/nccl/stub_nccl.c tests/nccl/stub_cudart.c

# End to end without a GPU, over test doubles: NCCL's API over MPI on host
# memory (built with mpicc by the test) and the host-memory libcudart.
TESTS += tests/mpi/nccl_fake.sh
EXTRA_DIST += tests/mpi/nccl_fake.sh tests/nccl/fake_nccl_mpi.c

# --config with the nccl backend, over the same doubles: each
# configuration's NCCL_* environment at its own ncclCommInitRank, the rows
# per configuration, the JSON records, a non-NCCL name refused.
TESTS += tests/mpi/nccl_configs.sh
EXTRA_DIST += tests/mpi/nccl_configs.sh

# NCCL 2.28's rules over the same doubles: which algorithm/protocol each
# function may use, NCCL_ALGO/NCCL_PROTO parsed and refused as NCCL does,
# the choice per call, the tuner plugin through NCCL's cost table, half
# and bfloat16.
TESTS += tests/mpi/nccl_rules.sh
EXTRA_DIST += tests/mpi/nccl_rules.sh

# A collective NCCL refuses (NCCL_ALGO=tree: every broadcast) is reported
# and skipped, the rest measured, exit 4, over the same doubles.
TESTS += tests/mpi/nccl_refused.sh
EXTRA_DIST += tests/mpi/nccl_refused.sh

# alltoall through ncclAlltoAll where libnccl has it (the double as 2.28)
# and grouped send/recv where not (the double built as 2.27), both right;
# in-place alltoall and a timed broadcast do no host-side work of their
# own (the doubles' call counts).
TESTS += tests/mpi/nccl_alltoall.sh
EXTRA_DIST += tests/mpi/nccl_alltoall.sh
