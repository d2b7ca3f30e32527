/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every run-time limit in one place.  Each can be overridden from the
 * stap command line with -D NAME=VALUE, which reaches here as a compiler
 * define, so every default is guarded.
 */
#ifndef STP_LIMITS_H
#define STP_LIMITS_H

#ifndef MAXSTRINGLEN
#define MAXSTRINGLEN 512	/* bytes in a string value, with its NUL */
#endif
#ifndef MAXACTION
#define MAXACTION 1000		/* statements one probe hit may execute */
#endif
/*
 * SystemTap 4.8 holds every probe kind to this one (measured: begin,
 * timers, kprobes, tracepoints), not to MAXACTION itself.
 */
#ifndef MAXACTION_INTERRUPTIBLE
#define MAXACTION_INTERRUPTIBLE (MAXACTION * 10)
#endif
#ifndef MAXNESTING
#define MAXNESTING 10		/* depth of script function calls */
#endif
#ifndef MAXMAPENTRIES
#define MAXMAPENTRIES 2048	/* entries in an array without a size */
#endif
#ifndef MAXERRORS
#define MAXERRORS 0		/* run-time errors tolerated before exit */
#endif
#ifndef MAXSKIPPED
#define MAXSKIPPED 100		/* skipped probe hits tolerated before exit */
#endif
#ifndef MINSTACKSPACE
#define MINSTACKSPACE 1024	/* free kernel stack bytes a hit needs to run */
#endif
/*
 * Overload protection (man stap): a CPU that spends more than
 * STP_OVERLOAD_THRESHOLD of each STP_OVERLOAD_INTERVAL cycles in probe
 * handlers stops the session.  -DSTP_NO_OVERLOAD (or stap's
 * --suppress-time-limits) turns it off.
 */
#ifndef STP_OVERLOAD_INTERVAL
#define STP_OVERLOAD_INTERVAL 1000000000LL
#endif
#ifndef STP_OVERLOAD_THRESHOLD
#define STP_OVERLOAD_THRESHOLD 500000000LL
#endif
#ifndef MAXTRYLOCK
#define MAXTRYLOCK 1000		/* waits for a global's lock before a skip */
#endif
#ifndef TRYLOCKDELAY
#define TRYLOCKDELAY 10		/* microseconds of each of those waits */
#endif
#ifndef HIST_ELISION
#define HIST_ELISION 2		/* empty buckets kept around '~' in histograms */
#endif
#ifndef KRETACTIVE
#define KRETACTIVE 0		/* .return hits in flight without .maxactive(N);
				 * 0: the kernel's default, max(10, 2 * CPUs) */
#endif
#ifndef STP_PRINT_BUFSIZE
#define STP_PRINT_BUFSIZE 8192	/* per-CPU buffer one probe hit prints into */
#endif
#ifndef STP_RELAY_SUBBUFS
#define STP_RELAY_SUBBUFS 8	/* relay sub-buffers */
#endif
#ifndef STP_RELAY_BUFSIZE
#define STP_RELAY_BUFSIZE (1 << 20)	/* relay bytes per CPU; staprun -s MB overrides */
#endif
#ifndef STP_CTL_QUEUE
#define STP_CTL_QUEUE 64	/* control messages queued for staprun */
#endif

/*
 * stap --suppress-time-limits (guru mode only) defines this: no overload
 * check, no MAXACTION, and a global's lock is waited for without bound,
 * whatever -D said of them.
 */
#ifdef STP_SUPPRESS_TIME_LIMITS
#ifndef STP_NO_OVERLOAD
#define STP_NO_OVERLOAD
#endif
#undef MAXACTION
#define MAXACTION (0x7fffffffffffffffL / 10)
#undef MAXACTION_INTERRUPTIBLE
#define MAXACTION_INTERRUPTIBLE 0x7fffffffffffffffL
#undef MAXTRYLOCK
#define MAXTRYLOCK 0x7fffffffffffLL	/* waits of TRYLOCKDELAY: years */
#endif

#endif /* STP_LIMITS_H */
