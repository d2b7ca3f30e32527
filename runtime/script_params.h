/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The -D limits and modes that the runtime's objects act on, turned
 * into values by the script's C, the one file of a module compiled
 * for each script.  The runtime's objects are compiled once and cached
 * (translator/build.c), keyed on only the -D names the runtime reads
 * (translator/rtkey.c, which scans a script_*.h header for its
 * defaults but takes nothing in it as read): so a script's own
 * -DMAXERRORS=N, -DSTP_NO_OVERLOAD, stap -t, -b or -F compiles no
 * runtime object again.
 */
#ifndef STP_SCRIPT_C
#error "script_params.h belongs to the script's C: a runtime object reading it would be cached with the wrong limits"
#endif
#ifndef SCRIPT_PARAMS_H
#define SCRIPT_PARAMS_H

#include <linux/moduleparam.h>

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
/*
 * -DINTERRUPTIBLE=1 (SystemTap's default) leaves interrupts on during
 * a handler; ours masks them unless asked (runtime/context.c says why).
 */
#ifndef INTERRUPTIBLE
#define INTERRUPTIBLE 0
#endif
#ifndef MAXTRYLOCK
#define MAXTRYLOCK 1000		/* waits for a global's lock before a skip */
#endif
#ifndef TRYLOCKDELAY
#define TRYLOCKDELAY 10		/* microseconds of each of those waits */
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

const struct stp_params _stp_params = {
	.overload_interval = STP_OVERLOAD_INTERVAL,
	.overload_threshold = STP_OVERLOAD_THRESHOLD,
	.maxtrylock = MAXTRYLOCK,
	.trylockdelay = TRYLOCKDELAY,
	.maxerrors = MAXERRORS,
	.maxskipped = MAXSKIPPED,
	.minstackspace = MINSTACKSPACE,
	.maxmapentries = MAXMAPENTRIES,
#ifndef STP_NO_OVERLOAD
	.overload = true,
#endif
#if !INTERRUPTIBLE
	.irqs_off = true,
#endif
#ifdef STP_TIMING
	.timing_add = _stp_timing_add,
	.monitor_report = _stp_monitor_report,
#endif
};

/*
 * staprun reads these (stap -b: each CPU's output to a file of its own,
 * for stap-merge; -F: a full buffer overwrites its oldest sub-buffer, so
 * it holds the latest output for a staprun that attaches later).
 */
#ifdef STP_BULKMODE
bool _stp_bulkmode = true;
#else
bool _stp_bulkmode;
#endif
module_param(_stp_bulkmode, bool, 0444);
MODULE_PARM_DESC(_stp_bulkmode, "per-CPU output files (stap -b)");
#ifdef STP_FLIGHT
bool _stp_overwrite = true;
#else
bool _stp_overwrite;
#endif
module_param(_stp_overwrite, bool, 0444);
MODULE_PARM_DESC(_stp_overwrite, "overwrite old output when full (stap -F)");

#endif /* SCRIPT_PARAMS_H */
