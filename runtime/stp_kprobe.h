/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kprobes (runtime/kprobe.c, fentry.c, fexit.c): the rows the generated
 * code of kprobe.*, kernel.function, module(...).function and
 * kernel.statement probes fills.  Apart from stp_runtime.h, and without
 * <linux/kprobes.h>: that header (ftrace.h, sched.h and fs.h behind it)
 * was more than half of such a script's compile, so the kernel's struct
 * kprobe / kretprobe of each row lives in runtime/kprobe.c's own storage.
 */
#ifndef STP_KPROBE_H
#define STP_KPROBE_H

#include "stp_runtime.h"

/* struct stp_kprobe flags; translator/probes/kprobe.c emits these names. */
#define STP_KPROBE_RETURN	0x1	/* .return: a kretprobe or the fprobe */
#define STP_KPROBE_OPTIONAL	0x2	/* "?": skipped silently if refused */
#define STP_KPROBE_WILDCARD	0x4	/* a wildcard's match: refused is a warning */
#define STP_KPROBE_FENTRY	0x8	/* a function's entry: may use its ftrace site */

/*
 * One kprobe or kretprobe.  The generated code fills the fields above
 * "runtime-private" in a static table, one entry per probed function;
 * the entries of one probe point (a wildcard's matches) are adjacent
 * and share .group.
 */
struct stp_kprobe {
	const struct stp_probe *probe;
	const char *symbol;	/* "name" or "module:name"; NULL: use addr */
	unsigned long addr;	/* kprobe.statement(ADDR).absolute */
	unsigned long offset;	/* from symbol: kernel.function's probe address */
	/*
	 * The kernel's symbol + offset at link time, and _printk's: registered
	 * by address (moved by the KASLR offset) when link_ref is set.
	 */
	u64 link, link_ref;
	u64 ftrace;		/* the entry's fentry call at link time, or 0 */
	int maxactive;		/* .return: .maxactive(N), or -1 for KRETACTIVE */
	u32 group;		/* the probe point it came from */
	u8 flags;		/* STP_KPROBE_* */
	/* .return reading @entry values: fills c->entry_slots[0..nslots) at entry */
	void (*entry)(struct stp_context *c);
	u16 nslots;
	/* runtime-private: its registration while started (runtime/kprobe.c) */
	struct stp_kprobe_rt *rt;
};

/*
 * Process context, from stp_session_start/stp_session_stop.  Start
 * registers every entry.  One the kernel refuses is skipped silently
 * if optional, with a warning if a wildcard matched it (unless none of
 * its point's matches registers); otherwise start reports the error,
 * unregisters what it registered and returns the kernel's -errno.
 * Stop unregisters in batches and returns only when no handler runs
 * any more; it is idempotent and safe after a partial start.  Start
 * allocates the rows' runtime state (-ENOMEM, reported, if it cannot);
 * stop frees it.
 */
int _stp_kprobes_start(struct stp_kprobe *kps, size_t n);
void _stp_kprobes_stop(struct stp_kprobe *kps, size_t n);

#endif /* STP_KPROBE_H */
