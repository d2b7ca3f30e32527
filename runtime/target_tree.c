// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The -c/-x target's process tree, for what asks whether a process is in
 * it: process and uprobe probes under a target (utask.c, uprobe.c) and
 * target_set_pid()/target_set_report().  An archive member of its own
 * (translator/build.c), so only modules referring to one of those link
 * it, and with it tracepoint.c; module.c starts and stops it through
 * weak references, so a module without it registers no tracepoint.
 */
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/threads.h>
#include "stp_internal.h"

/*
 * The target's tree: the target and every process forked in it since it
 * became the target, wherever its parent is now.  SystemTap 4.8 follows
 * forks so: a process whose parent exits, reparented to init, stays in
 * the tree for process probes and target_set_pid() (run/upid_orphan).
 * A bit per pid (PID_MAX_LIMIT bits, 512 KiB on x86-64) set or cleared
 * for every new process at fork, so a reused pid starts afresh, with no
 * table to fill or lock in the fork path.
 */
static unsigned long *ts_bits;

static void ts_fork(void *data, struct task_struct *parent, struct task_struct *child)
{
	pid_t pid = child->tgid;

	if (pid == parent->tgid || pid < 0 || pid >= PID_MAX_LIMIT)
		return;		/* a thread: its process's membership */
	if (test_bit(parent->tgid, ts_bits))
		set_bit(pid, ts_bits);
	else
		clear_bit(pid, ts_bits);
}

static const struct stp_probe ts_probe = { .pp = "target()", .loc = "" };
static struct stp_tracepoint ts_tp = {
	.probe = &ts_probe, .name = "sched_process_fork", .fn = ts_fork, .nr = -1,
};

/* Is t (current, or one under RCU) in the target's tree? */
bool _stp_in_target_tree(struct task_struct *t)
{
	pid_t pid = t->tgid;

	return ts_bits && pid > 0 && pid < PID_MAX_LIMIT && test_bit(pid, ts_bits);
}

/*
 * target_set_pid(): is pid (a process id) in the target's tree and not
 * exiting?  SystemTap 4.8 forgets a process as its .end probes run.
 */
bool _stp_target_set_has(int64_t pid)
{
	struct task_struct *t;
	bool in;

	if (pid <= 0 || pid >= PID_MAX_LIMIT)
		return false;
	rcu_read_lock();
	t = pid_task(find_vpid((pid_t)pid), PIDTYPE_PID);
	in = t && _stp_in_target_tree(t) && atomic_read(&t->signal->live) > 0;
	rcu_read_unlock();
	return in;
}

/*
 * target_set_report(): "target set:", then "PARENT begat PID" for each
 * live process of the target's tree but the target, by pid.  PARENT is
 * its parent now (SystemTap 4.8 keeps the one it had at its fork).
 */
void _stp_target_set_report(struct stp_context *c)
{
	pid_t target = _stp_target_pid();
	unsigned long pid;

	_stp_print(c, "target set:\n");
	if (!ts_bits)
		return;
	rcu_read_lock();
	for_each_set_bit(pid, ts_bits, PID_MAX_LIMIT) {
		struct task_struct *t;

		if (pid == target)
			continue;
		t = pid_task(find_vpid((pid_t)pid), PIDTYPE_PID);
		if (!t || atomic_read(&t->signal->live) <= 0)
			continue;
		_stp_printf(c, "%d begat %d\n", task_tgid_vnr(rcu_dereference(t->real_parent)),
			    (int)pid);
	}
	rcu_read_unlock();
}

/* Follow the target's forks from now: it and its descendants so far. */
int _stp_target_set_start(void)
{
	pid_t target = _stp_target_pid();
	struct task_struct *p, *a;
	int rc;

	if (!target)
		return 0;
	ts_bits = kvzalloc(BITS_TO_LONGS(PID_MAX_LIMIT) * sizeof(long), GFP_KERNEL);
	if (!ts_bits)
		return -ENOMEM;
	_stp_alloc_note(BITS_TO_LONGS(PID_MAX_LIMIT) * sizeof(long));
	/* Forks from here on are seen: none slips between the walk and them. */
	rc = _stp_tracepoints_start(&ts_tp, 1);
	if (rc) {
		_stp_target_set_stop();
		return rc;
	}
	rcu_read_lock();
	for_each_process(p)
		for (a = p; a->pid > 1; a = rcu_dereference(a->real_parent))
			if (a->tgid == target) {
				set_bit(p->tgid, ts_bits);
				break;
			}
	rcu_read_unlock();
	return 0;
}

void _stp_target_set_stop(void)
{
	_stp_tracepoints_stop(&ts_tp, 1);
	kvfree(ts_bits);
	ts_bits = NULL;
}
