// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * User-space backtraces.  The walk starts from the task's user registers
 * and steps from frame to caller with the file's .eh_frame rows
 * (translator/ucfi.c) where it has them, which covers code built without
 * frame pointers and probes at a function's first instruction; without a
 * row it follows the rbp chain.  Every stack read is non-faulting; the
 * walk ends at a zero or unreadable return address, a stack pointer that
 * does not move up, or a file without tables (SystemTap's behaviour: that
 * frame is the last, and a warning asks for -d).
 */
#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/string.h>
#include <linux/uprobes.h>
#include "stp_tapset.h"
#include "stp_scratch.h"

/* The user registers the walk starts from, or NULL. */
static struct pt_regs *user_regs(struct stp_context *c)
{
	if (c->regs && user_mode(c->regs))
		return c->regs;
	if (current->mm && !(current->flags & PF_KTHREAD))
		return task_pt_regs(current);
	return NULL;
}

/* The row for file offset off, or NULL. */
static const struct stp_ucfi *find_row(const struct stp_usymtab *t, unsigned long off)
{
	long lo = 0, hi = (long)t->ncfi - 1, best = -1;

	while (lo <= hi) {
		long mid = lo + (hi - lo) / 2;

		if (t->cfi[mid].pc <= off) {
			best = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return best < 0 ? NULL : &t->cfi[best];
}

static atomic_t warned_missing = ATOMIC_INIT(0);

static int read_word(unsigned long addr, unsigned long *val)
{
	return _stp_uread_quiet(val, addr, sizeof(*val));
}

/*
 * The return address read from slot, unless a uretprobe took it: then
 * the trampoline's address is there, and the task's return instance for
 * that slot (its stack) holds the caller's (prepare_uretprobe() stores
 * the real one even for a chained instance).
 */
static unsigned long unhijack(unsigned long slot, unsigned long ra)
{
#ifdef CONFIG_UPROBES
	struct uprobe_task *ut = current->utask;
	struct return_instance *ri;

	for (ri = ut ? ut->return_instances : NULL; ri; ri = ri->next)
		if (ri->stack == slot)
			return ri->orig_ret_vaddr;
#endif
	return ra;
}

static int ustack_walk(const struct stp_ustart *start, unsigned long *pcs, int max)
{
	unsigned long pc = start->pc, sp = start->sp, bp = start->bp;
	struct mm_struct *mm;
	int n = 0;

	if (max <= 0)
		return 0;
	mm = _stp_umm_lock();
	while (n < max) {
		const struct stp_ucfi *row = NULL;
		unsigned long cfa, ra, nbp = bp;
		struct stp_uloc l;

		pcs[n++] = pc;
		/* Enough: the frame past the last asked for is not read. */
		if (n == max)
			break;
		/* A return address's call is the byte before it. */
		if (!mm || _stp_uloc(mm, n > 1 ? pc - 1 : pc, &l))
			break;
		if (!l.t) {
			if (!atomic_xchg(&warned_missing, 1))
				_stp_warn("Missing unwind data for a module, rerun with "
					  "'stap -d %s'", l.path);
			break;
		}
		if (l.t->ncfi)
			row = find_row(l.t, l.off);
		if (row && row->cfa_reg != STP_UCFI_NONE) {
			cfa = (row->cfa_reg == STP_UCFI_SP ? sp : bp) + row->cfa_off;
			if (read_word(cfa + 8 * row->ra, &ra))
				break;
			ra = unhijack(cfa + 8 * row->ra, ra);
			if (row->bp && read_word(cfa + 8 * row->bp, &nbp))
				break;
		} else {
			/* Frame pointers: [rbp] the caller's rbp, [rbp + 8] the return address. */
			cfa = bp + 16;
			if (!bp || read_word(bp + 8, &ra) || read_word(bp, &nbp))
				break;
			ra = unhijack(bp + 8, ra);
		}
		if (!ra || cfa <= sp)
			break;
		pc = ra;
		sp = cfa;
		bp = nbp;
	}
	_stp_umm_unlock(mm);
	return n;
}

int _stp_ustack_pcs(struct stp_context *c, unsigned long *pcs, int max)
{
	struct pt_regs *regs = user_regs(c);
	struct stp_ustart start;

	if (!regs)
		return 0;
	start = (struct stp_ustart){ instruction_pointer(regs), regs->sp, regs->bp };
	return ustack_walk(&start, pcs, max);
}

/* One walk at a time per CPU (one hit at a time): no stack buffers. */

bool _stp_ucallers_match(struct stp_context *c, const struct stp_callers *cl)
{
#ifdef STAP_CALLEE_MATCHALL
	return true;
#else
	unsigned long *pcs = _stp_scratch()->upcs;
	int n = _stp_ustack_pcs(c, pcs, min_t(int, cl->n + 1, STP_MAX_STACK));
	struct inode *ino = NULL;
	struct mm_struct *mm;
	bool ok = n >= (int)cl->n + 1;
	u32 i;

	if (!ok)
		return false;
	mm = _stp_umm_lock();
	if (!mm)
		return false;
	/* pcs[0] is the probe's own address: the callers must be in its file. */
	for (i = 0; ok && i <= cl->n; i++) {
		struct vm_area_struct *v = find_vma(mm, pcs[i]);

		if (!v || pcs[i] < v->vm_start || !v->vm_file) {
			ok = false;
		} else if (!i) {
			ino = file_inode(v->vm_file);
		} else {
			unsigned long base = v->vm_start - (v->vm_pgoff << PAGE_SHIFT);

			ok = file_inode(v->vm_file) == ino && pcs[i] - base == cl->ra[i - 1];
		}
	}
	_stp_umm_unlock(mm);
	return ok;
#endif
}

void _stp_ubacktrace_hex(struct stp_context *c, char *dst, int count, bool trailing)
{
	unsigned long *pcs = _stp_scratch()->upcs;
	int n = _stp_ustack_pcs(c, pcs, count < 0 ? STP_MAX_STACK :
				min_t(int, count, STP_MAX_STACK)), i;
	size_t out = 0;

	dst[0] = '\0';
	/* As SystemTap: ucallers(n) of a shorter stack is an error. */
	if (count > 0 && n < count) {
		_stp_error(c, "reached end of stack before unwinding to level %d", count - 1);
		return;
	}
	for (i = 0; i < n; i++) {
		/* "0x", 16 digits and a space */
		if (out + 20 >= MAXSTRINGLEN)
			break;
		out += scnprintf(dst + out, MAXSTRINGLEN - out, "%s0x%lx%s",
				 trailing || !out ? "" : " ", pcs[i], trailing ? " " : "");
	}
}

int64_t _stp_ustack_at(struct stp_context *c, int64_t depth)
{
	unsigned long *pcs = _stp_scratch()->upcs;
	int n = _stp_ustack_pcs(c, pcs, STP_MAX_STACK);

	if (depth < 0 || depth >= n) {
		_stp_error(c, "cannot unwind the user stack to depth %lld (it has %d frames)",
			   (long long)depth, n);
		return 0;
	}
	return pcs[depth];
}


/*
 * The words of a ubacktrace() string, as SystemTap prints them: each word
 * as it is, then the symbol of its value in hex (0 for a word that is no
 * number).
 */
static void print_tokens(struct stp_context *c, const char *addrs, char *dst)
{
	char *line = _stp_scratch()->uline;
	size_t out = 0;

	while (*addrs) {
		size_t len = strcspn(addrs, " "), n;

		if (!len) {
			addrs++;
			continue;
		}
		n = scnprintf(line, STP_ULINE_LEN, " %.*s : ", (int)min_t(size_t, len, 64), addrs);
		_stp_usym_format(line + n, STP_ULINE_LEN - n,
				 simple_strtoul(addrs, NULL, 16), STP_UFMT_DATA);
		addrs += len;
		if (!_stp_line_out(c, line, dst, &out))
			break;
	}
}

static void print_frames(struct stp_context *c, const struct stp_ustart *start,
			 enum stp_ufmt how, char *dst)
{
	unsigned long *pcs = _stp_scratch()->upcs;
	char *line = _stp_scratch()->uline;
	size_t out = 0;
	int n, i = 0;

	n = start ? ustack_walk(start, pcs, STP_MAX_STACK) :
		    _stp_ustack_pcs(c, pcs, STP_MAX_STACK);
	/*
	 * As print_backtrace() in a kernel .return probe (runtime/stack.c):
	 * the probed function's entry, then where it returns, which is
	 * where the hit's registers stand.
	 */
	if (how == STP_UFMT_BT && !dst && !start && c->uprobe && c->ret_from && n > 0) {
		_stp_print(c, "Returning from: ");
		_stp_usym_format(line, STP_ULINE_LEN, c->ret_from, how);
		_stp_line_out(c, line, NULL, &out);
		_stp_print(c, "Returning to  : ");
		_stp_usym_format(line, STP_ULINE_LEN, pcs[0], how);
		_stp_line_out(c, line, NULL, &out);
		i = 1;
	}
	for (; i < n; i++) {
		_stp_usym_format(line, STP_ULINE_LEN, pcs[i], how);
		if (!_stp_line_out(c, line, dst, &out))
			break;
	}
}

void _stp_ustack_print(struct stp_context *c, const char *addrs, enum stp_ufmt how,
		       char *dst)
{
	if (dst)
		dst[0] = '\0';
	if (addrs)
		print_tokens(c, addrs, dst);
	else
		print_frames(c, NULL, how, dst);
}

void _stp_ustack_print_from(struct stp_context *c, const struct stp_ustart *start,
			    enum stp_ufmt how)
{
	print_frames(c, start, how, NULL);
}
