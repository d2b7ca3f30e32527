// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel.data probes: the table translator/probes/hwbkpt.c emits (struct
 * stp_hwbkpt, stp_runtime.h) becomes one wide hardware breakpoint (a
 * perf event on every CPU) per row, set at session start and removed at
 * stop.
 *
 *  - A symbol's row carries its link-time address and _printk's: the
 *    watched address is moved by the KASLR offset, as runtime/sym.c
 *    measures it.
 *  - The overflow handler runs in the debug exception, after the access,
 *    with the registers of the instruction that made it: the probe runs
 *    there, as a kprobe's would.
 */
#include <linux/errno.h>
#include <linux/hw_breakpoint.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/printk.h>
#include "stp_internal.h"

static void stp_hwbkpt_hit(struct perf_event *bp, struct perf_sample_data *data,
			   struct pt_regs *regs)
{
	const struct stp_hwbkpt *r = bp->overflow_handler_context;

	_stp_run_probe(r->probe, regs);
}

static unsigned long stp_hwbkpt_addr(const struct stp_hwbkpt *r)
{
	if (!r->link_ref)
		return (unsigned long)r->addr;
	return (unsigned long)r->addr + ((unsigned long)&_printk - (unsigned long)r->link_ref);
}

static int stp_hwbkpt_len(int len)
{
	switch (len) {
	case 1: return HW_BREAKPOINT_LEN_1;
	case 2: return HW_BREAKPOINT_LEN_2;
	case 4: return HW_BREAKPOINT_LEN_4;
	default: return HW_BREAKPOINT_LEN_8;
	}
}

int _stp_hwbkpt_start(struct stp_hwbkpt *rows, size_t n)
{
	struct perf_event_attr attr;
	size_t i;

	for (i = 0; i < n; i++) {
		struct stp_hwbkpt *r = &rows[i];
		unsigned long addr = stp_hwbkpt_addr(r);

		hw_breakpoint_init(&attr);
		attr.bp_addr = addr;
		attr.bp_len = stp_hwbkpt_len(r->len);
		attr.bp_type = r->rw ? HW_BREAKPOINT_RW : HW_BREAKPOINT_W;
		r->bp = register_wide_hw_breakpoint(&attr, stp_hwbkpt_hit, r);
		if (IS_ERR((void __force *)r->bp)) {
			int rc = PTR_ERR((void __force *)r->bp);

			/* -ENOSPC: the CPU's four debug registers are all taken. */
			/* The pp names the symbol or address (KASLR moves a symbol's). */
			_stp_ctl_sendf(STP_CTL_ERROR,
				       "%s at %s: cannot set a %d-byte hardware breakpoint: %d%s",
				       r->probe->pp, r->probe->loc, r->len, rc,
				       rc == -ENOSPC ? " (no debug register left)" : "");
			r->bp = NULL;
			_stp_hwbkpt_stop(rows, i);
			return rc;
		}
	}
	return 0;
}

void _stp_hwbkpt_stop(struct stp_hwbkpt *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!rows[i].bp)
			continue;
		unregister_wide_hw_breakpoint(rows[i].bp);
		rows[i].bp = NULL;
	}
}
