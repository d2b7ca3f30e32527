# staprun: included by the top-level Makefile.am.  The binary is built as
# staprun/staprun because the source directory owns the name ./staprun;
# it installs as $(bindir)/staprun.
bin_PROGRAMS += staprun/staprun
staprun_staprun_SOURCES = staprun/staprun.c staprun/module.c staprun/session.c staprun/relay.c staprun/output.c staprun/target.c \
	staprun/staprun.h runtime/stp_ctl.h common/util.c common/util.h
staprun_staprun_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/common -I$(srcdir)/runtime
staprun_staprun_CFLAGS = $(AM_CFLAGS) -pthread
staprun_staprun_LDFLAGS = -pthread

# stap-merge: joins the per-CPU files of bulk mode (stap -b).
bin_PROGRAMS += staprun/stap-merge
staprun_stap_merge_SOURCES = staprun/stap-merge.c staprun/relay.c \
	staprun/staprun.h runtime/stp_ctl.h common/util.c common/util.h
staprun_stap_merge_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/common -I$(srcdir)/runtime
