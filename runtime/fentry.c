// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Function-entry probes on the ftrace site.  An int3 kprobe costs a trap
 * per hit; where a probed function starts with its fentry call, one
 * ftrace_ops filtered on those functions reaches the handler with a
 * plain call instead (Documentation/trace/ftrace-uses.rst).
 *
 *  - Rows flagged STP_KPROBE_FENTRY (a function family's entry, at
 *    symbol + 0) may go there.  Where the translator found the site in
 *    the vmlinux's __mcount_loc (.ftrace), the row joins the ops with no
 *    kprobe at all: each register_kprobe() scans the kernel's jump
 *    labels, and thousands of them took minutes under TCG.  For the
 *    others runtime/kprobe.c registers their kprobes disabled, which
 *    makes the kernel resolve the symbol, step over an ENDBR and tell
 *    whether the address is an ftrace site (kprobe_ftrace()).  Those
 *    that are join one ftrace_ops per table; once it is registered
 *    their kprobes are dropped.  Anything else (no fentry site, ftrace
 *    refused) enables its kprobe: the fallback.  If the ops cannot be
 *    registered, every row it took falls back to an enabled kprobe.
 *  - The ops asks for full pt_regs (FTRACE_OPS_FL_SAVE_REGS): the
 *    arguments are still in their registers at the call, and the DWARF
 *    locations the translator used are those of the function's entry.
 *    The handler sees ip one byte past the probe address, as under an
 *    int3 kprobe, so addr(), backtraces and probefunc() read the same.
 *  - Recursion (a probed function called from a handler) is a skipped
 *    hit, as the kernel's kprobes count it.
 */
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include "stp_internal.h"

#ifdef STAPCONF_FTRACE_REGS_OPS

struct stp_fentry_ent {
	unsigned long ip;		/* the ftrace site: the kprobe's address */
	struct stp_kprobe *k;
};

struct stp_fentry {
	struct ftrace_ops ops;
	bool armed;			/* ops registered */
	unsigned int n, cap;
	unsigned long *ips;		/* distinct ips, for the filter */
	struct stp_fentry_ent ents[];	/* by ip once armed */
};

/* The first entry whose ip is at least @ip. */
static unsigned int lower_bound(const struct stp_fentry *fe, unsigned long ip)
{
	unsigned int lo = 0, hi = fe->n;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (fe->ents[mid].ip < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void notrace fentry_handler(unsigned long ip, unsigned long parent_ip,
				   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct stp_fentry *fe = container_of(op, struct stp_fentry, ops);
	struct pt_regs *regs = ftrace_get_regs(fregs);
	unsigned long orig_ip;
	unsigned int i;
	int bit;

	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0) {
		_stp_count_reentry();
		return;
	}
	if (unlikely(!regs))
		goto out;
	/* ftrace returns to regs->ip: put it back after the handlers. */
	orig_ip = instruction_pointer(regs);
	instruction_pointer_set(regs, ip + 1);
	for (i = lower_bound(fe, ip); i < fe->n && fe->ents[i].ip == ip; i++)
		_stp_run_probe(fe->ents[i].k->probe, regs);
	instruction_pointer_set(regs, orig_ip);
out:
	ftrace_test_recursion_unlock(bit);
}

struct stp_fentry *_stp_fentry_alloc(unsigned int cap)
{
	struct stp_fentry *fe;

	fe = kvzalloc(struct_size(fe, ents, cap), GFP_KERNEL);
	if (!fe)
		return NULL;
	fe->ips = kvcalloc(cap, sizeof(*fe->ips), GFP_KERNEL);
	if (!fe->ips) {
		kvfree(fe);
		return NULL;
	}
	fe->cap = cap;
	fe->ops.func = fentry_handler;
	/*
	 * No FTRACE_OPS_FL_RECURSION: fentry_handler takes the recursion
	 * lock itself, so ftrace calls it straight from the trampoline
	 * rather than through ftrace_ops_assist_func, which would take it
	 * a second time (Documentation/trace/ftrace-uses.rst).
	 */
	fe->ops.flags = FTRACE_OPS_FL_SAVE_REGS;
	return fe;
}

bool _stp_fentry_add_ip(struct stp_fentry *fe, struct stp_kprobe *k, unsigned long ip)
{
	if (!fe || fe->armed || fe->n == fe->cap)
		return false;
	fe->ents[fe->n].ip = ip;
	fe->ents[fe->n++].k = k;
	return true;
}

bool _stp_fentry_add(struct stp_fentry *fe, struct stp_kprobe *k)
{
	return kprobe_ftrace(&k->u.kp) &&
	       _stp_fentry_add_ip(fe, k, (unsigned long)k->u.kp.addr);
}

/*
 * By ip, then by row: rows are in script order, and probes on one
 * function run in that order, as SystemTap runs them (sort() is not
 * stable by itself).
 */
static int cmp_ent(const void *a, const void *b)
{
	const struct stp_fentry_ent *x = a, *y = b;

	if (x->ip != y->ip)
		return x->ip < y->ip ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

int _stp_fentry_arm(struct stp_fentry *fe)
{
	unsigned int i, nips = 0;
	int rc;

	if (!fe || !fe->n)
		return 0;
	sort(fe->ents, fe->n, sizeof(fe->ents[0]), cmp_ent, NULL);
	for (i = 0; i < fe->n; i++)
		if (!nips || fe->ips[nips - 1] != fe->ents[i].ip)
			fe->ips[nips++] = fe->ents[i].ip;
	/* Never register with an empty filter: that traces every function. */
	rc = ftrace_set_filter_ips(&fe->ops, fe->ips, nips, 0, 1);
	if (!rc)
		rc = register_ftrace_function(&fe->ops);
	if (rc) {
		ftrace_free_filter(&fe->ops);
		return rc;
	}
	fe->armed = true;
	return 0;
}

struct stp_kprobe *_stp_fentry_row(struct stp_fentry *fe, unsigned int i)
{
	return fe && i < fe->n ? fe->ents[i].k : NULL;
}

void _stp_fentry_free(struct stp_fentry *fe)
{
	if (!fe)
		return;
	/* Returns once no callback runs or can start (dynamic ops). */
	if (fe->armed) {
		unregister_ftrace_function(&fe->ops);
		ftrace_free_filter(&fe->ops);
	}
	kvfree(fe->ips);
	kvfree(fe);
}

#endif /* STAPCONF_FTRACE_REGS_OPS */
