# src/backend/nccl.mk - the NCCL backend, included from Makefile.am.
# Paths are relative to $(top_srcdir); variables are only appended to.
