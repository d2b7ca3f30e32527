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
 *    kprobe at all (unless the kernel's kprobe blacklist names it:
 *    kblacklist.c): each register_kprobe() scans the kernel's jump
 *    labels, and thousands of them took minutes under TCG.  For the
 *    others runtime/kprobe.c registers their kprobes disabled, which
 *    makes the kernel resolve the symbol, step over an ENDBR and tell
 *    whether the address is an ftrace site (kprobe_ftrace()).  Those
 *    that are join one ftrace_ops per table; once it is registered
 *    their kprobes are dropped.  Anything else (no fentry site, ftrace
 *    refused) enables its kprobe: the fallback.  If the ops cannot be
 *    registered, every row it took falls back to an enabled kprobe.
 *  - Two ops per table.  Functions whose probes all read no register
 *    but the argument registers, ax, ip, sp and bp (the translator's
 *    stp_probe.args_regs) join one without FTRACE_OPS_FL_SAVE_REGS:
 *    x86-64's ftrace_caller fills just those fields of the pt_regs-shaped
 *    ftrace_regs (and cs = 0, so user_mode() is false), much cheaper than
 *    ftrace_regs_caller's full save and popf.  The others join one with
 *    SAVE_REGS.  A function with one probe of each kind goes whole to
 *    the full ops, so its probes still run in script order.  The
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

/* The pt_regs inside an ftrace_regs an ops without SAVE_REGS gets. */
#if defined(STAPCONF_FTRACE_ARCH_REGS)
#define STP_FENTRY_ARGS 1
#define fentry_args_regs(fregs) (&arch_ftrace_regs(fregs)->regs)
#elif defined(STAPCONF_FTRACE_ARGS_REGS)
#define STP_FENTRY_ARGS 1
#define fentry_args_regs(fregs) (&(fregs)->regs)
#endif

enum { FE_FULL, FE_ARGS, FE_NOPS };

struct stp_fentry_ent {
	unsigned long ip;		/* the ftrace site: the kprobe's address */
	struct stp_kprobe *k;
};

struct stp_fentry {
	struct ftrace_ops ops[FE_NOPS];	/* full pt_regs; argument registers */
	bool armed[FE_NOPS];		/* ops registered */
	unsigned int n, cap;
	unsigned long *ips;		/* distinct ips, for the filters */
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

static __always_inline void fentry_run(struct stp_fentry *fe, unsigned long ip,
				       unsigned long parent_ip, struct pt_regs *regs)
{
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

static void notrace fentry_full(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	fentry_run(container_of(op, struct stp_fentry, ops[FE_FULL]), ip, parent_ip,
		   ftrace_get_regs(fregs));
}

#ifdef STP_FENTRY_ARGS
/*
 * bx, r10-r15, flags and ss are not filled (cs is 0): no probe that
 * reads them comes here (stp_probe.args_regs, translator/regs_use.c).
 * Under another ops' SAVE_REGS on the same function the regs are full.
 */
static void notrace fentry_args(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	fentry_run(container_of(op, struct stp_fentry, ops[FE_ARGS]), ip, parent_ip,
		   fregs ? fentry_args_regs(fregs) : NULL);
}
#endif

/* Which ops the probes at ip go to: the full one if any needs it. */
static int ops_of(const struct stp_fentry *fe, unsigned int i)
{
/* -DSTP_FENTRY_FULL_REGS: all on SAVE_REGS, for bench/entry_overhead.sh. */
#if defined(STP_FENTRY_ARGS) && !defined(STP_FENTRY_FULL_REGS)
	unsigned long ip = fe->ents[i].ip;

	for (; i < fe->n && fe->ents[i].ip == ip; i++)
		if (!fe->ents[i].k->probe->args_regs)
			return FE_FULL;
	return FE_ARGS;
#else
	return FE_FULL;
#endif
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
	_stp_alloc_note(struct_size(fe, ents, cap) + cap * sizeof(*fe->ips));
	/*
	 * No FTRACE_OPS_FL_RECURSION: fentry_run takes the recursion lock
	 * itself, so ftrace calls it straight from the trampoline rather
	 * than through ftrace_ops_assist_func, which would take it a
	 * second time (Documentation/trace/ftrace-uses.rst).
	 */
	fe->ops[FE_FULL].func = fentry_full;
	fe->ops[FE_FULL].flags = FTRACE_OPS_FL_SAVE_REGS;
#ifdef STP_FENTRY_ARGS
	fe->ops[FE_ARGS].func = fentry_args;
#endif
	return fe;
}

bool _stp_fentry_add_ip(struct stp_fentry *fe, struct stp_kprobe *k, unsigned long ip)
{
	if (!fe || fe->armed[FE_FULL] || fe->armed[FE_ARGS] || fe->n == fe->cap)
		return false;
	fe->ents[fe->n].ip = ip;
	fe->ents[fe->n++].k = k;
	return true;
}

bool _stp_fentry_add(struct stp_fentry *fe, struct stp_kprobe *k, struct kprobe *kp)
{
	return kprobe_ftrace(kp) && _stp_fentry_add_ip(fe, k, (unsigned long)kp->addr);
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

/* Filter ops @o on ips[0..n) and register it. */
static int arm_ops(struct stp_fentry *fe, int o, unsigned long *ips, unsigned int n)
{
	int rc;

	/* Never register with an empty filter: that traces every function. */
	if (!n)
		return 0;
	rc = ftrace_set_filter_ips(&fe->ops[o], ips, n, 0, 1);
	if (!rc)
		rc = register_ftrace_function(&fe->ops[o]);
	if (rc) {
		ftrace_free_filter(&fe->ops[o]);
		return rc;
	}
	fe->armed[o] = true;
	return 0;
}

static void disarm(struct stp_fentry *fe)
{
	int o;

	/* Returns once no callback runs or can start (dynamic ops). */
	for (o = 0; o < FE_NOPS; o++)
		if (fe->armed[o]) {
			unregister_ftrace_function(&fe->ops[o]);
			ftrace_free_filter(&fe->ops[o]);
			fe->armed[o] = false;
		}
}

int _stp_fentry_arm(struct stp_fentry *fe)
{
	unsigned int i, nfull = 0, nargs = 0;
	int rc;

	if (!fe || !fe->n)
		return 0;
	sort(fe->ents, fe->n, sizeof(fe->ents[0]), cmp_ent, NULL);
	/* Distinct ips: the full ops' from the front, the others' from the back. */
	for (i = 0; i < fe->n; i++) {
		if (i && fe->ents[i - 1].ip == fe->ents[i].ip)
			continue;
		if (ops_of(fe, i) == FE_FULL)
			fe->ips[nfull++] = fe->ents[i].ip;
		else
			fe->ips[fe->cap - ++nargs] = fe->ents[i].ip;
	}
	rc = arm_ops(fe, FE_FULL, fe->ips, nfull);
	if (!rc)
		rc = arm_ops(fe, FE_ARGS, fe->ips + fe->cap - nargs, nargs);
	if (rc)
		disarm(fe);
	return rc;
}

struct stp_kprobe *_stp_fentry_row(struct stp_fentry *fe, unsigned int i)
{
	return fe && i < fe->n ? fe->ents[i].k : NULL;
}

void _stp_fentry_free(struct stp_fentry *fe)
{
	if (!fe)
		return;
	disarm(fe);
	kvfree(fe->ips);
	kvfree(fe);
}

#endif /* STAPCONF_FTRACE_REGS_OPS */
