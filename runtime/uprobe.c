// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * User-space probes: the table translator/probes/uprobe.c emits (struct
 * stp_uprobe, stp_runtime.h), registered with the kernel's uprobes at
 * session start and unregistered at session stop.
 *
 *  - An entry names a file and an offset in it.  The kernel's uprobes
 *    are keyed by inode: the breakpoint goes into every process that
 *    maps that page of the file, now or later, until unregistered, and
 *    the handler runs in the traced task, in process context.
 *  - SDT markers with a semaphore pass its file offset as the uprobe's
 *    reference counter: the kernel raises it in every process while the
 *    probe is registered, so the program's PROBE_ENABLED() tests see it.
 *    They register once the session runs (_stp_uprobes_live()).
 *  - With a -c/-x target, handlers run only in the target's tree;
 *    .library(...) entries have exe: without a target their handlers run
 *    only in the processes whose program is exe (see wanted()).
 *  - .return entries are uretprobes.  Handlers run the probe with
 *    c->uprobe set, which makes target-variable reads read user memory.
 *  - A .return probe reading @entry values (parameters) also has an
 *    entry handler that saves them in a record keyed by (task, stack
 *    pointer at entry); the return handler finds it by its own stack
 *    pointer, one word higher once the return address is popped.  A
 *    preallocated pool per probe: a hit that finds it full is skipped.
 *  - Unregistration waits for handlers still running (6.1: the
 *    consumer's rwsem; 6.12: uprobe_unregister_sync's SRCU period).
 */
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/namei.h>
#include <linux/sched.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/uprobes.h>
#include "stp_internal.h"

#ifdef CONFIG_UPROBES

struct stp_uconsumer {
	struct uprobe_consumer uc;
	struct stp_uprobe *u;
};

#define STP_UENTRIES 256	/* calls in flight per .return probe */

struct stp_uentry {
	struct task_struct *task;	/* NULL: free */
	unsigned long sp;		/* at entry: the return address's slot */
	int64_t *slots;
};

struct stp_uentries {
	raw_spinlock_t lock;
	struct stp_uentry e[STP_UENTRIES];
};

static struct stp_uentries *entries_alloc(u16 nslots)
{
	struct stp_uentries *t = kvzalloc(sizeof(*t) + STP_UENTRIES * nslots * sizeof(int64_t),
					  GFP_KERNEL);
	int64_t *slots;
	int i;

	if (!t)
		return NULL;
	raw_spin_lock_init(&t->lock);
	slots = (int64_t *)(t + 1);
	for (i = 0; i < STP_UENTRIES; i++)
		t->e[i].slots = slots + i * nslots;
	return t;
}

/* A free record for (current, sp), or NULL if all are in use. */
static struct stp_uentry *entry_get(struct stp_uentries *t, unsigned long sp)
{
	struct stp_uentry *e = NULL;
	unsigned long flags;
	int i;

	raw_spin_lock_irqsave(&t->lock, flags);
	for (i = 0; i < STP_UENTRIES && !e; i++)
		if (!t->e[i].task)
			e = &t->e[i];
	if (e) {
		e->task = current;
		e->sp = sp;
	}
	raw_spin_unlock_irqrestore(&t->lock, flags);
	return e;
}

/*
 * The record of the call returning now (entry sp == sp - 8).  Records of
 * this task for deeper frames (lower sp) are calls that never returned
 * normally (longjmp, exceptions): freed on the way.
 */
static struct stp_uentry *entry_find(struct stp_uentries *t, unsigned long sp)
{
	struct stp_uentry *e = NULL;
	unsigned long flags;
	int i;

	raw_spin_lock_irqsave(&t->lock, flags);
	for (i = 0; i < STP_UENTRIES; i++) {
		struct stp_uentry *x = &t->e[i];

		if (x->task != current)
			continue;
		if (x->sp == sp - sizeof(long) && !e)
			e = x;
		else if (x->sp < sp - sizeof(long))
			x->task = NULL;
	}
	raw_spin_unlock_irqrestore(&t->lock, flags);
	return e;
}

static void entry_put(struct stp_uentry *e)
{
	smp_store_release(&e->task, NULL);
}

/*
 * process(PID) probes fire in that process.  With a -c/-x target, the
 * others fire only in the target's tree: SystemTap 4.8 ignores a hit by
 * a process outside it (say, one started by system()), and fires a
 * .library(...) probe in a child that execs another program mapping the
 * library.  Without a target, a .library(...) probe fires in the
 * processes running its program (the library's inode is shared).
 */
static bool wanted(const struct stp_uprobe *u)
{
	if (u->pid)
		return task_tgid_nr(current) == u->pid;
	if (_stp_target_pid())
		return _stp_in_target_tree(current);
	return !u->exe_inode || _stp_current_runs(u->exe_inode);
}

static int uprobe_hit(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct stp_uprobe *u = container_of(uc, struct stp_uconsumer, uc)->u;
	struct stp_hit h = { .uprobe = u };

	if (!wanted(u))
		return 0;
	if (u->flags & STP_UPROBE_RETURN) {
		/* The entry of a .return probe that reads @entry values. */
		struct stp_uentry *e = entry_get(u->entries, user_stack_pointer(regs));

		if (!e) {
			_stp_count_skip();
			return 0;
		}
		memset(e->slots, 0, u->nslots * sizeof(int64_t));
		h.entry_slots = e->slots;
		h.fn = u->entry;
		if (_stp_run_probe_hit(u->probe, regs, &h))
			entry_put(e);	/* failed or skipped: no return hit */
		return 0;
	}
	_stp_run_probe_hit(u->probe, regs, &h);
	return 0;
}

static int uretprobe_hit(struct uprobe_consumer *uc, unsigned long func,
			 struct pt_regs *regs)
{
	struct stp_uprobe *u = container_of(uc, struct stp_uconsumer, uc)->u;
	struct stp_hit h = { .uprobe = u, .ret_from = func };
	struct stp_uentry *e = NULL;

	if (!wanted(u))
		return 0;
	if (u->entries) {
		e = entry_find(u->entries, user_stack_pointer(regs));
		if (!e)
			return 0;	/* its entry was skipped */
		h.entry_slots = e->slots;
	}
	_stp_run_probe_hit(u->probe, regs, &h);
	if (e)
		entry_put(e);
	return 0;
}

static int register_one(struct stp_uprobe *u)
{
	struct stp_uconsumer *sc;
	struct path path;
	int rc;

	if (u->exe) {
		rc = kern_path(u->exe, LOOKUP_FOLLOW, &path);
		if (rc)
			return rc;
		u->exe_inode = igrab(d_inode(path.dentry));
		path_put(&path);
		if (!u->exe_inode)
			return -ENOENT;
	}
	rc = kern_path(u->path, LOOKUP_FOLLOW, &path);
	if (rc)
		goto fail;
	u->inode = igrab(d_inode(path.dentry));
	path_put(&path);
	if (!u->inode) {
		rc = -ENOENT;
		goto fail;
	}
	sc = kzalloc(sizeof(*sc), GFP_KERNEL);
	if (!sc) {
		rc = -ENOMEM;
		goto fail;
	}
	sc->u = u;
	if (u->flags & STP_UPROBE_RETURN) {
		sc->uc.ret_handler = uretprobe_hit;
		if (u->nslots) {
			u->entries = entries_alloc(u->nslots);
			if (!u->entries) {
				kfree(sc);
				rc = -ENOMEM;
				goto fail;
			}
			sc->uc.handler = uprobe_hit;
		}
	} else {
		sc->uc.handler = uprobe_hit;
	}
#ifdef STAPCONF_UPROBE_UNREGISTER_NOSYNC
	{
		struct uprobe *up = uprobe_register(u->inode, u->offset, u->sem_offset,
						    &sc->uc);

		rc = IS_ERR(up) ? PTR_ERR(up) : 0;
		u->handle = IS_ERR(up) ? NULL : up;
	}
#else
	rc = uprobe_register_refctr(u->inode, u->offset, u->sem_offset, &sc->uc);
#endif
	if (rc) {
		kfree(sc);
		kvfree(u->entries);
		u->entries = NULL;
		goto fail;
	}
	u->uc = &sc->uc;
	u->registered = true;
	return 0;
fail:
	iput(u->inode);
	u->inode = NULL;
	iput(u->exe_inode);
	u->exe_inode = NULL;
	return rc;
}

static const char *errno_text(int err)
{
	switch (-err) {
	case ENOENT:	return "no such file on this machine";
	case EINVAL:	return "the kernel does not allow a uprobe there "
			       "(not an instruction, or not in a file mapping)";
	case ENOTSUPP:
	case EOPNOTSUPP: return "the kernel cannot probe that instruction";
	case ENOMEM:	return "out of memory";
	default:	return "see the kernel log";
	}
}

static void report_failure(const struct stp_uprobe *u, int rc, bool warn)
{
	const char *what = u->flags & STP_UPROBE_RETURN ? "uretprobe" : "uprobe";

	if (warn)
		_stp_warn("%s at %s: skipped a %s on %s+0x%llx: %s (%d)", u->probe->pp,
			  u->probe->loc, what, u->path, (unsigned long long)u->offset,
			  errno_text(rc), rc);
	else
		_stp_ctl_sendf(STP_CTL_ERROR, "%s at %s: cannot register a %s on %s+0x%llx: "
			       "%s (%d)", u->probe->pp, u->probe->loc, what, u->path,
			       (unsigned long long)u->offset, errno_text(rc), rc);
}

/* Does the point whose entries start at ups[first] have a semaphore? */
static bool group_has_sem(const struct stp_uprobe *ups, size_t n, size_t first, size_t *end)
{
	bool sem = false;
	size_t i;

	for (i = first; i < n && ups[i].group == ups[first].group; i++)
		sem |= ups[i].sem_offset != 0;
	*end = i;
	return sem;
}

/*
 * Register the points without semaphores (late: those with one), a point
 * at a time; a point fails when none of its entries registers, or an
 * entry that is not optional or a wildcard's does not.
 */
static int start_points(struct stp_uprobe *ups, size_t n, bool late)
{
	size_t i, first, end;

	for (first = 0; first < n; first = i) {
		const struct stp_uprobe *refused = NULL;
		size_t nok = 0;
		int refused_rc = 0;

		if (group_has_sem(ups, n, first, &end) != late) {
			i = end;
			continue;
		}
		for (i = first; i < end; i++) {
			struct stp_uprobe *u = &ups[i];
			int rc;

			cond_resched();
			if (u->registered) {
				nok++;
				continue;
			}
			/* A point's entries share its pid: checked at the first. */
			if (u->pid && i == first) {
				rc = _stp_check_pid(u->probe, u->pid);
				if (rc) {
					_stp_uprobes_stop(ups, n);
					return rc;
				}
			}
			rc = register_one(u);
			if (!rc) {
				nok++;
				continue;
			}
			if (!(u->flags & (STP_UPROBE_OPTIONAL | STP_UPROBE_WILDCARD))) {
				report_failure(u, rc, false);
				_stp_uprobes_stop(ups, n);
				return rc;
			}
			if (!refused) {
				refused = u;
				refused_rc = rc;
			}
		}
		if (!refused || (refused->flags & STP_UPROBE_OPTIONAL))
			continue;
		/* A wildcard's instructions uprobes cannot take: not worth a word. */
		if (nok && refused_rc == -ENOTSUPP)
			continue;
		report_failure(refused, refused_rc, nok > 0);
		if (!nok) {
			_stp_uprobes_stop(ups, n);
			return refused_rc;
		}
	}
	return 0;
}

/*
 * SDT markers with a semaphore register only once the session runs
 * (_stp_uprobes_live), since registering raises the semaphore: a program
 * that sees it raised and fires its marker at once would otherwise hit
 * while the session is still starting, when hits are dropped.
 */
static struct stp_uprobe *live_ups;
static size_t live_n;

int _stp_uprobes_start(struct stp_uprobe *ups, size_t n)
{
	live_ups = ups;
	live_n = n;
	return start_points(ups, n, false);
}

int _stp_uprobes_live(void)
{
	return live_n ? start_points(live_ups, live_n, true) : 0;
}

void _stp_uprobes_stop(struct stp_uprobe *ups, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct stp_uprobe *u = &ups[i];

		if (!u->registered)
			continue;
#ifdef STAPCONF_UPROBE_UNREGISTER_NOSYNC
		uprobe_unregister_nosync(u->handle, u->uc);
#else
		uprobe_unregister(u->inode, u->offset, u->uc);
#endif
	}
#ifdef STAPCONF_UPROBE_UNREGISTER_NOSYNC
	uprobe_unregister_sync();
#endif
	for (i = 0; i < n; i++) {
		struct stp_uprobe *u = &ups[i];

		if (!u->registered)
			continue;
		kfree(container_of(u->uc, struct stp_uconsumer, uc));
		kvfree(u->entries);
		u->entries = NULL;
		iput(u->inode);
		iput(u->exe_inode);
		u->uc = NULL;
		u->inode = NULL;
		u->exe_inode = NULL;
		u->handle = NULL;
		u->registered = false;
	}
}

#else /* !CONFIG_UPROBES */

int _stp_uprobes_start(struct stp_uprobe *ups, size_t n)
{
	if (n)
		_stp_ctl_sendf(STP_CTL_ERROR, "%s at %s: this kernel has no uprobes "
			       "(CONFIG_UPROBES)", ups[0].probe->pp, ups[0].probe->loc);
	return n ? -EOPNOTSUPP : 0;
}

void _stp_uprobes_stop(struct stp_uprobe *ups, size_t n)
{
}

int _stp_uprobes_live(void)
{
	return 0;
}

#endif /* CONFIG_UPROBES */

/* ---- SDT marker arguments ---- */

static unsigned long reg_at(struct pt_regs *regs, s16 off)
{
	return *(unsigned long *)((char *)regs + off);
}

int64_t _stp_sdt_arg(struct stp_context *c, int i)
{
	const struct stp_uprobe *u = c->uprobe;
	const struct stp_sdt_arg *a;
	union { u8 b; u16 h; u32 w; u64 q; } v = { .q = 0 };
	unsigned long addr;
	int size;

	if (!u || i < 1 || i > u->nargs || !c->regs) {
		_stp_error(c, "SDT argument %d does not exist", i);
		return 0;
	}
	a = &u->args[i - 1];
	size = a->size < 0 ? -a->size : a->size;
	switch (a->kind) {
	case STP_SDT_CONST:
		return a->value;
	case STP_SDT_REG:
		v.q = reg_at(c->regs, a->base);
		break;
	default:
		if (a->kind == STP_SDT_MEM_LINK)	/* link-time address + load bias */
			addr = a->value + (instruction_pointer(c->regs) - u->vaddr);
		else
			addr = a->value + (a->base >= 0 ? reg_at(c->regs, a->base) : 0) +
			       (a->index >= 0 ? reg_at(c->regs, a->index) * a->scale : 0);
		if (size > 8 || _stp_read_mem(c, &v, addr, size, true))
			return 0;
		break;
	}
	switch (a->size) {
	case 1:  return v.b;
	case -1: return (s8)v.b;
	case 2:  return v.h;
	case -2: return (s16)v.h;
	case 4:  return v.w;
	case -4: return (s32)v.w;
	default: return (s64)v.q;
	}
}
