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
/*
 * MAXERRORS, MAXSKIPPED, MINSTACKSPACE, the overload check and
 * MAXTRYLOCK/TRYLOCKDELAY are read by the runtime's own objects: their
 * defaults are in script_params.h, which hands their values over in
 * _stp_params (below).
 */
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
#define STP_RELAY_BUFSIZE (16 << 20)	/* relay bytes per CPU at most (less
					 * with little free memory: relay.c);
					 * stap -s MB overrides */
#endif
#ifndef STP_CTL_RING
#define STP_CTL_RING 16384	/* bytes of control messages queued for
				 * staprun (runtime/ctl.c), allocated at load */
#endif

/*
 * What the runtime's objects (cached across scripts, translator/build.c)
 * need of the -D limits and modes, set by the script's C in
 * script_params.h: with a value here rather than a macro compiled into
 * them, a script's own -DMAXERRORS=N or stap -t builds its C only.
 */
struct stp_probe;
struct stp_params {
	u64 overload_interval;	/* cycles */
	u64 overload_threshold;	/* of them in probe handlers, per CPU */
	u64 maxtrylock;
	u32 trylockdelay;
	u32 maxerrors;
	u32 maxskipped;
	u32 minstackspace;
	u32 maxmapentries;
	bool overload;		/* the overload check is on */
	bool irqs_off;		/* handlers mask interrupts: !INTERRUPTIBLE */
	/* stap -t, --monitor: runtime/timing.c, else NULL */
	void (*timing_add)(const struct stp_probe *p, u64 cycles);
	void (*monitor_report)(void);
};
extern const struct stp_params _stp_params;

#endif /* STP_LIMITS_H */
