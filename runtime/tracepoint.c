// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel.trace probes: the table translator/probes/trace.c emits (struct
 * stp_tracepoint, stp_runtime.h) is registered at session start and
 * unregistered at session stop, before end probes run.
 *
 *  - struct tracepoint is not exported by name, so the table's names are
 *    looked up with one walk of for_each_kernel_tracepoint() (tracepoints
 *    of the kernel proper; those in modules are not supported).
 *  - Each entry registers its own callback with its own entry as data,
 *    so two probes on one tracepoint are two distinct (fn, data) pairs,
 *    which is what tracepoint_probe_register() requires.  Entries
 *    filtered by system call number (nr != -1, the syscall.* aliases)
 *    are the exception: those on one tracepoint share the first one's
 *    callback, which runs the ones for the current call.
 *  - The kernel calls a probe as fn(data, args...) with preemption off;
 *    the generated callback copies the arguments into an array on its
 *    stack and _stp_tracepoint_hit runs the probe with it as c->args.
 *  - Unregistration waits once for every callback in flight
 *    (tracepoint_synchronize_unregister) before the table can go away.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/compat.h>
#include <linux/sched/task_stack.h>
#include <asm/syscall.h>
#include "stp_internal.h"

void _stp_tracepoint_hit(void *data, const unsigned long *args)
{
	struct stp_tracepoint *t = data;
	struct stp_hit h = { .args = args };
	bool compat;
	long nr;

	if (t->nr == -1) {
		_stp_run_probe_hit(t->probe, NULL, &h);
		return;
	}
	if (current->flags & PF_KTHREAD)
		return;
	/* A 32-bit task's calls have their own numbers (x32's have a high
	 * bit set, which neither table has). */
	compat = in_compat_syscall();
	nr = syscall_get_nr(current, task_pt_regs(current));
	for (; t; t = t->next_nr)
		if ((compat ? t->nr32 : t->nr) == nr)
			_stp_run_probe_hit(t->probe, NULL, &h);
}

struct lookup {
	struct stp_tracepoint *tps;
	size_t n;
};

static void lookup_one(struct tracepoint *tp, void *priv)
{
	struct lookup *l = priv;
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!l->tps[i].tp && !strcmp(l->tps[i].name, tp->name))
			l->tps[i].tp = tp;
}

int _stp_tracepoints_start(struct stp_tracepoint *tps, size_t n)
{
	struct lookup l = { tps, n };
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		tps[i].tp = NULL;
		tps[i].next_nr = NULL;
	}
	for_each_kernel_tracepoint(lookup_one, &l);
	for (i = 0; i < n; i++) {
		struct stp_tracepoint *t = &tps[i];
		size_t j;

		cond_resched();
		if (t->registered)
			continue;
		/* A filtered entry joins the first one on its tracepoint. */
		if (t->nr != -1 && t->tp) {
			struct stp_tracepoint *head = NULL, *last;

			for (j = 0; j < i && !head; j++)
				if (tps[j].nr != -1 && tps[j].tp == t->tp && tps[j].registered)
					head = &tps[j];
			if (head) {
				for (last = head; last->next_nr; last = last->next_nr)
					;
				last->next_nr = t;
				continue;
			}
		}
		if (!t->tp) {
			if (t->flags & STP_TRACEPOINT_OPTIONAL)
				continue;
			_stp_ctl_sendf(STP_CTL_ERROR, "%s at %s: the kernel has no "
				       "tracepoint '%s'", t->probe->pp, t->probe->loc,
				       t->name);
			rc = -ENOENT;
			goto fail;
		}
		rc = tracepoint_probe_register(t->tp, t->fn, t);
		if (!rc) {
			t->registered = true;
			continue;
		}
		if (t->flags & STP_TRACEPOINT_OPTIONAL)
			continue;
		_stp_ctl_sendf(STP_CTL_ERROR, "%s at %s: cannot register a probe on "
			       "tracepoint '%s': error %d", t->probe->pp,
			       t->probe->loc, t->name, rc);
		goto fail;
	}
	return 0;
fail:
	_stp_tracepoints_stop(tps, n);
	return rc;
}

void _stp_tracepoints_stop(struct stp_tracepoint *tps, size_t n)
{
	bool any = false;
	size_t i;

	for (i = 0; i < n; i++) {
		struct stp_tracepoint *t = &tps[i];

		if (!t->registered)
			continue;
		/* Fails only for a pair that is not registered: nothing to undo. */
		tracepoint_probe_unregister(t->tp, t->fn, t);
		t->registered = false;
		any = true;
	}
	if (any)
		tracepoint_synchronize_unregister();
}
