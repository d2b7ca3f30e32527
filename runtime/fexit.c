// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * .return probes on an fprobe, where the kernel has one for modules
 * (kfeatures/fprobe_exit.c).  A kretprobe on a function with an fentry
 * call already sits on ftrace, but each hit goes through the kprobe
 * layer (the kprobe table lookup, current_kprobe, the kretprobe's own
 * instance pool) before rethook hooks the return; an fprobe hooks it
 * straight from its ftrace_ops callback, through the same rethook and
 * its kernel-resident trampoline.
 *
 *  - One fprobe per table takes the .return rows whose function's
 *    fentry call the translator found (stp_kprobe.ftrace) and that have
 *    no .maxactive(N): rows are sorted by ip, and the handlers run every
 *    row at the ip they are given, in script order.  Anything else, or
 *    all of them if the fprobe cannot be registered, stays a kretprobe
 *    (runtime/kprobe.c).
 *  - Rows that read @entry values or parameters get a slice of the
 *    entry data: a word that says the entry hit ran, then their slots.
 *    The entry handler fills them as the kretprobe's entry_handler
 *    would; a row whose entry hit was skipped does not run at the
 *    return, and if none at the ip ran the return is not hooked.
 *  - The instance pool is shared: the kretprobes' per-function default
 *    (KRETACTIVE, or the kernel's max(10, 2 * CPUs)) times the number of
 *    functions.  The fprobe's missed count (pool empty, or a hit inside
 *    a handler) becomes skipped probes at stop, with the kretprobes'
 *    warning.
 *  - The return trampoline is the kernel's: a function still running
 *    when the module goes finds no handler (unregister_fprobe() clears
 *    it and waits for running ones) and returns normally.
 */
#include <linux/fprobe.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include "stp_internal.h"

#ifdef STAPCONF_FPROBE_EXIT

struct stp_fexit_ent {
	unsigned long ip;		/* the function's ftrace site */
	struct stp_kprobe *k;
	unsigned int off;		/* its entry data: ran flag, slots */
};

struct stp_fexit {
	struct fprobe fp;
	bool armed;
	unsigned int n, cap;
	unsigned long *ips;		/* distinct ips, for the filter */
	struct stp_fexit_ent ents[];	/* by ip once armed */
};

/* The first entry whose ip is at least @ip. */
static unsigned int lower_bound(const struct stp_fexit *fx, unsigned long ip)
{
	unsigned int lo = 0, hi = fx->n;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (fx->ents[mid].ip < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Non-zero: no row at @ip runs at the return, so do not hook it. */
static int notrace fexit_entry(struct fprobe *fp, unsigned long ip, unsigned long ret_ip,
			       struct pt_regs *regs, void *data)
{
	struct stp_fexit *fx = container_of(fp, struct stp_fexit, fp);
	unsigned long orig_ip;
	unsigned int i;
	int ret = 1;

	if (unlikely(!regs))
		return 1;
	/* As a kprobe on the ftrace site shows it; ftrace returns to regs->ip. */
	orig_ip = instruction_pointer(regs);
	instruction_pointer_set(regs, ip + 1);
	for (i = lower_bound(fx, ip); i < fx->n && fx->ents[i].ip == ip; i++) {
		struct stp_kprobe *k = fx->ents[i].k;
		int64_t *d = (int64_t *)data + fx->ents[i].off;
		struct stp_hit h = { .entry_slots = d + 1, .fn = k->entry };

		if (!k->nslots) {
			ret = 0;
			continue;
		}
		memset(d, 0, (1 + k->nslots) * sizeof(*d));
		if (!_stp_run_probe_hit(k->probe, regs, &h)) {
			d[0] = 1;
			ret = 0;
		}
	}
	instruction_pointer_set(regs, orig_ip);
	return ret;
}

static void notrace fexit_exit(struct fprobe *fp, unsigned long ip, unsigned long ret_ip,
			       struct pt_regs *regs, void *data)
{
	struct stp_fexit *fx = container_of(fp, struct stp_fexit, fp);
	unsigned int i;

	for (i = lower_bound(fx, ip); i < fx->n && fx->ents[i].ip == ip; i++) {
		struct stp_kprobe *k = fx->ents[i].k;
		struct stp_hit h = { .ret_from = ip };

		if (k->nslots) {
			int64_t *d = (int64_t *)data + fx->ents[i].off;

			if (!d[0])
				continue;
			h.entry_slots = d + 1;
		}
		_stp_run_probe_hit(k->probe, regs, &h);
	}
}

struct stp_fexit *_stp_fexit_alloc(unsigned int cap)
{
	struct stp_fexit *fx;

	fx = kvzalloc(struct_size(fx, ents, cap), GFP_KERNEL);
	if (!fx)
		return NULL;
	fx->ips = kvcalloc(cap, sizeof(*fx->ips), GFP_KERNEL);
	if (!fx->ips) {
		kvfree(fx);
		return NULL;
	}
	fx->cap = cap;
	_stp_alloc_note(struct_size(fx, ents, cap) + cap * sizeof(*fx->ips));
	fx->fp.exit_handler = fexit_exit;
	return fx;
}

bool _stp_fexit_add(struct stp_fexit *fx, struct stp_kprobe *k, unsigned long ip)
{
	if (!fx || fx->armed || fx->n == fx->cap)
		return false;
	fx->ents[fx->n].ip = ip;
	fx->ents[fx->n++].k = k;
	return true;
}

/* By ip, then by row: the rows at one function run in script order. */
static int cmp_ent(const void *a, const void *b)
{
	const struct stp_fexit_ent *x = a, *y = b;

	if (x->ip != y->ip)
		return x->ip < y->ip ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

int _stp_fexit_arm(struct stp_fexit *fx)
{
	unsigned int i, nips = 0, words = 0, most = 0;
	int rc;

	if (!fx || !fx->n)
		return 0;
	sort(fx->ents, fx->n, sizeof(fx->ents[0]), cmp_ent, NULL);
	for (i = 0; i < fx->n; i++) {
		struct stp_fexit_ent *e = &fx->ents[i];

		if (!i || fx->ents[i - 1].ip != e->ip) {
			fx->ips[nips++] = e->ip;
			words = 0;
		}
		e->off = words;
		if (e->k->nslots)
			words += 1 + e->k->nslots;
		most = max(most, words);
	}
	if (most) {
		fx->fp.entry_handler = fexit_entry;
		fx->fp.entry_data_size = most * sizeof(int64_t);
	}
	fx->fp.nr_maxactive = nips * (KRETACTIVE > 0 ? KRETACTIVE :
				      max_t(unsigned int, 10, 2 * num_possible_cpus()));
	rc = register_fprobe_ips(&fx->fp, fx->ips, nips);
	fx->armed = rc == 0;
	return rc;
}

struct stp_kprobe *_stp_fexit_row(struct stp_fexit *fx, unsigned int i)
{
	return fx && i < fx->n ? fx->ents[i].k : NULL;
}

unsigned long _stp_fexit_free(struct stp_fexit *fx)
{
	unsigned long missed;

	if (!fx)
		return 0;
	missed = fx->fp.nmissed;
	if (fx->armed) {
		/*
		 * unregister_fprobe() stops the rethook before the ftrace_ops:
		 * every entry in between would count as missed.  Soft-disabled,
		 * the handlers return before counting; once the ones running
		 * have finished (they run with preemption off), the count is
		 * final.
		 */
		disable_fprobe(&fx->fp);
		synchronize_rcu();
		missed = READ_ONCE(fx->fp.nmissed);
		/* Returns once no handler runs or can start; later returns find none. */
		unregister_fprobe(&fx->fp);
	}
	kvfree(fx->ips);
	kvfree(fx);
	return missed;
}

#endif /* STAPCONF_FPROBE_EXIT */
