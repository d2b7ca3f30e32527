# SPDX-License-Identifier: GPL-2.0-or-later
# make check: the whole suite through one runner, which ends with the
# "N passed, N failed, N skipped" line.
check-local: $(bin_PROGRAMS)
	$(SHELL) $(srcdir)/testsuite/run.sh

# The workload run/ tests start with -c (@WORKLOAD@ in NAME.args): static,
# so the VM runner copies it into the guest without shared libraries.
check_PROGRAMS += testsuite/workload
testsuite_workload_SOURCES = testsuite/workload.c
testsuite_workload_LDFLAGS = -static

# The user-space probe tests' program: -g -O0 for predictable variables,
# SDT markers from <sys/sdt.h>; dynamic (PIE) as real programs are.
check_PROGRAMS += testsuite/uprog
testsuite_uprog_SOURCES = testsuite/uprog.c
testsuite_uprog_CFLAGS = -g -O0
