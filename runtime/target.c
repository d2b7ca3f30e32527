// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The target process: target() in scripts.  staprun passes its pid as the
 * module parameter _stp_target, from -x PID or from the pid of the -c CMD
 * child it forked (and holds) before loading the module.  0: no target.
 */
#include <linux/bitmap.h>
#include <linux/cred.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/threads.h>
#include <linux/tracepoint.h>
#include <linux/user_namespace.h>
#include "stp_internal.h"

/* The name is SystemTap's, which staprun(8) documents. */
static int _stp_target;
module_param(_stp_target, int, 0444);
MODULE_PARM_DESC(_stp_target, "pid of the target process (stap -c/-x)");

int64_t _stp_target_pid(void)
{
	return _stp_target;
}

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
	unsigned long pid;

	_stp_print(c, "target set:\n");
	if (!ts_bits)
		return;
	rcu_read_lock();
	for_each_set_bit(pid, ts_bits, PID_MAX_LIMIT) {
		struct task_struct *t;

		if (pid == _stp_target)
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
	struct task_struct *p, *a;
	int rc;

	if (!_stp_target)
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
			if (a->tgid == _stp_target) {
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

/*
 * process(PID) probes: 0 if PID is a live process, else -ESRCH after an
 * error naming the probe.  The translator checked PID where it ran, but
 * the module may run on another machine (a VM) or long after.
 */
int _stp_check_pid(const struct stp_probe *probe, pid_t pid)
{
	struct task_struct *t;
	bool alive;

	rcu_read_lock();
	t = pid_task(find_vpid(pid), PIDTYPE_PID);
	alive = t && t->tgid == pid && !(t->flags & PF_EXITING);
	rcu_read_unlock();
	if (alive)
		return 0;
	_stp_ctl_sendf(STP_CTL_ERROR, "%s at %s: cannot probe pid %d: no such process",
		       probe->pp, probe->loc, pid);
	return -ESRCH;
}

/*
 * staprun -r N:URI: which member of a "stap --remote" swarm this run is
 * (remote_id(), remote_uri()).  -1 and "": not a remote run.
 */
static int _stp_remote_id = -1;
module_param(_stp_remote_id, int, 0444);
MODULE_PARM_DESC(_stp_remote_id, "index of this run among stap --remote hosts");
static char _stp_remote_uri[256];
module_param_string(_stp_remote_uri, _stp_remote_uri, sizeof(_stp_remote_uri), 0444);
MODULE_PARM_DESC(_stp_remote_uri, "the stap --remote host of this run");

int64_t _stp_remote_index(void)
{
	return _stp_remote_id;
}

const char *_stp_remote_host(void)
{
	return _stp_remote_uri;
}

/*
 * staprun -N PID: the namespaces of PID (looked up in staprun's own pid
 * namespace) are the ones the ns_*() functions see.  0: those of the
 * process loading the module, staprun, as "the stap process'
 * namespaces" in stap(1).  References are held for the module's life.
 */
static int _stp_namespaces_pid;
module_param(_stp_namespaces_pid, int, 0444);
MODULE_PARM_DESC(_stp_namespaces_pid, "pid whose namespaces ns_pid() and friends use");

static struct pid_namespace *target_pid_ns;
static struct user_namespace *target_user_ns;

int _stp_namespaces_init(void)
{
	struct task_struct *t = current;

	if (_stp_namespaces_pid) {
		rcu_read_lock();
		t = pid_task(find_vpid(_stp_namespaces_pid), PIDTYPE_PID);
		if (t)
			get_task_struct(t);
		rcu_read_unlock();
		if (!t) {
			pr_err("%s: _stp_namespaces_pid=%d: no such process\n",
			       THIS_MODULE->name, _stp_namespaces_pid);
			return -ESRCH;
		}
	}
	target_pid_ns = get_pid_ns(task_active_pid_ns(t));
	rcu_read_lock();
	target_user_ns = get_user_ns(__task_cred(t)->user_ns);
	rcu_read_unlock();
	if (t != current)
		put_task_struct(t);
	return 0;
}

void _stp_namespaces_exit(void)
{
	if (target_pid_ns)
		put_pid_ns(target_pid_ns);
	if (target_user_ns)
		put_user_ns(target_user_ns);
	target_pid_ns = NULL;
	target_user_ns = NULL;
}

struct pid_namespace *_stp_target_pid_ns(void)
{
	return target_pid_ns;
}

struct user_namespace *_stp_target_user_ns(void)
{
	return target_user_ns;
}
