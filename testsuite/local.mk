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

# The process(PID) tests' program, which stap --vm-spawn starts before
# the script at a known pid: uprog's lines and functions stay as its
# tests name them.
check_PROGRAMS += testsuite/upid
testsuite_upid_SOURCES = testsuite/upid.c testsuite/upid_sem.c
testsuite_upid_CFLAGS = -g -O0

# The .library(...) tests' shared library of our own, with a soname so
# that its users find it through their rpath, and two programs using it.
check_PROGRAMS += testsuite/uplib testsuite/uplib2
testsuite_uplib_SOURCES = testsuite/uplib.c
testsuite_uplib_CFLAGS = -g -O0
testsuite_uplib_LDADD = testsuite/libulib.so
testsuite_uplib_LDFLAGS = -Wl,-rpath,$(abs_builddir)/testsuite
testsuite_uplib2_SOURCES = testsuite/uplib.c
testsuite_uplib2_CFLAGS = -g -O0
testsuite_uplib2_LDADD = testsuite/libulib.so
testsuite_uplib2_LDFLAGS = -Wl,-rpath,$(abs_builddir)/testsuite
testsuite/libulib.so: testsuite/ulib.c
	$(AM_V_CC)$(CC) -g -O0 -fPIC -shared -Wl,-soname,libulib.so -o $@ $<

# The user-backtrace tests' program: not PIE, so that its addresses are
# fixed; and a stripped copy (no symbols, .eh_frame kept).
check_PROGRAMS += testsuite/ubt
testsuite_ubt_SOURCES = testsuite/ubt.c
testsuite_ubt_CFLAGS = -g -fno-pie
testsuite_ubt_LDFLAGS = -no-pie
# After configure's CFLAGS (-O2), which per-target CFLAGS come before.
testsuite/ubt-ubt.$(OBJEXT): CFLAGS += -O0
check_SCRIPTS = testsuite/ubt-stripped testsuite/libulib.so
CLEANFILES = testsuite/ubt-stripped testsuite/libulib.so
testsuite/ubt-stripped: testsuite/ubt$(EXEEXT)
	$(AM_V_GEN)strip -o $@ testsuite/ubt$(EXEEXT)

# The 32-bit (ia32) system call tests' program: i386, static, no C
# library, so that -m32 needs no multilib libc.  Where the compiler
# cannot build it, the rule says so and leaves no file, and run.sh
# skips the tests that use it (@SYS32@) with that reason.
check_SCRIPTS += testsuite/sys32
CLEANFILES += testsuite/sys32
testsuite/sys32: testsuite/sys32.c
	$(AM_V_CC)$(CC) -m32 -nostdlib -static -ffreestanding -fno-pic -fno-stack-protector \
	    -O2 -o $@ $(srcdir)/testsuite/sys32.c 2>/dev/null || \
	    { echo "$@: $(CC) -m32 cannot build it: the ia32 tests will be skipped" >&2; rm -f $@; }
