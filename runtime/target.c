// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The target process: target() in scripts.  staprun passes its pid as the
 * module parameter _stp_target, from -x PID or from the pid of the -c CMD
 * child it forked (and holds) before loading the module.  0: no target.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pid.h>
#include <linux/sched.h>
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
