# SPDX-License-Identifier: GPL-2.0-or-later
bin_PROGRAMS += stap
stap_SOURCES = \
	translator/main.c translator/stap.h translator/session.c \
	translator/diag.c translator/lex.c translator/preprocess.c \
	translator/parse.c translator/ast.c \
	translator/format.c translator/sem.c translator/elide.c translator/desugar.c translator/syscalls.c translator/emit.c translator/emit.h translator/regs_use.c \
	translator/emit_map.c \
	translator/build.c translator/cache.c translator/privilege.c translator/rtkey.c translator/rtkey.h translator/run.c translator/vm.c translator/vm_cpus.c translator/vm.h \
	translator/regex.c translator/regex.h \
	translator/dwarf.c translator/dwarf_db.c translator/dwarf_index.c translator/dw_index.h translator/srcroot.c translator/srcroot.h \
	translator/dwarf_mod.c translator/dw.h translator/list.c \
	translator/sdt.c translator/sdt.h translator/plt.c translator/plt.h \
	translator/syms.c translator/syms.h translator/lines.c translator/ucfi.c translator/usyms.c translator/dump.c \
	translator/tvar.c translator/tvar.h \
	translator/probes/probes.h translator/probes/probes.c translator/probes/forms.c \
	translator/probes/callee.c translator/probes/stmt_near.c translator/probes/obsolete.c \
	translator/probes/begin_end.c translator/probes/timer.c \
	translator/probes/dwarf_func.c translator/probes/kprobe.c \
	translator/probes/dwarf_mod.c \
	translator/probes/trace.c translator/probes/dwarf_stmt.c translator/probes/procfs.c \
	translator/probes/netfilter.c translator/probes/uprobe.c translator/probes/utask.c \
	translator/probes/hwbkpt.c translator/probes/perf.c translator/probes/unsafe.c \
	common/util.c common/util.h
stap_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/translator \
	-DPKGDATADIR='"$(pkgdatadir)"' -DABS_SRCDIR='"$(abs_srcdir)"' \
	-DABS_BUILDDIR='"$(abs_builddir)"'
stap_CFLAGS = $(AM_CFLAGS) $(DW_CFLAGS) $(SQLITE3_CFLAGS) -pthread
stap_LDADD = $(DW_LIBS) $(SQLITE3_LIBS) -lpthread
