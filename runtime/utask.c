// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Process and thread events (translator/probes/utask.c): process.begin,
 * .end, .thread.begin, .thread.end, .syscall and .syscall.return, for
 * every process, one named by path or pid, or the -c/-x target and its
 * descendants.
 *
 * Built on scheduler and system-call tracepoints, with handlers run in
 * the context of the task concerned, as the probes' functions (pid(),
 * execname(), user memory) expect:
 *
 *  - exec (sched_process_exec, in the task): the process ends running
 *    its old program and begins running the new one: .end for the
 *    probes it matched, then .begin for those it matches now.
 *  - fork/clone (sched_process_fork, in the parent): the child is noted
 *    as "new", and its .begin or .thread.begin runs at its first return
 *    to user space, the system call exit of the fork in the child
 *    (raw_syscalls:sys_exit, which the kernel traces in every task once
 *    a probe is registered on it).  Processes that exist when the script
 *    starts are noted the same way, so each gets its .begin from its own
 *    context, the next time it leaves a system call.
 *  - exit (sched_process_exit, in the exiting thread, after its memory
 *    is gone): .thread.end, and .end when it is the last thread.
 *    A probe naming a program matches an exiting process through a
 *    table of processes that began running it, as its memory map can no
 *    longer tell.
 *  - .syscall/.syscall.return: raw_syscalls:sys_enter/sys_exit.
 *
 * One table (a hash of pids, preallocated at start and sized by the
 * number of tasks) holds both the "new" marks and the program matches.
 * When it is full, a new task is not noted: its .begin is skipped and
 * counted as a skipped probe.
 */
#include <linux/binfmts.h>
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/namei.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <asm/syscall.h>
#include "stp_internal.h"

/* ---- the pid table ---- */

#define UT_NEW_PROCESS	0x1	/* .begin pending at the first return to user */
#define UT_NEW_THREAD	0x2	/* .thread.begin pending */
#define UT_NEW		(UT_NEW_PROCESS | UT_NEW_THREAD)
#define UT_ENDED	0x4	/* the process's .end ran (its threads may still exit) */

struct ut_slot {
	pid_t pid;		/* 0: free; -1: deleted */
	u8 flags;		/* UT_NEW_* */
	u64 matched;		/* bit i: runs utasks[i].path (an end probe's) */
};

static struct ut_slot *ut_table;
static unsigned int ut_size;	/* a power of two */
static atomic_t ut_pending = ATOMIC_INIT(0);	/* slots with UT_NEW_* set */
static DEFINE_RAW_SPINLOCK(ut_lock);

static struct stp_utask *ut_probes;
static size_t ut_nprobes;
static bool ut_any_path_end;	/* some .end/.thread.end probe names a program */

/* The slot of pid (existing, or the free one to use if create); NULL. */
static struct ut_slot *ut_slot(pid_t pid, bool create)
{
	unsigned int i, h = hash_32(pid, ilog2(ut_size));
	struct ut_slot *tomb = NULL;

	for (i = 0; i < ut_size; i++) {
		struct ut_slot *s = &ut_table[(h + i) & (ut_size - 1)];

		if (s->pid == pid)
			return s;
		if (s->pid == -1 && !tomb)
			tomb = s;
		if (!s->pid) {
			if (!create)
				return NULL;
			return tomb ? tomb : s;
		}
	}
	return create ? tomb : NULL;
}

static void ut_drop(struct ut_slot *s)
{
	if (s->flags & UT_NEW)
		atomic_dec(&ut_pending);
	s->pid = -1;
	s->flags = 0;
	s->matched = 0;
}

/* Note flags (UT_NEW_*) and matches for pid; false if the table is full. */
static bool ut_note(pid_t pid, u8 flags, u64 matched)
{
	unsigned long irqf;
	struct ut_slot *s;
	bool ok = false;

	raw_spin_lock_irqsave(&ut_lock, irqf);
	s = ut_slot(pid, true);
	if (s) {
		/* A new task with a reused pid starts afresh. */
		if (s->pid != pid || (flags & UT_NEW_PROCESS)) {
			if (s->pid == pid && (s->flags & UT_NEW))
				atomic_dec(&ut_pending);
			s->pid = pid;
			s->flags = 0;
			s->matched = 0;
		}
		if ((flags & UT_NEW) && !(s->flags & UT_NEW))
			atomic_inc(&ut_pending);
		s->flags |= flags;
		s->matched |= matched;
		ok = true;
	}
	raw_spin_unlock_irqrestore(&ut_lock, irqf);
	return ok;
}

/* Take pid's pending UT_NEW_* flags (and forget the slot if drop). */
static u8 ut_take(pid_t pid, u64 *matched, bool drop)
{
	unsigned long irqf;
	struct ut_slot *s;
	u8 flags = 0;

	raw_spin_lock_irqsave(&ut_lock, irqf);
	s = ut_slot(pid, false);
	if (s) {
		flags = s->flags & UT_NEW;
		if (matched)
			*matched = s->matched;
		if (flags)
			atomic_dec(&ut_pending);
		s->flags &= ~UT_NEW;
		if (drop) {
			s->pid = -1;
			s->matched = 0;
		}
	}
	raw_spin_unlock_irqrestore(&ut_lock, irqf);
	return flags;
}

/* ---- matching ---- */

/* Is current's program (its mm's exe file) inode? */
bool _stp_current_runs(const struct inode *inode)
{
	struct mm_struct *mm = current->mm;
	struct file *exe;
	bool same = false;

	if (!mm || (current->flags & PF_KTHREAD))
		return false;
	rcu_read_lock();
	exe = rcu_dereference(mm->exe_file);
	same = exe && file_inode(exe) == inode;
	rcu_read_unlock();
	return same;
}

static bool runs_program(const struct stp_utask *u)
{
	return _stp_current_runs(u->inode);
}

/* Does probe u apply to current?  matched: the table's bits, -1: read mm. */
static bool applies(const struct stp_utask *u, size_t i, u64 matched, bool use_mm)
{
	if (current->flags & PF_KTHREAD)
		return false;
	if (u->pid)
		return current->tgid == u->pid;
	if (u->inode && !(use_mm ? runs_program(u) : !!(matched & BIT_ULL(i))))
		return false;
	/*
	 * With -c/-x (staprun passes the target), only the target's tree,
	 * for process("PATH") probes too: SystemTap 4.8 ignores the program
	 * started outside it.
	 */
	if ((u->flags & STP_UTASK_TARGET) || _stp_target_pid())
		return _stp_in_target_tree(current);
	return true;
}

/*
 * The probes for any process first, then those naming a program or pid
 * (SystemTap 4.8's order in most runs; it varies there).
 */
static void run_kind(u8 kind, u64 matched, bool use_mm, struct pt_regs *regs,
		     const unsigned long *args)
{
	struct stp_hit h = { .args = args };
	size_t i;
	int pass;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < ut_nprobes; i++) {
			const struct stp_utask *u = &ut_probes[i];
			bool named = u->inode || u->pid;

			if (u->kind == kind && named == pass && applies(u, i, matched, use_mm))
				_stp_run_probe_hit(u->probe, regs, &h);
		}
}

/* The bits of the program-naming probes current matches now. */
static u64 program_bits(void)
{
	u64 bits = 0;
	size_t i;

	for (i = 0; i < ut_nprobes && i < 64; i++)
		if (ut_probes[i].inode && runs_program(&ut_probes[i]))
			bits |= BIT_ULL(i);
	return bits;
}

/* ---- tracepoint callbacks ---- */

static void ut_fork(void *data, struct task_struct *parent, struct task_struct *child)
{
	u8 flags = child->tgid == parent->tgid ? UT_NEW_THREAD : UT_NEW_PROCESS;
	u64 bits = 0;

	if (ut_any_path_end)
		ut_take(parent->tgid, &bits, false);	/* a child runs its parent's program */
	if (!ut_note(child->pid, flags, bits))
		_stp_count_skip();
	if (flags == UT_NEW_THREAD && bits)
		ut_note(child->tgid, 0, bits);
}

/* The program matches of process tgid; forget the process if drop. */
static u64 ut_matches(pid_t tgid, bool drop)
{
	unsigned long irqf;
	struct ut_slot *s;
	u64 bits = 0;

	raw_spin_lock_irqsave(&ut_lock, irqf);
	s = ut_slot(tgid, false);
	if (s) {
		bits = s->matched;
		if (drop)
			ut_drop(s);
	}
	raw_spin_unlock_irqrestore(&ut_lock, irqf);
	return bits;
}

/*
 * Claim the end of process tgid: true for the first caller.  Two of its
 * threads may both see no live thread left (the last to leave does not
 * always reach the exit tracepoint last); its .end runs once.
 */
static bool ut_claim_end(pid_t tgid)
{
	unsigned long irqf;
	struct ut_slot *s;
	bool first = false;

	raw_spin_lock_irqsave(&ut_lock, irqf);
	s = ut_slot(tgid, true);
	if (s) {
		if (s->pid != tgid) {
			s->pid = tgid;
			s->flags = 0;
			s->matched = 0;
		}
		first = !(s->flags & UT_ENDED);
		s->flags |= UT_ENDED;
	} else {
		first = true;	/* full: better twice than never */
	}
	raw_spin_unlock_irqrestore(&ut_lock, irqf);
	return first;
}

/*
 * exec: the old program's process ends and the new one's begins, as
 * SystemTap has it (both in the task's context, after the exec).
 */
static void ut_exec(void *data, struct task_struct *p, pid_t old_pid,
		    struct linux_binprm *bprm)
{
	struct pt_regs *regs = task_pt_regs(current);
	u64 bits = ut_matches(current->tgid, true);

	run_kind(STP_UTASK_END, bits, false, regs, NULL);
	/* A .begin still pending (a process that never left a system call) is this one. */
	ut_take(current->pid, NULL, true);
	if (old_pid != current->pid)
		ut_take(old_pid, NULL, true);
	bits = program_bits();
	if (bits && !ut_note(current->tgid, 0, bits))
		_stp_count_skip();
	run_kind(STP_UTASK_BEGIN, bits, true, regs, NULL);
}

static void ut_exit(void *data, struct task_struct *p)
{
	bool last = atomic_read(&current->signal->live) == 0;
	u64 bits = 0;

	if (current->flags & PF_KTHREAD)
		return;
	/* A thread that never left its first system call: no .begin now. */
	if (current->pid != current->tgid)
		ut_take(current->pid, NULL, true);
	if (ut_any_path_end)
		bits = ut_matches(current->tgid, false);
	/* The main thread's end is the process's, not a thread's. */
	if (current->pid != current->tgid)
		run_kind(STP_UTASK_THREAD_END, bits, false, NULL, NULL);
	if (last && ut_claim_end(current->tgid))
		run_kind(STP_UTASK_END, bits, false, NULL, NULL);
}

static void ut_sys_enter(void *data, struct pt_regs *regs, long id)
{
	unsigned long args[7];

	args[0] = id;
	syscall_get_arguments(current, regs, args + 1);
	run_kind(STP_UTASK_SYSCALL, 0, true, regs, args);
}

static void ut_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	unsigned long args[2];
	u8 flags;

	if (atomic_read(&ut_pending) && (flags = ut_take(current->pid, NULL, false))) {
		if (flags & UT_NEW_PROCESS)
			run_kind(STP_UTASK_BEGIN, 0, true, regs, NULL);
		if (flags & UT_NEW_THREAD)
			run_kind(STP_UTASK_THREAD_BEGIN, 0, true, regs, NULL);
	}
	args[0] = syscall_get_nr(current, regs);
	args[1] = ret;
	run_kind(STP_UTASK_SYSCALL_RETURN, 0, true, regs, args);
}

/* ---- start and stop ---- */

static const struct stp_probe ut_probe = { .pp = "process", .loc = "" };

static struct stp_tracepoint ut_tps[] = {
	{ .probe = &ut_probe, .name = "sched_process_fork", .fn = ut_fork, .nr = -1 },
	{ .probe = &ut_probe, .name = "sched_process_exec", .fn = ut_exec, .nr = -1 },
	{ .probe = &ut_probe, .name = "sched_process_exit", .fn = ut_exit, .nr = -1 },
	{ .probe = &ut_probe, .name = "sys_enter", .fn = ut_sys_enter, .nr = -1 },
	{ .probe = &ut_probe, .name = "sys_exit", .fn = ut_sys_exit, .nr = -1 },
};

static unsigned int count_tasks(void)
{
	struct task_struct *g, *t;
	unsigned int n = 0;

	rcu_read_lock();
	for_each_process_thread(g, t)
		n++;
	rcu_read_unlock();
	return n;
}

/* Which probe kinds need each of ut_tps (BIT(STP_UTASK_NKINDS): a program's end). */
static const unsigned int ut_tps_kinds[] = {
	BIT(STP_UTASK_BEGIN) | BIT(STP_UTASK_THREAD_BEGIN) | BIT(STP_UTASK_NKINDS),
	BIT(STP_UTASK_BEGIN) | BIT(STP_UTASK_END) | BIT(STP_UTASK_NKINDS),
	BIT(STP_UTASK_END) | BIT(STP_UTASK_THREAD_END),
	BIT(STP_UTASK_SYSCALL),
	BIT(STP_UTASK_BEGIN) | BIT(STP_UTASK_THREAD_BEGIN) | BIT(STP_UTASK_SYSCALL_RETURN),
};

/* Note every existing user process (and thread) for its .begin. */
static void note_existing(bool threads)
{
	struct task_struct *g, *t;

	rcu_read_lock();
	for_each_process_thread(g, t) {
		if (t->flags & PF_KTHREAD || !t->mm)
			continue;
		if (t->pid == t->tgid)
			ut_note(t->pid, UT_NEW_PROCESS, 0);
		else if (threads)
			ut_note(t->pid, UT_NEW_THREAD, 0);
	}
	rcu_read_unlock();
}

/* The program-naming probes' matches of the existing processes. */
static void note_programs(void)
{
	struct task_struct *p;

	rcu_read_lock();
	for_each_process(p) {
		struct mm_struct *mm;
		u64 bits = 0;
		size_t i;

		if (p->flags & PF_KTHREAD)
			continue;
		task_lock(p);
		mm = p->mm;
		if (mm) {
			struct file *exe = rcu_dereference(mm->exe_file);

			for (i = 0; exe && i < ut_nprobes && i < 64; i++)
				if (ut_probes[i].inode == file_inode(exe))
					bits |= BIT_ULL(i);
		}
		task_unlock(p);
		if (bits)
			ut_note(p->tgid, 0, bits);
	}
	rcu_read_unlock();
}

int _stp_utasks_start(struct stp_utask *uts, size_t n)
{
	bool threads = false;
	unsigned int want = 0;
	size_t i;
	int rc;

	ut_probes = uts;
	ut_nprobes = n;
	for (i = 0; i < n; i++) {
		struct stp_utask *u = &uts[i];
		struct path path;

		threads |= u->kind == STP_UTASK_THREAD_BEGIN;
		want |= BIT(u->kind);
		/* A program's .end needs its starts (fork, exec) to be seen. */
		if (u->path && (u->kind == STP_UTASK_END || u->kind == STP_UTASK_THREAD_END))
			want |= BIT(STP_UTASK_NKINDS);
		if (u->pid) {
			rc = _stp_check_pid(u->probe, u->pid);
			if (rc)
				goto fail;
		}
		if (!u->path)
			continue;
		if (i >= 64) {
			_stp_ctl_sendf(STP_CTL_ERROR, "%s at %s: more than 64 process probes "
				       "name a program", u->probe->pp, u->probe->loc);
			rc = -E2BIG;
			goto fail;
		}
		rc = kern_path(u->path, LOOKUP_FOLLOW, &path);
		if (rc) {
			_stp_ctl_sendf(STP_CTL_ERROR, "%s at %s: cannot find %s on this "
				       "machine (%d)", u->probe->pp, u->probe->loc, u->path, rc);
			goto fail;
		}
		u->inode = igrab(d_inode(path.dentry));
		path_put(&path);
		ut_any_path_end |= u->kind == STP_UTASK_END || u->kind == STP_UTASK_THREAD_END;
	}
	/* Room for every task now, and as many again started meanwhile. */
	ut_size = roundup_pow_of_two(max(4 * count_tasks(), 4096U));
	ut_table = kvcalloc(ut_size, sizeof(*ut_table), GFP_KERNEL);
	if (!ut_table) {
		rc = -ENOMEM;
		goto fail;
	}
	_stp_alloc_note(ut_size * sizeof(*ut_table));
	if (want & (BIT(STP_UTASK_BEGIN) | BIT(STP_UTASK_THREAD_BEGIN)))
		note_existing(threads);
	if (ut_any_path_end)
		note_programs();
	/* Only the tracepoints these probes need: sys_enter/exit cost every call. */
	for (i = 0; i < ARRAY_SIZE(ut_tps); i++) {
		if (!(ut_tps_kinds[i] & want))
			continue;
		rc = _stp_tracepoints_start(&ut_tps[i], 1);
		if (rc)
			goto fail;
	}
	return 0;
fail:
	_stp_utasks_stop(uts, n);
	return rc;
}

void _stp_utasks_stop(struct stp_utask *uts, size_t n)
{
	size_t i;

	_stp_tracepoints_stop(ut_tps, ARRAY_SIZE(ut_tps));
	for (i = 0; i < n; i++) {
		iput(uts[i].inode);	/* iput(NULL) is a no-op */
		uts[i].inode = NULL;
	}
	kvfree(ut_table);
	ut_table = NULL;
	atomic_set(&ut_pending, 0);
	ut_any_path_end = false;
}

/* $syscall, $argN, $return of a .syscall/.syscall.return hit. */
int64_t _stp_utask_arg(struct stp_context *c, int i)
{
	if (!c->args) {
		_stp_error(c, "no system call values in this probe");
		return 0;
	}
	return (int64_t)c->args[i];
}
