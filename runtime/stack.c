// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel backtraces with the kernel's own unwinder (asm/unwind.h: ORC on
 * Debian's kernels).  stack_trace_save_regs() is not exported to
 * modules; the unwind_start()/unwind_next_frame() it is built on are,
 * and they start from the probe's pt_regs just as it would.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <asm/unwind.h>
#include "stp_tapset.h"
#include "stp_scratch.h"


int _stp_stack_pcs(struct stp_context *c, unsigned long *pcs, int max)
{
	struct unwind_state state;
	struct pt_regs *regs = c->regs;
	bool leading = true;
	int n = 0;

	if (max <= 0)
		return 0;
	if (regs && user_mode(regs))
		return 0;	/* the hit interrupted user space */
	if (regs)
		pcs[n++] = _stp_probe_addr(c);
	/*
	 * A kprobe's (and fentry.c's) regs hold ip one byte past the probe
	 * address; the unwinder finds the frame's ORC entry by ip, so give it
	 * the probe's.
	 */
	if (regs && instruction_pointer(regs) != _stp_probe_addr(c)) {
		struct pt_regs *copy = &_stp_scratch()->regs_copy;

		*copy = *regs;
		instruction_pointer_set(copy, _stp_probe_addr(c));
		regs = copy;
	}
	for (unwind_start(&state, current, regs, NULL);
	     !unwind_done(&state) && n < max; unwind_next_frame(&state)) {
		unsigned long addr = unwind_get_return_address(&state);

		if (!addr)
			break;
		/* The unwinder's first frame is the regs' own ip. */
		if (regs && leading && addr == instruction_pointer(regs)) {
			leading = false;
			continue;
		}
		/*
		 * Without regs (begin, end, timers without them) the walk
		 * starts here: this module's own frames are not the script's.
		 */
		if (!regs && leading && within_module(addr, THIS_MODULE))
			continue;
		leading = false;
		pcs[n++] = addr;
	}
	return n;
}

/* One hit at a time per CPU (context.c): no stack buffers. */

bool _stp_callers_match(struct stp_context *c, const struct stp_callers *cl)
{
#ifdef STAP_CALLEE_MATCHALL
	return true;
#else
	unsigned long *pcs = _stp_scratch()->pcs;
	unsigned long slide = (unsigned long)&_printk - (unsigned long)cl->link_ref;
	int n = _stp_stack_pcs(c, pcs, min_t(int, cl->n + 1, STP_MAX_STACK));
	u32 i;

	/* pcs[0] is the probe's own address. */
	if (n < (int)cl->n + 1)
		return false;
	for (i = 0; i < cl->n; i++)
		if (pcs[i + 1] != (unsigned long)cl->ra[i] + slide)
			return false;
	return true;
#endif
}

/*
 * One address as SystemTap prints it: " 0x... : symbol+0xoff/0xsize [mod]"
 * (print_backtrace), or "symbol+0xoff [mod]" with no size in the strings
 * (sprint_backtrace).
 */
static const char *format_line(unsigned long addr, bool verbose)
{
	char *buf = _stp_scratch()->line;
	size_t len = STP_LINE_LEN, n = 0;
	unsigned long off, size;
	const char *mod;

	if (verbose) {
		n = snprintf(buf, len, " 0x%016lx : ", addr);
		_stp_symdata(buf + n, len - n, addr);
		return buf;
	}
	if (_stp_sym_lookup(addr, buf, len, &off, &size, &mod)) {
		snprintf(buf, len, "0x%lx", addr);
		return buf;
	}
	n = strlen(buf);
	snprintf(buf + n, len - n, "+0x%lx [%s]", off, mod);
	return buf;
}

bool _stp_line_out(struct stp_context *c, const char *line, char *dst, size_t *out)
{
	size_t n = strlen(line);

	if (!dst) {
		_stp_print(c, line);
		_stp_print_char(c, '\n');
		return true;
	}
	if (*out + n + 1 >= MAXSTRINGLEN)
		return false;
	memcpy(dst + *out, line, n);
	dst[*out + n] = '\n';
	*out += n + 1;
	dst[*out] = '\0';
	return true;
}

void _stp_syms_print(struct stp_context *c, const char *addrs, bool verbose,
		     char *dst)
{
	const char *p = addrs;
	size_t out = 0;

	if (dst)
		dst[0] = '\0';
	while (*p) {
		unsigned long addr;
		char *end;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		addr = simple_strtoul(p, &end, 16);
		if (end == p)
			break;	/* not a hex address: the rest is ignored */
		p = end;
		if (!_stp_line_out(c, format_line(addr, verbose), dst, &out))
			break;
	}
}

void _stp_backtrace_syms(struct stp_context *c, bool verbose, char *dst)
{
	unsigned long *pcs = _stp_scratch()->pcs;
	int n = _stp_stack_pcs(c, pcs, STP_MAX_STACK), i = 0;
	size_t out = 0;

	if (dst)
		dst[0] = '\0';
	/*
	 * print_backtrace() in a .return probe starts as SystemTap's does:
	 * "Returning from:  <the function's entry>" and "Returning to  :
	 * <where it returns>", then the rest of the stack.
	 */
	if (verbose && !dst && c->ret_from && n > 0) {
		_stp_print(c, "Returning from: ");
		_stp_line_out(c, format_line(c->ret_from, true), NULL, &out);
		_stp_print(c, "Returning to  : ");
		_stp_line_out(c, format_line(pcs[0], true), NULL, &out);
		i = 1;
	}
	for (; i < n; i++)
		if (!_stp_line_out(c, format_line(pcs[i], verbose), dst, &out))
			break;
}

void _stp_backtrace_hex(struct stp_context *c, char *dst, int skip, int count)
{
	unsigned long *pcs = _stp_scratch()->pcs;
	int n = _stp_stack_pcs(c, pcs, STP_MAX_STACK), i;
	size_t out = 0;

	dst[0] = '\0';
	for (i = skip; i < n && (count < 0 || i < skip + count); i++) {
		/* "0x" and 16 digits, and the space before all but the first */
		if (out + 20 >= MAXSTRINGLEN)
			break;
		out += scnprintf(dst + out, MAXSTRINGLEN - out, "%s0x%lx",
				 out ? " " : "", pcs[i]);
	}
}

int64_t _stp_backtrace_at(struct stp_context *c, int64_t depth)
{
	unsigned long *pcs = _stp_scratch()->pcs;
	int n = _stp_stack_pcs(c, pcs, STP_MAX_STACK);

	if (depth < 0 || depth >= n) {
		_stp_error(c, "cannot unwind the kernel stack to depth %lld "
			   "(it has %d frames)", (long long)depth, n);
		return 0;
	}
	return pcs[depth];
}
