# SPDX-License-Identifier: GPL-2.0-or-later
# Unit tests: programs named *_test that make check builds and
# testsuite/run.sh runs (exit status 0 passes, 77 skips, else fails).

# regex_test includes translator/regex.h by path, not with
# -I translator: there <regex.h> would find ours instead of glibc's.
check_PROGRAMS += testsuite/unit/regex_test
testsuite_unit_regex_test_SOURCES = testsuite/unit/regex_test.c \
	translator/regex.c translator/regex.h common/util.c common/util.h

check_PROGRAMS += testsuite/unit/relay_merge_test
testsuite_unit_relay_merge_test_SOURCES = testsuite/unit/relay_merge_test.c \
	staprun/relay.c staprun/staprun.h runtime/stp_ctl.h common/util.c common/util.h
testsuite_unit_relay_merge_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/common \
	-I$(srcdir)/runtime -I$(srcdir)/staprun

check_PROGRAMS += testsuite/unit/fp_test
testsuite_unit_fp_test_SOURCES = testsuite/unit/fp_test.c runtime/tapset_fp.c runtime/stp_fp.h
testsuite_unit_fp_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/runtime
testsuite_unit_fp_test_LDADD = -lm

check_PROGRAMS += testsuite/unit/rtkey_test
testsuite_unit_rtkey_test_SOURCES = testsuite/unit/rtkey_test.c \
	translator/rtkey.c translator/rtkey.h common/util.c common/util.h
testsuite_unit_rtkey_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/common \
	-I$(srcdir)/translator -DRUNTIME_DIR='"$(abs_srcdir)/runtime"'

check_PROGRAMS += testsuite/unit/vm_hang_test
testsuite_unit_vm_hang_test_SOURCES = testsuite/unit/vm_hang_test.c \
	translator/vm.c translator/vm_cpus.c translator/vm.h common/util.c common/util.h
testsuite_unit_vm_hang_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/common \
	-I$(srcdir)/translator
testsuite_unit_vm_hang_test_LDADD = -lelf
