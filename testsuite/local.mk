# SPDX-License-Identifier: GPL-2.0-or-later
# make check: the whole suite through one runner, which ends with the
# "N passed, N failed, N skipped" line.
check-local: $(bin_PROGRAMS)
	$(SHELL) $(srcdir)/testsuite/run.sh
