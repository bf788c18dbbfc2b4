# SPDX-License-Identifier: BSD-3-Clause
# --- tests/cluster: the emulated cluster (network namespaces) and its tests ---
# cluster.sh and ct-netns-agent are sourced/run by these tests and by bench
# scripts; the tests skip (77) where namespaces cannot be made.
CLUSTER_TESTS = tests/cluster/netns_sweep.sh tests/cluster/netns_rate.sh \
	tests/cluster/netns_scaling.sh tests/cluster/netns_straggler.sh tests/cluster/netns_ucx.sh \
	tests/cluster/netns_fingerprint.sh tests/cluster/netns_mpich.sh tests/cluster/netns_tune_shapes.sh
TESTS += $(CLUSTER_TESTS)
EXTRA_DIST += $(CLUSTER_TESTS) tests/cluster/cluster.sh tests/cluster/ct-netns-agent
