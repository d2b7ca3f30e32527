/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Control-channel protocol between a probe module and staprun.
 *
 * This header is shared by kernel and user space, so it uses only
 * fixed-width types.  All integers are host-endian: both ends run on the
 * same machine.
 *
 * Files a loaded module creates under debugfs:
 *   /sys/kernel/debug/systemtap/<module>/.cmd    control channel (rw)
 *   /sys/kernel/debug/systemtap/<module>/traceN  relay data channel of
 *                                                 CPU N (r), one per CPU
 *
 * Every message on .cmd, in either direction, is a struct stp_ctl_hdr
 * followed by hdr.len payload bytes.  One write() carries exactly one
 * message; one read() returns whole messages only (as many as fit).
 *
 * Session life cycle:
 *   staprun                         module
 *   finit_module()          ---->   init: debugfs dir, relay, .cmd
 *   open .cmd, trace*
 *   STP_CTL_START           ---->   register probes, run begin probes
 *                           <----   STP_CTL_STARTED {status}
 *   ... data on trace*, STP_CTL_ERROR/WARNING text on .cmd ...
 *                           <----   STP_CTL_REQUEST_EXIT (script called
 *                                   exit() or hit MAXERRORS)
 *   STP_CTL_EXIT            ---->   unregister probes, run end probes,
 *                                   flush output
 *                           <----   STP_CTL_EXIT_DONE {status}
 *   drain trace*, close files, delete_module()
 *
 * A signal to staprun (SIGINT, SIGTERM, SIGHUP) makes it send STP_CTL_EXIT.
 * If .cmd is closed while the session runs (staprun was killed), the
 * module stops its probes on its own so that nothing keeps running
 * unobserved, unless STP_CTL_DETACH came first (staprun -L): then the
 * probes run on, output that finds the buffers full is counted as lost,
 * and a later opener sends STP_CTL_ATTACH instead of STP_CTL_START
 * (staprun -A).  Messages queued meanwhile wait for it.
 */
#ifndef STP_CTL_H
#define STP_CTL_H

#include <linux/ioctl.h>
#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdint.h>
typedef uint64_t __u64;
typedef uint32_t __u32;
typedef int32_t __s32;
#endif

#define STP_CTL_DEBUGFS_DIR "systemtap"

enum stp_ctl_type {
	/* staprun -> module */
	STP_CTL_START = 1,	/* payload: none */
	STP_CTL_EXIT = 2,	/* payload: none */
	STP_CTL_DETACH = 3,	/* payload: none; closing .cmd leaves the
				 * probes running (staprun -L) */
	STP_CTL_ATTACH = 4,	/* payload: none; answered by STARTED {0}, or
				 * EXIT_DONE if the session ended meanwhile
				 * (staprun -A) */
	STP_CTL_MONITOR = 5,	/* payload: none; answered by MONITOR_TEXT
				 * lines, the probe table (staprun -M) */

	/* module -> staprun */
	STP_CTL_STARTED = 100,	/* payload: struct stp_ctl_status */
	STP_CTL_REQUEST_EXIT,	/* payload: none */
	STP_CTL_EXIT_DONE,	/* payload: struct stp_ctl_status */
	STP_CTL_ERROR,		/* payload: text, no NUL; printed "ERROR: ..." */
	STP_CTL_WARNING,	/* payload: text, no NUL; printed "WARNING: ..." */
	STP_CTL_SYSTEM,		/* payload: text; a line staprun prints as is
				 * on stderr (run-time reports, e.g. skipped
				 * probe counts) */
	STP_CTL_RUN_CMD,	/* payload: a command, no NUL, that staprun
				 * runs with /bin/sh -c in the background
				 * (the system() tapset function) */
	STP_CTL_MONITOR_TEXT,	/* payload: a line of the probe table, no
				 * NUL; the first one starts a new table */
};

struct stp_ctl_hdr {
	__u32 type;		/* enum stp_ctl_type */
	__u32 len;		/* payload bytes that follow */
};

struct stp_ctl_status {
	__s32 status;		/* 0 ok; nonzero: the session failed */
	__u32 errors;		/* run-time errors seen */
	__u32 skipped;		/* probe hits skipped (reentrancy, locks) */
	__u32 lost_bytes;	/* output dropped because relay was full */
	__u32 transport_failures; /* writes refused because relay was full */
	__u32 bufsize_mb;	/* relay buffer size per CPU */
};

/*
 * The data files carry records: this header, then len bytes of output.
 * ts (local_clock() ns, see runtime/relay.c) is taken under the CPU
 * buffer's lock, so each file's records are in ts order, and staprun
 * merges the files by ts.
 */
struct stp_relay_rec {
	__u64 ts;
	__u32 len;	/* payload bytes; the record is padded to 8 */
	__u32 flags;	/* STP_RELAY_* */
};
#define STP_RELAY_ALIGN(n) (((n) + 7) & ~(__u32)7)

/*
 * A record with no bytes that marks where switch_file() was called: the
 * output continues in the next file from there (staprun/output.c).
 */
#define STP_RELAY_SWITCH_FILE	1

/*
 * staprun maps each trace file (relay's mmap: n_subbufs sub-buffers of
 * subbuf_size bytes) and asks with this ioctl which bytes are readable,
 * instead of copying them with read().  done: the bytes it has finished
 * with since the start of the previous call's first range (the kernel
 * hands emptied sub-buffers back to the writers).  Back: the readable
 * bytes, oldest first, as ranges of the mapping, each whole records;
 * more: there were more ranges than r holds; now: read under the
 * buffer's lock after the ranges were found, a time at or before the
 * stamp of every record not in them (the file's CPU's clock).
 * Overwriting (stap -F) answers EOPNOTSUPP: the reader must copy (read()).
 */
#define STP_RELAY_RANGES_MAX 16
struct stp_relay_ranges {
	__u64 done;			/* in */
	__u64 now;			/* out */
	__u32 subbuf_size, n_subbufs;	/* out */
	__u32 n, more;			/* out */
	struct {
		__u32 off, len;
	} r[STP_RELAY_RANGES_MAX];	/* out */
};
#define STP_RELAY_IOC_RANGES _IOWR('S', 1, struct stp_relay_ranges)
/*
 * For a reader that read()s a trace file (stap -F's, which writers
 * overwrite): the same now, for that file; asked before each read.
 */
#define STP_RELAY_IOC_NOW _IOR('S', 2, __u64)

/* Longest payload either side sends; longer text is truncated. */
#define STP_CTL_MAX_PAYLOAD 1024

#endif /* STP_CTL_H */
