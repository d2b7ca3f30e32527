// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The target process: target() in scripts.  staprun passes its pid as the
 * module parameter _stp_target, from -x PID or from the pid of the -c CMD
 * child it forked (and holds) before loading the module.  0: no target.
 */
#include <linux/cred.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
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
