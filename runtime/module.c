// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Module load/unload and the session state machine.
 *
 * The session goes STOPPED -> STARTING (begin probes) -> RUNNING ->
 * STOPPING (end probes) -> STOPPED, once per module load.  START and EXIT
 * arrive from staprun through ctl.c; EXIT may also come from .cmd being
 * released or from module unload, so stopping is idempotent.
 */
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include "stp_internal.h"
#include "stp_tapset.h"

struct dentry *_stp_debugfs_dir;

/*
 * Weak: the module links the runtime from an archive, taking only the
 * objects its script refers to (translator/build.c).  These references
 * alone must not pull in the user-space symbol tables and uprobes: a
 * script that uses either refers to them itself, and then they are
 * here; otherwise they are NULL and there is nothing to start.
 */
extern int _stp_usyms_start(void) __weak;
extern void _stp_usyms_stop(void) __weak;
extern int _stp_uprobes_live(void) __weak;
/*
 * Likewise the -c/-x target's tree (target_tree.c, on the fork
 * tracepoint): linked only where something reads it.
 */
extern int _stp_target_set_start(void) __weak;
extern void _stp_target_set_stop(void) __weak;

static int usyms_start(void)
{
	return _stp_usyms_start ? _stp_usyms_start() : 0;
}

static void usyms_stop(void)
{
	if (_stp_usyms_stop)
		_stp_usyms_stop();
}

static int target_set_start(void)
{
	return _stp_target_set_start ? _stp_target_set_start() : 0;
}

static void target_set_stop(void)
{
	if (_stp_target_set_stop)
		_stp_target_set_stop();
}

static DEFINE_MUTEX(session_mutex);
static bool session_started;	/* START was handled (once per load) */
static bool session_active;	/* stp_session_start succeeded, not stopped */

static void send_status(u32 type, int status)
{
	struct stp_ctl_status st = {
		.status = status,
		.errors = atomic_read(&_stp_error_count),
		.skipped = atomic_read(&_stp_skip_count),
		.lost_bytes = _stp_relay_lost(),
		.transport_failures = _stp_relay_failures(),
		.bufsize_mb = _stp_relay_bufsize_mb(),
	};

	_stp_ctl_send(type, &st, sizeof(st));
	_stp_ctl_wake();
}

/*
 * Undo what the families that did start registered; with the state
 * STOPPED no end probe runs.  Their stop code is idempotent and copes
 * with a partial start.
 */
static void session_undo(void)
{
	atomic_set(&_stp_state, STP_SESSION_STOPPED);
	stp_session_stop();
	usyms_stop();
	target_set_stop();
	_stp_relay_flush();
}

void _stp_session_start_cmd(void)
{
	int ret;

	mutex_lock(&session_mutex);
	if (session_started) {
		/* A module runs one session; reload it for another. */
		mutex_unlock(&session_mutex);
		send_status(STP_CTL_STARTED, -EALREADY);
		return;
	}
	session_started = true;
	_stp_stats_reset();
	atomic_set(&_stp_state, STP_SESSION_STARTING);
	ret = usyms_start();
	if (!ret)
		ret = target_set_start();
	if (!ret)
		ret = stp_session_start();
	if (!ret) {
		/* A begin probe's error or exit() decided the state already. */
		atomic_cmpxchg(&_stp_state, STP_SESSION_STARTING,
			       atomic_read(&_stp_exit_flag) ? STP_SESSION_STOPPING :
			       STP_SESSION_RUNNING);
		/* SDT semaphores go up only once hits run (runtime/uprobe.c). */
		if (atomic_read(&_stp_state) == STP_SESSION_RUNNING &&
		    _stp_uprobes_live)
			ret = _stp_uprobes_live();
	}
	if (ret)
		session_undo();
	else
		session_active = true;
	mutex_unlock(&session_mutex);
	send_status(STP_CTL_STARTED, ret);
}

/*
 * staprun -A: a session still running answers STARTED {0}; one that ended
 * while no staprun was attached (staprun killed, or exit() with the
 * reader detached) answers EXIT_DONE, so the attacher drains what is
 * left and unloads; a module never started answers STARTED {-ESRCH}.
 */
void _stp_session_attach_cmd(void)
{
	bool started, active;

	mutex_lock(&session_mutex);
	started = session_started;
	active = session_active;
	mutex_unlock(&session_mutex);
	if (active)
		send_status(STP_CTL_STARTED, 0);
	else if (started)
		send_status(STP_CTL_EXIT_DONE, _stp_session_failed() ? 1 : 0);
	else
		send_status(STP_CTL_STARTED, -ESRCH);
}

void _stp_session_stop_cmd(bool reply)
{
	mutex_lock(&session_mutex);
	if (session_active) {
		/* After an error shutdown, error probes run instead of end ones. */
		if (atomic_read(&_stp_state) != STP_SESSION_ERROR)
			atomic_set(&_stp_state, STP_SESSION_STOPPING);
		stp_session_stop();
		usyms_stop();
		target_set_stop();
		atomic_set(&_stp_state, STP_SESSION_STOPPED);
		session_active = false;
		/* Push the last partial sub-buffer out to the reader. */
		_stp_relay_flush();
	}
	mutex_unlock(&session_mutex);
	if (reply) {
		_stp_ctl_report_dropped();
		send_status(STP_CTL_EXIT_DONE, _stp_session_failed() ? 1 : 0);
	}
}

/* systemtap/ is shared by all loaded probe modules and never removed. */
static struct dentry *get_top_dir(void)
{
	struct dentry *top = debugfs_lookup(STP_CTL_DEBUGFS_DIR, NULL);

	if (top)
		return top;
	top = debugfs_create_dir(STP_CTL_DEBUGFS_DIR, NULL);
	if (IS_ERR(top))	/* lost a race with another module? */
		top = debugfs_lookup(STP_CTL_DEBUGFS_DIR, NULL);
	else
		dget(top);	/* same reference count as debugfs_lookup */
	return IS_ERR_OR_NULL(top) ? NULL : top;
}

static int __init _stp_module_init(void)
{
	struct dentry *top;
	int ret;

	top = get_top_dir();
	if (!top) {
		pr_err("%s: cannot create debugfs directory %s (is debugfs available?)\n",
		       THIS_MODULE->name, STP_CTL_DEBUGFS_DIR);
		return -ENODEV;
	}
	_stp_debugfs_dir = debugfs_create_dir(THIS_MODULE->name, top);
	dput(top);
	if (IS_ERR(_stp_debugfs_dir)) {
		ret = PTR_ERR(_stp_debugfs_dir);
		pr_err("%s: cannot create debugfs directory: %d\n",
		       THIS_MODULE->name, ret);
		return ret;
	}

	ret = _stp_namespaces_init();
	if (ret)
		goto out_dir;
	ret = _stp_context_init();
	if (ret)
		goto out_ns;
	ret = _stp_relay_init();
	if (ret)
		goto out_context;
	ret = stp_script_init();
	if (ret)
		goto out_relay;
	/* Last: once .cmd exists, staprun may START. */
	ret = _stp_ctl_init();
	if (ret)
		goto out_script;
	return 0;

out_script:
	stp_script_exit();
out_relay:
	_stp_relay_exit();
out_context:
	_stp_context_exit();
out_ns:
	_stp_namespaces_exit();
out_dir:
	debugfs_remove(_stp_debugfs_dir);
	return ret;
}

static void __exit _stp_module_exit(void)
{
	/*
	 * An open .cmd pins the module, so the session is normally stopped
	 * already; this covers a module that was started some other way.
	 */
	_stp_session_stop_cmd(false);
	_stp_ctl_exit();
	stp_script_exit();
	_stp_relay_exit();
	_stp_context_exit();
	_stp_namespaces_exit();
	debugfs_remove(_stp_debugfs_dir);
}

module_init(_stp_module_init);
module_exit(_stp_module_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("SystemTap-compatible probe module");
